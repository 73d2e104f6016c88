// DeviceAssignment: which physical device runs each replica of each computation, as XLA's
// DeviceAssignment does, so that a partitioned program's logical partition ids can be mapped
// onto real devices.
//
//   DeviceAssignment assignment{/*replica_count=*/1, /*computation_count=*/4, {3, 2, 1, 0}};
//   TESSEL_RETURN_IF_ERROR(assignment.Validate());
//   assignment.Device(/*replica=*/0, /*computation=*/1);  // 2
#ifndef TESSEL_PARTITIONER_SHARDING_DEVICE_ASSIGNMENT_H_
#define TESSEL_PARTITIONER_SHARDING_DEVICE_ASSIGNMENT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"

namespace tessel::sharding {

struct DeviceAssignment {
  int64_t replica_count = 1;
  int64_t computation_count = 1;
  // Replica-major: the device of replica r, computation c is devices[r * computation_count + c].
  std::vector<int64_t> devices;

  // REQUIRES: 0 <= replica < replica_count, 0 <= computation < computation_count.
  int64_t Device(int64_t replica, int64_t computation) const {
    return devices[replica * computation_count + computation];
  }
  // Errors: a count below 1, a device list of another size, a negative or repeated id.
  absl::Status Validate() const;

  friend bool operator==(const DeviceAssignment& a, const DeviceAssignment& b) {
    return a.replica_count == b.replica_count && a.computation_count == b.computation_count &&
           a.devices == b.devices;
  }
};

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_DEVICE_ASSIGNMENT_H_
