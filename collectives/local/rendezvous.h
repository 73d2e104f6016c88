// Where the threads of one LocalCommunicator meet: for each collective call, a rendezvous
// that the members join, wait at until all are there, and leave together. It owns the
// failure handling — timeouts, disagreeing members, abort — so that the collectives in
// local_communicator.cc only move data.
//
// The k-th call a partition makes over a group meets the k-th call of every other member over
// that same (ordered) group, so concurrent collectives over disjoint or overlapping groups
// never mix. A rendezvous goes through three stages:
//   1. joining: members arrive and publish their input; it may still fail (timeout, abort,
//      a member whose call disagrees, a member whose arguments are wrong), and then every
//      member that joined it, and every member that joins later, gets the same error;
//   2. ready: every member has joined; from here on nothing fails, because a member that
//      left early could free an input another member is still reading;
//   3. leaving: members wait until every member is done reading, then go.
#ifndef TESSEL_COLLECTIVES_LOCAL_RENDEZVOUS_H_
#define TESSEL_COLLECTIVES_LOCAL_RENDEZVOUS_H_

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "absl/types/span.h"

namespace tessel::collectives::local {

// One collective call over one group. Its fields are guarded by the table's mutex, except
// that once it is ready `inputs` and `shared` no longer change and are read without it.
struct Rendezvous {
  std::vector<int64_t> group;
  int64_t sequence = 0;
  // What the first member to join called, e.g. "all_reduce(sum) of 8 x f32"; every later
  // member's call must have the same description.
  std::string name;
  std::string description;
  int64_t first_member = -1;
  // Each member's input by group position, published when it joins.
  std::vector<const void*> inputs;
  std::vector<bool> joined;
  int64_t num_joined = 0;
  bool ready = false;
  // Not OK once the rendezvous failed; only while it is not ready.
  absl::Status status;
  // Scratch space every member can write, allocated when the rendezvous becomes ready.
  std::unique_ptr<std::byte[]> shared;
  int64_t shared_bytes = 0;
  // A reusable barrier for members of a ready rendezvous.
  int64_t sync_arrived = 0;
  int64_t sync_generation = 0;
  int64_t num_departed = 0;
};

// A member's handle on a ready rendezvous.
struct Ticket {
  std::shared_ptr<Rendezvous> rendezvous;
  int64_t position;

  int64_t group_size() const { return static_cast<int64_t>(rendezvous->group.size()); }
  const void* input(int64_t position) const { return rendezvous->inputs[position]; }
  std::byte* shared() const { return rendezvous->shared.get(); }
};

// A member's call as it joins.
struct JoinRequest {
  int64_t self;
  absl::Span<const int64_t> group;
  absl::string_view name;   // "all_reduce"
  std::string description;  // "all_reduce(sum) of 8 x f32"
  // The outcome of the caller's own argument checks: an error fails the whole rendezvous.
  absl::Status own_status;
  const void* input;
  // Bytes of scratch space the collective needs (all members ask for the same amount).
  int64_t shared_bytes;
};

class RendezvousTable {
 public:
  RendezvousTable(int64_t num_partitions, absl::Duration timeout);

  // Joins the caller's next call over the request's group and waits until every member has
  // joined. Fails, on every member that joined, with DeadlineExceeded if some member has
  // not joined `timeout` after the caller did, with InvalidArgument if members disagree
  // on the call or a member's own checks failed, and with Aborted after Abort().
  // REQUIRES: the group passed ValidateGroup.
  absl::StatusOr<Ticket> Join(JoinRequest request);

  // Waits until every member of the ticket's rendezvous has called Sync the same number of
  // times. Needs no timeout: every member is past joining and only copies memory.
  void Sync(const Ticket& ticket);

  // Waits until every member is done with the inputs, then leaves the rendezvous.
  void Leave(Ticket ticket);

  // Fails every rendezvous that is not ready, and every later Join, with Aborted.
  void Abort(const absl::Status& reason);

 private:
  using Key = std::pair<std::vector<int64_t>, int64_t>;

  // Fails `rendezvous` (if not ready) with `status` and wakes its waiters.
  void Fail(Rendezvous& rendezvous, const absl::Status& status);
  // If a member that `self` waits for is itself waiting in another rendezvous that waits
  // for `self`, neither can ever complete: fails both.
  void FailIfCrossed(int64_t self, Rendezvous& rendezvous);
  // Counts the caller out of a rendezvous and forgets it once every member has left.
  void Depart(const Key& key, Rendezvous& rendezvous);
  void SyncLocked(std::unique_lock<std::mutex>& lock, Rendezvous& rendezvous);

  const absl::Duration timeout_;

  // The standard library's mutex rather than Abseil's: the installed Abseil is not built
  // with ThreadSanitizer annotations, so TSan would not see absl::Mutex synchronize.
  // Every private method expects it held; everything below is guarded by it.
  std::mutex mu_;
  // One condition variable for every rendezvous: waits are short and groups are few.
  std::condition_variable changed_;
  std::map<Key, std::shared_ptr<Rendezvous>> rendezvous_;
  // Per partition, how many calls it has made over each group: the next call's sequence.
  std::vector<std::map<std::vector<int64_t>, int64_t>> next_sequence_;
  // Per partition, the rendezvous it waits to complete, or null.
  std::vector<Rendezvous*> waiting_in_;
  absl::Status abort_status_;
};

}  // namespace tessel::collectives::local

#endif  // TESSEL_COLLECTIVES_LOCAL_RENDEZVOUS_H_
