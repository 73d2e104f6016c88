// Linear algebra: dot_general and convolution.
#ifndef TESSEL_IR_HLO_LINALG_OPS_TD
#define TESSEL_IR_HLO_LINALG_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_attrs.td"

def Hlo_DotGeneralOp : Hlo_Op<"dot_general", [Pure]> {
  let summary = "General tensor contraction with batch dimensions";
  let description = [{
    Multiplies `lhs` and `rhs` elementwise over paired batch dimensions and sums over
    paired contracting dimensions (see `#hlo.dot`, whose fields the custom form spells
    inline, empty ones left out). Paired dimensions have equal sizes, and no dimension is
    both batch and contracting. The result has the batch dimensions,
    then the remaining `lhs` dimensions in order, then the remaining `rhs` dimensions in
    order. Its element type is written out because it may differ from the operands'
    (e.g. bf16 operands accumulated into f32).

    ```mlir
    %r = hlo.dot_general %a, %b, lhs_batch = [0], rhs_batch = [0], lhs_contract = [2],
        rhs_contract = [1]
        : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
    ```
  }];
  let arguments = (ins Hlo_AnyTensor:$lhs, Hlo_AnyTensor:$rhs,
                       Hlo_DotDimensionNumbersAttr:$dot_dimension_numbers);
  let results = (outs Hlo_AnyTensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `` custom<DotDims>($dot_dimension_numbers) attr-dict
    `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Hlo_ConvolutionOp : Hlo_Op<"convolution", [Pure]> {
  let summary = "Windowed convolution with strides, padding, dilations and groups";
  let description = [{
    Slides the kernel `rhs` over the input `lhs`; `dimension_numbers` (see `#hlo.conv`,
    written after `dims =` in the custom form) says which dimension of each tensor is
    batch, feature and spatial. Per spatial
    dimension the input is dilated by `lhs_dilation` and padded by `padding` (a
    `[low, high]` row per spatial dimension, negative values crop), the kernel is dilated
    by `rhs_dilation`, and the window moves by `window_strides`; the output size follows
    the `hlo.reduce_window` formula. Lists default to 1s and padding to 0s.

    `feature_group_count` splits the input features into groups, each convolved with its
    share of the kernel's output features; `batch_group_count` does the same with the
    input batch. At most one of them is larger than 1. The output batch size is the input
    batch size divided by `batch_group_count` and the output feature size is the kernel's
    output feature size. The result element type is written out and may differ from the
    operands'.

    ```mlir
    %r = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
        window_strides = [2, 2], padding = [[1, 1], [1, 1]]
        : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
    ```
  }];
  let arguments = (ins Hlo_Tensor:$lhs, Hlo_Tensor:$rhs,
                       Hlo_ConvDimensionNumbersAttr:$dimension_numbers,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       DefaultValuedAttr<I64Attr, "1">:$feature_group_count,
                       DefaultValuedAttr<I64Attr, "1">:$batch_group_count);
  let results = (outs Hlo_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `dims` `=` custom<ConvDims>($dimension_numbers)
    `` custom<ConvAttrs>($window_strides, $padding, $lhs_dilation, $rhs_dilation,
                      $feature_group_count, $batch_group_count)
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif  // TESSEL_IR_HLO_LINALG_OPS_TD
