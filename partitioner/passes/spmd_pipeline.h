// The whole partitioner as one pass pipeline, for compilers that run Tessel inside their own
// pass manager: propagate shardings, optionally shard weight updates, partition, and
// optionally combine collectives and split all_reduces by mesh axis.
//
//   mlir::PassManager pm(&context);
//   tessel::passes::SpmdPipelineOptions options;
//   options.shardWeightUpdate = true;
//   tessel::passes::buildSpmdPipeline(pm, options);
//   if (mlir::failed(pm.run(module))) ...
//
// From the command line of any MLIR driver that called registerSpmdPipeline() (tessel-opt,
// mlir-opt with Tessel's pass plugin):
//   --pass-pipeline='builtin.module(tessel-spmd-pipeline{shard-weight-update=true})'
#ifndef TESSEL_PARTITIONER_PASSES_SPMD_PIPELINE_H_
#define TESSEL_PARTITIONER_PASSES_SPMD_PIPELINE_H_

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace tessel::passes {

// The pipeline's name on the command line.
inline constexpr char kSpmdPipelineName[] = "tessel-spmd-pipeline";

// Each option is the pass option of the same name; the defaults are the `tessel partition`
// command's.
struct SpmdPipelineOptions : public mlir::PassPipelineOptions<SpmdPipelineOptions> {
  Option<bool> conservative{
      *this, "conservative",
      llvm::cl::desc("Do not propagate through the padded or sliced dims of pad and slice"),
      llvm::cl::init(false)};
  Option<bool> shardWeightUpdate{
      *this, "shard-weight-update",
      llvm::cl::desc("Run each data-parallel optimizer update on a 1/n shard of the weight "
                     "(--tessel-weight-update-sharding)"),
      llvm::cl::init(false)};
  Option<bool> replicationIsError{
      *this, "replication-is-error",
      llvm::cl::desc("Fail instead of partitioning an op by replicating its operands"),
      llvm::cl::init(false)};
  Option<bool> strategyRemarks{
      *this, "strategy-remarks",
      llvm::cl::desc("Remark the chosen strategy and the runner-up at each op with several"),
      llvm::cl::init(false)};
  Option<bool> combineCollectives{
      *this, "combine-collectives",
      llvm::cl::desc("Combine independent collectives of one kind (--tessel-combine-collectives)"),
      llvm::cl::init(false)};
  Option<bool> hierarchicalAllReduce{
      *this, "hierarchical-all-reduce",
      llvm::cl::desc("Split all_reduces over several axes by axis where the cost model finds "
                     "that faster (--tessel-hierarchical-all-reduce)"),
      llvm::cl::init(true)};
};

// Appends the pipeline's passes to `pm`, which must run on a builtin.module (each pass is a
// module pass: propagation and partitioning see every function at once).
void buildSpmdPipeline(mlir::OpPassManager& pm, const SpmdPipelineOptions& options);

// Makes the pipeline known by kSpmdPipelineName to textual pipelines and MLIR's drivers.
// Calling it again does nothing.
void registerSpmdPipeline();

}  // namespace tessel::passes

#endif  // TESSEL_PARTITIONER_PASSES_SPMD_PIPELINE_H_
