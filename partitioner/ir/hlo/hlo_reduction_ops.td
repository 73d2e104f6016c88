// Reductions with reducer regions: reduce, reduce_window, select_and_scatter.
#ifndef TESSEL_IR_HLO_REDUCTION_OPS_TD
#define TESSEL_IR_HLO_REDUCTION_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

def Hlo_ReduceOp : Hlo_Op<"reduce", [RecursiveMemoryEffects, AttrSizedOperandSegments,
                                     InferTypeOpAdaptor]> {
  let summary = "Reduces N tensors along some dimensions with one reducer region";
  let description = [{
    All `inputs` have one shape; `init_values[i]` is a rank-0 tensor of the element type
    of `inputs[i]`. The reducer takes 2N rank-0 tensors, the N accumulators followed by
    the N new elements, and returns the N new accumulators with `hlo.return`. Result i is
    `inputs[i]` with the dimensions in `dimensions` removed. The order in which elements
    are combined is unspecified, so the reducer should be associative and commutative.

    ```mlir
    %r = hlo.reduce(%x) init(%zero) dimensions = [1]
        : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32> reducer {
    ^bb0(%acc: tensor<f32>, %e: tensor<f32>):
      %s = hlo.add %acc, %e : tensor<f32>
      hlo.return %s : tensor<f32>
    }
    ```
  }];
  let arguments = (ins Variadic<Hlo_AnyTensor>:$inputs, Variadic<Hlo_AnyTensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<Hlo_AnyTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `dimensions` `=` $dimensions attr-dict
    `:` functional-type(operands, results) `reducer` $body
  }];
  let hasRegionVerifier = 1;
}

def Hlo_ReduceWindowOp : Hlo_Op<"reduce_window", [RecursiveMemoryEffects,
    AttrSizedOperandSegments, InferTypeOpAdaptor]> {
  let summary = "Reduces every window of N tensors with one reducer region";
  let description = [{
    A window of size `window_dimensions` slides over the inputs with `window_strides`
    (default 1s). The base is first dilated by `base_dilations` (holes filled with the
    init value) and padded by `padding` (one `[low, high]` row per dimension, default
    0, not negative); the window itself is dilated by `window_dilations`. Per dimension,
    with d the input size and w the window size:
    padded = low + (d - 1) * base_dilation + 1 + high, window = (w - 1) * window_dilation
    + 1, and the output size is (padded - window) / stride + 1, or 0 when the window does
    not fit. Inputs, init values and the reducer are as for `hlo.reduce`.

    ```mlir
    %r = hlo.reduce_window(%x) init(%zero) window_dimensions = [2, 2],
        window_strides = [2, 2] : (tensor<4x6xf32>, tensor<f32>) -> tensor<2x3xf32>
        reducer { ... }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, Variadic<Hlo_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` `init` `(` $init_values `)` `window_dimensions` `=` $window_dimensions
    `` custom<WindowAttrs>($window_strides, $base_dilations,
                        $window_dilations, $padding)
    attr-dict `:` functional-type(operands, results) `reducer` $body
  }];
  let hasRegionVerifier = 1;
}

def Hlo_SelectAndScatterOp : Hlo_Op<"select_and_scatter", [RecursiveMemoryEffects,
    InferTypeOpAdaptor]> {
  let summary = "Scatters each source element to the element its window selects";
  let description = [{
    Windows over `operand` are laid out as for `hlo.reduce_window` (no dilations). In
    each window, `select` picks one element: it is folded over the window and returns a
    rank-0 pred that is true when its first argument should be kept over the second.
    The source element of that window is then combined, with `scatter`, into the result
    at the selected position; every position starts as `init_value`. `source` has the
    shape of the window output, and the result has the type of `operand`.

    ```mlir
    %r = hlo.select_and_scatter(%x, %src, %zero) window_dimensions = [2, 2],
        window_strides = [2, 2]
        : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32>
        select { ... } scatter { ... }
    ```
  }];
  let arguments = (ins Hlo_Tensor:$operand, Hlo_Tensor:$source, Hlo_Tensor:$init_value,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Hlo_Tensor:$result);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
  let assemblyFormat = [{
    `(` $operand `,` $source `,` $init_value `)` `window_dimensions` `=` $window_dimensions
    `` custom<WindowAttrs>($window_strides, $padding)
    attr-dict `:` functional-type(operands, results) `select` $select `scatter` $scatter
  }];
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
}

#endif  // TESSEL_IR_HLO_REDUCTION_OPS_TD
