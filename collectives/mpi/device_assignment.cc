// The partition-to-rank map of the MPI backend and its checks.
#include "collectives/mpi/device_assignment.h"

#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::collectives {

DeviceAssignment::DeviceAssignment(std::vector<int64_t> rank_of_partition)
    : rank_of_partition_(std::move(rank_of_partition)),
      partition_of_rank_(rank_of_partition_.size()) {
  for (size_t p = 0; p < rank_of_partition_.size(); ++p) {
    partition_of_rank_[rank_of_partition_[p]] = static_cast<int64_t>(p);
  }
}

DeviceAssignment DeviceAssignment::Identity(int64_t num_partitions) {
  std::vector<int64_t> ranks(num_partitions);
  std::iota(ranks.begin(), ranks.end(), 0);
  return DeviceAssignment(std::move(ranks));
}

absl::StatusOr<DeviceAssignment> DeviceAssignment::FromRanks(
    std::vector<int64_t> rank_of_partition) {
  const int64_t n = static_cast<int64_t>(rank_of_partition.size());
  if (n == 0) return absl::InvalidArgumentError("device assignment has no partitions");
  std::vector<int64_t> owner(n, -1);
  for (int64_t p = 0; p < n; ++p) {
    int64_t rank = rank_of_partition[p];
    if (rank < 0 || rank >= n) {
      return absl::InvalidArgumentError(absl::StrCat("device assignment: partition ", p,
                                                     " maps to rank ", rank,
                                                     ", which is out of range [0, ", n, ")"));
    }
    if (owner[rank] >= 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("device assignment: partitions ", owner[rank], " and ", p,
                       " both map to rank ", rank, " (one partition per rank)"));
    }
    owner[rank] = p;
  }
  return DeviceAssignment(std::move(rank_of_partition));
}

absl::Status DeviceAssignment::ValidateWorldSize(int64_t world_size) const {
  if (world_size == num_partitions()) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrCat("device assignment has ", num_partitions(), " partitions but the MPI job has ",
                   world_size, " ranks (one partition per rank)"));
}

}  // namespace tessel::collectives
