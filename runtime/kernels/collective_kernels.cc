// Kernels of tessel.partition_id and the collectives (all_gather, all_reduce, reduce_scatter,
// all_to_all, collective_permute), which run through the partition's Communicator.
//
// Partitions and mesh devices: the partition with id p IS the device with id p. A mesh
// without device_ids puts device i at row-major mesh position i; with device_ids, the device
// at position i is device_ids[i]. So partition p finds its mesh position with
// MeshAttr::findLinearIndex(p), its group with collective_groups.h, and the group's members
// are partition ids in group order, which is what the Communicator takes.
//
// The Communicator moves flat buffers; the kernels turn "along dimension d" into flat blocks
// by stacking the pieces of a split (or of a concatenation) one after another.
#include <cstring>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/communicator.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {


collectives::ReductionKind ToReductionKind(ir::ReductionKind kind) {
  switch (kind) {
    case ir::ReductionKind::Sum: return collectives::ReductionKind::kSum;
    case ir::ReductionKind::Prod: return collectives::ReductionKind::kProd;
    case ir::ReductionKind::Max: return collectives::ReductionKind::kMax;
    case ir::ReductionKind::Min: return collectives::ReductionKind::kMin;
  }
  return collectives::ReductionKind::kSum;  // unreachable: every enumerator is handled above
}

collectives::ConstBuffer ConstBufferOf(const Tensor& tensor) {
  return {tensor.type(), tensor.bytes().data(), tensor.num_elements()};
}

collectives::Buffer BufferOf(Tensor& tensor) {
  return {tensor.type(), tensor.bytes().data(), tensor.num_elements()};
}

// How this partition takes part in one collective op.
struct Participant {
  collectives::Communicator* communicator;
  int64_t self;
  // The partition ids of this partition's group, in group order.
  std::vector<int64_t> group;
};

// Finds this partition's group among the groups the op's mesh and axes define.
template <typename OpT>
absl::StatusOr<Participant> Participate(OpT op, const KernelArgs& args) {
  const PartitionContext& partition = args.interpreter.partition();
  if (partition.communicator == nullptr) {
    return absl::FailedPreconditionError(
        "collectives need a communicator: run the program on partitions (RunSpmd)");
  }
  ir::MeshAttr mesh = op.getMesh();
  if (!mesh) {
    return absl::InvalidArgumentError(absl::StrCat("unknown mesh @", op.getMeshName().str()));
  }
  std::optional<int64_t> position = mesh.findLinearIndex(partition.partition_id);
  if (!position) {
    return absl::InvalidArgumentError(absl::StrCat("partition ", partition.partition_id,
                                                   " is not a device of mesh @",
                                                   op.getMeshName().str()));
  }
  llvm::SmallVector<ir::AxisRefAttr> axes =
      llvm::to_vector(op.getAxes().template getAsRange<ir::AxisRefAttr>());
  ir::GroupPosition where = ir::getGroupPosition(mesh, axes, *position);
  llvm::SmallVector<int64_t> group = ir::getDeviceGroups(mesh, axes)[where.groupIndex];
  for (int64_t id : group) {
    if (id >= partition.num_partitions) {
      return absl::InvalidArgumentError(
          absl::StrCat("mesh @", op.getMeshName().str(), " has device ", id,
                       ", but the program runs on ", partition.num_partitions, " partitions"));
    }
  }
  return Participant{partition.communicator, partition.partition_id,
                     std::vector<int64_t>(group.begin(), group.end())};
}

// `shape` with `dim` multiplied (or divided) by `factor`.
Shape Scaled(Shape shape, int64_t dim, int64_t factor) {
  shape[dim] *= factor;
  return shape;
}

// The sizes, in bytes and in units, of a piece stacked along `dim`: `outer` runs of
// `run_bytes` contiguous bytes, one for each index of the dimensions before `dim`.
struct Runs {
  int64_t outer;
  int64_t run_bytes;
};

Runs RunsOf(const Shape& piece, int64_t dim, ElementType type) {
  Runs runs{1, ElementTypeSize(type)};
  for (int64_t d = 0; d < static_cast<int64_t>(piece.size()); ++d) {
    (d < dim ? runs.outer : runs.run_bytes) *= piece[d];
  }
  return runs;
}

// Splits `tensor` along `dim` into `n` equal pieces and stacks them: the result has shape
// [n] + piece shape, piece j holding indices [j * size / n, (j + 1) * size / n) of `dim`.
// Example: [[0, 1, 2, 3], [4, 5, 6, 7]] split along dim 1 into 2 gives
// [[[0, 1], [4, 5]], [[2, 3], [6, 7]]].
absl::StatusOr<Tensor> SplitIntoPieces(const Tensor& tensor, int64_t dim, int64_t n) {
  if (tensor.shape()[dim] % n != 0) {
    return absl::InvalidArgumentError(absl::StrCat("dimension ", dim, " of ", tensor.ShapeString(),
                                                   " does not split into ", n, " pieces"));
  }
  Shape piece = tensor.shape();
  piece[dim] /= n;
  Shape stacked_shape = {n};
  stacked_shape.insert(stacked_shape.end(), piece.begin(), piece.end());
  Tensor stacked = Tensor::Zeros(tensor.type(), stacked_shape);
  Runs runs = RunsOf(piece, dim, tensor.type());
  if (runs.run_bytes == 0) return stacked;
  const std::byte* source = tensor.bytes().data();
  std::byte* destination = stacked.bytes().data();
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t o = 0; o < runs.outer; ++o) {
      std::memcpy(destination + (j * runs.outer + o) * runs.run_bytes,
                  source + (o * n + j) * runs.run_bytes, runs.run_bytes);
    }
  }
  return stacked;
}

