// Cutting a global tensor into per-partition pieces and gluing them back (see the header).
// Both directions walk the local piece element by element and map each local index to its
// global index; elements past the global extent are padding.
#include "runtime/sharded_tensors.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "collectives/reduction.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "runtime/element_type.h"

namespace tessel::runtime {
namespace {

// Where one partition's piece sits: per dimension, its first global index and its length;
// and, for a sharding with unreduced axes (each piece a partial sum over them), the
// partition's position along those axes.
struct PieceLayout {
  std::vector<int64_t> offsets;
  Shape local_shape;
  int64_t unreduced_position = 0;
};

absl::StatusOr<PieceLayout> LayoutOf(ir::ShardingAttr sharding, ir::MeshAttr mesh,
                                     const Shape& global_shape, int64_t partition) {
  PieceLayout layout;
  layout.offsets.assign(global_shape.size(), 0);
  layout.local_shape = global_shape;
  if (!sharding) return layout;
  if (sharding.getRank() != static_cast<int64_t>(global_shape.size())) {
    return absl::InvalidArgumentError(absl::StrCat("sharding of rank ", sharding.getRank(),
                                                   " for a tensor of rank ", global_shape.size()));
  }
  std::optional<int64_t> linear = mesh.findLinearIndex(partition);
  if (!linear) return absl::InvalidArgumentError(absl::StrCat("mesh has no device ", partition));
  if (!sharding.getUnreducedAxes().empty()) {
    layout.unreduced_position =
        ir::getGroupPosition(mesh, sharding.getUnreducedAxes(), *linear).position;
  }
  for (size_t d = 0; d < global_shape.size(); ++d) {
    llvm::ArrayRef<ir::AxisRefAttr> axes = sharding.getDimShardings()[d].getAxes();
    if (axes.empty()) continue;
    int64_t n = ir::getGroupSize(mesh, axes);
    int64_t length = (global_shape[d] + n - 1) / n;
    int64_t index = ir::getGroupPosition(mesh, axes, *linear).position;
    layout.local_shape[d] = length;
    layout.offsets[d] = index * length;
  }
  return layout;
}

// Calls `fn(local_flat, global_flat, length)` for every run of the piece's elements along
// its innermost dimension that lies inside the global extent: the `length` elements from
// `local_flat` in the piece are those from `global_flat` in the global tensor. A scalar is
// one run of one element.
template <typename Fn>
void ForEachValidRun(const PieceLayout& layout, const Shape& global_shape, Fn fn) {
  const size_t rank = global_shape.size();
  if (rank == 0) {
    fn(0, 0, 1);
    return;
  }
  const size_t inner = rank - 1;
  const int64_t rowLength = layout.local_shape[inner];
  const int64_t length = std::min(rowLength, global_shape[inner] - layout.offsets[inner]);
  if (length <= 0) return;
  const Shape outerShape(layout.local_shape.begin(), layout.local_shape.end() - 1);
  std::vector<int64_t> global_strides = RowMajorStrides(global_shape);
  int64_t rows = 1;
  for (int64_t size : outerShape) rows *= size;
  std::vector<int64_t> index(inner, 0);
  for (int64_t row = 0; row < rows; ++row) {
    bool valid = true;
    int64_t global_flat = layout.offsets[inner];
    for (size_t d = 0; d < inner; ++d) {
      int64_t g = layout.offsets[d] + index[d];
      if (g >= global_shape[d]) valid = false;
      global_flat += g * global_strides[d];
    }
    if (valid) fn(row * rowLength, global_flat, length);
    for (size_t d = inner; d-- > 0;) {  // the next outer index, last dimension fastest
      if (++index[d] < outerShape[d]) break;
      index[d] = 0;
    }
  }
}

// Whether `partition` lies outside a one-device mesh: the value is some other device's.
bool OutsideMaximalMesh(ir::ShardingAttr sharding, ir::MeshAttr mesh, int64_t partition) {
  return sharding && mesh.getTotalSize() == 1 && !mesh.findLinearIndex(partition);
}

}  // namespace

absl::StatusOr<ir::MeshAttr> MeshOfSharding(mlir::ModuleOp module, ir::ShardingAttr sharding) {
  if (sharding) {
    if (ir::MeshAttr mesh = ir::findMesh(module, sharding.getMeshName())) return mesh;
    return absl::InvalidArgumentError(
        absl::StrCat("unknown mesh @", sharding.getMeshName().getValue().str()));
  }
  auto meshes = module.getOps<ir::MeshOp>();
  if (meshes.empty()) return absl::InvalidArgumentError("the program has no tessel.mesh");
  return (*meshes.begin()).getMesh();
}

absl::StatusOr<Tensor> ShardTensor(const Tensor& global, ir::ShardingAttr sharding,
                                   ir::MeshAttr mesh, int64_t partition) {
  if (OutsideMaximalMesh(sharding, mesh, partition)) {
    return Tensor::Zeros(global.type(), global.shape());
  }
  absl::StatusOr<PieceLayout> layout = LayoutOf(sharding, mesh, global.shape(), partition);
  if (!layout.ok()) return layout.status();
  Tensor local = Tensor::Zeros(global.type(), layout->local_shape);
  // Partial sums over the unreduced axes: the first partition along them holds the value,
  // the others zeros, so that their sum is the value.
  if (layout->unreduced_position != 0) return local;
  const int64_t size = ElementTypeSize(global.type());
  ForEachValidRun(*layout, global.shape(), [&](int64_t l, int64_t g, int64_t length) {
    std::memcpy(local.bytes().data() + l * size, global.bytes().data() + g * size,
                length * size);
  });
  return local;
}

namespace {

// A partition and where its piece sits.
struct Piece {
  int64_t partition;
  PieceLayout layout;
};

// The global tensor from `pieces`, which hold one whole value between them (replicas must
// agree).
absl::StatusOr<Tensor> AssembleReplicas(absl::Span<const Tensor> locals,
                                        absl::Span<const Piece> pieces,
                                        const Shape& global_shape) {
  Tensor global = Tensor::Zeros(locals[0].type(), global_shape);
  std::vector<bool> written(global.num_elements(), false);
  const int64_t size = ElementTypeSize(global.type());
  for (const Piece& piece : pieces) {
    const int64_t p = piece.partition;
    const PieceLayout* layout = &piece.layout;
    const Tensor& local = locals[p];
    if (local.type() != global.type() || local.shape() != layout->local_shape) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", p, " holds ", local.ShapeString(), ", expected a piece ",
                       "of shape [", absl::StrJoin(layout->local_shape, ","), "]"));
    }
    absl::Status mismatch;
    ForEachValidRun(*layout, global_shape, [&](int64_t l, int64_t g, int64_t length) {
      for (int64_t i = 0; i < length; ++i) {
        const std::byte* src = local.bytes().data() + (l + i) * size;
        std::byte* dst = global.bytes().data() + (g + i) * size;
        if (written[g + i]) {
          if (mismatch.ok() && std::memcmp(src, dst, size) != 0) {
            mismatch = absl::FailedPreconditionError(absl::StrCat(
                "partition ", p, " disagrees with another replica at global element ", g + i));
          }
          continue;
        }
        std::memcpy(dst, src, size);
        written[g + i] = true;
      }
    });
    if (!mismatch.ok()) return mismatch;
  }
  for (int64_t g = 0; g < global.num_elements(); ++g) {
    if (!written[g]) {
      return absl::FailedPreconditionError(absl::StrCat("no partition holds global element ", g));
    }
  }
  return global;
}

}  // namespace

