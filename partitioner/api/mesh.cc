// Validation and printing of Mesh.
#include "partitioner/api/mesh.h"

#include <limits>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel {

absl::StatusOr<Mesh> Mesh::Create(std::vector<MeshAxis> axes, std::vector<int64_t> device_ids) {
  return CreateNamed(std::string(kDefaultName), std::move(axes), std::move(device_ids));
}

absl::StatusOr<Mesh> Mesh::CreateNamed(std::string name, std::vector<MeshAxis> axes,
                                       std::vector<int64_t> device_ids) {
  if (name.empty()) return absl::InvalidArgumentError("mesh name is empty");
  absl::flat_hash_set<absl::string_view> names;
  int64_t num_devices = 1;
  for (size_t i = 0; i < axes.size(); ++i) {
    const MeshAxis& axis = axes[i];
    if (axis.name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("mesh @", name, ": axis ", i, " has an empty name"));
    }
    if (!names.insert(axis.name).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("mesh @", name, ": axis \"", axis.name, "\" appears twice"));
    }
    if (axis.size < 1) {
      return absl::InvalidArgumentError(absl::StrCat("mesh @", name, ": axis \"", axis.name,
                                                     "\" has size ", axis.size,
                                                     ", must be at least 1"));
    }
    if (num_devices > std::numeric_limits<int64_t>::max() / axis.size) {
      return absl::InvalidArgumentError(
          absl::StrCat("mesh @", name, ": the number of devices overflows 64 bits"));
    }
    num_devices *= axis.size;
  }
  if (!device_ids.empty()) {
    if (static_cast<int64_t>(device_ids.size()) != num_devices) {
      return absl::InvalidArgumentError(absl::StrCat("mesh @", name, ": has ", num_devices,
                                                     " devices but ", device_ids.size(),
                                                     " device ids"));
    }
    // A mesh without axes may name its single device by any id; otherwise the ids are a
    // permutation of the positions, so each device appears exactly once.
    if (axes.empty()) {
      if (device_ids[0] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("mesh @", name, ": device id ", device_ids[0], " is negative"));
      }
    } else {
      std::vector<bool> seen(num_devices, false);
      for (int64_t id : device_ids) {
        if (id < 0 || id >= num_devices) {
          return absl::InvalidArgumentError(absl::StrCat(
              "mesh @", name, ": device id ", id, " is out of range [0, ", num_devices, ")"));
        }
        if (seen[id]) {
          return absl::InvalidArgumentError(
              absl::StrCat("mesh @", name, ": device id ", id, " appears twice"));
        }
        seen[id] = true;
      }
    }
  }
  return Mesh(std::move(name), std::move(axes), std::move(device_ids), num_devices);
}

std::optional<int64_t> Mesh::axis_size(absl::string_view name) const {
  for (const MeshAxis& axis : axes_) {
    if (axis.name == name) return axis.size;
  }
  return std::nullopt;
}

std::string Mesh::ToString() const {
  std::string text =
      absl::StrCat("@", name_, " = <[",
                   absl::StrJoin(axes_, ", ",
                                 [](std::string* out, const MeshAxis& axis) {
                                   absl::StrAppend(out, "\"", axis.name, "\"=", axis.size);
                                 }),
                   "]");
  if (!device_ids_.empty())
    absl::StrAppend(&text, ", device_ids=[", absl::StrJoin(device_ids_, ", "), "]");
  absl::StrAppend(&text, ">");
  return text;
}

}  // namespace tessel
