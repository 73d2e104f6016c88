// The local collectives backend: N partitions as threads of one process, sharing one
// LocalCommunicator. It is the embedded default and what the tests run on.
//
//   LocalCommunicator communicator(/*num_partitions=*/4);
//   std::vector<std::thread> threads;
//   for (int64_t p = 0; p < 4; ++p) {
//     threads.emplace_back([&, p] {
//       std::vector<float> values(8, float(p)), sums(8);
//       absl::Status status = communicator.AllReduce(
//           p, {0, 1, 2, 3}, ReductionKind::kSum, MakeConstBuffer(absl::MakeConstSpan(values)),
//           MakeBuffer(absl::MakeSpan(sums)));  // sums == {6, 6, ...} on every partition
//     });
//   }
//
// Each call meets the other members' calls at a rendezvous (rendezvous.h); each member then
// copies what it needs straight from the others' inputs into its own output (an all-reduce
// first reduces one slice per member into shared scratch space), and no member returns
// before every member has finished reading its input. A member whose output overlaps its own
// input writes to private scratch first, which makes the in-place forms safe.
#ifndef TESSEL_COLLECTIVES_LOCAL_LOCAL_COMMUNICATOR_H_
#define TESSEL_COLLECTIVES_LOCAL_LOCAL_COMMUNICATOR_H_

#include <cstdint>
#include <functional>
#include <string>

#include "absl/time/time.h"
#include "collectives/communicator.h"
#include "collectives/local/rendezvous.h"

namespace tessel::collectives {

class LocalCommunicator final : public Communicator {
 public:
  struct Options {
    // How long a collective waits, from the caller's arrival, for the rest of its group
    // before failing with DeadlineExceeded. Tests shorten it.
    absl::Duration timeout = absl::Seconds(60);
  };

  // REQUIRES: num_partitions >= 1.
  explicit LocalCommunicator(int64_t num_partitions);
  LocalCommunicator(int64_t num_partitions, Options options);

  int64_t num_partitions() const override { return num_partitions_; }

  absl::Status AllReduce(int64_t self, absl::Span<const int64_t> group, ReductionKind kind,
                         ConstBuffer input, Buffer output) override;
  absl::Status AllGather(int64_t self, absl::Span<const int64_t> group, ConstBuffer input,
                         Buffer output) override;
  absl::Status ReduceScatter(int64_t self, absl::Span<const int64_t> group, ReductionKind kind,
                             ConstBuffer input, Buffer output) override;
  absl::Status AllToAll(int64_t self, absl::Span<const int64_t> group, ConstBuffer input,
                        Buffer output) override;
  absl::Status CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                 absl::Span<const SourceTarget> pairs, ConstBuffer input,
                                 Buffer output) override;
  absl::Status Broadcast(int64_t self, absl::Span<const int64_t> group, int64_t root,
                         Buffer buffer) override;
  absl::Status Barrier(int64_t self, absl::Span<const int64_t> group) override;
  void Abort(const absl::Status& reason) override;

 private:
  // What one collective call is, for Run.
  struct Call {
    absl::string_view name;
    std::string description;
    // The caller's own argument checks (after the group's).
    absl::Status own_status;
    ConstBuffer input;
    // Where the result goes; empty for barriers.
    Buffer output;
    int64_t shared_bytes = 0;
    // Whether a result that overlaps the input must wait in private scratch until every
    // member has left; false where the body writes only after every input has been read.
    bool stage_overlapping_output = true;
  };
  // Moves data for the member holding `ticket`, writing its result to `destination` (the
  // output, or private scratch when the output overlaps the input).
  using Body = std::function<void(const local::Ticket& ticket, void* destination)>;

  // Validates the group, joins the rendezvous, runs `body` and leaves.
  absl::Status Run(int64_t self, absl::Span<const int64_t> group, Call call, const Body& body);

  const int64_t num_partitions_;
  local::RendezvousTable table_;
};

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_LOCAL_LOCAL_COMMUNICATOR_H_
