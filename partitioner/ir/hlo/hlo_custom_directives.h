// The custom directives of the hlo ops' assembly formats: `custom<Name>(...)` in a .td file
// calls parseName/printName, found here by ordinary name lookup from the generated code.
// Each is defined beside the op family that uses it (hlo_<family>_ops.cc); the ones
// shared by several families are defined in hlo_custom_directives.cc.
//
// REQUIRES: include after the attribute classes (hlo_ops.h does).
#ifndef TESSEL_PARTITIONER_IR_HLO_HLO_CUSTOM_DIRECTIVES_H_
#define TESSEL_PARTITIONER_IR_HLO_HLO_CUSTOM_DIRECTIVES_H_

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"

namespace tessel::hlo {

// Parses zero or more operands, each followed by a comma: `%a, %b,`. ODS's own operand
// lists cannot be followed by `, keyword`, as in `hlo.concatenate %a, %b, dim = 0`.
// This is the custom directive `custom<CommaTerminatedOperands>($operands)`.
mlir::ParseResult parseCommaTerminatedOperands(
    mlir::OpAsmParser& parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand>& operands);

// Prints what parseCommaTerminatedOperandList reads, each comma followed by a space; the
// op's format must not add another space after the directive.
void printCommaTerminatedOperands(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                                  mlir::OperandRange operands);

// `[start:limit(:stride)?, ...]` of hlo.slice (hlo_slice_ops.cc).
mlir::ParseResult parseSliceRanges(mlir::OpAsmParser& parser, mlir::DenseI64ArrayAttr& start,
                                   mlir::DenseI64ArrayAttr& limit,
                                   mlir::DenseI64ArrayAttr& strides);
void printSliceRanges(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                      mlir::DenseI64ArrayAttr start, mlir::DenseI64ArrayAttr limit,
                      mlir::DenseI64ArrayAttr strides);

// `@target` of hlo.custom_call (hlo_control_ops.cc).
mlir::ParseResult parseTargetName(mlir::OpAsmParser& parser, mlir::StringAttr& name);
void printTargetName(mlir::OpAsmPrinter& printer, mlir::Operation* op, mlir::StringAttr name);

// Dimension numbers spelled inline, without the `#hlo.<name><...>` wrapper
// (hlo_linalg_ops.cc, hlo_indexing_ops.cc).
mlir::ParseResult parseDotDims(mlir::OpAsmParser& parser, DotDimensionNumbersAttr& dims);
void printDotDims(mlir::OpAsmPrinter& printer, mlir::Operation* op, DotDimensionNumbersAttr dims);
mlir::ParseResult parseConvDims(mlir::OpAsmParser& parser, ConvDimensionNumbersAttr& dims);
void printConvDims(mlir::OpAsmPrinter& printer, mlir::Operation* op, ConvDimensionNumbersAttr dims);
mlir::ParseResult parseGatherDims(mlir::OpAsmParser& parser, GatherDimensionNumbersAttr& dims);
void printGatherDims(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                     GatherDimensionNumbersAttr dims);
mlir::ParseResult parseScatterDims(mlir::OpAsmParser& parser, ScatterDimensionNumbersAttr& dims);
void printScatterDims(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                      ScatterDimensionNumbersAttr dims);

// The optional `, window_strides = [...], padding = [[lo, hi], ...], ...` clauses of
// hlo.convolution (hlo_linalg_ops.cc).
mlir::ParseResult parseConvAttrs(mlir::OpAsmParser& parser, mlir::DenseI64ArrayAttr& windowStrides,
                                 mlir::DenseIntElementsAttr& padding,
                                 mlir::DenseI64ArrayAttr& lhsDilation,
                                 mlir::DenseI64ArrayAttr& rhsDilation,
                                 mlir::IntegerAttr& featureGroupCount,
                                 mlir::IntegerAttr& batchGroupCount);
void printConvAttrs(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                    mlir::DenseI64ArrayAttr windowStrides, mlir::DenseIntElementsAttr padding,
                    mlir::DenseI64ArrayAttr lhsDilation, mlir::DenseI64ArrayAttr rhsDilation,
                    mlir::IntegerAttr featureGroupCount, mlir::IntegerAttr batchGroupCount);

// The optional window clauses of hlo.reduce_window and of hlo.select_and_scatter, which
// has no dilations (hlo_reduction_ops.cc).
mlir::ParseResult parseWindowAttrs(mlir::OpAsmParser& parser,
                                   mlir::DenseI64ArrayAttr& windowStrides,
                                   mlir::DenseI64ArrayAttr& baseDilations,
                                   mlir::DenseI64ArrayAttr& windowDilations,
                                   mlir::DenseIntElementsAttr& padding);
void printWindowAttrs(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                      mlir::DenseI64ArrayAttr windowStrides, mlir::DenseI64ArrayAttr baseDilations,
                      mlir::DenseI64ArrayAttr windowDilations, mlir::DenseIntElementsAttr padding);
mlir::ParseResult parseWindowAttrs(mlir::OpAsmParser& parser,
                                   mlir::DenseI64ArrayAttr& windowStrides,
                                   mlir::DenseIntElementsAttr& padding);
void printWindowAttrs(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                      mlir::DenseI64ArrayAttr windowStrides, mlir::DenseIntElementsAttr padding);

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_HLO_CUSTOM_DIRECTIVES_H_
