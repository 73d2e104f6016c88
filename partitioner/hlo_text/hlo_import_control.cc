// Importers of control flow and calls: while, conditional (pred and index forms),
// custom-call, call and fusion (both become func.call of a private function).
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

mlir::FailureOr<Imported> importWhile(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<Computation*> cond = im.computationAttr(inst, "condition");
  mlir::FailureOr<Computation*> body = im.computationAttr(inst, "body");
  if (failed(cond) || failed(body)) return mlir::failure();
  mlir::Operation* op =
      im.create(inst, "hlo.while", im.allOperandLeaves(inst), im.leafTypes(inst), {}, 2);
  if (failed(im.importRegion(**cond, op->getRegion(0), inst)) ||
      failed(im.importRegion(**body, op->getRegion(1), inst))) {
    return mlir::failure();
  }
  return im.all(op);
}

// Branch k runs computation k on the leaves of operand k + 1; hlo.case regions take no
// arguments, so each computation is inlined with its parameter bound to those values.
mlir::FailureOr<Imported> importConditional(Importer& im, Instruction& inst) {
  std::vector<Computation*> branches;
  mlir::Value index;
  mlir::FailureOr<mlir::Value> selector =
      inst.operands.empty() ? mlir::FailureOr<mlir::Value>(mlir::failure()) : im.operand(inst, 0);
  if (failed(im.expectMinOperands(inst, 1)) || failed(selector)) return mlir::failure();
  auto i32 = mlir::RankedTensorType::get({}, im.builder().getI32Type());
  if (im.findAttr(inst, "branch_computations")) {
    AttrText* attr = im.findAttr(inst, "branch_computations");
    mlir::FailureOr<std::vector<std::string>> names = ParseComputationList(*attr, im.context());
    if (failed(names)) return mlir::failure();
    for (const std::string& name : *names) {
      Computation* comp = im.findComputation(name);
      if (!comp) return im.error(*attr) << "unknown computation '" << name << "'";
      branches.push_back(comp);
    }
    index = *selector;
  } else {
    mlir::FailureOr<Computation*> onTrue = im.computationAttr(inst, "true_computation");
    mlir::FailureOr<Computation*> onFalse = im.computationAttr(inst, "false_computation");
    if (failed(onTrue) || failed(onFalse)) return mlir::failure();
    branches = {*onTrue, *onFalse};
    if (selector->getType() != mlir::RankedTensorType::get({}, im.builder().getI1Type())) {
      return mlir::emitError(im.loc(inst.operands[0].pos))
             << "the predicate of 'conditional' must be pred[]";
    }
    // true selects branch 0: index = convert(not(pred)).
    mlir::Value negated = im.create(inst, "hlo.not", *selector, selector->getType())->getResult(0);
    index = im.create(inst, "hlo.convert", negated, i32)->getResult(0);
  }
  if (index.getType() != i32) {
    return mlir::emitError(im.loc(inst.operands[0].pos))
           << "the branch index of 'conditional' must be s32[]";
  }
  if (failed(im.expectOperands(inst, branches.size() + 1))) return mlir::failure();
  mlir::Operation* op =
      im.create(inst, "hlo.case", index, im.leafTypes(inst), {}, branches.size());
  Instruction single = inst;
  for (size_t k = 0; k < branches.size(); ++k) {
    single.operands = {inst.operands[k + 1]};
    llvm::SmallVector<mlir::Value> args = im.allOperandLeaves(single);
    mlir::OpBuilder::InsertionGuard guard(im.builder());
    im.builder().createBlock(&op->getRegion(k));
    mlir::FailureOr<llvm::SmallVector<mlir::Value>> results =
        im.inlineComputation(*branches[k], {args}, inst);
    if (failed(results)) return mlir::failure();
    im.builder().create<hlo::ReturnOp>(im.loc(inst), *results);
  }
  return im.all(op);
}

