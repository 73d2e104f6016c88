// Ops of the `tessel` dialect: the mesh symbol, sharding constraints and reshards, manual
// computations, collectives and partition_id.
#ifndef TESSEL_IR_TESSEL_OPS_TD
#define TESSEL_IR_TESSEL_OPS_TD

include "partitioner/ir/tessel/tessel_dialect.td"
include "partitioner/ir/tessel/tessel_attrs.td"
include "mlir/IR/BuiltinTypes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// A list of mesh axes or sub-axes, printed `["x", "y":(1)2]`.
def Tessel_AxisRefArrayAttr : TypedArrayAttrBase<Tessel_AxisRefAttr, "list of mesh axes">;
// One sharding per operand or result, printed `[<@mesh, [...]>, ...]`.
def Tessel_ShardingArrayAttr : TypedArrayAttrBase<Tessel_ShardingAttr, "list of shardings">;

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

def Tessel_MeshOp : Tessel_Op<"mesh", [Symbol, HasParent<"::mlir::ModuleOp">]> {
  let summary = "Declares a named device mesh";
  let description = [{
    Shardings and collectives name the mesh by this symbol.

    ```mlir
    tessel.mesh @mesh = <["data"=4, "model"=2]>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, Tessel_MeshAttr:$mesh);
  let assemblyFormat = "$sym_name `=` $mesh attr-dict";
}

//===------------------------------------------------------------------------------------===//
// Sharding constraints
//===------------------------------------------------------------------------------------===//

class Tessel_ShardingOp<string mnemonic> : Tessel_Op<mnemonic,
    [Pure, SameOperandsAndResultType]> {
  let arguments = (ins AnyRankedTensor:$input, Tessel_ShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Tessel_ShardingConstraintOp : Tessel_ShardingOp<"sharding_constraint"> {
  let summary = "Requires a value to have a sharding from here on";
  let description = [{
    Returns its operand unchanged. Propagation treats the sharding as given by the user and
    the partitioner makes the value have it at this point.

    ```mlir
    %y = tessel.sharding_constraint %x <@mesh, [{"data"}, {} ]> : tensor<8x8xf32>
    ```
  }];
}

// Not Pure: it has no results, and must outlive canonicalization until propagation has
// read it.
def Tessel_ShardingGroupOp : Tessel_Op<"sharding_group"> {
  let summary = "Values that are to be sharded alike";
  let description = [{
    Propagation gives every operand the same sharding: a sharding one of them has or gets
    flows to the others as through an elementwise op. The operands have one shape (their
    element types may differ) and are defined in the op's block or above it. `group_id`
    is the id the source program gave the group (Shardy's `sharding_group_id`, GSPMD's
    `shard_as N`). After propagation the op has no further meaning: partitioning and the
    executor drop it.

    ```mlir
    tessel.sharding_group %a, %b group_id = 0 : tensor<8x16xf32>, tensor<8x16xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I64Attr:$group_id);
  let assemblyFormat = "$inputs `group_id` `=` $group_id attr-dict `:` type($inputs)";
  let hasVerifier = 1;
}

def Tessel_ReshardOp : Tessel_ShardingOp<"reshard"> {
  let summary = "An explicit point where a value changes sharding";
  let description = [{
    Returns its operand unchanged, laid out with `sharding`. The partitioner turns it into
    the collectives that move the data.

    ```mlir
    %y = tessel.reshard %x <@mesh, [{}, {"model"} ]> : tensor<8x8xf32>
    ```
  }];
}

//===------------------------------------------------------------------------------------===//
// Manual computations
//===------------------------------------------------------------------------------------===//

def Tessel_ManualComputationOp : Tessel_Op<"manual_computation",
    [RecursiveMemoryEffects, IsolatedFromAbove, SingleBlock]> {
  let summary = "A region of per-device code (shard_map)";
  let description = [{
    Each operand is split by its `in_shardings` entry; inside the region every device sees
    only its own shard along the `manual_axes`, so block arguments have local types: each
    dimension divided by the product of the sizes of the manual axes that split it (exactly;
    manual code never sees padding). Axes that are not manual leave sizes unchanged and
    stay under automatic partitioning. The region's `tessel.return` yields local values
    that `out_shardings` assemble into the global results. The region is isolated from
    above: values from outside have global types and must come in as operands.

    ```mlir
    %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}, {} ]>]
        out_shardings=[<@mesh, [{"x"}, {} ]>] manual_axes={"x"}
        (%la: tensor<2x8xf32>) {
      %s = hlo.add %la, %la : tensor<2x8xf32>
      tessel.return %s : tensor<2x8xf32>
    } : (tensor<8x8xf32>) -> tensor<8x8xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$operands,
                       Tessel_ShardingArrayAttr:$in_shardings,
                       Tessel_ShardingArrayAttr:$out_shardings,
                       StrArrayAttr:$manual_axes);
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Tessel_ReturnOp : Tessel_Op<"return",
    [Pure, Terminator, ReturnLike, HasParent<"ManualComputationOp">]> {
  let summary = "Yields the local results of a manual computation";
  let description = [{
    ```mlir
    tessel.return %s : tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===------------------------------------------------------------------------------------===//
// Collectives
//===------------------------------------------------------------------------------------===//

// Collectives name their groups by mesh axes: a group is the set of devices whose mesh
// coordinates differ only along `axes`, ordered by those axes, major to minor. They are Pure:
// every partition runs the same program, so removing or merging one removes or merges it on
// all partitions alike.
class Tessel_CollectiveOp<string mnemonic, list<Trait> traits = []>
    : Tessel_Op<mnemonic, !listconcat([Pure], traits)> {
  let hasVerifier = 1;
  // Over groups of one device a collective is its operand (a permute when its pairs send
  // that device to itself).
  let hasFolder = 1;
  code collectiveClassDeclaration = [{
    // The mesh this collective's groups come from. REQUIRES: the op verified.
    MeshAttr getMesh();
    // The number of devices in each group.  REQUIRES: the op verified.
    int64_t getGroupSize();
  }];
  let extraClassDeclaration = collectiveClassDeclaration;
}

def Tessel_AllGatherOp : Tessel_CollectiveOp<"all_gather",
    [SameOperandsAndResultElementType]> {
  let summary = "Concatenates the operands of a group along a dimension";
  let description = [{
    Every device of a group gets the operands of the whole group concatenated along `dim`,
    in group order, so the result dimension is the operand dimension times the group size.

    ```mlir
    %y = tessel.all_gather %x over @mesh ["data"] dim = 0 : (tensor<2x8xf32>) -> tensor<8x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, FlatSymbolRefAttr:$mesh_name,
                       Tessel_AxisRefArrayAttr:$axes, I64Attr:$dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $mesh_name custom<AxisRefList>($axes) `dim` `=` $dim attr-dict `:`
    functional-type($operand, $result)
  }];
}

def Tessel_AllReduceOp : Tessel_CollectiveOp<"all_reduce", [SameOperandsAndResultType]> {
  let summary = "Combines the operands of a group elementwise";
  let description = [{
    Every device of a group gets the elementwise reduction (`kind`) of the group's operands.

    ```mlir
    %y = tessel.all_reduce %x over @mesh ["model"] kind = sum : tensor<4x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, FlatSymbolRefAttr:$mesh_name,
                       Tessel_AxisRefArrayAttr:$axes, Tessel_ReductionKindAttr:$kind);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $mesh_name custom<AxisRefList>($axes) `kind` `=` custom<ReductionKind>($kind)
    attr-dict `:` type($result)
  }];
}

def Tessel_ReduceScatterOp : Tessel_CollectiveOp<"reduce_scatter",
    [SameOperandsAndResultElementType]> {
  let summary = "Combines the operands of a group and scatters the result along a dimension";
  let description = [{
    The elementwise reduction of the group's operands is split along `dim` into group-size
    pieces; the device at group position `i` gets piece `i`.

    ```mlir
    %y = tessel.reduce_scatter %x over @mesh ["data"] dim = 0 kind = sum : (tensor<8x8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, FlatSymbolRefAttr:$mesh_name,
                       Tessel_AxisRefArrayAttr:$axes, I64Attr:$dim,
                       Tessel_ReductionKindAttr:$kind);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $mesh_name custom<AxisRefList>($axes) `dim` `=` $dim
    `kind` `=` custom<ReductionKind>($kind) attr-dict `:` functional-type($operand, $result)
  }];
}

def Tessel_AllToAllOp : Tessel_CollectiveOp<"all_to_all",
    [SameOperandsAndResultElementType]> {
  let summary = "Splits along one dimension, exchanges, and concatenates along another";
  let description = [{
    Each device splits its operand along `split_dim` into group-size pieces and sends piece
    `j` to group position `j`; the received pieces are concatenated along `concat_dim` in
    group order. The result's split dimension is divided by the group size and its concat
    dimension multiplied by it (both at once when they are the same dimension).

    ```mlir
    %y = tessel.all_to_all %x over @mesh ["x"] split_dim = 0 concat_dim = 1 : (tensor<8x2xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, FlatSymbolRefAttr:$mesh_name,
                       Tessel_AxisRefArrayAttr:$axes, I64Attr:$split_dim,
                       I64Attr:$concat_dim);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $mesh_name custom<AxisRefList>($axes) `split_dim` `=` $split_dim
    `concat_dim` `=` $concat_dim attr-dict `:` functional-type($operand, $result)
  }];
}

def Tessel_CollectivePermuteOp : Tessel_CollectiveOp<"collective_permute",
    [SameOperandsAndResultType]> {
  let summary = "Sends each device's operand to another device of its group";
  let description = [{
    Exactly one rule says who sends to whom, by positions within a group:
    `shift = k` sends position `i` to `i + k`; positions that fall off the group send
    nothing unless `cyclic` wraps them around. `pairs = [[s, t], ...]` lists the
    (source, target) positions; sources are unique and so are targets. A device that
    receives nothing gets zeros.

    ```mlir
    %y = tessel.collective_permute %x over @mesh ["x"] shift = 1 : tensor<4xf32>
    %z = tessel.collective_permute %x over @mesh ["x"] shift = -1 cyclic : tensor<4xf32>
    %w = tessel.collective_permute %x over @mesh ["x"] pairs = [[0, 1], [1, 0]] : tensor<4xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$operand, FlatSymbolRefAttr:$mesh_name,
                       Tessel_AxisRefArrayAttr:$axes, OptionalAttr<I64Attr>:$shift,
                       UnitAttr:$cyclic, OptionalAttr<DenseI64ArrayAttr>:$pairs);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $operand `over` $mesh_name custom<AxisRefList>($axes)
    custom<PermuteRule>($shift, $cyclic, $pairs) attr-dict `:` type($result)
  }];
  let extraClassDeclaration = collectiveClassDeclaration # [{
    // The (source, target) group positions, whichever rule the op uses.
    // REQUIRES: the op verified.
    llvm::SmallVector<std::pair<int64_t, int64_t>> getSourceTargetPairs();
  }];
}

#endif  // TESSEL_IR_TESSEL_OPS_TD
