// concatenate. Along an unsplit dimension it is local: every operand takes the result's
// layout. Along a dimension split n ways (c = ceil(M/n) per shard), output shard i covers
// [c*i, c*i + c), which holds pieces of the operands that lie there: each operand (offset o,
// size D, split like the result) gives each shard the window [c*i - o, c*i - o + c) of
// itself through a halo exchange with its neighbours (shape_helpers.h), and a select keeps
// each window's values where that operand lies, [o - c*i, o + D - c*i) in local indices.
// When some operand's halos would cost more than a gather, the operands are gathered along
// the dimension instead, concatenated whole, and the result cut locally.
#include <algorithm>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/shape_helpers.h"

namespace tessel::spmd {

mlir::FailureOr<bool> partitionConcatenate(mlir::Operation* op, PartitionState& state) {
  auto concat = llvm::dyn_cast<hlo::ConcatenateOp>(op);
  if (!concat) return false;
  auto type = llvm::cast<mlir::RankedTensorType>(concat.getType());
  Layout to = state.annotatedLayout(concat->getResult(0));
  if (!type.hasStaticShape() || !to.unreduced.empty()) return false;
  const int64_t d = concat.getDimension(), size = type.getDimSize(d);
  const int64_t n = to.numShards(d), c = ceilDiv(size, n);
  mlir::Location loc = concat.getLoc();
  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& b = spmd.builder();

  // One window per operand, or none when any would be too costly.
  llvm::SmallVector<Window> windows;
  llvm::SmallVector<int64_t> offsets;
  bool halos = n > 1;
  int64_t offset = 0;
  for (mlir::Value input : concat.getInputs()) {
    const int64_t length = shapeOf(input.getType())[d], o = offset;
    offsets.push_back(o);
    offset += length;
    Window window{d, c, [=](int64_t i) { return c * i - o; },
                  [=](int64_t i) -> std::pair<int64_t, int64_t> {
                    const int64_t last = std::min(c * (i + 1), size);
                    if (c * i >= last) return {0, 0};
                    return {c * i - o, last - o};
                  }};
    llvm::SmallVector<int64_t> localShape = to.localShape(shapeOf(input.getType()));
    auto localType = mlir::RankedTensorType::get(localShape, type.getElementType());
    if (halos && !windowIsCheap(to, shapeOf(input.getType()), window, localType)) halos = false;
    windows.push_back(window);
  }

  if (!halos) {
    Layout whole = withWholeDims(to, {d});
    llvm::SmallVector<mlir::Value> locals;
    for (mlir::Value input : concat.getInputs()) {
      mlir::FailureOr<mlir::Value> local = state.localAs(input, whole, loc);
      if (mlir::failed(local)) return mlir::failure();
      locals.push_back(*local);
    }
    auto localType =
        mlir::RankedTensorType::get(whole.localShape(type.getShape()), type.getElementType());
    mlir::Value joined =
        b.create<hlo::ConcatenateOp>(loc, localType, locals, b.getI64IntegerAttr(d));
    mlir::FailureOr<mlir::Value> result = spmd.reshard(joined, whole, to, type.getShape(), loc);
    if (mlir::failed(result)) return mlir::failure();
    state.define(concat->getResult(0), *result, to, type.getShape());
    return true;
  }

  mlir::Value result;
  for (auto [index, input] : llvm::enumerate(concat.getInputs())) {
    mlir::FailureOr<mlir::Value> local = state.localAs(input, to, loc);
    if (mlir::failed(local)) return mlir::failure();
    std::optional<mlir::Value> window =
        exchangeWindow(spmd, *local, to, shapeOf(input.getType()), windows[index], loc);
    if (!window) return concat.emitError() << "window exchange declined after it was planned";
    const int64_t o = offsets[index], length = shapeOf(input.getType())[d];
    if (!result) {
      result = *window;
      continue;
    }
    const Layout layout = to;
    DimRange inside{d, [=](int64_t linear) { return o - c * layout.shardIndex(d, linear); },
                    [=](int64_t linear) {
                      return o + length - c * layout.shardIndex(d, linear);
                    }};
    result = keepInRanges(spmd, *window, to.mesh, {inside}, result, loc);
  }
  state.define(concat->getResult(0), result, to, type.getShape());
  return true;
}

}  // namespace tessel::spmd
