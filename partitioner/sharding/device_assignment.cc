// Validation of device assignments (see device_assignment.h).
#include "partitioner/sharding/device_assignment.h"

#include <set>

#include "absl/strings/str_cat.h"

namespace tessel::sharding {

absl::Status DeviceAssignment::Validate() const {
  if (replica_count < 1 || computation_count < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("device assignment needs at least one replica and one computation, got ",
                     replica_count, " and ", computation_count));
  }
  if (static_cast<int64_t>(devices.size()) != replica_count * computation_count) {
    return absl::InvalidArgumentError(
        absl::StrCat("device assignment of ", replica_count, " replicas and ", computation_count,
                     " computations lists ", devices.size(), " devices"));
  }
  std::set<int64_t> seen;
  for (int64_t device : devices) {
    if (device < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("device id ", device, " must not be negative"));
    }
    if (!seen.insert(device).second) {
      return absl::InvalidArgumentError(absl::StrCat("device id ", device, " is assigned twice"));
    }
  }
  return absl::OkStatus();
}

}  // namespace tessel::sharding
