// How a tensor is split over a device mesh, in the style of JAX's
// `NamedSharding(mesh, PartitionSpec(...))`.
//
// A PartitionSpec has one DimSpec per tensor dimension. A DimSpec names the mesh axes that
// split the dimension, major to minor; no axes means the dimension is replicated. A
// dimension may also be left *open*: propagation may then split it further (JAX's
// `PartitionSpec.UNCONSTRAINED` is an open dimension without axes). A priority (0 is the
// strongest) orders which user shardings propagate first when they conflict.
//
//   TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", 4}, {"model", 2}}));
//
//   // Rows over "data", columns replicated.
//   TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"data", Replicated()}));
//   // Rows over both axes ("data" major), columns open to propagation.
//   Sharding::Create(mesh, {Axes({"data", "model"}), Unconstrained()});
//   // Rows over "data" with priority 0, may be split further; columns over "model".
//   Sharding::Create(mesh, {DimSpec("data").Open().WithPriority(0), "model"});
//   // A partial sum over "model" (each device holds a summand), kept replicated over "data".
//   Sharding::Create(mesh, PartitionSpec{Replicated()}.WithReplicated({"data"})
//                              .WithUnreduced({"model"}));
//
//   rows.ToString();  // #tessel.sharding<@mesh, [{"data"}, {}]>
//
// Sharding::Create checks the spec against the mesh (every axis exists and is used once);
// the rank is checked against a tensor where the sharding is attached (CheckFits).
//
// An axis may also be a sub-axis, part of a mesh axis (`"x":(2)4` in the IR): on a mesh
// axis "x" of size 16 seen as the split [2, 4, 2], SubAxis("x", 2, 4) is the middle factor.
// A dimension split over SubAxis("x", 1, 2) and another over SubAxis("x", 2, 8) share "x":
//
//   Sharding::Create(mesh16, {SubAxis("x", 1, 2), SubAxis("x", 2, 8)});
#ifndef TESSEL_PARTITIONER_API_SHARDING_H_
#define TESSEL_PARTITIONER_API_SHARDING_H_

#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/tensor_type.h"

namespace tessel {

// A mesh axis, or a sub-axis of one: view the axis (size n) as the major-to-minor split
// [pre_size, size, n / (pre_size * size)] and take the middle factor.
class AxisRef {
 public:
  // All of axis `name`. Implicit so that axis lists read {"data", "model"}.
  AxisRef(const char* name) : name_(name) {}             // NOLINT(google-explicit-constructor)
  AxisRef(std::string name) : name_(std::move(name)) {}  // NOLINT(google-explicit-constructor)

  // The sub-axis `name`:(pre_size)size. Sharding::Create checks it against the mesh:
  // pre_size >= 1, size >= 2, pre_size * size divides the axis size and is not all of it.
  static AxisRef Sub(std::string name, int64_t pre_size, int64_t size) {
    AxisRef axis(std::move(name));
    axis.pre_size_ = pre_size;
    axis.size_ = size;
    return axis;
  }

  // Parses the printed form: `x` or `"x"` for a whole axis, `x:(2)4` or `"x":(2)4` for a
  // sub-axis. Fails with InvalidArgument naming the text otherwise.
  static absl::StatusOr<AxisRef> Parse(absl::string_view text);

  const std::string& name() const { return name_; }
  bool is_sub_axis() const { return size_ != 0; }
  // For a sub-axis, its pre-size and size; 0 for a whole axis.
  int64_t pre_size() const { return pre_size_; }
  int64_t sub_size() const { return size_; }

  // The IR spelling: `"x"` or `"x":(2)4`.
  std::string ToString() const;

  friend bool operator==(const AxisRef& a, const AxisRef& b) {
    return a.name_ == b.name_ && a.pre_size_ == b.pre_size_ && a.size_ == b.size_;
  }
  friend bool operator!=(const AxisRef& a, const AxisRef& b) { return !(a == b); }

 private:
  std::string name_;
  int64_t pre_size_ = 0;
  int64_t size_ = 0;
};

// The sub-axis `name`:(pre_size)size (see AxisRef).
inline AxisRef SubAxis(std::string name, int64_t pre_size, int64_t size) {
  return AxisRef::Sub(std::move(name), pre_size, size);
}

std::ostream& operator<<(std::ostream& os, const AxisRef& axis);

// How one tensor dimension is split.
class DimSpec {
 public:
  // Replicated: no axes, closed.
  DimSpec() = default;
  // Split over one axis. Implicit so that a spec reads like JAX's: {"data", Replicated()}.
  DimSpec(const char* axis) : axes_{axis} {}             // NOLINT(google-explicit-constructor)
  DimSpec(std::string axis) : axes_{std::move(axis)} {}  // NOLINT(google-explicit-constructor)
  DimSpec(AxisRef axis) : axes_{std::move(axis)} {}      // NOLINT(google-explicit-constructor)

  // The axes that split the dimension, major to minor (empty: not split).
  const std::vector<AxisRef>& axes() const { return axes_; }
  // Whether propagation may split the dimension over further axes.
  bool is_open() const { return open_; }
  std::optional<int64_t> priority() const { return priority_; }

  // This dimension, left open to further splitting by propagation.
  DimSpec Open() const {
    DimSpec copy = *this;
    copy.open_ = true;
    return copy;
  }
  // This dimension with a propagation priority; 0 is the strongest. Sharding::Create
  // rejects a negative priority.
  DimSpec WithPriority(int64_t priority) const {
    DimSpec copy = *this;
    copy.priority_ = priority;
    return copy;
  }

