// The meeting points of LocalCommunicator's threads (see rendezvous.h).
#include "collectives/local/rendezvous.h"

#include <algorithm>
#include <chrono>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "collectives/communicator.h"

namespace tessel::collectives::local {
namespace {

int64_t PositionIn(const std::vector<int64_t>& group, int64_t id) {
  auto it = std::find(group.begin(), group.end(), id);
  return it == group.end() ? -1 : it - group.begin();
}

// "all_reduce over partitions [0, 1] (call 3 over this group)": the prefix of every error,
// so that a failure names the collective and where it was in the program.
std::string CallName(const Rendezvous& rendezvous) {
  return absl::StrCat(rendezvous.name, " over partitions ", GroupString(rendezvous.group),
                      " (call ", rendezvous.sequence, " over this group)");
}

// A copy of `status` that shares nothing with it. Statuses share their message through a
// reference count that lives in the (uninstrumented) Abseil library, so handing one shared
// status to several threads shows up as a false data race under ThreadSanitizer.
absl::Status Detach(const absl::Status& status) {
  return absl::Status(status.code(), std::string(status.message()));
}

}  // namespace

RendezvousTable::RendezvousTable(int64_t num_partitions, absl::Duration timeout)
    : timeout_(timeout),
      next_sequence_(num_partitions),
      waiting_in_(num_partitions, nullptr) {}

absl::StatusOr<Ticket> RendezvousTable::Join(JoinRequest request) {
  const auto deadline = std::chrono::steady_clock::now() + absl::ToChronoNanoseconds(timeout_);
  std::unique_lock<std::mutex> lock(mu_);
  if (!abort_status_.ok()) return Detach(abort_status_);

  std::vector<int64_t> group(request.group.begin(), request.group.end());
  const int64_t size = static_cast<int64_t>(group.size());
  Key key(group, next_sequence_[request.self][group]++);
  std::shared_ptr<Rendezvous>& slot = rendezvous_[key];
  if (!slot) {
    slot = std::make_shared<Rendezvous>();
    slot->group = group;
    slot->sequence = key.second;
    slot->name = std::string(request.name);
    slot->description = request.description;
    slot->first_member = request.self;
    slot->inputs.assign(size, nullptr);
    slot->joined.assign(size, false);
    slot->shared_bytes = request.shared_bytes;
  }
  std::shared_ptr<Rendezvous> rendezvous = slot;
  Rendezvous& r = *rendezvous;
  const int64_t position = PositionIn(group, request.self);
  r.joined[position] = true;
  r.inputs[position] = request.input;
  ++r.num_joined;

  if (!request.own_status.ok()) {
    Fail(r, absl::Status(request.own_status.code(),
                         absl::StrCat(CallName(r), ": partition ", request.self, ": ",
                                      request.own_status.message())));
  } else if (request.description != r.description) {
    Fail(r, absl::InvalidArgumentError(absl::StrCat(
                CallName(r), ": partition ", request.self, " called ", request.description,
                " but partition ", r.first_member, " called ", r.description)));
  }
  if (r.status.ok() && r.num_joined == size) {
    r.ready = true;
    if (r.shared_bytes > 0) r.shared.reset(new std::byte[r.shared_bytes]);
    changed_.notify_all();
  }
  if (r.status.ok() && !r.ready) {
    FailIfCrossed(request.self, r);
    waiting_in_[request.self] = &r;
    while (!r.ready && r.status.ok()) {
      if (changed_.wait_until(lock, deadline) == std::cv_status::timeout && !r.ready &&
          r.status.ok()) {
        std::vector<int64_t> missing;
        for (int64_t i = 0; i < size; ++i) {
          if (!r.joined[i]) missing.push_back(group[i]);
        }
        Fail(r, absl::DeadlineExceededError(
                    absl::StrCat(CallName(r), " timed out after ", absl::FormatDuration(timeout_),
                                 ": ", missing.size() == 1 ? "partition " : "partitions ",
                                 absl::StrJoin(missing, ", "), " did not join")));
      }
    }
    waiting_in_[request.self] = nullptr;
  }
  if (!r.status.ok()) {
    absl::Status status = Detach(r.status);
    Depart(key, r);
    return status;
  }
  return Ticket{std::move(rendezvous), position};
}

void RendezvousTable::Fail(Rendezvous& rendezvous, const absl::Status& status) {
  if (rendezvous.ready || !rendezvous.status.ok()) return;
  rendezvous.status = status;
  changed_.notify_all();
}

void RendezvousTable::FailIfCrossed(int64_t self, Rendezvous& rendezvous) {
  for (size_t i = 0; i < rendezvous.group.size(); ++i) {
    if (rendezvous.joined[i]) continue;
    int64_t other = rendezvous.group[i];
    Rendezvous* theirs = waiting_in_[other];
    if (theirs == nullptr || theirs == &rendezvous) continue;
    int64_t mine = PositionIn(theirs->group, self);
    if (mine < 0 || theirs->joined[mine]) continue;
    absl::Status status = absl::InvalidArgumentError(absl::StrCat(
        "partitions ", self, " and ", other, " disagree on their next collective: partition ", self,
        " called ", CallName(rendezvous), ", partition ", other, " called ", CallName(*theirs)));
    Fail(rendezvous, status);
    Fail(*theirs, status);
    return;
  }
}

void RendezvousTable::Sync(const Ticket& ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  SyncLocked(lock, *ticket.rendezvous);
}

void RendezvousTable::SyncLocked(std::unique_lock<std::mutex>& lock, Rendezvous& r) {
  const int64_t generation = r.sync_generation;
  if (++r.sync_arrived == static_cast<int64_t>(r.group.size())) {
    r.sync_arrived = 0;
    ++r.sync_generation;
    changed_.notify_all();
    return;
  }
  changed_.wait(lock, [&] { return r.sync_generation != generation; });
}

void RendezvousTable::Leave(Ticket ticket) {
  std::unique_lock<std::mutex> lock(mu_);
  Rendezvous& r = *ticket.rendezvous;
  SyncLocked(lock, r);
  Depart(Key(r.group, r.sequence), r);
}

void RendezvousTable::Depart(const Key& key, Rendezvous& rendezvous) {
  // Every member has joined and left: no later call can refer to this one.
  if (++rendezvous.num_departed == static_cast<int64_t>(rendezvous.group.size())) {
    rendezvous_.erase(key);
  }
}

void RendezvousTable::Abort(const absl::Status& reason) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!abort_status_.ok()) return;
  // Every message is made before anything changes: a caller that runs out of memory here
  // (a partition whose allocator has none left) leaves the table as it was, for another
  // thread to abort it again.
  absl::Status aborted =
      absl::AbortedError(absl::StrCat("collectives aborted: ", reason.message()));
  std::vector<absl::Status> failures;
  failures.reserve(rendezvous_.size());
  for (auto& [key, rendezvous] : rendezvous_) {
    failures.push_back(
        absl::AbortedError(absl::StrCat(CallName(*rendezvous), ": ", aborted.message())));
  }
  abort_status_ = std::move(aborted);
  size_t i = 0;
  for (auto& [key, rendezvous] : rendezvous_) Fail(*rendezvous, failures[i++]);
}

}  // namespace tessel::collectives::local
