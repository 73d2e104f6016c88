// Validation of partition specs against meshes, and the printed form of shardings.
#include "partitioner/api/sharding.h"

#include <ostream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel {
namespace {

std::string Quoted(absl::string_view axis) { return absl::StrCat("\"", absl::CEscape(axis), "\""); }

std::string AxisList(const std::vector<std::string>& axes) {
  return absl::StrJoin(
      axes, ", ", [](std::string* out, const std::string& axis) { out->append(Quoted(axis)); });
}

// Records where each axis is used so that a second use names both places:
// `axis "data" is used by dimension 0 and by dimension 1`.
class AxisUses {
 public:
  explicit AxisUses(const Mesh& mesh) : mesh_(mesh) {}

  absl::Status Add(const std::string& axis, const std::string& where) {
    if (axis.empty())
      return absl::InvalidArgumentError(absl::StrCat(where, " names an empty axis"));
    if (!mesh_.has_axis(axis)) {
      std::vector<std::string> names;
      for (const MeshAxis& a : mesh_.axes()) names.push_back(a.name);
      return absl::InvalidArgumentError(absl::StrCat(where, ": axis ", Quoted(axis),
                                                     " is not in mesh @", mesh_.name(),
                                                     " (axes: ", AxisList(names), ")"));
    }
    auto [it, inserted] = uses_.emplace(axis, where);
    if (!inserted) {
      return absl::InvalidArgumentError(
          absl::StrCat("axis ", Quoted(axis), " is used by ", it->second, " and by ", where));
    }
    return absl::OkStatus();
  }

 private:
  const Mesh& mesh_;
  absl::flat_hash_map<std::string, std::string> uses_;
};

}  // namespace

absl::StatusOr<Sharding> Sharding::Create(Mesh mesh, PartitionSpec spec) {
  AxisUses uses(mesh);
  for (int64_t d = 0; d < spec.rank(); ++d) {
    const DimSpec& dim = spec.dims()[d];
    std::string where = absl::StrCat("dimension ", d);
    for (const std::string& axis : dim.axes()) {
      absl::Status status = uses.Add(axis, where);
      if (!status.ok()) return status;
    }
    if (dim.priority() && *dim.priority() < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": priority ", *dim.priority(), " is negative"));
    }
  }
  for (const std::string& axis : spec.replicated_axes()) {
    absl::Status status = uses.Add(axis, "the replicated axes");
    if (!status.ok()) return status;
  }
  for (const std::string& axis : spec.unreduced_axes()) {
    absl::Status status = uses.Add(axis, "the unreduced axes");
    if (!status.ok()) return status;
  }
  return Sharding(std::move(mesh), std::move(spec));
}

absl::StatusOr<Sharding> Sharding::Create(Mesh mesh, PartitionSpec spec, int64_t rank) {
  if (spec.rank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("partition spec has ", spec.rank(),
                                                   " dimensions but the tensor has rank ", rank));
  }
  return Create(std::move(mesh), std::move(spec));
}

Sharding Sharding::Replicated(Mesh mesh, int64_t rank) {
  return Sharding(std::move(mesh), PartitionSpec(std::vector<DimSpec>(rank)));
}

absl::Status Sharding::CheckFits(const TensorType& type) const {
  if (type.rank() == rank()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("sharding ", ToString(), " has ", rank(),
                                                 " dimensions but ", type.ToString(), " has rank ",
                                                 type.rank()));
}

int64_t Sharding::num_shards(int64_t dim) const {
  int64_t shards = 1;
  for (const std::string& axis : spec_.dims()[dim].axes()) shards *= *mesh_.axis_size(axis);
  return shards;
}

std::vector<int64_t> Sharding::LocalShape(const TensorType& type) const {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < type.rank(); ++d) {
    int64_t shards = num_shards(d);
    shape.push_back((type.dimension(d) + shards - 1) / shards);
  }
  return shape;
}

std::string Sharding::ToString() const {
  std::string text = absl::StrCat("#tessel.sharding<@", mesh_.name(), ", [");
  for (int64_t d = 0; d < rank(); ++d) {
    const DimSpec& dim = spec_.dims()[d];
    if (d > 0) text += ", ";
    absl::StrAppend(&text, "{", AxisList(dim.axes()));
    if (dim.is_open()) text += dim.axes().empty() ? "?" : ", ?";
    text += "}";
    if (dim.priority()) absl::StrAppend(&text, "p", *dim.priority());
  }
  text += "]";
  if (!spec_.replicated_axes().empty()) {
    absl::StrAppend(&text, ", replicated={", AxisList(spec_.replicated_axes()), "}");
  }
  if (!spec_.unreduced_axes().empty()) {
    absl::StrAppend(&text, ", unreduced={", AxisList(spec_.unreduced_axes()), "}");
  }
  return text + ">";
}

std::ostream& operator<<(std::ostream& os, const Sharding& sharding) {
  return os << sharding.ToString();
}

}  // namespace tessel