absl::StatusOr<Tensor> AssembleTensor(absl::Span<const Tensor> locals, ir::ShardingAttr sharding,
                                      ir::MeshAttr mesh, const Shape& global_shape) {
  if (locals.empty()) return absl::InvalidArgumentError("no local pieces");
  // The partitions at each position along the unreduced axes (all at position 0 without
  // any) hold one whole value between them; the global tensor is the sum of those values.
  std::map<int64_t, std::vector<Piece>> groups;
  for (int64_t p = 0; p < static_cast<int64_t>(locals.size()); ++p) {
    if (OutsideMaximalMesh(sharding, mesh, p)) continue;
    absl::StatusOr<PieceLayout> layout = LayoutOf(sharding, mesh, global_shape, p);
    if (!layout.ok()) return layout.status();
    const int64_t position = layout->unreduced_position;
    groups[position].push_back(Piece{p, *std::move(layout)});
  }
  std::optional<Tensor> sum;
  for (const auto& [position, pieces] : groups) {
    absl::StatusOr<Tensor> value = AssembleReplicas(locals, pieces, global_shape);
    if (!value.ok()) return value.status();
    if (!sum) {
      sum = *std::move(value);
      continue;
    }
    collectives::Accumulate(sum->type(), collectives::ReductionKind::kSum,
                            sum->bytes().data(), value->bytes().data(), sum->num_elements());
  }
  if (!sum) return Tensor::Zeros(locals[0].type(), global_shape);
  return *std::move(sum);
}

}  // namespace tessel::runtime
