// StableHLO + Shardy → hlo + tessel, for the ops and attributes that parsing left as they
// were written (see import.h).
#include "partitioner/stablehlo/import.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringSwitch.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/Pass.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/ir/verify_tree.h"
#include "partitioner/stablehlo/dialects.h"
#include "partitioner/stablehlo/import_collectives.h"

namespace tessel::stablehlo {
namespace {

constexpr llvm::StringLiteral kSdySharding = "sdy.sharding";
constexpr llvm::StringLiteral kMhloSharding = "mhlo.sharding";
constexpr llvm::StringLiteral kHloSharding = ir::kGspmdShardingAttr;

bool isForeign(mlir::Operation* op) {
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  return !op->isRegistered() && (dialect == "stablehlo" || dialect == "chlo" || dialect == "sdy");
}

// Inherent attributes of a generic-form op are its properties; the rest are discardable.
mlir::NamedAttrList allAttributes(mlir::Operation* op) {
  mlir::NamedAttrList attrs(op->getAttrs());
  if (auto properties =
          llvm::dyn_cast_or_null<mlir::DictionaryAttr>(op->getPropertiesAsAttribute())) {
    for (mlir::NamedAttribute attr : properties) attrs.set(attr.getName(), attr.getValue());
  }
  return attrs;
}

// StableHLO spells flags as booleans, `hlo` as unit attributes present when true.
void boolToUnit(mlir::NamedAttrList& attrs, llvm::StringRef name) {
  mlir::Attribute value = attrs.get(name);
  if (!value) return;
  attrs.erase(name);
  if (auto flag = llvm::dyn_cast<mlir::BoolAttr>(value); flag && flag.getValue()) {
    attrs.set(name, mlir::UnitAttr::get(value.getContext()));
  }
}

void segments(mlir::NamedAttrList& attrs, mlir::Builder& b, llvm::ArrayRef<int32_t> sizes) {
  attrs.set("operandSegmentSizes", b.getDenseI32ArrayAttr(sizes));
}

mlir::Operation* recreate(mlir::OpBuilder& b, mlir::Operation* op, llvm::StringRef name,
                          const mlir::NamedAttrList& attrs, mlir::ValueRange operands) {
  mlir::OperationState state(op->getLoc(), name);
  state.addOperands(operands);
  state.addAttributes(attrs.getAttrs());
  state.addTypes(op->getResultTypes());
  for (mlir::Region& region : op->getRegions()) state.addRegion()->takeBody(region);
  return b.create(state);
}

// 1 - erf(x), or null if x is no ranked float tensor.
mlir::Value expandErfc(mlir::OpBuilder& b, mlir::Operation* op) {
  mlir::Value x = op->getOperand(0);
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(x.getType());
  if (!type || !llvm::isa<mlir::FloatType>(type.getElementType())) return {};
  mlir::Attribute one = b.getFloatAttr(type.getElementType(), 1.0);
  mlir::Value ones =
      b.create<hlo::ConstantOp>(op->getLoc(), mlir::DenseElementsAttr::get(type, one));
  mlir::Value erf = b.create<hlo::ErfOp>(op->getLoc(), x);
  return b.create<hlo::SubOp>(op->getLoc(), ones, erf);
}

// `stablehlo.if %p` runs its first region when %p holds: hlo.case with index 1 - p.
mlir::Operation* convertIf(mlir::OpBuilder& b, mlir::Operation* op) {
  mlir::Location loc = op->getLoc();
  auto i32 = mlir::RankedTensorType::get({}, b.getI32Type());
  mlir::Value notPred = b.create<hlo::NotOp>(loc, op->getOperand(0));
  mlir::Value index = b.create<hlo::ConvertOp>(loc, i32, notPred);
  return recreate(b, op, "hlo.case", {}, {index});
}

mlir::LogicalResult convertOp(mlir::Operation* op) {
  mlir::OpBuilder b(op);
  mlir::MLIRContext* context = op->getContext();
  llvm::StringRef dialect = op->getName().getDialectNamespace();
  llvm::StringRef name = op->getName().getStringRef().split('.').second;
  mlir::NamedAttrList attrs = allAttributes(op);
  size_t n = op->getNumOperands();
  auto unsupported = [&]() {
    return op->emitError() << "'" << op->getName() << "' is not supported by the StableHLO import";
  };

  mlir::Operation* replacement = nullptr;
  if (dialect == "chlo" && name == "erfc") {
    if (n != 1 || op->getNumResults() != 1) return unsupported();
    mlir::Value value = expandErfc(b, op);
    if (!value) return op->emitError() << "'chlo.erfc' takes a ranked float tensor";
    op->replaceAllUsesWith(mlir::ValueRange(value));
    op->erase();
    return mlir::success();
  }
  if (dialect == "chlo") {
    // chlo.top_k takes the largest, as hlo.top_k without `smallest`; x² is x * x.
    if (name == "top_k") {
      replacement = recreate(b, op, "hlo.top_k", attrs, op->getOperands());
    } else if (name == "square" && n == 1) {
      replacement = recreate(b, op, "hlo.mul", {}, {op->getOperand(0), op->getOperand(0)});
    } else if (llvm::StringRef target = hloElementwiseName(dialect, name);
               !target.empty() && name != "square") {
      replacement = recreate(b, op, target, attrs, op->getOperands());
    } else {
      return unsupported();
    }
  } else if (dialect == "sdy") {
    std::string target = ("tessel." + name).str();
    if (!mlir::RegisteredOperationName::lookup(target, context)) return unsupported();
    // The generic form holds a manual computation's shardings as one sharding_per_value;
    // tessel.manual_computation keeps them as a list.
    for (llvm::StringRef key : {"in_shardings", "out_shardings"}) {
      if (auto perValue = llvm::dyn_cast_or_null<ir::ShardingPerValueAttr>(attrs.get(key))) {
        llvm::SmallVector<mlir::Attribute> list(perValue.getShardings().begin(),
                                                perValue.getShardings().end());
        attrs.set(key, mlir::ArrayAttr::get(context, list));
      }
    }
    replacement = recreate(b, op, target, attrs, op->getOperands());
  } else if (name == "if") {
    if (n != 1 || op->getNumRegions() != 2) {
      return op->emitError() << "'stablehlo.if' takes one predicate and two regions";
    }
    replacement = convertIf(b, op);
  } else if (llvm::is_contained({"all_reduce", "all_gather", "reduce_scatter", "all_to_all",
                                 "collective_permute"},
                                name)) {
    mlir::FailureOr<mlir::Operation*> collective = importCollective(op, attrs);
    if (mlir::failed(collective)) return mlir::failure();
    replacement = *collective;
  } else if (name == "partition_id" && n == 0) {
    replacement = recreate(b, op, "tessel.partition_id", {}, {});
  } else {
    std::string target = hloElementwiseName(dialect, name).str();
    if (target.empty()) target = ("hlo." + name).str();
    if (!mlir::RegisteredOperationName::lookup(target, context)) return unsupported();
    attrs.erase("precision_config");
    attrs.erase("window_reversal");
    boolToUnit(attrs, "indices_are_sorted");
    boolToUnit(attrs, "unique_indices");
    boolToUnit(attrs, "is_stable");
    if (auto kind = attrs.get("compare_type"); kind && llvm::isa<mlir::UnitAttr>(kind)) {
      attrs.erase("compare_type");
    }
    if (auto algorithm = attrs.get("rng_algorithm")) {
      attrs.erase("rng_algorithm");
      attrs.set("algorithm", algorithm);
    }
    if (name == "reduce" || name == "reduce_window") {
      if (n % 2 != 0) return op->emitError() << "'" << op->getName() << "' takes 2N operands";
      segments(attrs, b, {static_cast<int32_t>(n / 2), static_cast<int32_t>(n / 2)});
    } else if (name == "scatter") {
      if (n % 2 != 1) return op->emitError() << "'stablehlo.scatter' takes 2N+1 operands";
      int32_t inputs = static_cast<int32_t>((n - 1) / 2);
      segments(attrs, b, {inputs, 1, inputs});
    }
    replacement = recreate(b, op, target, attrs, op->getOperands());
  }
  op->replaceAllUsesWith(replacement);
  op->erase();
  return mlir::success();
}

// Renames `from` to `to` in a dictionary of attributes; mhlo's GSPMD strings go to the HLO
// sharding import as HLO text import leaves them.
mlir::DictionaryAttr renameShardings(mlir::DictionaryAttr attrs) {
  if (!attrs || (!attrs.get(kSdySharding) && !attrs.get(kMhloSharding))) return attrs;
  mlir::NamedAttrList list(attrs);
  if (mlir::Attribute sharding = list.erase(kSdySharding)) {
    list.set(ir::TesselDialect::kShardingAttrName, sharding);
  }
  if (mlir::Attribute sharding = list.erase(kMhloSharding)) list.set(kHloSharding, sharding);
  return list.getDictionary(attrs.getContext());
}

}  // namespace

bool LooksLikeStablehlo(absl::string_view text) {
  size_t line_start = 0;
  while (line_start < text.size()) {
    size_t end = text.find('\n', line_start);
    if (end == absl::string_view::npos) end = text.size();
    absl::string_view line = text.substr(line_start, end - line_start);
    size_t comment = line.find("//");
    if (comment != absl::string_view::npos) line = line.substr(0, comment);
    for (absl::string_view prefix : {"stablehlo.", "sdy.", "chlo.", "#sdy", "#stablehlo"}) {
      if (line.find(prefix) != absl::string_view::npos) return true;
    }
    line_start = end + 1;
  }
  return false;
}

mlir::LogicalResult importStablehlo(mlir::ModuleOp module) {
  // Manual computations in the generic form first: the collectives of their bodies find
  // their mesh through them. Their regions move whole into the replacement.
  std::vector<mlir::Operation*> manual;
  module.walk([&](mlir::Operation* op) {
    if (isForeign(op) && op->getName().getStringRef() == "sdy.manual_computation") {
      manual.push_back(op);
    }
  });
  bool failed = false;
  for (mlir::Operation* op : manual) failed |= mlir::failed(convertOp(op));
  if (failed) return mlir::failure();
  // Then children before parents: a parent's regions move whole into its replacement.
  std::vector<mlir::Operation*> foreign;
  module.walk<mlir::WalkOrder::PostOrder>([&](mlir::Operation* op) {
    if (isForeign(op)) foreign.push_back(op);
  });
  for (mlir::Operation* op : foreign) failed |= mlir::failed(convertOp(op));
  if (failed) return mlir::failure();

  bool gspmd = false;
  module.walk([&](mlir::Operation* op) {
    if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
      for (unsigned i = 0; i < function.getNumArguments(); ++i) {
        function.setArgAttrs(i, renameShardings(function.getArgAttrDict(i)));
        gspmd |= static_cast<bool>(function.getArgAttr(i, kHloSharding));
      }
      for (unsigned i = 0; i < function.getNumResults(); ++i) {
        function.setResultAttrs(i, renameShardings(function.getResultAttrDict(i)));
        gspmd |= static_cast<bool>(function.getResultAttr(i, kHloSharding));
      }
      return;
    }
    if (auto mesh = llvm::dyn_cast<ir::MeshOp>(op)) mesh->removeAttr("stablehlo.mesh");
    if (mlir::Attribute sharding = op->removeAttr(kSdySharding)) {
      op->setAttr(ir::TesselDialect::kShardingAttrName, sharding);
    }
    if (mlir::Attribute sharding = op->removeAttr(kMhloSharding)) {
      op->setAttr(kHloSharding, sharding);
      gspmd = true;
    }
  });
  // The HLO sharding import takes the device count of GSPMD strings from here.
  if (auto partitions = module->getAttrOfType<mlir::IntegerAttr>("mhlo.num_partitions");
      partitions && gspmd) {
    module->setAttr(hlo_text::kHloNumPartitionsAttr,
                    mlir::Builder(module.getContext()).getI64IntegerAttr(partitions.getInt()));
  }
  return mlir::success();
}

