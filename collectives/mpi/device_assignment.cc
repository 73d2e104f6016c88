// The partition-to-rank map of the MPI backend and its checks.
#include "collectives/mpi/device_assignment.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::collectives {

DeviceAssignment::DeviceAssignment(std::vector<DeviceLocation> location_of_partition)
    : location_of_partition_(std::move(location_of_partition)) {
  int64_t num_ranks = 0;
  for (const DeviceLocation& location : location_of_partition_) {
    num_ranks = std::max(num_ranks, location.rank + 1);
  }
  partitions_of_rank_.resize(num_ranks);
  for (size_t p = 0; p < location_of_partition_.size(); ++p) {
    const DeviceLocation& location = location_of_partition_[p];
    std::vector<int64_t>& slots = partitions_of_rank_[location.rank];
    if (static_cast<int64_t>(slots.size()) <= location.slot) slots.resize(location.slot + 1);
    slots[location.slot] = static_cast<int64_t>(p);
  }
}

DeviceAssignment DeviceAssignment::Identity(int64_t num_partitions) {
  std::vector<DeviceLocation> locations(num_partitions);
  for (int64_t p = 0; p < num_partitions; ++p) locations[p] = {p, 0};
  return DeviceAssignment(std::move(locations));
}

absl::StatusOr<DeviceAssignment> DeviceAssignment::FromRanks(
    std::vector<int64_t> rank_of_partition) {
  const int64_t n = static_cast<int64_t>(rank_of_partition.size());
  if (n == 0) return absl::InvalidArgumentError("device assignment has no partitions");
  std::vector<int64_t> owner(n, -1);
  std::vector<DeviceLocation> locations(n);
  for (int64_t p = 0; p < n; ++p) {
    int64_t rank = rank_of_partition[p];
    if (rank < 0 || rank >= n) {
      return absl::InvalidArgumentError(absl::StrCat("device assignment: partition ", p,
                                                     " maps to rank ", rank,
                                                     ", which is out of range [0, ", n, ")"));
    }
    if (owner[rank] >= 0) {
      return absl::InvalidArgumentError(absl::StrCat("device assignment: partitions ", owner[rank],
                                                     " and ", p, " both map to rank ", rank,
                                                     " (one partition per rank)"));
    }
    owner[rank] = p;
    locations[p] = {rank, 0};
  }
  return DeviceAssignment(std::move(locations));
}

absl::StatusOr<DeviceAssignment> DeviceAssignment::FromLocations(
    std::vector<DeviceLocation> location_of_partition) {
  const int64_t n = static_cast<int64_t>(location_of_partition.size());
  if (n == 0) return absl::InvalidArgumentError("device assignment has no partitions");
  // owner[rank][slot] is the partition there, or -1.
  std::vector<std::vector<int64_t>> owner;
  for (int64_t p = 0; p < n; ++p) {
    const DeviceLocation& location = location_of_partition[p];
    if (location.rank < 0 || location.rank >= n || location.slot < 0 || location.slot >= n) {
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment: partition ", p, " maps to rank ", location.rank,
                       " slot ", location.slot, ", which is out of range [0, ", n, ")"));
    }
    if (static_cast<int64_t>(owner.size()) <= location.rank) owner.resize(location.rank + 1);
    std::vector<int64_t>& slots = owner[location.rank];
    if (static_cast<int64_t>(slots.size()) <= location.slot) slots.resize(location.slot + 1, -1);
    if (slots[location.slot] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment: partitions ", slots[location.slot], " and ", p,
                       " both map to rank ", location.rank, " slot ", location.slot));
    }
    slots[location.slot] = p;
  }
  for (size_t rank = 0; rank < owner.size(); ++rank) {
    if (owner[rank].empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment: rank ", rank, " runs no partition, but rank ",
                       owner.size() - 1, " does (ranks must be numbered from 0 without gaps)"));
    }
    for (size_t slot = 0; slot < owner[rank].size(); ++slot) {
      if (owner[rank][slot] < 0) {
        return absl::InvalidArgumentError(
            absl::StrCat("device assignment: rank ", rank, " has no partition in slot ", slot,
                         " but one in slot ", owner[rank].size() - 1,
                         " (slots must be numbered from 0 without gaps)"));
      }
    }
  }
  return DeviceAssignment(std::move(location_of_partition));
}

absl::Status DeviceAssignment::ValidateWorldSize(int64_t world_size) const {
  if (world_size == num_ranks()) return absl::OkStatus();
  if (one_per_rank()) {
    return absl::InvalidArgumentError(absl::StrCat("device assignment has ", num_partitions(),
                                                   " partitions but the MPI job has ", world_size,
                                                   " ranks (one partition per rank)"));
  }
  return absl::InvalidArgumentError(
      absl::StrCat("device assignment places ", num_partitions(), " partitions on ", num_ranks(),
                   " ranks but the MPI job has ", world_size, " ranks"));
}

}  // namespace tessel::collectives
