// reshape. Its factor decomposition (rules/reshape_rules.h) says which operand and result
// dimensions share their major factor. A dimension split m ways on its major factor f, with
// m dividing f, holds in each shard a contiguous block of whole rows of everything minor to
// it, so a result dimension split that way matches the operand dimension that starts with f
// split the same way, and the reshape is local ([8,6] split 2 on dim 0 -> [48] split 2:
// [4,6] -> [24] on each device). The handler maps the result's layout back to the operand
// (resharding the operand, an all_to_all when the split sits on another dimension), or the
// operand's current layout forward to the result (resharding the result); it prefers a map
// that needs no reshard. When neither maps every split, the result's splits that map are
// kept (the others computed whole and cut locally after); when none maps, it declines.
#include <optional>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/reshape_rules.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

// The layout of the other side when each split dimension of `from` (of side `fromSide`)
// moves to the dimension of the other side that starts with the same factor. A split that
// is not on a major factor it divides, or whose factor starts no dimension of the other
// side, is dropped from `from` (made whole) and reported in `complete`.
Layout mapLayout(Layout& from, llvm::ArrayRef<rules::DimFactors> fromSide,
                 llvm::ArrayRef<rules::DimFactors> toSide, const rules::OpShardingRule& rule,
                 bool& complete) {
  Layout to = Layout::replicated(from.mesh, from.meshName, toSide.size());
  to.unreduced = from.unreduced;
  complete = true;
  for (int64_t d = 0; d < from.rank(); ++d) {
    const int64_t m = from.numShards(d);
    if (m == 1) continue;
    const int64_t major = fromSide[d].front();
    const auto* match = llvm::find_if(
        toSide, [&](const rules::DimFactors& dim) { return dim.front() == major; });
    if (rule.getFactor(major).size % m != 0 || match == toSide.end()) {
      from.dims[d].clear();
      complete = false;
      continue;
    }
    to.dims[match - toSide.begin()] = from.dims[d];
  }
  return to;
}

}  // namespace

mlir::FailureOr<bool> partitionReshape(mlir::Operation* op, PartitionState& state) {
  auto reshape = llvm::dyn_cast<hlo::ReshapeOp>(op);
  if (!reshape) return false;
  auto type = llvm::cast<mlir::RankedTensorType>(reshape.getType());
  auto operandType = llvm::cast<mlir::RankedTensorType>(reshape.getOperand().getType());
  if (!type.hasStaticShape() || !operandType.hasStaticShape() || type.getNumElements() == 0) {
    return false;
  }
  Layout to = state.annotatedLayout(reshape->getResult(0));
  const LocalValue& operand = state.local(reshape.getOperand());
  if (!to.mesh && !operand.layout.mesh) return false;
  rules::OpShardingRule rule = rules::buildReshapeRule(operandType.getShape(), type.getShape());
  // Backward: the result's layout (less what does not map) decides the operand's.
  Layout computed = to.mesh ? to : Layout::replicated(operand.layout.mesh,
                                                      operand.layout.meshName, type.getRank());
  bool backwardComplete = false, forwardComplete = false;
  Layout backward = mapLayout(computed, rule.getResult(0), rule.getOperand(0), rule,
                              backwardComplete);
  // Forward: the operand's current layout decides the result's.
  Layout current = operand.layout.mesh
                       ? operand.layout
                       : Layout::replicated(to.mesh, to.meshName, operandType.getRank());
  Layout forward =
      mapLayout(current, rule.getOperand(0), rule.getResult(0), rule, forwardComplete);
  Layout operandLayout = backward, resultLayout = computed;
  if (forwardComplete && (!backwardComplete || (forward == to && backward != operand.layout))) {
    operandLayout = current;
    resultLayout = forward;
  } else if (!backwardComplete && !backward.isSplit()) {
    return false;  // nothing of the result's split survives: leave it to the fallback
  }
  mlir::Location loc = reshape.getLoc();
  mlir::FailureOr<mlir::Value> local = state.localAs(reshape.getOperand(), operandLayout, loc);
  if (mlir::failed(local)) return mlir::failure();
  mlir::OpBuilder& b = state.spmd().builder();
  mlir::Value reshaped = b.create<hlo::ReshapeOp>(
      loc,
      mlir::RankedTensorType::get(resultLayout.localShape(type.getShape()),
                                  type.getElementType()),
      *local);
  mlir::FailureOr<mlir::Value> result =
      state.spmd().reshard(reshaped, resultLayout, to, type.getShape(), loc);
  if (mlir::failed(result)) return mlir::failure();
  state.define(reshape->getResult(0), *result, to, type.getShape());
  return true;
}

}  // namespace tessel::spmd
