// Control flow and opaque ops: sort, while, case, custom_call, and the region terminator.
#ifndef TESSEL_IR_HLO_CONTROL_OPS_TD
#define TESSEL_IR_HLO_CONTROL_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

def Hlo_ReturnOp : Hlo_Op<"return", [Pure, Terminator]> {
  let summary = "Returns values from the region of an hlo op";
  let arguments = (ins Variadic<Hlo_AnyTensor>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

def Hlo_SortOp : Hlo_Op<"sort", [RecursiveMemoryEffects, InferTypeOpAdaptor]> {
  let summary = "Sorts N tensors of one shape along a dimension with a comparator";
  let description = [{
    Every 1-D slice along `dimension` is sorted; the N inputs are permuted together.
    The comparator takes 2N rank-0 tensors, `(a_0, b_0, a_1, b_1, ...)` where `a_i` and
    `b_i` are elements of input i, and returns a rank-0 pred that is true when `a` goes
    before `b`; it must be a strict weak order. With `is_stable`, equal elements keep
    their order. Results have the types of the inputs.

    ```mlir
    %s:2 = hlo.sort(%keys, %values) dimension = 0 is_stable
        : tensor<8xf32>, tensor<8xi32> comparator { ... }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, I64Attr:$dimension,
                       UnitAttr:$is_stable);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$comparator);
  let assemblyFormat = [{
    `(` $inputs `)` `dimension` `=` $dimension (`is_stable` $is_stable^)? attr-dict
    `:` type($inputs) `comparator` $comparator
  }];
  let hasRegionVerifier = 1;
}

def Hlo_TopKOp : Hlo_Op<"top_k", [Pure, InferTypeOpAdaptor]> {
  let summary = "The k largest (or smallest) elements of every row, with their indices";
  let description = [{
    Along the minor dimension, `values` holds the `k` largest elements of each row in
    descending order (with `smallest`, the k smallest in ascending order) and `indices`
    their positions in the row. Floats are ordered by IEEE total order (-NaN < -inf < ...
    < -0 < +0 < ... < inf < NaN); equal elements keep the lower index first. Both results
    have the operand's shape with the minor dimension `k`; `indices` are i32.

    ```mlir
    %v, %i = hlo.top_k %x, k = 3 : tensor<8x16xf32>   // tensor<8x3xf32>, tensor<8x3xi32>
    ```
  }];
  let arguments = (ins Hlo_IntOrFpTensor:$operand, I64Attr:$k, UnitAttr:$smallest);
  let results = (outs Hlo_IntOrFpTensor:$values, Hlo_IntTensor:$indices);
  let assemblyFormat = [{
    $operand `,` `k` `=` $k (`smallest` $smallest^)? attr-dict `:` type($operand)
  }];
}

def Hlo_OptimizationBarrierOp : Hlo_Op<"optimization_barrier", [InferTypeOpAdaptor]> {
  let summary = "Returns its operands unchanged; no computation moves across it";
  let description = [{
    Result i is operand i. The op has no memory effects to speak of but is not pure, so
    that nothing is folded, merged or moved through it: JAX's rematerialization relies on
    that to recompute values after the barrier instead of keeping them alive.

    ```mlir
    %a, %b = hlo.optimization_barrier %x, %y : tensor<4xf32>, tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<Hlo_AnyTensor>:$operands);
  let results = (outs Variadic<Hlo_AnyTensor>:$results);
  let assemblyFormat = "($operands^ `:` type($operands))? attr-dict";
}

def Hlo_WhileOp : Hlo_Op<"while", [RecursiveMemoryEffects, InferTypeOpAdaptor]> {
  let summary = "Runs a body while a condition holds, carrying N values";
  let description = [{
    The loop state starts as `inputs`. `cond` takes the state and returns a rank-0 pred;
    while it is true, `body` takes the state and returns the next one. The results are
    the final state. Both regions may use values defined above the op. In the custom
    form the state is named once, in the header, and both regions use those names.

    ```mlir
    %r:2 = hlo.while(%i = %zero, %acc = %x) : tensor<i32>, tensor<4xf32>
    cond {
      ...
      hlo.return %p : tensor<i1>
    } do {
      ...
      hlo.return %i1, %acc1 : tensor<i32>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasRegionVerifier = 1;
}

def Hlo_CaseOp : Hlo_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "Runs one of several branch regions, chosen by an index";
  let description = [{
    Runs branch `index` and returns what it returns. An index outside
    `[0, number of branches)`, negative included, selects the last branch. Branches take
    no arguments (they use values defined above the op) and each returns values of the
    op's result types.

    ```mlir
    %r = hlo.case %i branches {
      hlo.return %a : tensor<f32>
    }, {
      hlo.return %b : tensor<f32>
    } : (tensor<i32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[I32]>:$index);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
  let assemblyFormat = [{
    $index attr-dict `branches` $branches `:` functional-type($index, $results)
  }];
  let hasRegionVerifier = 1;
}

def Hlo_CustomCallOp : Hlo_Op<"custom_call",
    [DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Calls an opaque, externally defined computation";
  let description = [{
    Calls `call_target_name` with `inputs`; nothing about its semantics is known, so the
    partitioner needs explicit shardings for it. `backend_config` is passed through
    untouched. With `has_side_effect` the call reads and writes unknown memory and is
    never removed or reordered; without it the call is treated as free of effects.

    ```mlir
    %r = hlo.custom_call @my_kernel(%a, %b) {backend_config = "fast", has_side_effect = true}
        : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Variadic<Hlo_Tensor>:$inputs, StrAttr:$call_target_name,
                       OptionalAttr<StrAttr>:$backend_config,
                       DefaultValuedAttr<BoolAttr, "false">:$has_side_effect);
  let results = (outs Variadic<Hlo_Tensor>:$results);
  let assemblyFormat = [{
    custom<TargetName>($call_target_name) `(` $inputs `)` attr-dict
    `:` functional-type($inputs, results)
  }];
}

#endif  // TESSEL_IR_HLO_CONTROL_OPS_TD
