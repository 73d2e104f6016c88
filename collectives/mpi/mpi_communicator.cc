// The MPI backend's machinery shared by every collective: creation, the per-group
// communicators, call verification, polling with a deadline, and failure handling. The
// collectives themselves are in mpi_collectives.cc.
#include "collectives/mpi/mpi_communicator.h"

#include "collectives/mpi/abort_job.h"

#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "support/status_macros.h"

namespace tessel::collectives {
namespace {

// MPI guarantees tags up to 32767; OpenMPI allows 2^31 - 1. A group's handshake (point to
// point on the base communicator) and its MPI_Comm_create_group use the same tag, which MPI
// allows: creation tags do not meet point-to-point ones.
constexpr int64_t kMinTagSpace = 32767;

uint64_t HashIds(absl::Span<const int64_t> ids) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (int64_t id : ids) {
    hash ^= static_cast<uint64_t>(id);
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace

absl::StatusOr<std::unique_ptr<MpiCommunicator>> MpiCommunicator::Create(
    DeviceAssignment assignment) {
  return Create(std::move(assignment), Options());
}

absl::StatusOr<std::unique_ptr<MpiCommunicator>> MpiCommunicator::Create(
    DeviceAssignment assignment, Options options) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized) {
    return absl::FailedPreconditionError(
        "the MPI communicator needs MPI to be initialized and not finalized");
  }
  int world_size = 0, rank = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  // Checked here, before any collective: with too few ranks some partitions would wait for
  // partners that do not exist.
  TESSEL_RETURN_IF_ERROR(assignment.ValidateWorldSize(world_size));
  if (!assignment.one_per_rank()) {
    int provided = MPI_THREAD_SINGLE;
    MPI_Query_thread(&provided);
    if (provided != MPI_THREAD_MULTIPLE) {
      return absl::FailedPreconditionError(
          "the device assignment places several partitions on one rank, whose threads call "
          "MPI concurrently: initialize MPI with MPI_Init_thread(MPI_THREAD_MULTIPLE)");
    }
  }
  if (options.timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "collective timeout ", absl::FormatDuration(options.timeout), " is not positive"));
  }
  MPI_Comm base = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &base);
  MPI_Comm_set_errhandler(base, MPI_ERRORS_RETURN);
  int64_t tag_space = kMinTagSpace;
  int* tag_ub = nullptr;
  int has_tag_ub = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &has_tag_ub);
  if (has_tag_ub && tag_ub != nullptr && *tag_ub > tag_space) tag_space = *tag_ub;
  return std::unique_ptr<MpiCommunicator>(
      new MpiCommunicator(std::move(assignment), options, rank, base, tag_space));
}

MpiCommunicator::MpiCommunicator(DeviceAssignment assignment, Options options, int64_t rank,
                                 MPI_Comm base, int64_t tag_space)
    : assignment_(std::move(assignment)),
      options_(options),
      rank_(rank),
      partition_id_(assignment_.PartitionOf(rank)),
      base_(base),
      tag_space_(tag_space) {}

MpiCommunicator::~MpiCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  for (auto& [group, comm] : group_comms_) MPI_Comm_free(&comm);
  MPI_Comm_free(&base_);
}

MpiCommunicator::Call MpiCommunicator::MakeCall(absl::string_view name, int64_t self,
                                                absl::Span<const int64_t> group) const {
  return Call{name, self, group, absl::Now() + options_.timeout};
}

int MpiCommunicator::GroupTag(uint64_t hash) const {
  return static_cast<int>(1 + hash % static_cast<uint64_t>(tag_space_));
}

absl::Status MpiCommunicator::FailedStatus() {
  std::lock_guard<std::mutex> lock(mu_);
  return failed_;
}

absl::Status MpiCommunicator::Fail(absl::Status status) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (failed_.ok()) {
      failed_ = absl::AbortedError(absl::StrCat(
          "the MPI communicator is unusable after an earlier failure: ", status.message()));
    }
  }
  if (options_.abort_job) {
    AbortMpiJob(absl::StrCat("tessel mpi: rank ", rank_, ": ", status.ToString()));
  }
  return status;
}

