// --tessel-import-shardy-manual-computations: Shardy's round-trip form of shard_map as a
// tessel.manual_computation (passes.td has the contract).
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/shardy_text.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_IMPORTSHARDYMANUALCOMPUTATIONSPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

constexpr llvm::StringLiteral kFrontendAttrs = "tessel.hlo_frontend_attributes";

bool isCustomCall(mlir::Operation* op, llvm::StringRef target) {
  auto call = llvm::dyn_cast_or_null<hlo::CustomCallOp>(op);
  return call && call.getCallTargetName() == target;
}

// The frontend attribute `name` of `op`, or "".
std::string frontendAttr(mlir::Operation* op, llvm::StringRef name) {
  auto attrs = op->getAttrOfType<mlir::DictionaryAttr>(kFrontendAttrs);
  auto value = attrs ? attrs.getAs<mlir::StringAttr>(name) : nullptr;
  return value ? value.str() : "";
}

// `#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>, ...]>` as Tessel's shardings.
mlir::FailureOr<mlir::ArrayAttr> parseShardings(mlir::MLIRContext* context,
                                                llvm::StringRef text) {
  if (!text.trim().starts_with("#sdy.sharding_per_value<")) return mlir::failure();
  absl::StatusOr<std::vector<ir::ShardingAttr>> shardings = ParseShardyShardings(context, text);
  if (!shardings.ok()) return mlir::failure();
  llvm::SmallVector<mlir::Attribute> attrs(shardings->begin(), shardings->end());
  return mlir::ArrayAttr::get(context, attrs);
}

// `#sdy<manual_axes{"data", "model"}>` as a list of names.
mlir::FailureOr<mlir::ArrayAttr> parseManualAxes(mlir::MLIRContext* context,
                                                 llvm::StringRef text) {
  llvm::StringRef body = text.trim();
  if (!body.consume_front("#sdy<manual_axes{") || !body.consume_back("}>")) {
    return mlir::failure();
  }
  llvm::SmallVector<mlir::Attribute> names;
  llvm::SmallVector<llvm::StringRef> parts;
  body.split(parts, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef part : parts) {
    part = part.trim();
    if (!part.consume_front("\"") || !part.consume_back("\"") || part.empty()) {
      return mlir::failure();
    }
    names.push_back(mlir::StringAttr::get(context, part));
  }
  return mlir::ArrayAttr::get(context, names);
}

mlir::LogicalResult rewrite(hlo::CustomCallOp toLocal, mlir::SymbolTable& symbols) {
  mlir::MLIRContext* context = toLocal.getContext();
  // GlobalToLocalShape -> call @body -> LocalToGlobalShape.
  mlir::func::CallOp call;
  for (mlir::Operation* user : toLocal->getUsers()) {
    auto asCall = llvm::dyn_cast<mlir::func::CallOp>(user);
    if (!asCall || (call && call != asCall)) {
      return toLocal.emitError() << "the local values of a shard_map must all go to one call "
                                    "of its body";
    }
    call = asCall;
  }
  if (!call || call.getOperands() != toLocal->getResults()) {
    return toLocal.emitError() << "the call of a shard_map body must take exactly the local "
                                  "values, in order";
  }
  hlo::CustomCallOp toGlobal;
  for (mlir::Operation* user : call->getUsers()) {
    if (!isCustomCall(user, "xla.sdy.LocalToGlobalShape") || (toGlobal && toGlobal != user)) {
      return toLocal.emitError() << "the results of a shard_map body must all go to one "
                                    "xla.sdy.LocalToGlobalShape";
    }
    toGlobal = llvm::cast<hlo::CustomCallOp>(user);
  }
  if (!toGlobal || toGlobal.getOperands() != call->getResults()) {
    return toLocal.emitError() << "xla.sdy.LocalToGlobalShape must take exactly the body's "
                                  "results, in order";
  }
  auto body = symbols.lookup<mlir::func::FuncOp>(call.getCallee());
  if (!body || body.isExternal()) return call.emitError() << "the shard_map body is missing";
  mlir::FailureOr<mlir::ArrayAttr> in =
      parseShardings(context, frontendAttr(toLocal, "xla.sdy.in_shardings"));
  mlir::FailureOr<mlir::ArrayAttr> out =
      parseShardings(context, frontendAttr(toGlobal, "xla.sdy.out_shardings"));
  mlir::FailureOr<mlir::ArrayAttr> manual =
      parseManualAxes(context, frontendAttr(toLocal, "xla.sdy.manual_axes"));
  if (mlir::failed(in) || mlir::failed(out) || mlir::failed(manual)) {
    return toLocal.emitError() << "a shard_map needs xla.sdy.in_shardings, "
                                  "xla.sdy.out_shardings and xla.sdy.manual_axes in Shardy's "
                                  "syntax";
  }

  mlir::OpBuilder builder(toGlobal);
  auto manualOp = builder.create<ir::ManualComputationOp>(
      toLocal.getLoc(), toGlobal->getResultTypes(), toLocal->getOperands(), *in, *out, *manual);
  mlir::Block* block = builder.createBlock(&manualOp.getBody());
  mlir::IRMapping mapping;
  for (mlir::BlockArgument arg : body.getArguments()) {
    mapping.map(arg, block->addArgument(arg.getType(), arg.getLoc()));
  }
  for (mlir::Operation& op : body.getBody().front()) {
    if (auto ret = llvm::dyn_cast<mlir::func::ReturnOp>(op)) {
      llvm::SmallVector<mlir::Value> values;
      for (mlir::Value v : ret.getOperands()) values.push_back(mapping.lookup(v));
      builder.create<ir::ReturnOp>(ret.getLoc(), values);
      continue;
    }
    builder.clone(op, mapping);
  }
  toGlobal->replaceAllUsesWith(manualOp->getResults());
  toGlobal->erase();
  call->erase();
  toLocal->erase();
  if (mlir::SymbolTable::symbolKnownUseEmpty(body, symbols.getOp())) body->erase();
  return mlir::success();
}

struct ImportShardyManualComputationsPass
    : public impl::ImportShardyManualComputationsPassBase<ImportShardyManualComputationsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    llvm::SmallVector<hlo::CustomCallOp> starts;
    module.walk([&](hlo::CustomCallOp op) {
      if (op.getCallTargetName() == "xla.sdy.GlobalToLocalShape") starts.push_back(op);
    });
    if (starts.empty()) return;
    mlir::SymbolTable symbols(module);
    for (hlo::CustomCallOp start : starts) {
      if (mlir::failed(rewrite(start, symbols))) return signalPassFailure();
    }
  }
};

}  // namespace
}  // namespace tessel::sharding
