// Test of the MPI bootstrap, run under mpirun with one partition per rank (see BUILD): the
// members of a group, whichever rank holds position 0, get one id; a member that never
// comes costs a timeout naming it. ncclGetUniqueId needs no GPU. Exits non-zero on failure.
#include "collectives/nccl/nccl_mpi_bootstrap.h"

#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace tessel::collectives::nccl {
namespace {

int failures = 0;

void Expect(bool condition, const std::string& what, int rank) {
  if (condition) return;
  std::fprintf(stderr, "rank %d: FAILED: %s\n", rank, what.c_str());
  ++failures;
}

// Whether every member of `group` got the same id (non-members pass a zero id).
bool AgreeOverGroup(const ncclUniqueId& mine, const std::vector<int64_t>& group, int size) {
  std::vector<ncclUniqueId> all(size);
  MPI_Allgather(&mine, sizeof(ncclUniqueId), MPI_BYTE, all.data(), sizeof(ncclUniqueId), MPI_BYTE,
                MPI_COMM_WORLD);
  for (int64_t member : group) {
    if (std::memcmp(&all[member], &all[group.front()], sizeof(ncclUniqueId)) != 0) return false;
  }
  return true;
}

void Run(int rank, int size) {
  std::vector<int64_t> rank_of_partition(size);
  for (int p = 0; p < size; ++p) rank_of_partition[p] = p;
  auto bootstrap = MpiBootstrap::Create(rank_of_partition);
  Expect(bootstrap.ok(), "Create: " + bootstrap.status().ToString(), rank);
  if (!bootstrap.ok()) return;
  const absl::Time deadline = absl::Now() + absl::Seconds(60);

  // The whole job, position 0 on rank 0.
  std::vector<int64_t> everyone(size);
  for (int p = 0; p < size; ++p) everyone[p] = p;
  auto id = (*bootstrap)->ExchangeId(rank, everyone, deadline, nullptr);
  Expect(id.ok(), "whole job: " + id.status().ToString(), rank);
  Expect(AgreeOverGroup(id.ok() ? *id : ncclUniqueId{}, everyone, size),
         "the whole job agrees on one id", rank);

  // A pair whose position 0 is the last rank.
  std::vector<int64_t> pair = {size - 1, 0};
  ncclUniqueId pair_id{};
  if (rank == 0 || rank == size - 1) {
    auto exchanged = (*bootstrap)->ExchangeId(rank, pair, deadline, nullptr);
    Expect(exchanged.ok(), "pair: " + exchanged.status().ToString(), rank);
    if (exchanged.ok()) pair_id = *exchanged;
  }
  Expect(AgreeOverGroup(pair_id, pair, size), "the pair agrees on one id", rank);
  Expect(!id.ok() || std::memcmp(&pair_id, &*id, sizeof(ncclUniqueId)) != 0 || rank > 0,
         "the pair's id differs from the job's", rank);

  // Partition 1 never comes to the group {0, 1}: partition 0 names it after the timeout.
  if (rank == 0) {
    auto missing =
        (*bootstrap)->ExchangeId(0, {0, 1}, absl::Now() + absl::Milliseconds(300), nullptr);
    Expect(missing.status().code() == absl::StatusCode::kDeadlineExceeded &&
               std::string(missing.status().message()).find("partition 1 (rank 1) did not take") !=
                   std::string::npos,
           "a missing member is named: " + missing.status().ToString(), rank);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace tessel::collectives::nccl

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  tessel::collectives::nccl::Run(rank, size);
  int failures = tessel::collectives::nccl::failures, total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) std::printf("%s: %d failure(s) over %d ranks\n", argv[0], total, size);
  MPI_Finalize();
  return total == 0 ? 0 : 1;
}
