// Parsing the device-assignment spec and placing a mesh's devices by it.
#include "collectives/hierarchical/axis_assignment.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tessel::collectives {

absl::string_view AxisBackendName(AxisBackend backend) {
  return backend == AxisBackend::kLocal ? "local" : "mpi";
}

absl::StatusOr<AxisBackends> ParseAxisBackends(absl::string_view text) {
  if (absl::StripAsciiWhitespace(text).empty()) {
    return absl::InvalidArgumentError(
        "device assignment spec is empty; expected axis:backend,... with backend local or mpi");
  }
  AxisBackends spec;
  std::set<std::string> seen;
  for (absl::string_view entry : absl::StrSplit(text, ',')) {
    entry = absl::StripAsciiWhitespace(entry);
    std::vector<absl::string_view> parts = absl::StrSplit(entry, ':');
    if (parts.size() != 2 || absl::StripAsciiWhitespace(parts[0]).empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device assignment entry '", entry, "' is not axis:backend (backend local or mpi)"));
    }
    std::string axis(absl::StripAsciiWhitespace(parts[0]));
    absl::string_view backend = absl::StripAsciiWhitespace(parts[1]);
    AxisBackend value;
    if (backend == "local") {
      value = AxisBackend::kLocal;
    } else if (backend == "mpi") {
      value = AxisBackend::kMpi;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("device assignment entry '", entry,
                                                     "' has unknown backend '", backend,
                                                     "' (expected local or mpi)"));
    }
    if (!seen.insert(axis).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment names axis \"", axis, "\" twice"));
    }
    spec.emplace_back(std::move(axis), value);
  }
  return spec;
}

std::string AxisBackendsString(const AxisBackends& spec) {
  return absl::StrJoin(spec, ",", [](std::string* out, const auto& entry) {
    absl::StrAppend(out, entry.first, ":", AxisBackendName(entry.second));
  });
}

AxisBackends AllAxesOverMpi(absl::Span<const MeshAxis> axes) {
  AxisBackends spec;
  for (const MeshAxis& axis : axes) spec.emplace_back(axis.name, AxisBackend::kMpi);
  return spec;
}

absl::StatusOr<DeviceAssignment> AssignByAxes(absl::Span<const MeshAxis> axes,
                                              absl::Span<const int64_t> device_ids,
                                              const AxisBackends& spec, int64_t world_size) {
  std::vector<AxisBackend> backend_of_axis;
  std::vector<std::string> mpi_axes;
  int64_t devices = 1, num_ranks = 1;
  for (const MeshAxis& axis : axes) {
    auto it = std::find_if(spec.begin(), spec.end(),
                           [&](const auto& entry) { return entry.first == axis.name; });
    if (it == spec.end()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device assignment ", AxisBackendsString(spec), " does not place mesh axis \"", axis.name,
          "\"; name every mesh axis once, as axis:local or axis:mpi"));
    }
    backend_of_axis.push_back(it->second);
    devices *= axis.size;
    if (it->second == AxisBackend::kMpi) {
      num_ranks *= axis.size;
      mpi_axes.push_back(absl::StrCat("\"", axis.name, "\"=", axis.size));
    }
  }
  for (const auto& entry : spec) {
    const std::string& name = entry.first;  // a lambda below reads it: no structured binding
    if (std::none_of(axes.begin(), axes.end(),
                     [&](const MeshAxis& axis) { return axis.name == name; })) {
      std::vector<std::string> names;
      for (const MeshAxis& axis : axes) names.push_back(absl::StrCat("\"", axis.name, "\""));
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment names axis \"", name,
                       "\", which the mesh lacks (its axes: ", absl::StrJoin(names, ", "), ")"));
    }
  }
  if (num_ranks != world_size) {
    return absl::InvalidArgumentError(
        absl::StrCat("device assignment ", AxisBackendsString(spec), " needs ", num_ranks,
                     num_ranks == 1 ? " rank" : " ranks", " (the product of its mpi axes [",
                     absl::StrJoin(mpi_axes, ", "), "]) but the MPI job has ", world_size,
                     world_size == 1 ? " rank" : " ranks"));
  }
  if (!device_ids.empty() && static_cast<int64_t>(device_ids.size()) != devices) {
    return absl::InvalidArgumentError(absl::StrCat("the mesh lists ", device_ids.size(),
                                                   " device ids for ", devices, " devices"));
  }
  std::vector<DeviceLocation> locations(devices, DeviceLocation{-1, -1});
  for (int64_t linear = 0; linear < devices; ++linear) {
    // Row-major coordinates, split into the rank's (mpi axes) and the slot's (local axes).
    int64_t rest = linear, rank = 0, slot = 0, rank_stride = 1, slot_stride = 1;
    for (int64_t a = static_cast<int64_t>(axes.size()) - 1; a >= 0; --a) {
      const int64_t coordinate = rest % axes[a].size;
      rest /= axes[a].size;
      if (backend_of_axis[a] == AxisBackend::kMpi) {
        rank += coordinate * rank_stride;
        rank_stride *= axes[a].size;
      } else {
        slot += coordinate * slot_stride;
        slot_stride *= axes[a].size;
      }
    }
    const int64_t id = device_ids.empty() ? linear : device_ids[linear];
    if (id < 0 || id >= devices || locations[id].rank >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("the mesh's device ids must be a permutation of [0, ", devices,
                       ") to run on partitions; device id ", id, " is not"));
    }
    locations[id] = {rank, slot};
  }
  return DeviceAssignment::FromLocations(std::move(locations));
}

}  // namespace tessel::collectives
