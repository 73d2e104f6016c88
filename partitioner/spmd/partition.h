// partitionModule: the work of --tessel-partition, callable from C++ (tests, the driver).
//
//   if (mlir::failed(propagation::propagateShardings(module, {}, nullptr)) ||
//       mlir::failed(spmd::partitionModule(module))) ...
#ifndef TESSEL_PARTITIONER_SPMD_PARTITION_H_
#define TESSEL_PARTITIONER_SPMD_PARTITION_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>

#include "cost_model/hardware_spec.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

namespace tessel::spmd {

// Rewrites every function of `module` (sharded by --tessel-propagate) into the program each
// partition runs. Ops without a handler are partitioned by replication with a warning. Fails
// with an error on what it cannot partition at all (dynamic shapes, several blocks, calls,
// nested manual computations, values moving between meshes). A module without a mesh is
// left as is.
struct PartitionOptions {
  // An op that no handler partitions runs on replicated operands with a warning; with this
  // set, that warning is an error and partitioning fails instead.
  bool replicationIsError = false;
  // The hardware whose cost model prices the ways an op can be partitioned (null: the
  // built-in default, docs/cost_model.md). Not owned; must outlive partitioning.
  const cost_model::HardwareSpec* hardware = nullptr;
  // Emit a remark at each op where strategies were compared, naming the chosen one and the
  // runner-up with their estimated times.
  bool strategyRemarks = false;
  // Testing: make every cost-based choice (an op's strategy, each comparison between reshard
  // plans) at random from this seed instead of by cost (random_choices.h). The program stays
  // correct and only gets slower; differential fuzzing uses it to reach every strategy.
  std::optional<uint64_t> randomChoiceSeed;
  // Called at each op where several strategies applied, with the index of the one emitted
  // among the applicable ones in candidate order, and how many applied.
  std::function<void(mlir::Operation*, size_t chosen, size_t applicable)> onStrategyChosen;
  // Mark each op of a function's body that computes the local piece of a global value with
  // that value's global type and sharding (tessel.global_layouts, partitioned_marker.h),
  // for tools that draw a partitioned program's values. Off by default: the mark is for
  // people looking at the program and changes nothing it computes.
  bool recordGlobalLayouts = false;

  const cost_model::HardwareSpec& hardwareSpec() const {
    return hardware ? *hardware : cost_model::DefaultHardwareSpec();
  }
};

mlir::LogicalResult partitionModule(mlir::ModuleOp module,
                                    const PartitionOptions& options = PartitionOptions());

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_PARTITION_H_
