// The MPI bootstrap: the id travels from position 0's process to each other member's with
// nonblocking point-to-point messages, polled so that a missing process costs a timeout.
#include "collectives/nccl/nccl_mpi_bootstrap.h"

#include <cstring>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "collectives/communicator.h"
#include "collectives/nccl/cuda_status.h"

namespace tessel::collectives::nccl {
namespace {

uint64_t HashGroup(absl::Span<const int64_t> group) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (int64_t id : group) {
    hash ^= static_cast<uint64_t>(id);
    hash *= 1099511628211ull;
  }
  return hash;
}

// The tag carries the group and the receiving partition, so that the messages for two
// partitions of one process, or for two groups set up at once, are not confused.
int TagOf(uint64_t group_hash, int64_t receiver) {
  constexpr uint64_t kTags = 32000;  // MPI guarantees tags up to 32767
  return static_cast<int>((group_hash + static_cast<uint64_t>(receiver) * 7919u) % kTags);
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpiBootstrap>> MpiBootstrap::Create(
    std::vector<int64_t> rank_of_partition) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    return absl::FailedPreconditionError(
        "the NCCL MPI bootstrap needs MPI to be initialized and not finalized");
  }
  int world_size = 0, rank = 0, provided = MPI_THREAD_SINGLE;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Query_thread(&provided);
  int64_t local = 0;
  for (size_t p = 0; p < rank_of_partition.size(); ++p) {
    if (rank_of_partition[p] < 0 || rank_of_partition[p] >= world_size) {
      return absl::InvalidArgumentError(absl::StrCat("partition ", p, " is assigned to rank ",
                                                     rank_of_partition[p], ", outside [0, ",
                                                     world_size, ")"));
    }
    if (rank_of_partition[p] == rank) ++local;
  }
  if (local > 1 && provided < MPI_THREAD_SERIALIZED) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rank ", rank, " runs ", local,
        " partitions on threads, which needs MPI initialized with MPI_THREAD_SERIALIZED or "
        "more"));
  }
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  return std::unique_ptr<MpiBootstrap>(new MpiBootstrap(std::move(rank_of_partition), comm));
}

MpiBootstrap::MpiBootstrap(std::vector<int64_t> rank_of_partition, MPI_Comm comm)
    : rank_of_partition_(std::move(rank_of_partition)), comm_(comm) {}

MpiBootstrap::~MpiBootstrap() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Comm_free(&comm_);
}

absl::Status MpiBootstrap::Wait(MPI_Request& request, absl::Time deadline,
                                const std::atomic<bool>* cancelled) {
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      int done = 0;
      int code = MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (code != MPI_SUCCESS) return absl::InternalError("MPI_Test failed");
      if (done) return absl::OkStatus();
      const bool stop = cancelled != nullptr && cancelled->load();
      if (stop || absl::Now() > deadline) {
        MPI_Cancel(&request);
        MPI_Request_free(&request);
        return stop ? absl::CancelledError("cancelled") : absl::DeadlineExceededError("timed out");
      }
    }
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
}

void MpiBootstrap::Orphan(std::unique_ptr<IdMessage> message) {
  absl::MutexLock lock(&mu_);
  orphans_.push_back(std::move(message));
}

absl::StatusOr<ncclUniqueId> MpiBootstrap::ExchangeId(int64_t self, absl::Span<const int64_t> group,
                                                      absl::Time deadline,
                                                      const std::atomic<bool>* cancelled) {
  const uint64_t hash = HashGroup(group);
  const std::string where =
      absl::StrCat("setting up the NCCL communicator of group ", GroupString(group));
  if (self != group.front()) {
    auto message = std::make_unique<IdMessage>();
    MPI_Request request = MPI_REQUEST_NULL;
    {
      absl::MutexLock lock(&mu_);
      MPI_Irecv(message.get(), sizeof(IdMessage), MPI_BYTE,
                static_cast<int>(rank_of_partition_[group.front()]), TagOf(hash, self), comm_,
                &request);
    }
    absl::Status received = Wait(request, deadline, cancelled);
    if (!received.ok()) {
      Orphan(std::move(message));
      return absl::Status(
          received.code(),
          absl::StrCat(where, ": no id from partition ", group.front(), " (rank ",
                       rank_of_partition_[group.front()], "): ", received.message()));
    }
    if (message->group_hash != hash) {
      return absl::InternalError(
          absl::StrCat(where, ": received the id of another group (message tags collided)"));
    }
    return message->id;
  }
  // Position 0: make the id and send it to every other member.
  auto message = std::make_unique<IdMessage>();
  message->group_hash = hash;
  absl::Status made = NcclStatus(ncclGetUniqueId(&message->id), "ncclGetUniqueId");
  if (!made.ok()) return absl::Status(made.code(), absl::StrCat(where, ": ", made.message()));
  for (size_t i = 1; i < group.size(); ++i) {
    MPI_Request request = MPI_REQUEST_NULL;
    {
      absl::MutexLock lock(&mu_);
      MPI_Issend(message.get(), sizeof(IdMessage), MPI_BYTE,
                 static_cast<int>(rank_of_partition_[group[i]]), TagOf(hash, group[i]), comm_,
                 &request);
    }
    // A synchronous send completes only once the member has posted its receive, so a
    // member that never comes costs a timeout naming it.
    absl::Status sent = Wait(request, deadline, cancelled);
    if (!sent.ok()) {
      Orphan(std::move(message));
      return absl::Status(sent.code(), absl::StrCat(where, ": partition ", group[i], " (rank ",
                                                    rank_of_partition_[group[i]],
                                                    ") did not take the id: ", sent.message()));
    }
  }
  return message->id;
}

}  // namespace tessel::collectives::nccl
