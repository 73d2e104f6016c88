// Mesh validation and geometry (see mesh.h).
#include "partitioner/sharding/mesh.h"

#include <cassert>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::sharding {

absl::StatusOr<Mesh> Mesh::Create(std::vector<MeshAxis> axes, std::vector<int64_t> device_ids) {
  Mesh mesh{std::move(axes), std::move(device_ids)};
  absl::Status status = mesh.Validate();
  if (!status.ok()) return status;
  return mesh;
}

absl::Status Mesh::Validate() const {
  std::set<std::string> names;
  int64_t devices = 1;  // of the axes so far: at most kMaxMeshDevices, so no product overflows
  for (const MeshAxis& axis : axes) {
    if (axis.name.empty()) return absl::InvalidArgumentError("mesh axis name must not be empty");
    if (axis.size < 1) {
      return absl::InvalidArgumentError(absl::StrCat("mesh axis \"", axis.name, "\" has size ",
                                                     axis.size, ", must be at least 1"));
    }
    if (!names.insert(axis.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("mesh axis \"", axis.name, "\" appears twice"));
    }
    if (axis.size > kMaxMeshDevices / devices) {
      return absl::InvalidArgumentError(absl::StrCat("mesh has more than ", kMaxMeshDevices,
                                                     " devices (at axis \"", axis.name,
                                                     "\" of size ", axis.size, ")"));
    }
    devices *= axis.size;
  }
  if (device_ids.empty()) return absl::OkStatus();
  if (axes.empty()) {
    if (device_ids.size() != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("a mesh without axes takes exactly one device id, got ", device_ids.size()));
    }
    if (device_ids.front() < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("device id ", device_ids.front(), " must not be negative"));
    }
    return absl::OkStatus();
  }
  const int64_t total = NumDevices();
  if (static_cast<int64_t>(device_ids.size()) != total) {
    return absl::InvalidArgumentError(absl::StrCat(
        "device_ids must have ", total, " entries (the mesh size), has ", device_ids.size()));
  }
  std::vector<bool> seen(total, false);
  for (int64_t id : device_ids) {
    if (id < 0 || id >= total) {
      return absl::InvalidArgumentError(
          absl::StrCat("device id ", id, " is out of range [0, ", total, ")"));
    }
    if (seen[id])
      return absl::InvalidArgumentError(absl::StrCat("device id ", id, " appears twice"));
    seen[id] = true;
  }
  return absl::OkStatus();
}

int64_t Mesh::NumDevices() const {
  int64_t total = 1;
  for (const MeshAxis& axis : axes) total *= axis.size;
  return total;
}

std::optional<int> Mesh::FindAxis(const std::string& name) const {
  for (int i = 0; i < static_cast<int>(axes.size()); ++i) {
    if (axes[i].name == name) return i;
  }
  return std::nullopt;
}

std::optional<int64_t> Mesh::FindAxisSize(const std::string& name) const {
  std::optional<int> index = FindAxis(name);
  if (!index) return std::nullopt;
  return axes[*index].size;
}

int64_t Mesh::DeviceId(int64_t linear_index) const {
  assert(linear_index >= 0 && linear_index < NumDevices() && "linear index out of range");
  return device_ids.empty() ? linear_index : device_ids[linear_index];
}

std::vector<int64_t> Mesh::Coordinates(int64_t linear_index) const {
  std::vector<int64_t> coordinates(axes.size());
  for (int i = static_cast<int>(axes.size()) - 1; i >= 0; --i) {
    coordinates[i] = linear_index % axes[i].size;
    linear_index /= axes[i].size;
  }
  return coordinates;
}

std::string Mesh::ToString() const {
  std::string text =
      absl::StrCat("<[",
                   absl::StrJoin(axes, ", ",
                                 [](std::string* out, const MeshAxis& axis) {
                                   absl::StrAppend(out, "\"", axis.name, "\"=", axis.size);
                                 }),
                   "]");
  if (!device_ids.empty())
    absl::StrAppend(&text, ", device_ids=[", absl::StrJoin(device_ids, ", "), "]");
  return text + ">";
}

}  // namespace tessel::sharding
