// The in-process bootstrap: a rendezvous per group in shared memory.
#include "collectives/nccl/nccl_bootstrap.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "collectives/communicator.h"
#include "collectives/nccl/cuda_status.h"

namespace tessel::collectives::nccl {

absl::StatusOr<ncclUniqueId> InProcessBootstrap::ExchangeId(int64_t self,
                                                            absl::Span<const int64_t> group,
                                                            absl::Time deadline,
                                                            const std::atomic<bool>* cancelled) {
  std::vector<int64_t> members(group.begin(), group.end());
  absl::MutexLock lock(&mu_);
  const Key key(members, rounds_[{self, members}]++);
  Exchange& exchange = exchanges_[key];
  exchange.arrived.push_back(self);
  if (self == members.front()) {
    ncclUniqueId id;
    absl::Status made = NcclStatus(ncclGetUniqueId(&id), "ncclGetUniqueId");
    if (made.ok()) {
      exchange.id = id;
      exchange.has_id = true;
    } else {
      exchange.failure = made;
    }
  }
  const size_t size = members.size();
  auto complete = [&exchange, size]() {
    return exchange.arrived.size() == size && (exchange.has_id || !exchange.failure.ok());
  };
  // Wait in short slices: cancellation is a flag outside this mutex, so no release of the
  // mutex announces it.
  auto is_cancelled = [cancelled]() { return cancelled != nullptr && cancelled->load(); };
  while (!complete() && !is_cancelled() && absl::Now() < deadline) {
    mu_.AwaitWithDeadline(absl::Condition(&complete),
                          std::min(deadline, absl::Now() + absl::Milliseconds(20)));
  }
  if (!complete() && is_cancelled()) {
    if (++exchange.departed == static_cast<int64_t>(exchange.arrived.size())) {
      exchanges_.erase(key);
    }
    return absl::CancelledError("cancelled");
  }
  if (!complete()) {
    std::vector<int64_t> absent;
    for (int64_t member : members) {
      if (std::find(exchange.arrived.begin(), exchange.arrived.end(), member) ==
          exchange.arrived.end()) {
        absent.push_back(member);
      }
    }
    // This member leaves; a later arrival must not count it as present.
    if (++exchange.departed == static_cast<int64_t>(exchange.arrived.size())) {
      exchanges_.erase(key);
    }
    return absl::DeadlineExceededError(
        absl::StrCat("setting up the NCCL communicator of group ", GroupString(members), ": ",
                     absent.size() == 1 ? "partition " : "partitions ", absl::StrJoin(absent, ", "),
                     " did not join"));
  }
  absl::StatusOr<ncclUniqueId> result = exchange.has_id
                                            ? absl::StatusOr<ncclUniqueId>(exchange.id)
                                            : absl::StatusOr<ncclUniqueId>(exchange.failure);
  if (++exchange.departed == static_cast<int64_t>(size)) exchanges_.erase(key);
  return result;
}

}  // namespace tessel::collectives::nccl