mlir::FailureOr<Imported> importCustomCall(Importer& im, Instruction& inst) {
  mlir::FailureOr<AttrText*> targetAttr = im.requireAttr(inst, "custom_call_target");
  if (failed(targetAttr)) return mlir::failure();
  mlir::FailureOr<std::string> target = ParseStringAttr(**targetAttr, im.context());
  if (failed(target)) return mlir::failure();
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      im.builder().getNamedAttr("call_target_name", im.builder().getStringAttr(*target))};
  if (AttrText* configAttr = im.findAttr(inst, "backend_config")) {
    mlir::FailureOr<std::string> config = ParseStringAttr(*configAttr, im.context());
    if (failed(config)) return mlir::failure();
    if (!config->empty()) {
      attrs.push_back(im.builder().getNamedAttr("backend_config",
                                                im.builder().getStringAttr(*config)));
    }
  }
  if (AttrText* effectAttr = im.findAttr(inst, "custom_call_has_side_effect")) {
    mlir::FailureOr<bool> effect = ParseBoolAttr(*effectAttr, im.context());
    if (failed(effect)) return mlir::failure();
    if (*effect) {
      attrs.push_back(im.builder().getNamedAttr("has_side_effect", im.builder().getBoolAttr(true)));
    }
  }
  if (*target == "TopK") return ImportTopKCustomCall(im, inst);
  // Shardy's round trip marks each function result with this identity call; its sharding is
  // the one the ROOT instruction carries as `sharding=`, so the call itself goes (its Shardy
  // sharding stays on the result, to be compared with the ROOT's). Where the
  // ROOT has none (a program annotated in Shardy's form only), the call's own Shardy
  // sharding is the result's: it stays as a `Sharding` annotation of the value, which the
  // sharding import reads like any other.
  if (*target == "xla.sdy.FuncResultSharding") {
    llvm::SmallVector<mlir::Value> operands = im.allOperandLeaves(inst);
    llvm::SmallVector<mlir::Type> types = im.leafTypes(inst);
    if (mlir::TypeRange(mlir::ValueRange(operands)) != mlir::TypeRange(types)) {
      return im.error(inst) << "'xla.sdy.FuncResultSharding' must return its operands' types";
    }
    const AttrText* frontend = inst.peekAttr("frontend_attributes");
    if (!im.entryRootHasSharding() && operands.size() == 1 && frontend &&
        frontend->value.contains("xla.sdy.sharding")) {
      return im.single(im.create(
          inst, "hlo.custom_call", operands, types,
          {im.builder().getNamedAttr("call_target_name", im.builder().getStringAttr("Sharding"))}));
    }
    if (operands.size() == 1) im.noteResultShardy(inst, operands[0]);
    return Imported{operands, nullptr};
  }
  return im.all(im.create(inst, "hlo.custom_call", im.allOperandLeaves(inst),
                          im.leafTypes(inst), attrs));
}

// call and fusion both run a computation on their operands; fusion only groups work for
// XLA's code generator.
mlir::FailureOr<Imported> importCall(Importer& im, Instruction& inst) {
  mlir::FailureOr<Computation*> comp =
      im.computationAttr(inst, inst.opcode == "fusion" ? "calls" : "to_apply");
  if (failed(comp)) return mlir::failure();
  mlir::FailureOr<mlir::func::FuncOp> func = im.functionFor(**comp, inst);
  if (failed(func)) return mlir::failure();
  llvm::SmallVector<mlir::Value> args = im.allOperandLeaves(inst);
  if (mlir::TypeRange(mlir::ValueRange(args)) != func->getArgumentTypes()) {
    return im.error(inst) << "operands of '" << inst.opcode << "' do not match the parameters of '"
                          << (*comp)->name << "'";
  }
  auto call = im.builder().create<mlir::func::CallOp>(im.loc(inst), *func, args);
  return im.all(call);
}

}  // namespace

void RegisterControlImporters(ImporterTable& table) {
  table["while"] = importWhile;
  table["conditional"] = importConditional;
  table["custom-call"] = importCustomCall;
  table["call"] = importCall;
  table["fusion"] = importCall;
}

}  // namespace tessel::hlo_text
