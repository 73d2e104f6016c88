// Ops that create tensors from attributes: constant, iota.
#ifndef TESSEL_IR_HLO_CREATION_OPS_TD
#define TESSEL_IR_HLO_CREATION_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

def Hlo_ConstantOp : Hlo_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A tensor whose value is given by an attribute";
  let description = [{
    Produces `value`; the result type is the attribute's type.

    ```mlir
    %c = hlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Hlo_Tensor:$output);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Hlo_IotaOp : Hlo_Op<"iota", [Pure]> {
  let summary = "A tensor counting up 0, 1, 2, ... along one dimension";
  let description = [{
    Each element is its index along `iota_dimension` (written `dim`), converted to the
    element type: `result[i0, ..., in] = i_dim`. The dimension must be in
    `[0, rank)`, so the result has rank at least 1.

    ```mlir
    %i = hlo.iota dim = 1 : tensor<4x8xi32>   // every row is 0, 1, ..., 7
    ```
  }];
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs Hlo_IntOrFpTensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
  let hasVerifier = 1;
}

def Hlo_ReplicaIdOp : Hlo_Op<"replica_id", [Pure]> {
  let summary = "The replica this program runs as";
  let description = [{
    A rank-0 ui32. Tessel runs every program as a single replica of its partitions, so
    it is 0 there; partition_id (tessel dialect) tells the partitions apart.

    ```mlir
    %r = hlo.replica_id : tensor<ui32>
    ```
  }];
  let results = (outs 0DTensorOf<[UI32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif  // TESSEL_IR_HLO_CREATION_OPS_TD
