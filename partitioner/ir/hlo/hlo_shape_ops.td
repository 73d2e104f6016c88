// Shape ops: broadcast_in_dim, reshape, transpose, slice, dynamic slices, pad, concatenate, reverse.
#ifndef TESSEL_IR_HLO_SHAPE_OPS_TD
#define TESSEL_IR_HLO_SHAPE_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

def Hlo_BroadcastInDimOp : Hlo_Op<"broadcast_in_dim",
    [Pure, SameOperandsAndResultElementType]> {
  let summary = "Broadcasts a tensor into a larger shape along chosen dimensions";
  let description = [{
    Operand dimension `i` becomes result dimension `dims[i]`; `dims` has one unique entry
    per operand dimension. An operand dimension of size 1 is repeated to fill its result
    dimension; any other size must equal it. Result dimensions not named in `dims` repeat
    the whole operand.

    ```mlir
    %r = hlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand, DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Hlo_ReshapeOp : Hlo_Op<"reshape", [Pure, SameOperandsAndResultElementType]> {
  let summary = "Reinterprets the elements of a tensor in row-major order as a new shape";
  let description = [{
    The result has the operand's elements in the same row-major order and the same
    element count.

    ```mlir
    %r = hlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Hlo_TransposeOp : Hlo_Op<"transpose",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Permutes the dimensions of a tensor";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]`:
    `result[j0, ..., jn] = operand[k]` where `k[permutation[i]] = j_i`.

    ```mlir
    %r = hlo.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand `,` `permutation` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
}

def Hlo_SliceOp : Hlo_Op<"slice", [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Extracts a strided box with static bounds";
  let description = [{
    Per dimension `start:limit:stride` picks the indices `start, start + stride, ...`
    below `limit`, so the result dimension has `ceil((limit - start) / stride)` elements.
    Requires `0 <= start <= limit <= dim` and `stride >= 1`; `:stride` may be left out when
    it is 1. The attributes are `start_indices`, `limit_indices` and `strides`.

    ```mlir
    %r = hlo.slice %x [1:5:2, 0:3] : (tensor<8x3xf32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand, DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices, DenseI64ArrayAttr:$strides);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides) attr-dict `:`
    functional-type(operands, results)
  }];
}

def Hlo_DynamicSliceOp : Hlo_Op<"dynamic_slice",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Extracts a box of static size at run-time start indices";
  let description = [{
    Takes one rank-0 integer start index per operand dimension (all of one type) and a
    static size per dimension, `0 <= size <= dim`. Each start index is clamped to
    `[0, dim - size]` before use, so the box always lies inside the operand.

    ```mlir
    %r = hlo.dynamic_slice %x, %i, %j, sizes = [2, 3]
        : (tensor<8x8xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand,
                       Variadic<Hlo_ScalarIntTensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<CommaTerminatedOperands>($start_indices) `` `sizes` `=` $slice_sizes
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_DynamicUpdateSliceOp : Hlo_Op<"dynamic_update_slice",
    [Pure, AllTypesMatch<["operand", "result"]>,
     DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Overwrites a box of a tensor, placed at run-time start indices";
  let description = [{
    The result is `operand` with the box of `update`'s shape starting at the start indices
    replaced by `update`. `update` has the operand's rank and element type and no larger
    dimensions; there is one rank-0 integer start index per dimension (all of one type),
    each clamped to `[0, dim - update_dim]`.

    ```mlir
    %r = hlo.dynamic_update_slice %x, %u, %i, %j
        : (tensor<8x8xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<8x8xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand, Hlo_AnyTensor:$update,
                       Variadic<Hlo_ScalarIntTensor>:$start_indices);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand `,` $update (`,` $start_indices^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Hlo_PadOp : Hlo_Op<"pad", [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Pads a tensor at its edges and between its elements";
  let description = [{
    Per dimension puts `low` copies of the padding value before the first element,
    `high` after the last and `interior` between neighbours. Negative `low` or `high`
    removes elements from that edge instead; `interior` is at least 0. The result
    dimension is `low + high + dim + max(dim - 1, 0) * interior` and must not be
    negative. The padding value is a rank-0 tensor of the operand's element type. The
    attributes are `edge_padding_low`, `edge_padding_high` and `interior_padding`.

    ```mlir
    %r = hlo.pad %x, %pv, low = [1, 0], high = [2, -1], interior = [0, 1]
        : (tensor<2x3xf32>, tensor<f32>) -> tensor<5x4xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand,
                       0DTensorOf<[Hlo_Element, Hlo_Complex]>:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,`
    `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding attr-dict `:`
    functional-type(operands, results)
  }];
}

def Hlo_ConcatenateOp : Hlo_Op<"concatenate",
    [Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "Joins tensors end to end along one dimension";
  let description = [{
    Takes one or more inputs of one rank and element type whose sizes agree in every
    dimension but `dimension` (written `dim`); the result's size there is the sum.

    ```mlir
    %r = hlo.concatenate %a, %b, dim = 0
        : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<6x3xf32>
    ```
  }];
  let arguments = (ins Variadic<Hlo_AnyTensor>:$inputs, I64Attr:$dimension);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    custom<CommaTerminatedOperands>($inputs) `` `dim` `=` $dimension attr-dict `:`
    functional-type($inputs, results)
  }];
}

def Hlo_ReverseOp : Hlo_Op<"reverse",
    [Pure, SameOperandsAndResultType, InferTypeOpInterface]> {
  let summary = "Reverses the order of elements along chosen dimensions";
  let description = [{
    `dimensions` (written `dims`) lists unique dimensions in `[0, rank)`.

    ```mlir
    %r = hlo.reverse %x, dims = [0] : tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = "$operand `,` `dims` `=` $dimensions attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif  // TESSEL_IR_HLO_SHAPE_OPS_TD
