// Structured attributes of `hlo` ops (dimension numbers and the like).
#ifndef TESSEL_IR_HLO_ATTRS_TD
#define TESSEL_IR_HLO_ATTRS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_enums.td"

class Hlo_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Hlo_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def Hlo_DotDimensionNumbersAttr : Hlo_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "Which dimensions of hlo.dot_general are batch and contracting dimensions";
  let description = [{
    `lhs_batch[i]` pairs with `rhs_batch[i]`, `lhs_contract[i]` with `rhs_contract[i]`.
    Empty lists may be left out.

    ```mlir
    #hlo.dot<lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]>
    ```
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$lhs_batch,
    OptionalArrayRefParameter<"int64_t">:$rhs_batch,
    OptionalArrayRefParameter<"int64_t">:$lhs_contract,
    OptionalArrayRefParameter<"int64_t">:$rhs_contract);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    // The fields as written inside an op's custom form: no `<>`, each field preceded by
    // `, ` (empty lists left out).
    static ::mlir::Attribute parseInline(::mlir::AsmParser& parser);
    void printInline(::mlir::AsmPrinter& printer) const;
  }];
}

def Hlo_ConvDimensionNumbersAttr : Hlo_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "Layout of the input, kernel and output of hlo.convolution";
  let description = [{
    Written as three bracketed lists, input `x` kernel `->` output, that name each dimension
    in order: `b` batch and `f` feature for input and output, `i` input feature and `o`
    output feature for the kernel, and an integer `k` for the k-th spatial dimension.
    Every list names the same number of spatial dimensions.

    ```mlir
    #hlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>
    ```
  }];
  let parameters = (ins
    "int64_t":$input_batch_dimension,
    "int64_t":$input_feature_dimension,
    OptionalArrayRefParameter<"int64_t">:$input_spatial_dimensions,
    "int64_t":$kernel_input_feature_dimension,
    "int64_t":$kernel_output_feature_dimension,
    OptionalArrayRefParameter<"int64_t">:$kernel_spatial_dimensions,
    "int64_t":$output_batch_dimension,
    "int64_t":$output_feature_dimension,
    OptionalArrayRefParameter<"int64_t">:$output_spatial_dimensions);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    // Number of spatial dimensions; each of input, kernel and output has this many + 2.
    int64_t getNumSpatialDims() const { return getInputSpatialDimensions().size(); }
    // The three lists without the surrounding `<>`, as written inside an op's custom form.
    static ::mlir::Attribute parseInline(::mlir::AsmParser& parser);
    void printInline(::mlir::AsmPrinter& printer) const;
  }];
}

def Hlo_GatherDimensionNumbersAttr : Hlo_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "How hlo.gather maps indices and slices to its operand and result";
  let description = [{
    Empty lists may be left out; `index_vector_dim` is required.

    ```mlir
    #hlo.gather<offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0],
                index_vector_dim = 1>
    ```
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$offset_dims,
    OptionalArrayRefParameter<"int64_t">:$collapsed_slice_dims,
    OptionalArrayRefParameter<"int64_t">:$operand_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$start_indices_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$start_index_map,
    "int64_t":$index_vector_dim);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    // The fields as written inside an op's custom form: no `<>`, each field preceded by
    // `, ` (empty lists left out).
    static ::mlir::Attribute parseInline(::mlir::AsmParser& parser);
    void printInline(::mlir::AsmPrinter& printer) const;
  }];
}

def Hlo_ScatterDimensionNumbersAttr : Hlo_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "How hlo.scatter maps indices and update windows to its inputs";
  let description = [{
    Empty lists may be left out; `index_vector_dim` is required.

    ```mlir
    #hlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
                 scatter_dims_to_operand_dims = [0], index_vector_dim = 1>
    ```
  }];
  let parameters = (ins
    OptionalArrayRefParameter<"int64_t">:$update_window_dims,
    OptionalArrayRefParameter<"int64_t">:$inserted_window_dims,
    OptionalArrayRefParameter<"int64_t">:$input_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$scatter_indices_batching_dims,
    OptionalArrayRefParameter<"int64_t">:$scatter_dims_to_operand_dims,
    "int64_t":$index_vector_dim);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    // The fields as written inside an op's custom form: no `<>`, each field preceded by
    // `, ` (empty lists left out).
    static ::mlir::Attribute parseInline(::mlir::AsmParser& parser);
    void printInline(::mlir::AsmPrinter& printer) const;
  }];
}

#endif  // TESSEL_IR_HLO_ATTRS_TD
