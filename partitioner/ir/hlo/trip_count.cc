// Static trip counts of counted while loops (trip_count.h).
#include "partitioner/ir/hlo/trip_count.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tessel::hlo {
namespace {

// The value of an integer scalar constant.
std::optional<int64_t> constantInt(mlir::Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  if (!constant) return std::nullopt;
  auto elements = llvm::dyn_cast<mlir::DenseIntElementsAttr>(constant.getValue());
  if (!elements || !elements.isSplat() || elements.getType().getRank() != 0) return std::nullopt;
  return elements.getSplatValue<llvm::APInt>().getSExtValue();
}

// The initial value of carry `index` of `loop`, when it is a constant.
std::optional<int64_t> initialConstant(WhileOp loop, unsigned index) {
  return constantInt(loop->getOperand(index));
}

}  // namespace

std::optional<int64_t> staticTripCount(WhileOp loop) {
  mlir::Block& cond = loop.getCond().front();
  mlir::Block& body = loop.getBody().front();
  if (cond.getTerminator()->getNumOperands() != 1) return std::nullopt;
  auto compare = cond.getTerminator()->getOperand(0).getDefiningOp<CompareOp>();
  if (!compare || compare->getBlock() != &cond) return std::nullopt;
  mlir::Value counter = compare.getLhs(), bound = compare.getRhs();
  bool inclusive = false;
  switch (compare.getComparisonDirection()) {
    case ComparisonDirection::LT: break;
    case ComparisonDirection::LE: inclusive = true; break;
    case ComparisonDirection::GT: std::swap(counter, bound); break;
    case ComparisonDirection::GE: std::swap(counter, bound); inclusive = true; break;
    default: return std::nullopt;
  }
  auto counterArg = llvm::dyn_cast<mlir::BlockArgument>(counter);
  if (!counterArg || counterArg.getOwner() != &cond) return std::nullopt;
  const unsigned index = counterArg.getArgNumber();
  if (!llvm::isa<mlir::IntegerType>(
          llvm::cast<mlir::ShapedType>(counter.getType()).getElementType())) {
    return std::nullopt;
  }
  std::optional<int64_t> start = initialConstant(loop, index);
  // The body yields counter + step.
  auto next = body.getTerminator()->getOperand(index).getDefiningOp<AddOp>();
  if (!start || !next) return std::nullopt;
  mlir::Value step = next.getRhs();
  if (next.getLhs() != body.getArgument(index)) {
    if (next.getRhs() != body.getArgument(index)) return std::nullopt;
    step = next.getLhs();
  }
  std::optional<int64_t> stride = constantInt(step);
  if (!stride || *stride <= 0) return std::nullopt;
  // The bound: a constant, or a carry the body yields unchanged whose start is constant.
  std::optional<int64_t> limit = constantInt(bound);
  if (auto boundArg = llvm::dyn_cast<mlir::BlockArgument>(bound);
      !limit && boundArg && boundArg.getOwner() == &cond) {
    const unsigned boundIndex = boundArg.getArgNumber();
    if (body.getTerminator()->getOperand(boundIndex) == body.getArgument(boundIndex)) {
      limit = initialConstant(loop, boundIndex);
    }
  }
  if (!limit) return std::nullopt;
  const int64_t span = *limit - *start + (inclusive ? 1 : 0);
  if (span <= 0) return 0;
  return (span + *stride - 1) / *stride;
}

}  // namespace tessel::hlo
