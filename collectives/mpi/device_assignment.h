// Which MPI rank runs which partition, and in which local slot of that rank. With one
// partition per rank the assignment is a bijection between partition ids [0, N) and world
// ranks [0, N), and every partition sits in slot 0. With several partitions per rank, a
// rank's partitions are its slots 0, 1, ...: they run as threads of that rank (the slot
// says which thread, and on a GPU machine which device), and groups that span ranks go
// through MPI (collectives/hierarchical).
//
//   // Partition p on rank p:
//   DeviceAssignment identity = DeviceAssignment::Identity(4);
//   // Partition 0 on rank 3, 1 on 2, 2 on 1, 3 on 0:
//   absl::StatusOr<DeviceAssignment> reversed = DeviceAssignment::FromRanks({3, 2, 1, 0});
//   // Four partitions on two ranks, two each: {0, 1} on rank 0, {2, 3} on rank 1.
//   absl::StatusOr<DeviceAssignment> shared =
//       DeviceAssignment::FromLocations({{0, 0}, {0, 1}, {1, 0}, {1, 1}});
//   absl::Status fits = reversed->ValidateWorldSize(world_size);  // before any collective
#ifndef TESSEL_COLLECTIVES_MPI_DEVICE_ASSIGNMENT_H_
#define TESSEL_COLLECTIVES_MPI_DEVICE_ASSIGNMENT_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace tessel::collectives {

// Where one partition runs.
struct DeviceLocation {
  int64_t rank;
  int64_t slot;
};

class DeviceAssignment {
 public:
  // Partition p runs on rank p. REQUIRES: num_partitions >= 1.
  static DeviceAssignment Identity(int64_t num_partitions);

  // Partition p runs on rank `rank_of_partition[p]`, one partition per rank. Fails with
  // InvalidArgument unless the list is non-empty and a permutation of [0, size).
  static absl::StatusOr<DeviceAssignment> FromRanks(std::vector<int64_t> rank_of_partition);

  // Partition p runs on `location_of_partition[p]`. Fails with InvalidArgument unless the
  // list is non-empty, the ranks used are exactly [0, R) for some R, and each rank's slots
  // are exactly [0, k) for its k partitions.
  static absl::StatusOr<DeviceAssignment> FromLocations(
      std::vector<DeviceLocation> location_of_partition);

  int64_t num_partitions() const { return static_cast<int64_t>(location_of_partition_.size()); }
  int64_t num_ranks() const { return static_cast<int64_t>(partitions_of_rank_.size()); }
  // Whether every rank runs exactly one partition.
  bool one_per_rank() const { return num_ranks() == num_partitions(); }

  // REQUIRES: 0 <= partition < num_partitions().
  int64_t RankOf(int64_t partition) const { return location_of_partition_[partition].rank; }
  int64_t SlotOf(int64_t partition) const { return location_of_partition_[partition].slot; }
  // The partitions rank `rank` runs, by slot. REQUIRES: 0 <= rank < num_ranks().
  absl::Span<const int64_t> PartitionsOf(int64_t rank) const { return partitions_of_rank_[rank]; }
  // The partition in slot 0 of `rank`: its only partition when one_per_rank().
  // REQUIRES: 0 <= rank < num_ranks().
  int64_t PartitionOf(int64_t rank) const { return partitions_of_rank_[rank][0]; }

  // InvalidArgument unless the job has exactly num_ranks() ranks; a mismatch must stop the
  // run before any collective, or some ranks would wait for partners that do not exist.
  absl::Status ValidateWorldSize(int64_t world_size) const;

 private:
  explicit DeviceAssignment(std::vector<DeviceLocation> location_of_partition);

  std::vector<DeviceLocation> location_of_partition_;
  std::vector<std::vector<int64_t>> partitions_of_rank_;
};

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_MPI_DEVICE_ASSIGNMENT_H_
