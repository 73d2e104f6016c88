// Known ways to break a partitioned program, applied after partitioning, for measuring how
// quickly the differential fuzzer notices a partitioner that makes that mistake (its "kill
// rate"). Each mutation rewrites one site, chosen by a seed among the sites where it applies,
// into a program that still verifies but computes something else on some device:
//   drop-collective   an all_reduce or collective_permute is replaced by its operand;
//   shift-offset      a run-time start index of a dynamic_slice or dynamic_update_slice
//                     that depends on the partition is one too large;
//   skip-mask         a select whose predicate depends on the partition keeps its first
//                     value everywhere (the mask of padding or of a halo is skipped);
//   wrong-axes        an all_reduce or reduce_scatter runs over another mesh axis;
//   wrong-dim         an all_to_all swaps its split and concat dimensions, or an all_gather
//                     concatenates along another dimension (reshaped back to the old type).
//
//   if (MutatePartitioned(module, Mutation::kSkipMask, seed)) ... // the check should fail
#ifndef TESSEL_TESTS_DIFFERENTIAL_PARTITION_MUTATIONS_H_
#define TESSEL_TESTS_DIFFERENTIAL_PARTITION_MUTATIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mlir/IR/BuiltinOps.h"

namespace tessel::testing {

enum class Mutation { kDropCollective, kShiftOffset, kSkipMask, kWrongAxes, kWrongDim };

const std::vector<Mutation>& AllMutations();
std::string MutationName(Mutation mutation);
std::optional<Mutation> ParseMutation(const std::string& name);

// Applies `mutation` at one of its sites in `module`, chosen by `seed`; false (and `module`
// unchanged) when it applies nowhere.
bool MutatePartitioned(mlir::ModuleOp module, Mutation mutation, uint64_t seed);

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_PARTITION_MUTATIONS_H_
