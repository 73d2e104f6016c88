// The device-assignment spec: which axes of a device mesh run inside a process (as threads,
// exchanging data locally) and which across the processes of an MPI job. The same
// partitioned program runs under any spec; only where its partitions run changes.
//
// The text form names every mesh axis once, with its backend, in any order:
//
//   "data:mpi,model:local"   // on a ["data"=4, "model"=2] mesh: 4 ranks, 2 partitions each
//   "data:local,model:mpi"   // the same mesh on 2 ranks with 4 partitions each
//
// The ranks are the row-major positions over the `mpi` axes (in mesh order) and the slots
// within a rank the row-major positions over the `local` axes, so a collective over local
// axes only stays inside a process, and one over mpi axes only has a member per rank.
//
//   TESSEL_ASSIGN_OR_RETURN(AxisBackends spec, ParseAxisBackends("data:mpi,model:local"));
//   TESSEL_ASSIGN_OR_RETURN(DeviceAssignment assignment,
//                           AssignByAxes({{"data", 4}, {"model", 2}}, {}, spec, world_size));
#ifndef TESSEL_COLLECTIVES_HIERARCHICAL_AXIS_ASSIGNMENT_H_
#define TESSEL_COLLECTIVES_HIERARCHICAL_AXIS_ASSIGNMENT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "collectives/mpi/device_assignment.h"

namespace tessel::collectives {

enum class AxisBackend { kLocal, kMpi };

// "local" or "mpi".
absl::string_view AxisBackendName(AxisBackend backend);

// A parsed spec: (axis name, backend) in the order written.
using AxisBackends = std::vector<std::pair<std::string, AxisBackend>>;

// One axis of the mesh, major to minor.
struct MeshAxis {
  std::string name;
  int64_t size;
};

// Parses "axis:backend,axis:backend,...". Fails with InvalidArgument naming the bad entry
// for an empty spec or entry, a missing ':', an unknown backend or an axis named twice.
absl::StatusOr<AxisBackends> ParseAxisBackends(absl::string_view text);

// "data:mpi,model:local".
std::string AxisBackendsString(const AxisBackends& spec);

// Every axis over MPI: one partition per rank.
AxisBackends AllAxesOverMpi(absl::Span<const MeshAxis> axes);

// Where each device of the mesh runs under `spec`. `device_ids[i]` is the id (partition)
// of the device at row-major position i, or i when empty. Fails with InvalidArgument if
// the spec misses a mesh axis or names one the mesh lacks, if the device ids are not a
// permutation of [0, devices), or if the spec's mpi axes make a number of ranks other than
// `world_size` (checked here, before any collective, so that no rank waits for partners
// that do not exist).
absl::StatusOr<DeviceAssignment> AssignByAxes(absl::Span<const MeshAxis> axes,
                                              absl::Span<const int64_t> device_ids,
                                              const AxisBackends& spec, int64_t world_size);

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_HIERARCHICAL_AXIS_ASSIGNMENT_H_
