// Ops of the `tessel` dialect.
#ifndef TESSEL_IR_TESSEL_OPS_TD
#define TESSEL_IR_TESSEL_OPS_TD

include "partitioner/ir/tessel/tessel_dialect.td"
include "partitioner/ir/tessel/tessel_attrs.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tessel_PartitionIdOp : Tessel_Op<"partition_id", [Pure]> {
  let summary = "The id of the partition running the program";
  let description = [{
    In the SPMD program every partition runs the same code; this op is how a partition
    learns which one it is. The result is a rank-0 `ui32` tensor in `[0, num_partitions)`.

    ```mlir
    %id = tessel.partition_id : tensor<ui32>
    ```
  }];
  let results = (outs 0DTensorOf<[UI32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif  // TESSEL_IR_TESSEL_OPS_TD
