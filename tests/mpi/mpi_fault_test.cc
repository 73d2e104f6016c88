// Fault scenarios for the MPI backend, one per mode (first argument), run by
// run_fault_test.sh, which checks the output and that the job ends in bounded time:
//   straggler_setup  the last rank never joins the first collective of a group: the others
//                    fail with DeadlineExceeded naming it (abort_job off, so the error is
//                    inspected in process); they then end the job.
//   straggler_late   the same for a group already set up: the second all_reduce times out.
//   abort_job        the last rank never joins; with the default options the waiting ranks
//                    print the DeadlineExceeded error and MPI_Abort the job.
//   exit_early       the last rank exits without finalizing; the job must still end.
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "collectives/mpi/mpi_communicator.h"

namespace tessel::collectives {
namespace {

constexpr absl::Duration kTimeout = absl::Seconds(2);

std::vector<int64_t> Everyone(int64_t n) {
  std::vector<int64_t> ids(n);
  for (int64_t i = 0; i < n; ++i) ids[i] = i;
  return ids;
}

absl::Status SumOnce(MpiCommunicator& communicator) {
  std::vector<float> values(4, 1.0f), sums(4);
  return communicator.AllReduce(communicator.partition_id(),
                                Everyone(communicator.num_partitions()), ReductionKind::kSum,
                                MakeConstBuffer(absl::MakeConstSpan(values)),
                                MakeBuffer(absl::MakeSpan(sums)));
}

// After the waiting ranks have checked their errors: they meet among themselves (the
// straggler is not part of that communicator) so every check is printed, then end the job.
[[noreturn]] void EndJob(int rank, int size, bool all_ok) {
  std::vector<int> waiting(size - 1);
  for (int r = 0; r < size - 1; ++r) waiting[r] = r;
  MPI_Group world = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, size - 1, waiting.data(), &group);
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_create_group(MPI_COMM_WORLD, group, 99, &comm);
  int ok = all_ok ? 1 : 0, everyone_ok = 0;
  MPI_Allreduce(&ok, &everyone_ok, 1, MPI_INT, MPI_MIN, comm);
  if (rank == 0) {
    std::printf("%s\n", everyone_ok ? "FAULT TEST OK" : "FAULT TEST FAILED");
    std::fflush(stdout);
  }
  // The straggler is still asleep and a timed-out request is still pending: end the job.
  MPI_Abort(MPI_COMM_WORLD, everyone_ok ? 0 : 1);
  std::abort();
}

int Run(const std::string& mode) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool straggler = rank == size - 1;
  MpiCommunicator::Options options;
  options.timeout = mode == "exit_early" ? absl::Seconds(10) : kTimeout;
  options.abort_job = mode == "abort_job" || mode == "exit_early";
  auto created = MpiCommunicator::Create(DeviceAssignment::Identity(size), options);
  if (!created.ok()) {
    std::fprintf(stderr, "rank %d: %s\n", rank, created.status().ToString().c_str());
    return 1;
  }
  MpiCommunicator& communicator = **created;

  if (mode == "straggler_late") {
    absl::Status first = SumOnce(communicator);
    if (!first.ok()) {
      std::fprintf(stderr, "rank %d: first all_reduce failed: %s\n", rank,
                   first.ToString().c_str());
      return 1;
    }
  }
  if (straggler) {
    if (mode == "exit_early") std::_Exit(3);
    sleep(60);  // never joins in time; the job ends before this returns
    return 1;
  }
  absl::Status status = SumOnce(communicator);
  // Only the in-process modes get here; with abort_job the job is gone already.
  const std::string expected_stage = mode == "straggler_setup"
                                         ? "while setting up the group: partition " +
                                               std::to_string(size - 1) + " did not join"
                                         : "waiting for every member to join";
  const bool ok = status.code() == absl::StatusCode::kDeadlineExceeded &&
                  absl::StrContains(status.message(), "all_reduce over group [") &&
                  absl::StrContains(status.message(), expected_stage);
  std::printf("rank %d: %s: %s\n", rank, ok ? "expected error" : "UNEXPECTED",
              status.ToString().c_str());
  std::fflush(stdout);
  absl::Status later = SumOnce(communicator);
  const bool refused = later.code() == absl::StatusCode::kAborted;
  if (!refused) std::printf("rank %d: UNEXPECTED later call: %s\n", rank, later.ToString().c_str());
  EndJob(rank, size, ok && refused);
}

}  // namespace
}  // namespace tessel::collectives

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s straggler_setup|straggler_late|abort_job|exit_early\n",
                 argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int result = tessel::collectives::Run(argv[1]);
  MPI_Abort(MPI_COMM_WORLD, result);
  return result;
}
