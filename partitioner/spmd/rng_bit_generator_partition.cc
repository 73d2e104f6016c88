// hlo.rng_bit_generator with a split output: every element is a function of the key, the
// counter and its position in the whole output, so each shard runs the op windowed on its
// own box (start = shard index * local length per split dimension, on top of any window
// the op already had) and gets exactly the bits the whole output has there. No
// communication; the state is read whole and every device computes the same next state.
// Padding positions of an uneven split lie outside the window and come out 0.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {

mlir::FailureOr<bool> partitionRngBitGenerator(mlir::Operation* op, PartitionState& state) {
  auto rng = llvm::dyn_cast<hlo::RngBitGeneratorOp>(op);
  if (!rng) return false;
  auto type = rng.getOutput().getType();
  const int64_t rank = type.getRank();
  Layout layout = state.annotatedLayout(rng->getResult(1));
  // Random bits are never a partial sum: an unreduced annotation becomes replication.
  layout.unreduced.clear();
  bool split = false;
  for (int64_t d = 0; d < rank; ++d) split = split || layout.numShards(d) > 1;
  if (!split) return false;  // the op as it is; the rule path keeps the state whole

  SpmdBuilder& spmd = state.spmd();
  mlir::OpBuilder& b = spmd.builder();
  mlir::Location loc = rng.getLoc();
  const Layout whole = Layout::replicated(layout.mesh, layout.meshName, 1);
  mlir::FailureOr<mlir::Value> seed = state.localAs(rng.getState(), whole, loc);
  if (mlir::failed(seed)) return mlir::failure();

  llvm::SmallVector<int64_t> globalShape(type.getShape());
  if (std::optional<llvm::ArrayRef<int64_t>> window = rng.getGlobalShape()) {
    globalShape.assign(window->begin(), window->end());
  }
  llvm::SmallVector<int64_t> localShape = layout.localShape(type.getShape());
  llvm::SmallVector<mlir::Value> starts;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t length = localShape[d];
    mlir::Value start = spmd.lookupPerDevice(
        layout.mesh, [&](int64_t linear) { return layout.shardIndex(d, linear) * length; }, loc);
    if (!rng.getStartIndices().empty()) {
      mlir::Value given = rng.getStartIndices()[d];
      mlir::FailureOr<mlir::Value> base =
          state.localAs(given, Layout::replicated(layout.mesh, layout.meshName, 0), loc);
      if (mlir::failed(base)) return mlir::failure();
      if (base->getType() != start.getType()) {
        start = b.create<hlo::ConvertOp>(loc, base->getType(), start);
      }
      start = b.create<hlo::AddOp>(loc, base->getType(), *base, start);
    }
    starts.push_back(start);
  }
  auto localType = mlir::RankedTensorType::get(localShape, type.getElementType());
  auto local = b.create<hlo::RngBitGeneratorOp>(
      loc, mlir::TypeRange{seed->getType(), localType}, *seed, starts, rng.getAlgorithmAttr(),
      b.getDenseI64ArrayAttr(globalShape));
  state.define(rng->getResult(0), local.getOutputState(), whole,
               rng.getState().getType().getShape());
  state.define(rng->getResult(1), local.getOutput(), layout, type.getShape());
  return true;
}

}  // namespace tessel::spmd
