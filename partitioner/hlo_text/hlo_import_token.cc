// Import of the ops that only order: after-all and add-dependency. Tokens have no value in
// the dialect (see Shape in hlo_parser.h), so these ops import to nothing or to their data.
#include "partitioner/hlo_text/hlo_importer.h"

namespace tessel::hlo_text {
namespace {

// Fails unless every operand of `inst` from `first` on is a token.
mlir::LogicalResult expectTokenOperands(Importer& im, const Instruction& inst, size_t first) {
  for (size_t i = first; i < inst.operands.size(); ++i) {
    if (!im.operandShape(inst, i).isToken) {
      return mlir::emitError(im.loc(inst.operands[i].pos))
             << "operand '" << inst.operands[i].name << "' of '" << inst.opcode
             << "' must be a token";
    }
  }
  return mlir::success();
}

// `t = token[] after-all(t0, t1, ...)`: joins orderings; there is no value to make.
mlir::FailureOr<Imported> importAfterAll(Importer& im, Instruction& inst) {
  if (!inst.shape.isToken) return im.error(inst) << "'after-all' must have shape token[]";
  if (failed(expectTokenOperands(im, inst, 0))) return mlir::failure();
  return Imported{};
}

// `add-dependency(value, token)`: the value, ordered after the token; the ordering is
// already program order here.
mlir::FailureOr<Imported> importAddDependency(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2)) || failed(expectTokenOperands(im, inst, 1))) {
    return mlir::failure();
  }
  if (im.operandShape(inst, 0).isToken) return Imported{};
  mlir::FailureOr<mlir::Value> value = im.operand(inst, 0);
  if (failed(value)) return mlir::failure();
  return Imported{{*value}, nullptr};
}

}  // namespace

void RegisterTokenImporters(ImporterTable& table) {
  table["after-all"] = importAfterAll;
  table["add-dependency"] = importAddDependency;
}

}  // namespace tessel::hlo_text
