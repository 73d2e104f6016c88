// Ops that create tensors from attributes or a generator state: constant, iota, replica_id,
// rng_bit_generator.
#ifndef TESSEL_IR_HLO_CREATION_OPS_TD
#define TESSEL_IR_HLO_CREATION_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_enums.td"

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
  let results = (outs Hlo_AnyTensor:$output);
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

def Hlo_RngBitGeneratorOp : Hlo_Op<"rng_bit_generator", [Pure,
    AllTypesMatch<["state", "output_state"]>]> {
  let summary = "Random bits from a counter-based generator, and the advanced state";
  let description = [{
    XLA's RngBitGenerator, bit for bit as XLA's CPU and GPU backends compute it. `state` is
    a ui64 vector: element 0 is the key, the rest the counter. `three_fry` (Threefry-2x32,
    20 rounds) takes 2 elements; `philox` (Philox-4x32, 10 rounds) and `default` (= philox)
    take 2 (the counter's high word is then the key) or 3. `output` holds random bits of any
    8, 16, 32 or 64-bit integer type (narrow types keep the low bits of 32); `output_state`
    is the state with the counter advanced past what the output used.

    Every element is a function of the key, the counter and its own position, which is
    what lets a shard make its part alone: with `window of [G...] at [%i...]`, the result
    is the box of a `G`-shaped output starting at the given rank-0 integer indices (no
    clamping; positions outside `G` are 0), and `output_state` is that of the whole `G`.

    ```mlir
    %s, %bits = hlo.rng_bit_generator %state, algorithm = philox
        : tensor<2xui64> -> tensor<4x6xui32>
    // Rows 4..7 of an 8x6 output.
    %s2, %part = hlo.rng_bit_generator %state, algorithm = three_fry window of [8, 6]
        at [%c4, %c0] : tensor<2xui64>, tensor<i32>, tensor<i32> -> tensor<4x6xui32>
    ```
  }];
  let arguments = (ins 1DTensorOf<[UI64]>:$state, Variadic<Hlo_ScalarIntTensor>:$start_indices,
                       Hlo_RngAlgorithmAttr:$algorithm,
                       OptionalAttr<DenseI64ArrayAttr>:$global_shape);
  let results = (outs 1DTensorOf<[UI64]>:$output_state, Hlo_IntTensor:$output);
  let assemblyFormat = [{
    $state `,` `algorithm` `=` `` $algorithm
    (`window` `of` $global_shape^ `at` ` ` `[` $start_indices `]`)? attr-dict
    `:` type($state) (`,` type($start_indices)^)? `->` type($output)
  }];
  let hasVerifier = 1;
}

#endif  // TESSEL_IR_HLO_CREATION_OPS_TD
