// The narrow interface between the runtime and a collectives backend (local threads, MPI,
// NCCL). Every call names the calling partition and the group it runs over, so one object
// can serve many partitions (the local backend) or just one (a rank of an MPI job).
//
// A group is an ordered list of distinct partition ids that includes the caller; "position i"
// means group[i]. Every member of a group makes the same call (same collective, data type,
// element counts, reduction, root or pairs) for it to complete; the k-th call a partition
// makes over a group meets the k-th call of every other member over the same group.
//
//   // On partition `self`, sum 8 floats over partitions {0, 1, 2, 3}:
//   std::vector<float> values(8, 1.0f), sums(8);
//   absl::Status status = communicator.AllReduce(
//       self, {0, 1, 2, 3}, ReductionKind::kSum,
//       MakeConstBuffer(absl::MakeConstSpan(values)), MakeBuffer(absl::MakeSpan(sums)));
//
// Errors: InvalidArgument for a call that is wrong on its own (the caller is not in the
// group, counts that do not fit) or that disagrees with another member's call;
// DeadlineExceeded when some member does not join in time; Aborted after Abort(). A failed
// call fails on every member that joined it, so no member waits for the timeout because
// another one made a mistake. The one exception is a call whose group is itself invalid
// (see ValidateGroup): it cannot name the call the others joined, so it fails only on the
// caller, and the others wait for their timeout or for Abort().
#ifndef TESSEL_COLLECTIVES_COMMUNICATOR_H_
#define TESSEL_COLLECTIVES_COMMUNICATOR_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "collectives/data_type.h"
#include "collectives/reduction.h"

namespace tessel::collectives {

// One edge of a collective permute, in partition ids.
struct SourceTarget {
  int64_t source;
  int64_t target;
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  // Partition ids run over [0, num_partitions()).
  virtual int64_t num_partitions() const = 0;

  // Every member's `output` becomes the elementwise reduction of all members' `input`s,
  // combined in group order, so every member gets bit-identical results.
  // REQUIRES: input and output have the same type and count; output may be input (in place).
  virtual absl::Status AllReduce(int64_t self, absl::Span<const int64_t> group, ReductionKind kind,
                                 ConstBuffer input, Buffer output) = 0;

  // Every member's `output` becomes the concatenation of all members' `input`s in group
  // order. REQUIRES: output count == group size * input count.
  virtual absl::Status AllGather(int64_t self, absl::Span<const int64_t> group, ConstBuffer input,
                                 Buffer output) = 0;

  // The elementwise reduction of all `input`s is cut into group-size equal blocks; the member
  // at position i gets block i. REQUIRES: input count == group size * output count.
  virtual absl::Status ReduceScatter(int64_t self, absl::Span<const int64_t> group,
                                     ReductionKind kind, ConstBuffer input, Buffer output) = 0;

  // Each `input` is cut into group-size equal blocks and block j goes to position j; block i
  // of `output` comes from position i. REQUIRES: equal counts, divisible by the group size.
  virtual absl::Status AllToAll(int64_t self, absl::Span<const int64_t> group, ConstBuffer input,
                                Buffer output) = 0;

  // Each `target`'s output becomes its `source`'s input; a member that is no target gets
  // zeros. Every member passes the same pairs, whose ids are members of `group`; sources
  // are distinct and so are targets. REQUIRES: equal counts; output may be input (in place).
  virtual absl::Status CollectivePermute(int64_t self, absl::Span<const int64_t> group,
                                         absl::Span<const SourceTarget> pairs, ConstBuffer input,
                                         Buffer output) = 0;

  // Every member's `buffer` becomes a copy of `root`'s. REQUIRES: root is in the group.
  virtual absl::Status Broadcast(int64_t self, absl::Span<const int64_t> group, int64_t root,
                                 Buffer buffer) = 0;

  // Returns once every member of `group` has called it.
  virtual absl::Status Barrier(int64_t self, absl::Span<const int64_t> group) = 0;

  // Makes every collective still waiting for members, and every later one, fail with code
  // Aborted and a message that includes `reason`'s. A partition that fails calls this so
  // the others stop waiting for it instead of running into the timeout.
  virtual void Abort(const absl::Status& reason) = 0;

  // In-place forms: `buffer` is both input and output.
  absl::Status AllReduceInPlace(int64_t self, absl::Span<const int64_t> group, ReductionKind kind,
                                Buffer buffer) {
    return AllReduce(self, group, kind, buffer, buffer);
  }
  absl::Status CollectivePermuteInPlace(int64_t self, absl::Span<const int64_t> group,
                                        absl::Span<const SourceTarget> pairs, Buffer buffer) {
    return CollectivePermute(self, group, pairs, buffer, buffer);
  }
};

// The checks every backend makes before joining a collective, shared so that all backends
// accept and reject the same calls (with InvalidArgument and the same messages).

// The members are distinct ids in [0, num_partitions) and include `self`.
absl::Status ValidateGroup(int64_t self, absl::Span<const int64_t> group, int64_t num_partitions);

// `output` has `input`'s type and `expected_output_count` elements.
absl::Status ValidateOutput(ConstBuffer input, Buffer output, int64_t expected_output_count);

// `count` elements split into `group_size` equal blocks.
absl::Status ValidateDivisible(absl::string_view what, int64_t count, int64_t group_size);

// The pairs name members of `group`, with distinct sources and distinct targets.
absl::Status ValidatePairs(absl::Span<const int64_t> group, absl::Span<const SourceTarget> pairs);

// "[0, 1, 2, 3]".
std::string GroupString(absl::Span<const int64_t> group);

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_COMMUNICATOR_H_
