// Axis-reference algebra and validation of TensorSharding (see tensor_sharding.h). The rules
// and messages match the tessel dialect's sharding verifier.
#include "partitioner/sharding/tensor_sharding.h"

#include <algorithm>
#include <cassert>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::sharding {
namespace {

std::string JoinAxes(const std::vector<AxisRef>& axes) {
  return absl::StrJoin(axes, ", ",
                       [](std::string* out, const AxisRef& axis) { out->append(axis.ToString()); });
}

}  // namespace

int64_t AxisRef::Size(const Mesh& mesh) const {
  if (IsSubAxis()) return size;
  std::optional<int64_t> axis_size = mesh.FindAxisSize(name);
  assert(axis_size && "axis is not in the mesh");
  return *axis_size;
}

std::pair<int64_t, int64_t> AxisRef::Range(const Mesh& mesh) const {
  if (IsSubAxis()) return {pre_size, pre_size * size};
  return {1, Size(mesh)};
}

bool AxisRef::Overlaps(const AxisRef& other) const {
  if (name != other.name) return false;
  if (!IsSubAxis() || !other.IsSubAxis()) return true;
  return pre_size < other.pre_size * other.size && other.pre_size < pre_size * size;
}

std::string AxisRef::ToString() const {
  std::string text = absl::StrCat("\"", name, "\"");
  if (IsSubAxis()) absl::StrAppend(&text, ":(", pre_size, ")", size);
  return text;
}

int64_t DimSharding::NumShards(const Mesh& mesh) const {
  int64_t shards = 1;
  for (const AxisRef& axis : axes) shards *= axis.Size(mesh);
  return shards;
}

std::string DimSharding::ToString() const {
  std::string text = "{" + JoinAxes(axes);
  if (!is_closed) text += axes.empty() ? "?" : ", ?";
  text += "}";
  if (priority) absl::StrAppend(&text, "p", *priority);
  return text;
}

std::vector<AxisRef> TensorSharding::ShardedAxes() const {
  std::vector<AxisRef> axes;
  for (const DimSharding& dim : dims) axes.insert(axes.end(), dim.axes.begin(), dim.axes.end());
  return axes;
}

std::vector<int64_t> TensorSharding::LocalShape(const std::vector<int64_t>& global_shape,
                                                const Mesh& mesh) const {
  assert(global_shape.size() == dims.size() && "rank mismatch");
  std::vector<int64_t> local(global_shape);
  for (size_t d = 0; d < local.size(); ++d) {
    const int64_t shards = dims[d].NumShards(mesh);
    local[d] = (local[d] + shards - 1) / shards;
  }
  return local;
}

std::pair<int64_t, int64_t> TileExtent(int64_t dim_size, int64_t num_shards, int64_t index) {
  const int64_t shard = (dim_size + num_shards - 1) / num_shards;
  return {std::min(index * shard, dim_size), std::min((index + 1) * shard, dim_size)};
}

absl::Status ValidateAxisRef(const AxisRef& axis, const Mesh& mesh) {
  std::optional<int64_t> axis_size = mesh.FindAxisSize(axis.name);
  if (!axis_size) {
    return absl::InvalidArgumentError(absl::StrCat("axis \"", axis.name, "\" is not in the mesh"));
  }
  if (!axis.IsSubAxis()) {
    if (axis.pre_size != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("axis \"", axis.name, "\" has a pre-size but no sub-axis size"));
    }
    return absl::OkStatus();
  }
  if (axis.pre_size < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sub-axis of \"", axis.name, "\" must have pre-size at least 1, got ", axis.pre_size));
  }
  if (axis.size <= 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sub-axis of \"", axis.name, "\" must have size greater than 1, got ", axis.size));
  }
  const int64_t end = axis.pre_size * axis.size;
  if (*axis_size % end != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("sub-axis ", axis.ToString(), ": ", axis.pre_size, " * ", axis.size,
                     " does not divide the size ", *axis_size, " of axis \"", axis.name, "\""));
  }
  if (axis.pre_size == 1 && end == *axis_size) {
    return absl::InvalidArgumentError(absl::StrCat("sub-axis ", axis.ToString(),
                                                   " is all of axis \"", axis.name,
                                                   "\"; write the axis instead"));
  }
  return absl::OkStatus();
}

absl::Status ValidateAxisRefs(const std::vector<AxisRef>& axes, const Mesh& mesh) {
  for (size_t i = 0; i < axes.size(); ++i) {
    const AxisRef& axis = axes[i];
    absl::Status status = ValidateAxisRef(axis, mesh);
    if (!status.ok()) return status;
    for (size_t j = 0; j < i; ++j) {
      const AxisRef& earlier = axes[j];
      if (earlier == axis) {
        return absl::InvalidArgumentError(absl::StrCat("axis ", axis.ToString(), " is used twice"));
      }
      if (earlier.Overlaps(axis)) {
        return absl::InvalidArgumentError(
            absl::StrCat("axis ", earlier.ToString(), " overlaps axis ", axis.ToString()));
      }
      if (earlier.name != axis.name) continue;
      // Two disjoint sub-axes of one axis: the later must start at a multiple of where the
      // earlier ends, or no split of the axis has both as factors.
      const AxisRef& first = earlier.pre_size < axis.pre_size ? earlier : axis;
      const AxisRef& second = earlier.pre_size < axis.pre_size ? axis : earlier;
      if (second.pre_size % (first.pre_size * first.size) != 0) {
        return absl::InvalidArgumentError(absl::StrCat("sub-axes ", earlier.ToString(), " and ",
                                                       axis.ToString(), " do not split axis \"",
                                                       axis.name, "\" compatibly"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status TensorSharding::Validate(const Mesh& mesh, std::optional<int64_t> rank) const {
  if (rank && *rank != Rank()) {
    return absl::InvalidArgumentError(
        absl::StrCat("sharding has rank ", Rank(), " but the tensor has rank ", *rank));
  }
  for (const DimSharding& dim : dims) {
    if (dim.priority && *dim.priority < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("priority must not be negative, got ", *dim.priority));
    }
  }
  std::vector<AxisRef> used = ShardedAxes();
  used.insert(used.end(), replicated_axes.begin(), replicated_axes.end());
  used.insert(used.end(), unreduced_axes.begin(), unreduced_axes.end());
  return ValidateAxisRefs(used, mesh);
}

std::string TensorSharding::ToString() const {
  std::string text = absl::StrCat(
      "<@", mesh_name, ", [",
      absl::StrJoin(dims, ", ",
                    [](std::string* out, const DimSharding& dim) { out->append(dim.ToString()); }),
      "]");
  if (!replicated_axes.empty())
    absl::StrAppend(&text, ", replicated={", JoinAxes(replicated_axes), "}");
  if (!unreduced_axes.empty())
    absl::StrAppend(&text, ", unreduced={", JoinAxes(unreduced_axes), "}");
  return text + ">";
}

}  // namespace tessel::sharding
