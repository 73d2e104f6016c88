// Attributes of the `tessel` dialect: meshes, axis references, shardings and reduction kinds.
// Checks that need no mesh run in the attributes' own verifiers; checks against a mesh live in
// sharding_verification.h so ops, function arguments and results share them.
#ifndef TESSEL_IR_TESSEL_ATTRS_TD
#define TESSEL_IR_TESSEL_ATTRS_TD

include "partitioner/ir/tessel/tessel_dialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

// How all_reduce and reduce_scatter combine the values of a group.
def Tessel_ReductionKind : I32EnumAttr<"ReductionKind",
    "how a collective combines the values of its group", [
      I32EnumAttrCase<"Sum", 0, "sum">, I32EnumAttrCase<"Prod", 1, "prod">,
      I32EnumAttrCase<"Max", 2, "max">, I32EnumAttrCase<"Min", 3, "min">]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::tessel::ir";
}

def Tessel_ReductionKindAttr
    : EnumAttr<Tessel_Dialect, Tessel_ReductionKind, "reduction"> {
  let assemblyFormat = "`<` $value `>`";
}

//===------------------------------------------------------------------------------------===//
// Meshes
//===------------------------------------------------------------------------------------===//

def Tessel_MeshAxisAttr : Tessel_Attr<"MeshAxis", "mesh_axis"> {
  let summary = "A named axis of a device mesh";
  let description = [{
    One axis of a mesh: its name and how many devices lie along it.

    ```mlir
    #tessel.mesh_axis<"data"=4>
    ```
  }];
  let parameters = (ins StringRefParameter<"name of the axis">:$name,
                        "int64_t":$size);
  let assemblyFormat = "`<` $name `=` $size `>`";
}

def Tessel_MeshAttr : Tessel_Attr<"Mesh", "mesh"> {
  let summary = "A device mesh: ordered named axes and optional explicit device ids";
  let description = [{
    The devices form an array whose shape is the axis sizes, major to minor. The device at
    linear (row-major) index `i` of that array has id `device_ids[i]`, or `i` when no ids
    are given. A mesh without axes holds a single device; it may name that device with one
    id of any value (a "maximal" mesh).

    ```mlir
    #tessel.mesh<["data"=4, "model"=2]>
    #tessel.mesh<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>
    ```
  }];
  let parameters = (ins
      ArrayRefParameter<"MeshAxisAttr", "axes, major to minor">:$axes,
      OptionalArrayRefParameter<"int64_t", "device id per linear index">:$device_ids);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // The size of axis `name`, or nullopt if the mesh has no such axis.
    std::optional<int64_t> findAxisSize(llvm::StringRef name) const;
    // The size of axis `name`. REQUIRES: the axis exists (the mesh was verified against it).
    int64_t getAxisSize(llvm::StringRef name) const;
    // The number of devices: the product of the axis sizes (1 without axes).
    int64_t getTotalSize() const;
    // The id of the device at row-major position `linearIndex` of the mesh.
    // REQUIRES: 0 <= linearIndex < getTotalSize().
    int64_t getDeviceId(int64_t linearIndex) const;
    // The row-major position of device `deviceId`, or nullopt if the mesh lacks it.
    std::optional<int64_t> findLinearIndex(int64_t deviceId) const;
    // The coordinate of each axis (in mesh order) of the device at `linearIndex`.
    llvm::SmallVector<int64_t> getCoordinates(int64_t linearIndex) const;
  }];
}

//===------------------------------------------------------------------------------------===//
// Shardings
//===------------------------------------------------------------------------------------===//

def Tessel_AxisRefAttr : Tessel_Attr<"AxisRef", "axis_ref"> {
  let summary = "A mesh axis, or a sub-axis of one";
  let description = [{
    `"x"` names all of axis `x`. `"x":(pre)size` names a sub-axis: view axis `x` (size `n`)
    as the major-to-minor split `[pre, size, n / (pre * size)]` and take the middle part.
    Without a sub-axis, `pre_size` and `sub_size` are 0.

    ```mlir
    #tessel.axis_ref<"x">
    #tessel.axis_ref<"x":(2)4>
    ```
  }];
  let parameters = (ins StringRefParameter<"name of the mesh axis">:$name,
                        DefaultValuedParameter<"int64_t", "0">:$pre_size,
                        DefaultValuedParameter<"int64_t", "0">:$sub_size);
  let builders = [
    AttrBuilder<(ins "llvm::StringRef":$name), [{
      return $_get($_ctxt, name, 0, 0);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // Whether this names a part of an axis rather than all of it.
    bool isSubAxis() const { return getSubSize() != 0; }
    // The number of devices along this (sub-)axis.
    // REQUIRES: the axis exists in `mesh`.
    int64_t getSize(MeshAttr mesh) const;
    // The part of the axis this covers, as the half-open range [first, last) of the
    // multiplicative boundaries of the axis split: a full axis of size n is [1, n),
    // "x":(2)4 is [2, 8).
    std::pair<int64_t, int64_t> getRange(MeshAttr mesh) const;
    // Whether both name the same axis and share at least one device coordinate factor.
    // "x" overlaps every sub-axis of "x"; "x":(1)2 and "x":(2)2 do not overlap.
    bool overlaps(AxisRefAttr other) const;
    // Whether every factor of `other` is part of this: "x" contains "x":(2)2, and
    // "x":(1)4 contains "x":(2)2. Everything contains itself.
    bool contains(AxisRefAttr other) const;
    // Parses and prints the body without the `#tessel.axis_ref<...>` wrapper, the form used
    // inside shardings and collectives: `"x"` or `"x":(2)4`.
    static mlir::FailureOr<AxisRefAttr> parseBody(mlir::AsmParser &parser);
    void printBody(mlir::AsmPrinter &printer) const;
  }];
}

def Tessel_DimShardingAttr : Tessel_Attr<"DimSharding", "dim_sharding"> {
  let summary = "How one tensor dimension is split over mesh axes";
  let description = [{
    The axes that split the dimension, major to minor. A closed dimension (`{"x"}`) keeps
    exactly these axes; an open one (`{"x", ?}`, `{?}`) may be split further by propagation.
    An optional priority (`p0` strongest) orders when the dimension's sharding propagates.

    ```mlir
    #tessel.dim_sharding<{"x", "y":(1)2, ?}p1>
    ```
  }];
  let parameters = (ins
      OptionalArrayRefParameter<"AxisRefAttr", "axes, major to minor">:$axes,
      "bool":$is_closed,
      OptionalParameter<"std::optional<int64_t>", "propagation priority">:$priority);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // The product of the sizes of the axes. REQUIRES: they exist in `mesh`.
    int64_t getNumShards(MeshAttr mesh) const;
    // Parses and prints `{"x", ?}p0` without the `#tessel.dim_sharding<...>` wrapper.
    static mlir::FailureOr<DimShardingAttr> parseBody(mlir::AsmParser &parser);
    void printBody(mlir::AsmPrinter &printer) const;
  }];
}

