// Choosing among several ways to partition one op (dot_general by its factor assignments,
// convolution by the layout it is computed in): each candidate is emitted into a trial block,
// priced by the cost model (strategy_cost.h), and the preferred one's index returned; the
// handler then emits that one for real. Choices are cached by everything that decides them,
// so repeated layers price each configuration once, and --strategy-remarks names the chosen
// candidate and the runner-up with their costs.
//
//   mlir::FailureOr<std::optional<size_t>> chosen = chooseStrategy(
//       op, state, mesh, candidates.size(),
//       [&](size_t i) { return emitCandidate(i); },   // devices used, nullopt: does not apply
//       [&](size_t i) { return describe(i); });
#ifndef TESSEL_PARTITIONER_SPMD_STRATEGY_CHOICE_H_
#define TESSEL_PARTITIONER_SPMD_STRATEGY_CHOICE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "llvm/ADT/STLFunctionalExtras.h"
#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {

// `emit(i)` emits candidate i at the builder's insertion point (inside a trial the driver
// opens) and returns how many devices share its work, or nullopt where the candidate does
// not apply (having emitted nothing that matters). Returns the preferred candidate, nullopt
// where none applies. With one candidate nothing is priced.
//
// Preference: the fastest, then the one sending least; but a candidate that splits the work
// over fewer devices than another computes redundantly (which a roofline at peak flops
// underprices) and holds larger operands, so it wins only if it is also no slower and sends
// no more bytes. Code hoisted out of an enclosing loop runs once: spread over the loop's trips
// where they are known, otherwise only a tie-break. A first candidate that moves nothing and
// uses every device ends the search.
//
// With kNoMoreBytesThanFirst, only candidates that send no more bytes than the first (the
// one computing in the layout the users want) compete: where candidates move different
// tensors (an activation, a kernel, a result), the latency term alone could otherwise buy
// one collective fewer with many times the bytes on small tensors.
enum class StrategyPolicy { kFastest, kNoMoreBytesThanFirst };
mlir::FailureOr<std::optional<size_t>> chooseStrategy(
    mlir::Operation* op, PartitionState& state, ir::MeshAttr mesh, size_t count,
    llvm::function_ref<mlir::FailureOr<std::optional<int64_t>>(size_t)> emit,
    llvm::function_ref<std::string(size_t)> describe,
    StrategyPolicy policy = StrategyPolicy::kFastest);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_STRATEGY_CHOICE_H_
