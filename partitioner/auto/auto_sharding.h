// Auto-sharding: chooses shardings for the values of a program the user left unannotated,
// so that the cost model's step time is least under a per-device memory limit, and writes
// them into the program as closed shardings. Propagation and partitioning then run as usual
// and keep them. User annotations are hard constraints: the plan is built around them and
// they stay as written, priorities included.
//
//   TESSEL_ASSIGN_OR_RETURN(AutoShardingResult chosen,
//                           autoShard(module, spec, AutoShardingOptions()));
//   // then propagateShardings and partitionModule as for a hand-annotated program
//
// The formulation (docs/auto_sharding.md): a cost graph (cost_graph.h) over the entry
// function's top-level ops, one strategy per node chosen by an ILP (ilp.h) solved by CBC.
#ifndef TESSEL_PARTITIONER_AUTO_AUTO_SHARDING_H_
#define TESSEL_PARTITIONER_AUTO_AUTO_SHARDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "cost_model/hardware_spec.h"
#include "mlir/IR/BuiltinOps.h"
#include "partitioner/auto/explain.h"
#include "partitioner/ir/location.h"

namespace tessel::auto_sharding {

struct AutoShardingOptions {
  // Bytes per device the plan may hold; 0 takes the hardware spec's memory capacity.
  int64_t memoryLimitBytes = 0;
  // The solver returns the best plan found when this runs out.
  double timeLimitSeconds = 10;
  // The function to shard; empty for @main, or the module's only function.
  std::string function;
  // Also solve for the runner-up plan (AutoShardingResult::nextBest): a second solve, as
  // long as the first at most.
  bool nextBest = false;
  // Names values by their source names in the explanation (may be null).
  PlaceNamer nameOf;
};

struct AutoShardingResult {
  // The ILP's estimate of the chosen plan, split as the objective adds it up.
  double objectiveSeconds = 0;
  double computeSeconds = 0;
  double communicationSeconds = 0;  // reductions inside ops and reshards between them
  double reshardSeconds = 0;        // the reshards' part of communicationSeconds
  // Whether the solver proved the plan optimal (false when its time limit ran out first).
  bool optimal = false;
  double solveSeconds = 0;
  int64_t nodes = 0;       // choices the ILP made
  int64_t mergedOps = 0;   // elementwise ops that followed an operand instead
  // Identical consecutive layers found and tied to take the same strategies (1: none);
  // `optimal` then means optimal among plans that treat them alike (layers.h).
  int64_t repeatedLayers = 1;
  // The copies of each run of layers tied, the longest first (an encoder's and a decoder's
  // are two runs); empty when nothing repeats.
  std::vector<int64_t> repeatedLayerRuns;
  int64_t memoryLimitBytes = 0;
  // Ops the plan cannot split, "hlo.custom_call (model.hlo:30:5)", in program order: ops
  // without a sharding rule.
  // The ILP prices them on whole tensors, which pulls the values they read towards whole.
  std::vector<std::string> wholeOps;
  // What was chosen per parameter and op, in program order: "parameter 0: [{"data"}, {}]",
  // "hlo.dot_general (program.mlir:4:8): data->i, model->j".
  std::vector<std::string> choices;
  // The bytes per device the memory model (liveness.h) puts at the plan's peak; the cost
  // report of the partitioned program should not exceed it.
  int64_t estimatedPeakBytes = 0;
  // The same in detail: choices with places, the costliest reshards, where memory peaks.
  PlanExplanation plan;
  // With AutoShardingOptions::nextBest: the best plan other than the chosen one.
  std::optional<NextBestPlan> nextBest;
};

// Chooses and writes the shardings. Fails with FailedPrecondition when the module has no
// mesh or several, or no such function; ResourceExhausted when no plan fits the memory
// limit; DeadlineExceeded when the solver found no plan in time; Unimplemented for user
// shardings it cannot take yet (cost_graph.h).
absl::StatusOr<AutoShardingResult> autoShard(mlir::ModuleOp module,
                                             const cost_model::HardwareSpec& spec,
                                             const AutoShardingOptions& options);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_AUTO_SHARDING_H_
