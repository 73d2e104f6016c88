// Sharding propagation: from the few shardings a user wrote (on function arguments and
// results, sharding constraints, op annotations) to a sharding on every value.
//
//   PropagationReport report;
//   if (failed(propagateShardings(module, PropagationOptions(), &report))) ...
//   // Every op result now carries `tessel.sharding`; report.provenanceOf(v) says where
//   // each value's sharding came from.
//
// The algorithm (docs/propagation.md): each op's sharding rule maps its operand and result
// dimensions to factors; a step through an op projects the shardings onto the factors, lets
// the tensors agree per factor and grows the ones that may take more (factor_propagation.h).
// Steps run over a worklist to a fixed point, in stages by op kind — elementwise and
// data-flow edges first, then broadcasts, then reshapes, then everything else — so cheap,
// exact information spreads before shape-changing ops decide; and the whole is repeated per
// user priority level, dimensions with a weaker priority staying masked until their level.
#ifndef TESSEL_PARTITIONER_PROPAGATION_PROPAGATE_H_
#define TESSEL_PARTITIONER_PROPAGATION_PROPAGATE_H_

#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/propagation/tensor_state.h"

namespace tessel::propagation {

struct PropagationOptions {
  // Do not propagate through the permutation factors of pad and slice (see
  // rules::ShardingRuleOptions::conservative).
  bool conservative = false;
  // Also write `tessel.sharding_origin` on each op: per result, where its sharding came from.
  bool annotateOrigins = false;
  // Record, per axis of every value, the annotation it came from and the ops on the way,
  // and the ops where tensors still disagree at the end (PropagationReport's axisLinks and
  // conflicts). Costs a little memory per value; off for plain partitioning.
  bool recordAxisOrigins = false;
};

// An op whose tensors still disagree on a factor once propagation is done: each keeps its
// own axes there, and the partitioner reshards between them.
struct OpConflict {
  mlir::Operation* op = nullptr;
  struct Member {
    mlir::Value value;
    int64_t operand = -1;  // its operand number, or -1 for a result
    int64_t result = -1;   // its result number, or -1 for an operand
    int64_t dim = 0;
    AxisList axes;
  };
  llvm::SmallVector<Member, 3> members;
  AxisList agreed;  // what the members have in common (empty: nothing)
};

struct PropagationReport {
  // Where `value`'s sharding came from (its origin and path), or none when no sharding
  // reached it. Rebuilt on each call, in time proportional to the path.
  std::optional<Provenance> provenanceOf(mlir::Value value) const;

  // For every value that received or kept a sharding: its origin and the step back.
  llvm::DenseMap<mlir::Value, ProvenanceLink> links;

  // With recordAxisOrigins: for each axis of `sharding` (the value's final sharding), the
  // annotation it came from and the ops it travelled through. An axis with no record (put
  // there after propagation, e.g. by weight-update sharding) has an empty origin.
  std::vector<AxisProvenance> axisProvenanceOf(mlir::Value value,
                                               ir::ShardingAttr sharding) const;
  // The conflicts `value` takes part in (as an operand or result of the op).
  std::vector<const OpConflict*> conflictsOf(mlir::Value value) const;

  llvm::DenseMap<mlir::Value, llvm::SmallVector<AxisLink, 0>> axisLinks;
  std::vector<OpConflict> conflicts;
  // Per value, the indices into `conflicts` of those it takes part in, so that explaining
  // every value of a large program does not scan every conflict for each.
  llvm::DenseMap<mlir::Value, llvm::SmallVector<int32_t, 1>> conflictsByValue;
};

// `"data" from argument 0 of @main via hlo.add (f.mlir:3:8)`: one axis's story.
std::string describeAxisProvenance(const AxisProvenance& provenance);

// "argument 0 of @main via hlo.add (f.mlir:3:8), hlo.dot_general (f.mlir:4:8)".
std::string describeProvenance(const Provenance& provenance);

// Propagates shardings through every function of `module` and writes them: every op result
// gets `tessel.sharding` (a sharding_per_value), every function argument and result a
// `tessel.sharding`. Values nothing reaches are replicated. Annotated dimensions keep what
// the user wrote. Does nothing to a module without a `tessel.mesh`.
// Where annotations disagree (an argument returned as a result annotated differently, a
// constraint on an annotated value), each value keeps its own and the partitioner inserts
// the reshard; propagation itself does not fail on them.
mlir::LogicalResult propagateShardings(mlir::ModuleOp module, const PropagationOptions& options,
                                       PropagationReport* report);

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_PROPAGATE_H_