  friend bool operator==(const DimSpec& a, const DimSpec& b) {
    return a.axes_ == b.axes_ && a.open_ == b.open_ && a.priority_ == b.priority_;
  }
  friend bool operator!=(const DimSpec& a, const DimSpec& b) { return !(a == b); }

 private:
  friend DimSpec Axes(std::vector<AxisRef> axes);

  std::vector<AxisRef> axes_;
  bool open_ = false;
  std::optional<int64_t> priority_;
};

// A dimension split over several axes, major to minor: Axes({"data", "model"}) splits it
// 8 ways on a 4x2 mesh, device (d, m) holding piece d * 2 + m.
inline DimSpec Axes(std::vector<AxisRef> axes) {
  DimSpec spec;
  spec.axes_ = std::move(axes);
  return spec;
}

// A dimension that is not split (JAX's None).
inline DimSpec Replicated() { return DimSpec(); }

// A dimension that is not split yet and left for propagation to decide.
inline DimSpec Unconstrained() { return DimSpec().Open(); }

// One DimSpec per tensor dimension, plus the axes over which the tensor is explicitly
// replicated or unreduced (holds partial results still to be summed).
class PartitionSpec {
 public:
  // The spec of a rank-0 tensor.
  PartitionSpec() = default;
  PartitionSpec(std::initializer_list<DimSpec> dims) : dims_(dims) {}
  explicit PartitionSpec(std::vector<DimSpec> dims) : dims_(std::move(dims)) {}

  const std::vector<DimSpec>& dims() const { return dims_; }
  int64_t rank() const { return static_cast<int64_t>(dims_.size()); }
  const std::vector<AxisRef>& replicated_axes() const { return replicated_; }
  const std::vector<AxisRef>& unreduced_axes() const { return unreduced_; }

  // This spec, also replicated over `axes`. Axes not named anywhere replicate the tensor
  // implicitly; naming them says propagation must not split the tensor over them.
  PartitionSpec WithReplicated(std::vector<AxisRef> axes) const {
    PartitionSpec copy = *this;
    copy.replicated_ = std::move(axes);
    return copy;
  }
  // This spec, holding partial results over `axes` (summed by a later reduction).
  PartitionSpec WithUnreduced(std::vector<AxisRef> axes) const {
    PartitionSpec copy = *this;
    copy.unreduced_ = std::move(axes);
    return copy;
  }

  friend bool operator==(const PartitionSpec& a, const PartitionSpec& b) {
    return a.dims_ == b.dims_ && a.replicated_ == b.replicated_ && a.unreduced_ == b.unreduced_;
  }
  friend bool operator!=(const PartitionSpec& a, const PartitionSpec& b) { return !(a == b); }

 private:
  std::vector<DimSpec> dims_;
  std::vector<AxisRef> replicated_;
  std::vector<AxisRef> unreduced_;
};

// A PartitionSpec bound to the mesh whose axes it names.
class Sharding {
 public:
  // Fails with InvalidArgument, naming the axis, if `spec` names an axis the mesh lacks, an
  // empty axis name, the same axis twice (in one dimension, two dimensions, or the
  // replicated/unreduced lists), a sub-axis that does not fit its axis, two overlapping
  // parts of one axis, sub-axes of one axis that no split of it contains both of, or a
  // negative priority.
  static absl::StatusOr<Sharding> Create(Mesh mesh, PartitionSpec spec);

  // Like Create, and also requires the spec to have `rank` dimensions.
  static absl::StatusOr<Sharding> Create(Mesh mesh, PartitionSpec spec, int64_t rank);

  // Every dimension of a rank-`rank` tensor replicated.
  static Sharding Replicated(Mesh mesh, int64_t rank);

  // Parses the printed form on `mesh`: Shardy's `#sdy.sharding<@mesh, [{"data"}, {}]>` or
  // Tessel's `#tessel.sharding<@mesh, [{"data"}, {"model", ?}p0]>` (sharding_text.cc).
  // Fails with InvalidArgument saying why for text of neither form, a mesh name other than
  // mesh.name(), or a spec that Create rejects on `mesh`.
  static absl::StatusOr<Sharding> Parse(Mesh mesh, absl::string_view text);

  const Mesh& mesh() const { return mesh_; }
  const PartitionSpec& spec() const { return spec_; }
  int64_t rank() const { return spec_.rank(); }

  // OK if the sharding can be attached to a tensor of `type`: its rank equals rank().
  // Otherwise InvalidArgument: "sharding has 2 dimensions but f32[4] has rank 1".
  absl::Status CheckFits(const TensorType& type) const;

  // The number of pieces dimension `dim` is split into. REQUIRES: 0 <= dim < rank().
  int64_t num_shards(int64_t dim) const;

  // The shape each device holds of a tensor of `type`: each dimension divided by its number
  // of shards, rounded up (the last pieces of an uneven split are padded).
  // REQUIRES: CheckFits(type) is OK.
  std::vector<int64_t> LocalShape(const TensorType& type) const;

  // The MLIR attribute: #tessel.sharding<@mesh, [{"data"}, {"model", ?}p0], unreduced={"x"}>.
  std::string ToString() const;

  friend bool operator==(const Sharding& a, const Sharding& b) {
    return a.mesh_ == b.mesh_ && a.spec_ == b.spec_;
  }
  friend bool operator!=(const Sharding& a, const Sharding& b) { return !(a == b); }

 private:
  Sharding(Mesh mesh, PartitionSpec spec) : mesh_(std::move(mesh)), spec_(std::move(spec)) {}

  Mesh mesh_;
  PartitionSpec spec_;
};

std::ostream& operator<<(std::ostream& os, const Sharding& sharding);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_SHARDING_H_
