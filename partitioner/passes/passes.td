// Passes of partitioner/passes: optimizations between propagation and partitioning.
#ifndef TESSEL_PARTITIONER_PASSES_PASSES_TD
#define TESSEL_PARTITIONER_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def WeightUpdateShardingPass : Pass<"tessel-weight-update-sharding", "mlir::ModuleOp"> {
  let summary = "Runs each data-parallel optimizer update on a 1/n shard of the weight";
  let description = [{
    Expects a module after --tessel-propagate; run --tessel-partition after it. A gradient
    is a dot_general whose contracting dimension is split over mesh axes A, so that each
    device holds a partial sum over A. When the ops it feeds are elementwise over its shape
    and read only optimizer state (arguments nothing else reads), weights (arguments
    replicated over A), scalars, broadcasts of scalars and constants, and end only in
    function results, the update is rewritten to run split over A along one dimension (the
    first that divides evenly, else the first, unevenly): the gradient is left unreduced
    and resharded to that split once, every op of the update gets the split sharding, and
    so do the state arguments and the state results. New weights (results computed from a
    weight) keep their sharding. The partitioner then emits a reduce_scatter of the
    gradient (an all_reduce and a local slice where the split is uneven), the update on the
    shard, and an all_gather of each new weight. Updates that do not fit are left alone
    with a remark saying why. See docs/partitioning.md.

    Before (after propagation; `%g` is a partial sum over "data"):

    ```mlir
    func.func @step(%x: tensor<16x8xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {} ]>},
                    %dy: tensor<16x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {} ]>},
                    %w: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {} ]>},
                    %m: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {} ]>})
        -> (tensor<8x4xf32> {...[{}, {} ]}, tensor<8x4xf32> {...[{}, {} ]}) {
      %g = hlo.dot_general %x, %dy, lhs_contract = [0], rhs_contract = [0]
          {tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{}, {} ]>]>} ...
      %m2 = hlo.add %m, %g {... [{}, {} ] ...} : tensor<8x4xf32>
      %w2 = hlo.sub %w, %m2 {... [{}, {} ] ...} : tensor<8x4xf32>
      return %w2, %m2 : tensor<8x4xf32>, tensor<8x4xf32>
    }
    ```

    After: `%g` carries `<@mesh, [{}, {} ], unreduced={"data"}>`, a `tessel.reshard` of `%g`
    to `<@mesh, [{"data"}, {} ]>` feeds the add, the add and the sub carry
    `[{"data"}, {} ]`, and so do `%m` and the second result; `%w` and the first result keep
    `[{}, {} ]`.
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
  let options = [
    Option<"verbose", "verbose", "bool", /*default=*/"false",
           "Also remark on every update that is sharded (updates left alone always get one)">,
  ];
}

#endif  // TESSEL_PARTITIONER_PASSES_PASSES_TD
