// Passes of partitioner/propagation.
#ifndef TESSEL_PARTITIONER_PROPAGATION_PASSES_TD
#define TESSEL_PARTITIONER_PROPAGATION_PASSES_TD

include "mlir/Pass/PassBase.td"

def PropagatePass : Pass<"tessel-propagate", "mlir::ModuleOp"> {
  let summary = "Gives every value a sharding, starting from the user's annotations";
  let description = [{
    Moves shardings forward and backward through every op's sharding rule until nothing
    changes, writing only to open dimensions. Ops are enabled in stages (elementwise and
    data-flow edges, then broadcasts, then reshapes, then everything else) and the whole
    runs once per user priority level. See docs/propagation.md.

    Before:

    ```mlir
    tessel.mesh @mesh = <["x"=2]>
    func.func @f(%a: tensor<8x4xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {} ]>})
        -> tensor<8x4xf32> {
      %0 = hlo.exp %a : tensor<8x4xf32>
      return %0 : tensor<8x4xf32>
    }
    ```

    After: `%0` carries `tessel.sharding = #tessel.sharding_per_value<[<@mesh, [{"x"}, {} ]>]>`
    and so does the function result.
  }];
  let options = [
    Option<"conservative", "conservative", "bool", /*default=*/"false",
           "Do not propagate through the padded or sliced dims of pad and slice">,
    Option<"annotateOrigins", "annotate-origins", "bool", /*default=*/"false",
           "Write tessel.sharding_origin on each op: where each result's sharding came from">,
  ];
}

#endif  // TESSEL_PARTITIONER_PROPAGATION_PASSES_TD
