// Passes of partitioner/spmd.
#ifndef TESSEL_PARTITIONER_SPMD_PASSES_TD
#define TESSEL_PARTITIONER_SPMD_PASSES_TD

include "mlir/Pass/PassBase.td"

def PartitionPass : Pass<"tessel-partition", "mlir::ModuleOp"> {
  let summary = "Rewrites every function into the program each partition runs";
  let description = [{
    Expects a module after --tessel-propagate. Every value gets its local type (a dimension
    split n ways has ceil(D/n) elements, the last shards padded), collectives and local
    slices at offsets read from tables indexed by `tessel.partition_id` move data between
    layouts, and no sharding remains but on function arguments and results, where it says
    how the local pieces make the global value. Ops with only pass-through and reduction
    factors are partitioned from their sharding rule; every other op runs on replicated
    operands, with a remark. See docs/partitioning.md.

    ```mlir
    tessel.mesh @mesh = <["x"=2]>
    func.func @f(%a: tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"} ]>})
        -> (tensor<8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"} ]>}) {
      %0 = hlo.exp %a {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"} ]>]>}
          : tensor<8xf32>
      return %0 : tensor<8xf32>
    }
    ```

    becomes a function of `tensor<4xf32>` whose `hlo.exp` works on `tensor<4xf32>`.
  }];
  let dependentDialects = ["::tessel::hlo::HloDialect", "::tessel::ir::TesselDialect"];
  let options = [
    Option<"replicationIsError", "replication-is-error", "bool", /*default=*/"false",
           "Fail instead of partitioning an op by replicating its operands">,
    Option<"strategyRemarks", "strategy-remarks", "bool", /*default=*/"false",
           "Remark, at each op with several ways to partition it, the chosen strategy and "
           "the runner-up with their estimated times (default hardware)">,
  ];
}

#endif  // TESSEL_PARTITIONER_SPMD_PASSES_TD