def Tessel_ShardingAttr : Tessel_Attr<"Sharding", "sharding"> {
  let summary = "How a tensor is laid out over a device mesh";
  let description = [{
    A mesh symbol, one dimension sharding per tensor dimension, the axes the tensor must
    stay replicated over (`replicated`), and the axes over which the value is a partial
    result still to be reduced (`unreduced`). Both lists are omitted when empty. Axes of the
    mesh that appear nowhere replicate the tensor implicitly.

    Function arguments and results carry a plain sharding under `tessel.sharding`; ops carry
    a `#tessel.sharding_per_value` there (see that attribute).

    ```mlir
    #tessel.sharding<@mesh, [{"data"}, {"model", ?} ], replicated={"z"}, unreduced={"w"}>
    ```
  }];
  let parameters = (ins
      AttrParameter<"mlir::FlatSymbolRefAttr", "the mesh symbol">:$mesh_name,
      OptionalArrayRefParameter<"DimShardingAttr", "one per dimension">:$dim_shardings,
      OptionalArrayRefParameter<"AxisRefAttr", "axes kept replicated">:$replicated_axes,
      OptionalArrayRefParameter<"AxisRefAttr", "axes to reduce over">:$unreduced_axes);
  let builders = [
    AttrBuilder<(ins "mlir::FlatSymbolRefAttr":$mesh_name,
                     "llvm::ArrayRef<DimShardingAttr>":$dim_shardings), [{
      return $_get($_ctxt, mesh_name, dim_shardings, llvm::ArrayRef<AxisRefAttr>(),
                   llvm::ArrayRef<AxisRefAttr>());
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getDimShardings().size(); }
    // The number of pieces dimension `dim` is split into: the product of its axis sizes.
    // REQUIRES: 0 <= dim < getRank(), the axes exist in `mesh`.
    int64_t getNumShards(int64_t dim, MeshAttr mesh) const;
    // The shape each device holds: every static dimension divided by its number of shards,
    // rounded up (uneven splits are padded); dynamic dimensions stay dynamic.
    // REQUIRES: globalShape.size() == getRank().
    llvm::SmallVector<int64_t> getLocalShape(llvm::ArrayRef<int64_t> globalShape,
                                             MeshAttr mesh) const;
    // Whether every device holds the whole value: no dimension is split and no axis is
    // unreduced.
    bool isFullyReplicated() const;
    // Every axis that splits some dimension, dimension by dimension, major to minor.
    llvm::SmallVector<AxisRefAttr> getShardedAxes() const;
    // Whether dimension `dim` may be split further. REQUIRES: 0 <= dim < getRank().
    bool isOpen(int64_t dim) const { return !getDimShardings()[dim].getIsClosed(); }
    // Parses and prints the body inside the angle brackets: `@mesh, [...], replicated=...`.
    static mlir::FailureOr<ShardingAttr> parseBody(mlir::AsmParser &parser);
    void printBody(mlir::AsmPrinter &printer) const;
  }];
}

def Tessel_ShardingPerValueAttr : Tessel_Attr<"ShardingPerValue", "sharding_per_value"> {
  let summary = "One sharding per result of an op";
  let description = [{
    The form an op carries under the discardable attribute `tessel.sharding`, even when it
    has a single result, so readers never need to handle two shapes of the same attribute.

    ```mlir
    #tessel.sharding_per_value<[<@mesh, [{"x"} ]>, <@mesh, [{}, {"y"} ]>]>
    ```
  }];
  let parameters = (ins
      OptionalArrayRefParameter<"ShardingAttr", "one per result">:$shardings);
  let hasCustomAssemblyFormat = 1;
}

#endif  // TESSEL_IR_TESSEL_ATTRS_TD
