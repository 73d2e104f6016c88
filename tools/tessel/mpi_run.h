// `tessel run --backend=mpi FILE`: the MPI path of `tessel run`, run by every rank of an MPI
// job (`mpirun -np R tessel run --backend=mpi FILE`). Every rank partitions the program
// the same way, places the mesh's devices by the device-assignment spec (which mesh axes
// are threads of one rank and which span ranks), builds the same inputs and cuts its own
// partitions' shards, and runs its partitions as threads on a HierarchicalCommunicator.
// A FILE that `tessel partition` wrote (partitioned_marker.h) runs as it is, on global
// inputs of the types its mark gives; --check then needs --reference=SOURCE.
// The results are gathered to rank 0, assembled into global tensors and printed there; with
// --check rank 0 also runs the single-device program and compares.
#ifndef TESSEL_TOOLS_TESSEL_MPI_RUN_H_
#define TESSEL_TOOLS_TESSEL_MPI_RUN_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "tools/tessel/check.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"

namespace tessel::cli {

struct MpiRunOptions {
  std::string file;
  std::string function = "main";
  // .npy files, one per argument, when use_inputs; otherwise arguments from `seed`.
  bool use_inputs = false;
  std::vector<std::string> inputs;
  uint64_t seed = 0;
  // "axis:local|mpi,...", or empty for every mesh axis over MPI (one partition per rank).
  std::string device_assignment;
  // How long a collective (and each step where the ranks wait for one another) may take.
  absl::Duration timeout = absl::Seconds(60);
  std::string output_dir;
  int64_t print_limit = 16;
  bool check = false;
  // --reference: the source of a partitioned FILE, which --check runs on one device.
  std::string reference;
  CheckTolerance tolerance;  // for --check's float results
  // --mesh: new sizes for the program's mesh axes (see common_flags.h).
  std::vector<MeshAxisSize> mesh;
  // --shard_weight_update: weight-update sharding before partitioning.
  bool shard_weight_update = false;
  // --combine_collectives: collective combining after partitioning.
  bool combine_collectives = false;
  // --max_while_iterations: a while loop whose body would run more often fails; 0: no limit.
  int64_t max_while_iterations = 0;
  // --in_shardings / --out_shardings.
  ShardingFlags shardings;
  // --auto: auto-sharding on rank 0, whose plan every rank partitions (ParseAutoSharding).
  std::string auto_sharding;
};

// Initializes MPI (MPI_THREAD_MULTIPLE), runs, finalizes MPI, and returns the process's exit
// code: 0 on success, 1 for bad input (on any rank), a device assignment that does not fit
// the mesh or the job, a failed run or a failed check. Every rank returns the same code;
// errors are printed once, by the lowest rank that has them. A rank whose partition fails
// or whose collective times out ends the whole job through MPI_Abort instead (mpirun then
// exits non-zero), since the other ranks may be waiting for it.
int RunOnMpi(const MpiRunOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_MPI_RUN_H_
