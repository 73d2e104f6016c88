// Which MPI rank runs which partition, for the MPI collectives backend. One partition per
// rank: the assignment is a bijection between partition ids [0, N) and world ranks [0, N).
//
//   // Partition p on rank p:
//   DeviceAssignment identity = DeviceAssignment::Identity(4);
//   // Partition 0 on rank 3, 1 on 2, 2 on 1, 3 on 0:
//   absl::StatusOr<DeviceAssignment> reversed = DeviceAssignment::FromRanks({3, 2, 1, 0});
//   absl::Status fits = reversed->ValidateWorldSize(world_size);  // before any collective
#ifndef TESSEL_COLLECTIVES_MPI_DEVICE_ASSIGNMENT_H_
#define TESSEL_COLLECTIVES_MPI_DEVICE_ASSIGNMENT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tessel::collectives {

class DeviceAssignment {
 public:
  // Partition p runs on rank p. REQUIRES: num_partitions >= 1.
  static DeviceAssignment Identity(int64_t num_partitions);

  // Partition p runs on rank `rank_of_partition[p]`. Fails with InvalidArgument unless the
  // list is non-empty and a permutation of [0, size).
  static absl::StatusOr<DeviceAssignment> FromRanks(std::vector<int64_t> rank_of_partition);

  int64_t num_partitions() const { return static_cast<int64_t>(rank_of_partition_.size()); }

  // REQUIRES: 0 <= partition < num_partitions().
  int64_t RankOf(int64_t partition) const { return rank_of_partition_[partition]; }
  // REQUIRES: 0 <= rank < num_partitions().
  int64_t PartitionOf(int64_t rank) const { return partition_of_rank_[rank]; }

  // InvalidArgument unless the job has exactly one rank per partition; a mismatch must stop
  // the run before any collective, or some ranks would wait for partners that do not exist.
  absl::Status ValidateWorldSize(int64_t world_size) const;

 private:
  explicit DeviceAssignment(std::vector<int64_t> rank_of_partition);

  std::vector<int64_t> rank_of_partition_;
  std::vector<int64_t> partition_of_rank_;
};

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_MPI_DEVICE_ASSIGNMENT_H_
