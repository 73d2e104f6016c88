// One propagation step through one op: project the shardings of the op's operands and
// results onto the factors of its sharding rule, find per factor the axes the tensors agree
// on, and grow the tensors that may take more. The driver (propagate.h) runs this step to a
// fixed point.
#ifndef TESSEL_PARTITIONER_PROPAGATION_FACTOR_PROPAGATION_H_
#define TESSEL_PARTITIONER_PROPAGATION_FACTOR_PROPAGATION_H_

#include <cstdint>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "partitioner/propagation/tensor_state.h"
#include "partitioner/rules/op_sharding_rule.h"

namespace tessel::propagation {

// One tensor of the op, in the rule's order: operands, then results.
struct StepTensor {
  // Null for a value that is not a ranked tensor, or not on the op's mesh.
  TensorState* state = nullptr;
  // Its factors per dimension, from the rule.
  const rules::TensorFactors* factors = nullptr;
  // Element count: when factors conflict, the factor used by the largest tensor goes first,
  // so the big tensor keeps its sharding and the small one is resharded.
  int64_t numElements = 0;
  // Whether this step may write to the tensor (the driver turns this off to propagate in one
  // direction only, e.g. forward through a broadcast).
  bool mayGrow = true;
};

// Two tensors of the op whose dimensions sharing a factor are both closed (pinned by the
// user) with different axes: no propagation can reconcile them; the partitioner reshards.
struct FactorConflict {
  int64_t factor;
  int64_t first;   // tensor indices, first < second
  int64_t second;
  AxisList firstAxes;
  AxisList secondAxes;
};

// One axis a step gave a tensor: the dimension it went to and the tensor it came from.
struct AxisGain {
  int64_t dim;
  AxisRefAttr axis;
  int64_t source;  // -1 when the agreed axes are a common part no one tensor has
};

struct StepChange {
  int64_t tensor;  // index into the StepTensor list
  int64_t source;  // the tensor its first new axis came from, for provenance
  llvm::SmallVector<AxisGain, 2> gains;  // in the order the factors were visited
};

// A factor on which the op's tensors still differ: each keeps its own axes there and the
// partitioner reshards between them. `tessel explain` shows these as the conflicts
// propagation left.
struct FactorDisagreement {
  int64_t factor;
  struct Member {
    int64_t tensor;  // index into the StepTensor list
    int64_t dim;
    AxisList axes;   // the tensor's axes on the factor
  };
  llvm::SmallVector<Member, 3> members;
  AxisList agreed;  // what they have in common (compatibleMajorAxes)
};

// The factors of `rule` on which the tensors that have them do not all hold the same axes;
// writes nothing. Run at the fixed point, this is where propagation could not reconcile
// the tensors.
std::vector<FactorDisagreement> findDisagreements(const rules::OpShardingRule& rule,
                                                        llvm::ArrayRef<StepTensor> tensors,
                                                        MeshAttr mesh, int64_t level);

// Runs the step; updates the states of the tensors it grows and returns them.
//
// A tensor grows along factor f to the longest list of axes the tensors having f agree on
// (compatibleMajorAxes), cut at the first axis that:
//   - another factor of that tensor already uses, or that overlaps its replicated or
//     unreduced axes or its masked (lower-priority) dimensions;
//   - would make f, when it is not the minor-most factor of its dimension, split into a
//     number of shards that does not divide its size;
// and only if f's dimension is open, not masked at `level`, has no overflow axes, and every
// more-major factor of the dimension is already fully split (a dimension's axes fill its
// factors major to minor). Blocked and need-replication factors do not propagate.
//
// Factors are visited largest tensor first (the tensors that have the factor split), then in
// factor order: the documented tie-break when two factors want the same axis.
// When `conflicts` is not null, also appends the factors on which two closed dimensions
// disagree.
llvm::SmallVector<StepChange> propagateThroughRule(
    const rules::OpShardingRule& rule, llvm::MutableArrayRef<StepTensor> tensors, MeshAttr mesh,
    int64_t level, llvm::SmallVectorImpl<FactorConflict>* conflicts = nullptr);

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_FACTOR_PROPAGATION_H_