void MpiCommunicator::Abort(const absl::Status& reason) {
  Fail(absl::AbortedError(absl::StrCat("collectives aborted: ", reason.message())))
      .IgnoreError();  // the status is recorded in failed_; Abort has no result
}

absl::Status MpiCommunicator::MpiError(const Call& call, absl::string_view function, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  return absl::InternalError(absl::StrCat(call.name, " over group ", GroupString(call.group),
                                          ": ", function, " failed: ",
                                          absl::string_view(text, length)));
}

void MpiCommunicator::Orphan(std::unique_ptr<std::vector<unsigned char>> buffer) {
  if (!buffer) return;
  std::lock_guard<std::mutex> lock(mu_);
  orphans_.push_back(std::move(buffer));
}

std::unique_ptr<std::vector<unsigned char>> MpiCommunicator::TakeFoldBuffer(int64_t self) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = fold_buffers_.find(self);
  if (it == fold_buffers_.end() || !it->second) {
    return std::make_unique<std::vector<unsigned char>>();
  }
  return std::move(it->second);
}

void MpiCommunicator::ReturnFoldBuffer(int64_t self,
                                       std::unique_ptr<std::vector<unsigned char>> buffer) {
  std::lock_guard<std::mutex> lock(mu_);
  fold_buffers_[self] = std::move(buffer);
}

