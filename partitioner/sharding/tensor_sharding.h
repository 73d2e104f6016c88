// TensorSharding: how a tensor is laid out over a named-axis mesh, as a plain C++ value. It
// means exactly what `#tessel.sharding` means, and Validate() applies the same rules as the
// dialect's verifier (partitioner/ir/tessel/sharding_verification.h), returning absl::Status.
//
//   // f32[8,16] split rows over "data", columns over the major half of "model" (size 4).
//   TensorSharding sharding{"mesh", {DimSharding{{AxisRef("data")}},
//                                     DimSharding{{AxisRef("model", 1, 2)}}}};
//   TESSEL_RETURN_IF_ERROR(sharding.Validate(mesh, /*rank=*/2));
//   sharding.ToString();  // <@mesh, [{"data"}, {"model":(1)2}]>
#ifndef TESSEL_PARTITIONER_SHARDING_TENSOR_SHARDING_H_
#define TESSEL_PARTITIONER_SHARDING_TENSOR_SHARDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "partitioner/sharding/mesh.h"

namespace tessel::sharding {

// A whole mesh axis (`"x"`), or the sub-axis `"x":(pre_size)size`: view axis x (size n) as
// the major-to-minor split [pre_size, size, n / (pre_size * size)] and take the middle part.
struct AxisRef {
  std::string name;
  // Both 0 for a whole axis.
  int64_t pre_size = 0;
  int64_t size = 0;

  AxisRef() = default;
  explicit AxisRef(std::string name) : name(std::move(name)) {}
  AxisRef(std::string name, int64_t pre_size, int64_t size)
      : name(std::move(name)), pre_size(pre_size), size(size) {}

  bool IsSubAxis() const { return size != 0; }
  // The number of devices along this (sub-)axis. REQUIRES: the axis exists in `mesh`.
  int64_t Size(const Mesh& mesh) const;
  // The factor range [first, last) of the axis this covers: a whole axis of size n is [1, n),
  // "x":(2)4 is [2, 8). REQUIRES: the axis exists in `mesh`.
  std::pair<int64_t, int64_t> Range(const Mesh& mesh) const;
  // Whether both name the same axis and share a factor: "x" overlaps every sub-axis of "x";
  // "x":(1)2 and "x":(2)2 do not overlap.
  bool Overlaps(const AxisRef& other) const;
  // `"x"` or `"x":(2)4`.
  std::string ToString() const;

  friend bool operator==(const AxisRef& a, const AxisRef& b) {
    return a.name == b.name && a.pre_size == b.pre_size && a.size == b.size;
  }
  friend bool operator!=(const AxisRef& a, const AxisRef& b) { return !(a == b); }
};

// How one tensor dimension is split: its axes major to minor; whether propagation may add
// more (open) or not (closed); an optional priority (0 strongest) for propagation order.
struct DimSharding {
  DimSharding() = default;
  explicit DimSharding(std::vector<AxisRef> axes, bool is_closed = true,
                       std::optional<int64_t> priority = std::nullopt)
      : axes(std::move(axes)), is_closed(is_closed), priority(priority) {}

  std::vector<AxisRef> axes;
  bool is_closed = true;
  std::optional<int64_t> priority;

  // The product of the axis sizes. REQUIRES: the axes exist in `mesh`.
  int64_t NumShards(const Mesh& mesh) const;
  // `{"x", ?}p1`.
  std::string ToString() const;

  friend bool operator==(const DimSharding& a, const DimSharding& b) {
    return a.axes == b.axes && a.is_closed == b.is_closed && a.priority == b.priority;
  }
  friend bool operator!=(const DimSharding& a, const DimSharding& b) { return !(a == b); }
};

// A sharding on the mesh named `mesh_name`: one DimSharding per tensor dimension, axes that
// must stay replicated, and axes over which the value is an unreduced partial sum. Mesh axes
// used nowhere replicate the tensor implicitly.
struct TensorSharding {
  TensorSharding() = default;
  TensorSharding(std::string mesh_name, std::vector<DimSharding> dims,
                 std::vector<AxisRef> replicated_axes = {},
                 std::vector<AxisRef> unreduced_axes = {})
      : mesh_name(std::move(mesh_name)),
        dims(std::move(dims)),
        replicated_axes(std::move(replicated_axes)),
        unreduced_axes(std::move(unreduced_axes)) {}

  std::string mesh_name;
  std::vector<DimSharding> dims;
  std::vector<AxisRef> replicated_axes;
  std::vector<AxisRef> unreduced_axes;

  int64_t Rank() const { return static_cast<int64_t>(dims.size()); }
  // Every axis that splits a dimension, dimension by dimension, major to minor.
  std::vector<AxisRef> ShardedAxes() const;
  // The shape each device holds: every dim divided by its number of shards, rounded up
  // (uneven splits are padded). REQUIRES: global_shape.size() == Rank(), axes in `mesh`.
  std::vector<int64_t> LocalShape(const std::vector<int64_t>& global_shape, const Mesh& mesh) const;
  // Succeeds if the sharding fits `mesh` (and, when given, a tensor of rank `rank`): every
  // axis exists, sub-axes divide their axis and are not all of it, no axis appears twice or
  // overlaps another, sub-axes of one axis split it compatibly. Errors are
  // InvalidArgumentError naming the offending axis.
  absl::Status Validate(const Mesh& mesh, std::optional<int64_t> rank = std::nullopt) const;
  // `<@mesh, [{"x"}, {}], replicated={"z"}, unreduced={"w"}>`, the body of `#tessel.sharding`.
  std::string ToString() const;

  friend bool operator==(const TensorSharding& a, const TensorSharding& b) {
    return a.mesh_name == b.mesh_name && a.dims == b.dims &&
           a.replicated_axes == b.replicated_axes && a.unreduced_axes == b.unreduced_axes;
  }
  friend bool operator!=(const TensorSharding& a, const TensorSharding& b) { return !(a == b); }
};

// The part [offset, limit) of a dim of size `dim_size` that tile `index` of `num_shards`
// holds: with s = ceil(dim_size / num_shards), [min(index * s, dim_size),
// min((index + 1) * s, dim_size)). Trailing tiles may be partly or wholly padding.
// REQUIRES: num_shards >= 1, 0 <= index < num_shards.
std::pair<int64_t, int64_t> TileExtent(int64_t dim_size, int64_t num_shards, int64_t index);

// Succeeds if `axis` names an axis of `mesh` and, for a sub-axis "x":(pre)size of an axis of
// size n, pre * size divides n and the sub-axis is not all of n.
absl::Status ValidateAxisRef(const AxisRef& axis, const Mesh& mesh);

// Succeeds if every axis is valid and no two share a part of a mesh axis (see Validate).
absl::Status ValidateAxisRefs(const std::vector<AxisRef>& axes, const Mesh& mesh);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_TENSOR_SHARDING_H_
