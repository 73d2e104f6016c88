// Passes of the sharding layer: imports of other sharding representations into Tessel's,
// and the export of Tessel's shardings as GSPMD text.
#ifndef TESSEL_PARTITIONER_SHARDING_TRANSFORMS_PASSES_TD
#define TESSEL_PARTITIONER_SHARDING_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def ImportMeshPass : Pass<"tessel-import-mesh", "mlir::ModuleOp"> {
  let summary = "Imports upstream MLIR `mesh` dialect annotations as tessel meshes and shardings";
  let description = [{
    Lets IR prepared for upstream MLIR's mesh passes enter Tessel. Every
    `mesh.mesh @m(shape = 2x4)` becomes `tessel.mesh @m = <["axis_0"=2, "axis_1"=4]>` (axis
    `i` of the upstream mesh is named `axis_i`). Every `mesh.shard` becomes Tessel's form of
    the same annotation, with closed dimensions:

    - `split_axes` give the axes of each dimension, major to minor; dimensions past the end
      of `split_axes` are not split;
    - `partial = sum[...]` axes become `unreduced` axes;
    - a `mesh.shard` of a function argument that annotates the value itself (no
      `annotate_for_users`) becomes that argument's `tessel.sharding`, if it has none yet;
      every other `mesh.shard` becomes a `tessel.sharding_constraint`.

    Rejected with a diagnostic at the offending op: meshes with a dynamic size, partial
    reductions other than sum (Tessel's unreduced axes are partial sums), split axes outside
    the mesh or more split dimensions than the tensor has, and every other `mesh` op
    (collectives and process queries belong to upstream's already-partitioned form).

    Before:

    ```mlir
    mesh.mesh @mesh(shape = 2x4)
    func.func @f(%arg0: tensor<8x16xf32>) -> tensor<8x16xf32> {
      %0 = mesh.shard %arg0 to <@mesh, [[0], [1]]> : tensor<8x16xf32>
      %1 = mesh.shard %0 to <@mesh, [[1]], partial = sum[0]> annotate_for_users : tensor<8x16xf32>
      return %1 : tensor<8x16xf32>
    }
    ```

    After (the printer writes no space before the closing brackets):

    ```mlir
    tessel.mesh @mesh = <["axis_0"=2, "axis_1"=4]>
    func.func @f(%arg0: tensor<8x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"axis_0"}, {"axis_1"} ]>})
        -> tensor<8x16xf32> {
      %0 = tessel.sharding_constraint %arg0 <@mesh, [{"axis_1"}, {} ], unreduced={"axis_0"}> : tensor<8x16xf32>
      return %0 : tensor<8x16xf32>
    }
    ```
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
}

def ImportHloShardingsPass : Pass<"tessel-import-hlo-shardings", "mlir::ModuleOp"> {
  let summary = "Turns imported GSPMD `tessel.hlo_sharding` strings into tessel meshes and shardings";
  let description = [{
    HLO text import keeps each `sharding={...}` verbatim as `tessel.hlo_sharding`. This pass
    converts all of them together (so they share mesh axes) into meshes (`@mesh`, with axes
    `axis_0`, `axis_1`, ... from the common factorization of the tile assignments) and
    `tessel.sharding` annotations with closed dimensions, and removes the strings:

    - on a function argument or result: the plain `#tessel.sharding`;
    - on an op: a `#tessel.sharding_per_value` under `tessel.sharding` (one entry per
      result; a tuple sharding gives one leaf per result), which propagation keeps as a
      user annotation;
    - on `hlo.custom_call @Sharding(%x)` (GSPMD's annotation op): the call becomes a
      `tessel.sharding_constraint`.

    `{replicated}` becomes a fully replicated closed sharding. The device count is that of
    the tiled shardings (they must agree), else that of the module's first mesh, else 1. An
    imported mesh whose name another symbol already has gets a `_hlo` suffix, unless that
    symbol is the same mesh.

    A maximal sharding (`{maximal device=N}`) is imported as replicated, with a warning:
    every device computes the value, whose elements are the same. Rejected with a
    diagnostic naming the sharding text, at its op or function: text that does not parse,
    manual shardings (no mesh form outside a manual computation), a tiled rank that is not the value's, a tuple whose leaf count is
    not the number of annotated values, and tiled shardings over different device counts.

    In a module that already has manual computations (GSPMD's shard_maps, imported before
    this pass), their mesh joins the shardings' factorization first, and where the common
    mesh is that mesh the shardings are placed on it, so that values outside and the
    manual computations share axes.

    Shardy's annotations come first. The module's `xla.sdy.meshes` must parse and have no
    axis below size 1; every `xla.sdy.sharding` (`#sdy.sharding<...>` on a parameter,
    `#sdy.sharding_per_value<[...]>` on an op) must parse, name a declared mesh and fit it
    (known axes, sub-axes that divide their axis and are not all of it, no axis twice, the
    value's rank): otherwise an error at the instruction or the module. Where `sharding=`
    is also given and places the value otherwise, a warning says so and the GSPMD form is
    used (as XLA's own import does); where it is not, the Shardy sharding's GSPMD form
    stands in for it (values of a shard_map body excepted), so that a program annotated in
    Shardy's form only is imported like one in GSPMD's form.
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
}

def ImportShardyManualComputationsPass
    : Pass<"tessel-import-shardy-manual-computations", "mlir::ModuleOp"> {
  let summary = "Turns Shardy's round-trip form of shard_map into tessel.manual_computation";
  let description = [{
    JAX with Shardy writes a `shard_map` as three instructions: a custom call
    `xla.sdy.GlobalToLocalShape` (global operands in, local values out; frontend
    attributes `xla.sdy.in_shardings` and `xla.sdy.manual_axes`), a `call` of the body
    computation, and a custom call `xla.sdy.LocalToGlobalShape` (frontend attribute
    `xla.sdy.out_shardings`). After HLO import these are `hlo.custom_call`, `func.call`
    and `hlo.custom_call`; this pass replaces the three by one `tessel.manual_computation`
    whose region is the body, inlined (its `func.return` a `tessel.return`), with the
    Shardy shardings read as Tessel's (the syntax inside `<...>` is shared) and the manual
    axes as written. The body's collectives already name the declared mesh's axes (HLO
    import uses that mesh for the collectives of modules with manual computations). A body
    function nothing else calls is erased.

    Rejected with a diagnostic at the custom call: a GlobalToLocalShape whose results are
    not the operands, in order, of one call, whose call results do not feed one
    LocalToGlobalShape, or whose shardings or manual axes do not parse.
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
}

def ImportGspmdManualComputationsPass
    : Pass<"tessel-import-gspmd-manual-computations", "mlir::ModuleOp"> {
  let summary = "Turns GSPMD's form of shard_map into tessel.manual_computation";
  let description = [{
    JAX with Shardy off (and XLA's own SPMD tools) writes a `shard_map` as ops: each operand
    goes through a `Sharding` custom call (its in sharding) into an `SPMDFullToShardShape`
    custom call with a manual sharding (the per-device value), the per-device code follows
    (a `call` of the body computation, or the body inlined), and each result goes through a
    `Sharding` custom call with a manual sharding into `SPMDShardToFullShape` (its out
    sharding). The shardings are still HLO import's `tessel.hlo_sharding` strings: this pass
    runs before --tessel-import-hlo-shardings, which refuses manual shardings.

    The ops that local values join into one shard_map (several operands and results
    included) become one `tessel.manual_computation`: its operands are the in `Sharding`
    calls' results (those calls stay, as sharding constraints on the global values), its
    in and out shardings those of the `Sharding` calls and of `SPMDShardToFullShape`, and
    its manual axes those of the manual shardings: every axis for `{manual}`, the axes of
    the manual tile dim for `last_tile_dims={manual, ...}` (partly manual). The per-device
    ops move into the region, calls in it inlined; constants that global code also uses
    are copied. Inside, manual shardings go: a `Sharding` call becomes its operand, or a
    `tessel.sharding_constraint` where its sharding also splits the value over non-manual
    axes. Body functions nothing else calls are erased.

    The shardings are placed on the module's mesh `@mesh` (HLO import derives it from the
    module's tile assignments and collective device groups when it has shard_maps, and
    names the body's collectives by its axes); without one, the pass adds one made from the
    shard_maps' shardings.

    Rejected with a diagnostic at the op: an `SPMDFullToShardShape` or
    `SPMDShardToFullShape` with other than one operand and one result; an
    `SPMDFullToShardShape` whose operand is not a `Sharding` call, or whose own sharding is
    not manual; an `SPMDShardToFullShape` whose
    operand is not a `Sharding` call with a manual sharding; in and out shardings that are
    manual, or whose tile assignments split the devices where the mesh has no axis (no one
    mesh explains them all); manual axes that differ within one shard_map; local types
    that are not the global ones split by the manual axes; per-device values that leave
    other than through `SPMDShardToFullShape`, and global values (other than constants)
    used in per-device code other than through `SPMDFullToShardShape`.

    Before (mesh `["axis_0"=4, "axis_1"=2]`):

    ```mlir
    %0 = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = hlo.custom_call @SPMDFullToShardShape(%0) {tessel.hlo_sharding = "{manual}"} : (tensor<8x4xf32>) -> tensor<2x4xf32>
    %2 = hlo.neg %1 : tensor<2x4xf32>
    %3 = hlo.custom_call @Sharding(%2) {tessel.hlo_sharding = "{manual}"} : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %4 = hlo.custom_call @SPMDShardToFullShape(%3) {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<2x4xf32>) -> tensor<8x4xf32>
    ```

    After (the printer writes no space before the closing brackets):

    ```mlir
    %0 = hlo.custom_call @Sharding(%x) {tessel.hlo_sharding = "{devices=[4,1,2]<=[8] last_tile_dim_replicate}"} : (tensor<8x4xf32>) -> tensor<8x4xf32>
    %1 = tessel.manual_computation(%0) in_shardings=[<@mesh, [{"axis_0"}, {} ]>] out_shardings=[<@mesh, [{"axis_0"}, {} ]>] manual_axes={"axis_0", "axis_1"} (%arg1: tensor<2x4xf32>) {
      %2 = hlo.neg %arg1 : tensor<2x4xf32>
      tessel.return %2 : tensor<2x4xf32>
    } : (tensor<8x4xf32>) -> tensor<8x4xf32>
    ```
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
}

def ImportShardingGroupsPass : Pass<"tessel-import-sharding-groups", "mlir::ModuleOp"> {
  let summary = "Turns Shardy's sharding groups and GSPMD's shard_as/shard_like into tessel.sharding_group";
  let description = [{
    `jax.experimental.shard_alike` asks for values to be sharded alike. With Shardy, JAX
    writes a custom call `xla.sdy.ShardingGroup(%x)` per value, with the frontend
    attribute `xla.sdy.sharding_group_id="N : i64"`; without it, a `Sharding` custom call
    with `sharding={unknown shard_as N}` (`shard_like N` is XLA's weaker hint; Tessel
    treats it the same). This pass makes one `tessel.sharding_group` per group of the
    values, before the terminator of the block that holds them, and drops the calls (a
    `Sharding` call becomes its operand). `shard_as N`/`shard_like N` after a real
    sharding (`{devices=[2,1]0,1 shard_as 1}`) joins the value to the group and leaves the
    sharding to --tessel-import-hlo-shardings, which runs next; `{unknown}` alone means no
    sharding and is dropped. Ids of the three kinds are kept apart.

    Rejected with a diagnostic: a group id that does not parse, values of one group in
    different blocks, and values of different shapes (the op's verifier).
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
}

def ExportHloShardingsPass : Pass<"tessel-export-hlo-shardings", "mlir::ModuleOp"> {
  let summary = "Writes every `tessel.sharding` as GSPMD text (`tessel.hlo_sharding`) for HLO export";
  let description = [{
    The inverse of --tessel-import-hlo-shardings, for handing a propagated program to XLA:
    every `tessel.sharding` of a function argument or result and every per-value sharding
    of an op gets the GSPMD sharding that places data on devices exactly as it does
    (docs/sharding.md), as the `tessel.hlo_sharding` string the HLO exporter writes after
    `sharding=`. An op with several results gets a tuple sharding. Inside a
    `tessel.manual_computation` the manual axes fold into GSPMD's manual tile dimension.
    The `tessel.sharding` attributes stay; a stale `tessel.hlo_sharding` (from an import) is
    replaced. Open dimensions and priorities have no GSPMD form and are dropped.

    On a mesh `["x"=2, "y"=4]`, an argument with rows over "y" and columns over "x" gets
    `tessel.hlo_sharding = "{devices=[4,2]<=[2,4]T(1,0)}"`.

    Rejected with a diagnostic at the op or function: a sharding whose mesh is not in the
    module.
  }];
  let dependentDialects = ["::tessel::ir::TesselDialect"];
}

#endif  // TESSEL_PARTITIONER_SHARDING_TRANSFORMS_PASSES_TD