absl::Status MpiCommunicator::Wait(const Call& call, std::vector<MPI_Request>& requests,
                                   absl::string_view stage, std::vector<size_t>* missing) {
  // Polling keeps MPI's progress engine running: a nonblocking collective advances only
  // inside MPI calls, so every pause between polls delays each of its steps. The loop spins
  // (yielding the core) for kSpin and only then sleeps between polls, so that ranks
  // oversubscribing the cores and waiting long for a slow peer leave the cores to the
  // others.
  constexpr absl::Duration kSpin = absl::Milliseconds(20);
  const absl::Time spin_until = absl::Now() + kSpin;
  for (;;) {
    int done = 0;
    int code = MPI_Testall(static_cast<int>(requests.size()), requests.data(), &done,
                           MPI_STATUSES_IGNORE);
    if (code != MPI_SUCCESS) return MpiError(call, "MPI_Testall", code);
    if (done) return absl::OkStatus();
    const absl::Time now = absl::Now();
    if (now > call.deadline) break;
    if (now < spin_until) {
      std::this_thread::yield();
    } else {
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  }
  if (missing != nullptr) {
    for (size_t i = 0; i < requests.size(); ++i) {
      int done = 1;
      if (requests[i] != MPI_REQUEST_NULL) MPI_Test(&requests[i], &done, MPI_STATUS_IGNORE);
      if (!done) missing->push_back(i);
    }
  }
  return absl::DeadlineExceededError(absl::StrCat(
      call.name, " over group ", GroupString(call.group), " timed out after ",
      absl::FormatDuration(options_.timeout), " ", stage));
}

absl::StatusOr<MPI_Comm> MpiCommunicator::GroupComm(const Call& call) {
  std::vector<int64_t> key(call.group.begin(), call.group.end());
  {
    // Only this rank's member of the group (one thread) creates or uses its communicator,
    // so the lookup and the later insertion need no lock held in between.
    std::lock_guard<std::mutex> lock(mu_);
    auto it = group_comms_.find(key);
    if (it != group_comms_.end()) return it->second;
  }

  const int64_t size = static_cast<int64_t>(key.size());
  int64_t position = 0;
  std::vector<int> ranks(size);
  for (int64_t i = 0; i < size; ++i) {
    ranks[i] = static_cast<int>(assignment_.RankOf(key[i]));
    if (key[i] == call.self) position = i;
  }
  // Handshake: every member tells every other that it has reached this group's setup, so a
  // member that never comes costs a timeout naming it rather than a hang in
  // MPI_Comm_create_group, which has no nonblocking form.
  const uint64_t hash = HashIds(key);
  const int tag = GroupTag(hash);
  auto slots = std::make_unique<std::vector<unsigned char>>(size * sizeof(uint64_t));
  auto* values = reinterpret_cast<uint64_t*>(slots->data());
  values[position] = hash;
  std::vector<MPI_Request> requests;
  std::vector<int64_t> peer_of_request;
  for (int64_t i = 0; i < size; ++i) {
    if (i == position) continue;
    requests.emplace_back();
    peer_of_request.push_back(key[i]);
    MPI_Irecv(&values[i], 1, MPI_UINT64_T, ranks[i], tag, base_, &requests.back());
  }
  for (int64_t i = 0; i < size; ++i) {
    if (i == position) continue;
    requests.emplace_back();
    peer_of_request.push_back(-1);  // sends complete on their own; no peer to blame
    MPI_Isend(&values[position], 1, MPI_UINT64_T, ranks[i], tag, base_, &requests.back());
  }
  std::vector<size_t> missing;
  absl::Status arrived = Wait(call, requests, "while setting up the group", &missing);
  if (!arrived.ok()) {
    Orphan(std::move(slots));
    std::vector<int64_t> absent;
    for (size_t i : missing) {
      if (peer_of_request[i] >= 0) absent.push_back(peer_of_request[i]);
    }
    if (arrived.code() == absl::StatusCode::kDeadlineExceeded && !absent.empty()) {
      arrived = absl::DeadlineExceededError(
          absl::StrCat(arrived.message(), ": ", absent.size() == 1 ? "partition " : "partitions ",
                       absl::StrJoin(absent, ", "), " did not join"));
    }
    return Fail(arrived);
  }
  for (int64_t i = 0; i < size; ++i) {
    if (values[i] != hash) {
      return Fail(absl::InvalidArgumentError(
          absl::StrCat(call.name, " over group ", GroupString(call.group), ": partition ", key[i],
                       " was setting up a different group at the same time")));
    }
  }
  MPI_Group world_group = MPI_GROUP_NULL, group = MPI_GROUP_NULL;
  MPI_Comm_group(base_, &world_group);
  MPI_Group_incl(world_group, static_cast<int>(size), ranks.data(), &group);
  MPI_Comm comm = MPI_COMM_NULL;
  int code = MPI_Comm_create_group(base_, group, tag, &comm);
  MPI_Group_free(&group);
  MPI_Group_free(&world_group);
  if (code != MPI_SUCCESS) return Fail(MpiError(call, "MPI_Comm_create_group", code));
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  std::lock_guard<std::mutex> lock(mu_);
  group_comms_.emplace(std::move(key), comm);
  return comm;
}

absl::Status MpiCommunicator::ExchangeSignatures(const Call& call, MPI_Comm comm,
                                                 const Signature& mine,
                                                 const absl::Status& own_status) {
  static_assert(sizeof(Signature) % sizeof(int64_t) == 0);
  constexpr int kWords = sizeof(Signature) / sizeof(int64_t);
  const int64_t size = static_cast<int64_t>(call.group.size());
  auto buffer = std::make_unique<std::vector<unsigned char>>((size + 1) * sizeof(Signature));
  auto* signatures = reinterpret_cast<Signature*>(buffer->data());
  signatures[size] = mine;
  std::vector<MPI_Request> requests(1);
  int code = MPI_Iallgather(&signatures[size], kWords, MPI_INT64_T, signatures, kWords,
                            MPI_INT64_T, comm, &requests[0]);
  if (code != MPI_SUCCESS) return Fail(MpiError(call, "MPI_Iallgather", code));
  absl::Status joined = Wait(call, requests, "waiting for every member to join");
  if (!joined.ok()) {
    Orphan(std::move(buffer));
    return Fail(joined);
  }
  if (!own_status.ok()) {
    return absl::Status(own_status.code(), absl::StrCat(call.name, " over group ",
                                                        GroupString(call.group), ": ",
                                                        own_status.message()));
  }
  for (int64_t i = 0; i < size; ++i) {
    const Signature& theirs = signatures[i];
    if (theirs.own_code == static_cast<int64_t>(absl::StatusCode::kInvalidArgument)) {
      return absl::InvalidArgumentError(absl::StrCat(call.name, " over group ",
                                                     GroupString(call.group), ": partition ",
                                                     call.group[i], " made an invalid call"));
    }
    if (theirs.own_code != 0) {
      const auto code = static_cast<absl::StatusCode>(theirs.own_code);
      return absl::Status(code, absl::StrCat(call.name, " over group ", GroupString(call.group),
                                             ": partition ", call.group[i],
                                             " could not make its call (",
                                             absl::StatusCodeToString(code), ")"));
    }
    if (std::memcmp(&theirs, &mine, sizeof(Signature)) != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          call.name, " over group ", GroupString(call.group), ": partition ", call.group[i],
          " called ", Describe(theirs), " but partition ", call.self, " called ",
          Describe(mine)));
    }
  }
  return absl::OkStatus();
}

