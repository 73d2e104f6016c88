// Passes of partitioner/passes: optimizations between propagation and partitioning, and
// after partitioning (collective combining).
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

def CollectiveCombiningPass : Pass<"tessel-combine-collectives", "mlir::ModuleOp"> {
  let summary = "Runs independent collectives of one kind over the same axes as one";
  let description = [{
    Expects a partitioned module (run it after --tessel-partition). In each block, the
    collectives of one kind (all_reduce; all_gather and reduce_scatter along dimension 0)
    with the same mesh, axes, reduction kind and element type, none of which depends on
    another's result, are combined while the combined result stays within `max_bytes`.
    Each operand is flattened (all_reduce: to 1-D; all_gather: to [1, size];
    reduce_scatter over groups of n: to [n, size / n]), the pieces are concatenated along
    their last dimension, one collective runs, and an hlo.slice and hlo.reshape per
    original op give its result back. The combined op goes right after the last op that
    defines one of its operands; a group is only formed when every user of every
    original result comes after that point. See docs/partitioning.md.

    ```mlir
    %a = tessel.all_reduce %x over @mesh ["data"] kind = sum : tensor<4x2xf32>
    %b = tessel.all_reduce %y over @mesh ["data"] kind = sum : tensor<3xf32>
    ```

    becomes

    ```mlir
    %0 = hlo.reshape %x : (tensor<4x2xf32>) -> tensor<8xf32>
    %1 = hlo.concatenate %0, %y, dim = 0 : (tensor<8xf32>, tensor<3xf32>) -> tensor<11xf32>
    %2 = tessel.all_reduce %1 over @mesh ["data"] kind = sum : tensor<11xf32>
    %3 = hlo.slice %2 [0:8] : (tensor<11xf32>) -> tensor<8xf32>
    %a = hlo.reshape %3 : (tensor<8xf32>) -> tensor<4x2xf32>
    %b = hlo.slice %2 [8:11] : (tensor<11xf32>) -> tensor<3xf32>
    ```
  }];
  let dependentDialects = ["::tessel::hlo::HloDialect"];
  let options = [
    Option<"max_bytes", "max-bytes", "int64_t", /*default=*/"int64_t{32} << 20",
           "The most bytes the result of one combined collective may hold">,
  ];
}

def HierarchicalAllReducePass : Pass<"tessel-hierarchical-all-reduce", "mlir::ModuleOp"> {
  let summary = "Splits all_reduces over several mesh axes by axis where that is faster";
  let description = [{
    Runs on a partitioned program (after --tessel-combine-collectives, if that runs). An
    all_reduce over several axes is one ring over all their devices: 2(N-1) latency steps.
    Where the cost model (built-in hardware spec) finds it faster, it becomes a
    reduce_scatter over one axis along the largest dimension (zero-padded to a multiple of
    the axis size), the rest all-reduced the same way on the piece, and an all_gather back:
    the same bytes in one ring's steps per axis. A scalar is all-reduced over one axis after
    the other. See docs/partitioning.md.

    ```mlir
    %r = tessel.all_reduce %g over @mesh ["x", "y"] kind = sum : tensor<24x24xf32>
    ```

    on a 2 x 3 mesh becomes

    ```mlir
    %0 = tessel.reduce_scatter %g over @mesh ["x"] dim = 0 kind = sum : (tensor<24x24xf32>) -> tensor<12x24xf32>
    %1 = tessel.all_reduce %0 over @mesh ["y"] kind = sum : tensor<12x24xf32>
    %r = tessel.all_gather %1 over @mesh ["x"] dim = 0 : (tensor<12x24xf32>) -> tensor<24x24xf32>
    ```
  }];
  let dependentDialects = ["::tessel::hlo::HloDialect"];
}

#endif  // TESSEL_PARTITIONER_PASSES_PASSES_TD
