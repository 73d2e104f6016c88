// Gather and scatter with general dimension numbers.
#ifndef TESSEL_IR_HLO_INDEXING_OPS_TD
#define TESSEL_IR_HLO_INDEXING_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_attrs.td"

def Hlo_GatherOp : Hlo_Op<"gather", [Pure, InferTypeOpAdaptor]> {
  let summary = "Gathers slices of an operand at start positions read from indices";
  let description = [{
    Every position of `start_indices` outside `index_vector_dim` (the batch positions)
    holds an index vector; `start_index_map` says which operand dimension each of its
    entries indexes. A slice of size `slice_sizes` starts there (clamped so that it fits
    in the operand). The slice dimensions in `collapsed_slice_dims` and
    `operand_batching_dims` (size 1) are dropped; the others become the result's
    `offset_dims`, in order, and the batch positions fill the remaining result
    dimensions. `operand_batching_dims[i]` is indexed by the batch position's coordinate
    along `start_indices_batching_dims[i]`. `index_vector_dim` equal to the rank of
    `start_indices` means an implicit trailing dimension of size 1. With
    `indices_are_sorted` the caller promises sorted start indices. The custom form spells
    the fields of `#hlo.gather` inline, empty lists left out.

    ```mlir
    %g = hlo.gather %x[%idx], slice_sizes = [1, 8], offset_dims = [1],
        collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1
        : (tensor<16x8xf32>, tensor<4x1xi32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$operand, Hlo_IntTensor:$start_indices,
                       Hlo_GatherDimensionNumbersAttr:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes, UnitAttr:$indices_are_sorted);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $operand `[` $start_indices `]` `,` `slice_sizes` `=` $slice_sizes
    `` custom<GatherDims>($dimension_numbers) (`indices_are_sorted` $indices_are_sorted^)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def Hlo_ScatterOp : Hlo_Op<"scatter", [RecursiveMemoryEffects, AttrSizedOperandSegments,
                                       InferTypeOpAdaptor]> {
  let summary = "Combines update windows into N inputs at positions read from indices";
  let description = [{
    The inverse of `hlo.gather`: each update position outside `update_window_dims` reads
    an index vector from `scatter_indices`; `scatter_dims_to_operand_dims` maps it to a
    start position in the inputs, and the update window there (with the
    `inserted_window_dims` and `input_batching_dims` of size 1 added back) is combined
    into the inputs element by element with the `update` region. The region takes 2N
    rank-0 tensors (N current values, then N update values) and returns N. Windows that
    do not fit are skipped. With `unique_indices` the caller promises no two windows
    overlap, with `indices_are_sorted` that indices are sorted. Results have the types
    of `inputs`. The custom form spells the fields of `#hlo.scatter` inline, empty lists
    left out.

    ```mlir
    %r = hlo.scatter(%x) indices(%idx) updates(%u), update_window_dims = [1],
        inserted_window_dims = [0], scatter_dims_to_operand_dims = [0],
        index_vector_dim = 1
        : (tensor<16x8xf32>, tensor<4x1xi32>, tensor<4x8xf32>) -> tensor<16x8xf32>
        update { ... }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, Hlo_IntTensor:$scatter_indices,
                       Variadic<Hlo_Tensor>:$updates,
                       Hlo_ScatterDimensionNumbersAttr:$scatter_dimension_numbers,
                       UnitAttr:$indices_are_sorted, UnitAttr:$unique_indices);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$update_computation);
  let assemblyFormat = [{
    `(` $inputs `)` `indices` `(` $scatter_indices `)` `updates` `(` $updates `)`
    `` custom<ScatterDims>($scatter_dimension_numbers)
    (`indices_are_sorted` $indices_are_sorted^)? (`unique_indices` $unique_indices^)?
    attr-dict `:` functional-type(operands, results) `update` $update_computation
  }];
  let hasRegionVerifier = 1;
}

#endif  // TESSEL_IR_HLO_INDEXING_OPS_TD