std::string MpiCommunicator::Describe(const Signature& signature) {
  static constexpr absl::string_view kNames[] = {"all_reduce", "all_gather", "reduce_scatter",
                                                 "all_to_all", "collective_permute",
                                                 "broadcast", "barrier"};
  std::string text(signature.collective >= 0 && signature.collective <= kBarrierCode
                       ? kNames[signature.collective]
                       : absl::string_view("an unknown collective"));
  if (signature.collective == kBarrierCode) return text;
  const auto type = static_cast<DataType>(signature.type);
  if (signature.collective == kAllReduceCode || signature.collective == kReduceScatterCode) {
    absl::StrAppend(&text, "(", ReductionKindName(static_cast<ReductionKind>(signature.kind)),
                    ")");
  }
  absl::StrAppend(&text, " of ", signature.input_count, " x ", DataTypeName(type));
  if (signature.output_count != signature.input_count) {
    absl::StrAppend(&text, " into ", signature.output_count);
  }
  if (signature.collective == kBroadcastCode) absl::StrAppend(&text, " from partition ", signature.root);
  if (signature.collective == kCollectivePermuteCode) {
    absl::StrAppend(&text, " with pairs hashed to ", static_cast<uint64_t>(signature.pairs_hash));
  }
  return text;
}

absl::StatusOr<MPI_Comm> MpiCommunicator::Begin(const Call& call, int64_t self,
                                                Signature signature, absl::Status own_status) {
  TESSEL_RETURN_IF_ERROR(FailedStatus());
  absl::Status group_status = ValidateGroup(self, call.group, num_partitions());
  if (!group_status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(call.name, ": ", group_status.message()));
  }
  if (assignment_.RankOf(self) != rank_) {
    if (assignment_.one_per_rank()) {
      return absl::InvalidArgumentError(absl::StrCat(call.name, ": rank ", rank_,
                                                     " runs partition ", partition_id_,
                                                     ", not partition ", self));
    }
    return absl::InvalidArgumentError(absl::StrCat(call.name, ": partition ", self,
                                                   " runs on rank ", assignment_.RankOf(self),
                                                   ", not on rank ", rank_));
  }
  // Every member sees the same group, so every member rejects it alike.
  std::map<int64_t, int64_t> member_on_rank;
  for (int64_t id : call.group) {
    auto [it, inserted] = member_on_rank.emplace(assignment_.RankOf(id), id);
    if (!inserted) {
      return absl::InvalidArgumentError(absl::StrCat(
          call.name, ": group ", GroupString(call.group), " has partitions ", it->second,
          " and ", id, " on rank ", it->first,
          "; the MPI backend moves data between ranks only (see collectives/hierarchical)"));
    }
  }
  TESSEL_ASSIGN_OR_RETURN(MPI_Comm comm, GroupComm(call));
  signature.own_code = static_cast<int64_t>(own_status.code());
  if (options_.verify_calls) {
    TESSEL_RETURN_IF_ERROR(ExchangeSignatures(call, comm, signature, own_status));
  } else if (!own_status.ok()) {
    return absl::Status(own_status.code(), absl::StrCat(call.name, " over group ",
                                                        GroupString(call.group), ": ",
                                                        own_status.message()));
  }
  return comm;
}

}  // namespace tessel::collectives