namespace {

struct ImportStablehloPass
    : public mlir::PassWrapper<ImportStablehloPass, mlir::OperationPass<mlir::ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(ImportStablehloPass)
  llvm::StringRef getArgument() const final { return "tessel-import-stablehlo"; }
  llvm::StringRef getDescription() const final {
    return "Imports StableHLO, CHLO and Shardy ops and attributes into hlo and tessel";
  }
  void getDependentDialects(mlir::DialectRegistry& registry) const final {
    registry.insert<hlo::HloDialect, ir::TesselDialect>();
  }
  void runOnOperation() final {
    if (mlir::failed(importStablehlo(getOperation()))) signalPassFailure();
  }
};

}  // namespace

void registerImportStablehloPass() { mlir::PassRegistration<ImportStablehloPass>(); }

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseStablehloModule(
    absl::string_view text, absl::string_view buffer_name, mlir::MLIRContext& context) {
  mlir::DialectRegistry registry;
  registerStablehloDialects(registry);
  context.appendDialectRegistry(registry);
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(text, buffer_name, context);
  if (!module.ok()) return module.status();
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& diagnostic) {
    if (diagnostic.getSeverity() != mlir::DiagnosticSeverity::Error) return mlir::success();
    absl::StrAppend(&errors, errors.empty() ? "" : "\n", FormatLocation(diagnostic.getLocation()),
                    ": error: ", diagnostic.str());
    return mlir::success();
  });
  if (mlir::failed(importStablehlo(**module)) || mlir::failed(ir::verifyTree(**module))) {
    return absl::InvalidArgumentError(errors.empty() ? absl::StrCat(buffer_name, ": import failed")
                                                     : errors);
  }
  return module;
}

}  // namespace tessel::stablehlo
