// reverse along split dimensions. Reversing a dimension split n ways (s = ceil(D/n) each,
// P = n*s - D padding at the end) is the reverse of the padded n*s elements shifted left by
// P = q*s + r: output shard i is made of the reversed input shards n-1-i-q and, when r > 0,
// n-2-i-q. One collective_permute per source brings them (pairs by shard index over the
// dimension's axes; shards without a source receive zeros, which land only in padding),
// then concatenate, reverse and cut r..r+s locally. Evenly split: one permute (i <-> n-1-i)
// and a local reverse. Unsplit reversed dimensions are reversed locally.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/shape_helpers.h"

namespace tessel::spmd {
namespace {

mlir::Value reverseDim(mlir::OpBuilder& b, mlir::Value value, int64_t dim, mlir::Location loc) {
  return b.create<hlo::ReverseOp>(loc, value.getType(), value, b.getDenseI64ArrayAttr({dim}));
}

// Shard `i` receives the local value of shard `source(i)` (zeros when out of range).
mlir::Value fromShard(SpmdBuilder& spmd, mlir::Value value, const Layout& layout, int64_t dim,
                      int64_t n, std::function<int64_t(int64_t)> source, mlir::Location loc) {
  llvm::SmallVector<int64_t> pairs;
  for (int64_t i = 0; i < n; ++i) {
    int64_t s = source(i);
    if (s < 0 || s >= n) continue;
    pairs.push_back(s);
    pairs.push_back(i);
  }
  mlir::OpBuilder& b = spmd.builder();
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  if (pairs.empty()) {
    return b.create<hlo::BroadcastInDimOp>(loc, type, spmd.zeroScalar(type.getElementType(), loc),
                                           b.getDenseI64ArrayAttr({}));
  }
  if (pairs.size() == 2 * static_cast<size_t>(n)) {
    bool identity = true;
    for (size_t p = 0; p < pairs.size(); p += 2) identity &= pairs[p] == pairs[p + 1];
    if (identity) return value;
  }
  llvm::SmallVector<mlir::Attribute> axes(layout.dims[dim].begin(), layout.dims[dim].end());
  return b.create<ir::CollectivePermuteOp>(loc, type, value, layout.meshName,
                                           mlir::ArrayAttr::get(b.getContext(), axes), nullptr,
                                           nullptr, b.getDenseI64ArrayAttr(pairs));
}

}  // namespace

mlir::FailureOr<bool> partitionReverse(mlir::Operation* op, PartitionState& state) {
  auto reverse = llvm::dyn_cast<hlo::ReverseOp>(op);
  if (!reverse) return false;
  auto type = llvm::cast<mlir::RankedTensorType>(reverse.getType());
  Layout to = state.annotatedLayout(reverse->getResult(0));
  if (!type.hasStaticShape() || !to.unreduced.empty()) return false;
  mlir::Location loc = reverse.getLoc();
  mlir::FailureOr<mlir::Value> operand = state.localAs(reverse.getOperand(), to, loc);
  if (mlir::failed(operand)) return mlir::failure();
  mlir::Value value = *operand;
  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& b = spmd.builder();
  for (int64_t d : reverse.getDimensions()) {
    const int64_t n = to.numShards(d);
    if (n == 1) {
      value = reverseDim(b, value, d, loc);
      continue;
    }
    const int64_t size = type.getDimSize(d), s = ceilDiv(size, n);
    const int64_t padding = n * s - size, q = padding / s, r = padding % s;
    mlir::Value first = fromShard(spmd, value, to, d, n,
                                  [=](int64_t i) { return n - 1 - i - q; }, loc);
    if (r == 0) {
      value = reverseDim(b, first, d, loc);
      continue;
    }
    mlir::Value second = fromShard(spmd, value, to, d, n,
                                   [=](int64_t i) { return n - 2 - i - q; }, loc);
    llvm::SmallVector<int64_t> shape(llvm::cast<mlir::RankedTensorType>(value.getType()).getShape());
    shape[d] *= 2;
    mlir::Value both = b.create<hlo::ConcatenateOp>(
        loc, mlir::RankedTensorType::get(shape, type.getElementType()),
        mlir::ValueRange{second, first}, b.getI64IntegerAttr(d));
    value = sliceDim(spmd, reverseDim(b, both, d, loc), d, r, s, loc);
  }
  state.define(reverse->getResult(0), value, to, type.getShape());
  return true;
}

}  // namespace tessel::spmd
