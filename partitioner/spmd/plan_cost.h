// The bytes a reshard plan moves per device: the one estimate the planner compares candidate
// plans by (a gather and a slice against an all_to_all, against a collective_permute).
// Kept behind planBytes so a finer cost model can replace it in one place.
//
//   int64_t viaGather = planBytes({{PlanStepKind::kAllGather, 4, localBytes}});
//   int64_t viaAllToAll = planBytes({{PlanStepKind::kAllToAll, 4, localBytes}});
#ifndef TESSEL_PARTITIONER_SPMD_PLAN_COST_H_
#define TESSEL_PARTITIONER_SPMD_PLAN_COST_H_

#include <cstdint>

#include "llvm/ADT/ArrayRef.h"
#include "mlir/IR/Types.h"

namespace tessel::spmd {

enum class PlanStepKind {
  kLocal,              // pad, slice, dynamic_slice, select: nothing leaves the device
  kAllGather,
  kAllToAll,
  kCollectivePermute,  // every device sends its whole operand (once)
  kAllReduce,
  kReduceScatter,
};

struct PlanStep {
  PlanStepKind kind;
  int64_t groupSize;     // devices in each group of the collective
  int64_t operandBytes;  // bytes of the step's operand on one device
};

// Bytes one device sends over all steps, with group size n and local operand bytes L:
// all_gather (n-1)L (the gathered n*L less its own part), all_to_all (n-1)L/n,
// collective_permute L, all_reduce 2(n-1)L/n, reduce_scatter (n-1)L/n, local steps 0.
// Under a ScopedRandomChoices (random_choices.h) the estimate is scaled at random, so that
// comparisons between plans go either way.
int64_t planBytes(llvm::ArrayRef<PlanStep> steps);

// The bytes of a static ranked tensor type (0 for anything else).
int64_t tensorBytes(mlir::Type type);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_PLAN_COST_H_