// The inverse of SplitIntoPieces: concatenates the pieces stacked along dimension 0 of
// `stacked` along dimension `dim` of a piece.
Tensor ConcatenatePieces(const Tensor& stacked, int64_t dim) {
  const int64_t n = stacked.shape()[0];
  Shape piece(stacked.shape().begin() + 1, stacked.shape().end());
  Tensor result = Tensor::Zeros(stacked.type(), Scaled(piece, dim, n));
  Runs runs = RunsOf(piece, dim, stacked.type());
  if (runs.run_bytes == 0) return result;
  const std::byte* source = stacked.bytes().data();
  std::byte* destination = result.bytes().data();
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t o = 0; o < runs.outer; ++o) {
      std::memcpy(destination + (o * n + j) * runs.run_bytes,
                  source + (j * runs.outer + o) * runs.run_bytes, runs.run_bytes);
    }
  }
  return result;
}

// Returns `result` as the op's only result after checking it has the op's result type.
absl::StatusOr<std::vector<Tensor>> Result(mlir::Operation* op, Tensor result) {
  TESSEL_RETURN_IF_ERROR(CheckTensorMatchesType(result, op->getResult(0).getType(), "result"));
  return OneResult(std::move(result));
}

absl::StatusOr<std::vector<Tensor>> RunAllGather(ir::AllGatherOp op, KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  TESSEL_ASSIGN_OR_RETURN(Participant p, Participate(op, args));
  const int64_t n = static_cast<int64_t>(p.group.size());
  Shape stacked_shape = {n};
  stacked_shape.insert(stacked_shape.end(), operand.shape().begin(), operand.shape().end());
  Tensor stacked = Tensor::Zeros(operand.type(), stacked_shape);
  TESSEL_RETURN_IF_ERROR(
      p.communicator->AllGather(p.self, p.group, ConstBufferOf(operand), BufferOf(stacked)));
  return Result(op, ConcatenatePieces(stacked, op.getDim()));
}

absl::StatusOr<std::vector<Tensor>> RunAllReduce(ir::AllReduceOp op, KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  TESSEL_ASSIGN_OR_RETURN(Participant p, Participate(op, args));
  Tensor result = Tensor::Zeros(operand.type(), operand.shape());
  TESSEL_RETURN_IF_ERROR(p.communicator->AllReduce(p.self, p.group, ToReductionKind(op.getKind()),
                                                   ConstBufferOf(operand), BufferOf(result)));
  return Result(op, std::move(result));
}

absl::StatusOr<std::vector<Tensor>> RunReduceScatter(ir::ReduceScatterOp op, KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  TESSEL_ASSIGN_OR_RETURN(Participant p, Participate(op, args));
  const int64_t n = static_cast<int64_t>(p.group.size()), dim = op.getDim();
  TESSEL_ASSIGN_OR_RETURN(Tensor stacked, SplitIntoPieces(operand, dim, n));
  Shape piece = operand.shape();
  piece[dim] /= n;
  Tensor result = Tensor::Zeros(operand.type(), piece);
  TESSEL_RETURN_IF_ERROR(p.communicator->ReduceScatter(
      p.self, p.group, ToReductionKind(op.getKind()), ConstBufferOf(stacked), BufferOf(result)));
  return Result(op, std::move(result));
}

absl::StatusOr<std::vector<Tensor>> RunAllToAll(ir::AllToAllOp op, KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  TESSEL_ASSIGN_OR_RETURN(Participant p, Participate(op, args));
  const int64_t n = static_cast<int64_t>(p.group.size());
  // Piece j of the split goes to position j; the pieces received come back stacked in
  // group order, ready to be concatenated.
  TESSEL_ASSIGN_OR_RETURN(Tensor outgoing, SplitIntoPieces(operand, op.getSplitDim(), n));
  Tensor incoming = Tensor::Zeros(outgoing.type(), outgoing.shape());
  TESSEL_RETURN_IF_ERROR(
      p.communicator->AllToAll(p.self, p.group, ConstBufferOf(outgoing), BufferOf(incoming)));
  return Result(op, ConcatenatePieces(incoming, op.getConcatDim()));
}

absl::StatusOr<std::vector<Tensor>> RunCollectivePermute(ir::CollectivePermuteOp op,
                                                         KernelArgs args) {
  const Tensor& operand = *args.operands[0];
  TESSEL_ASSIGN_OR_RETURN(Participant p, Participate(op, args));
  // The op's pairs are group positions; the communicator's are partition ids.
  std::vector<collectives::SourceTarget> pairs;
  for (auto [source, target] : op.getSourceTargetPairs()) {
    pairs.push_back({p.group[source], p.group[target]});
  }
  Tensor result = Tensor::Zeros(operand.type(), operand.shape());
  TESSEL_RETURN_IF_ERROR(p.communicator->CollectivePermute(
      p.self, p.group, pairs, ConstBufferOf(operand), BufferOf(result)));
  return Result(op, std::move(result));
}

}  // namespace

void RegisterCollectiveKernels(KernelRegistry& registry) {
  registry.Register<ir::PartitionIdOp>(
      [](ir::PartitionIdOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        const PartitionContext& partition = args.interpreter.partition();
        return OneResult(Tensor::Scalar<uint32_t>(static_cast<uint32_t>(partition.partition_id)));
      });
  registry.Register<ir::AllGatherOp>(RunAllGather);
  registry.Register<ir::AllReduceOp>(RunAllReduce);
  registry.Register<ir::ReduceScatterOp>(RunReduceScatter);
  registry.Register<ir::AllToAllOp>(RunAllToAll);
  registry.Register<ir::CollectivePermuteOp>(RunCollectivePermute);
}

}  // namespace tessel::runtime
