// Custom directives of the tessel ops' declarative assembly formats, used by the generated
// parsers and printers in tessel_ops.cc:
//   AxisRefList:   ["data", "x":(1)2]
//   ReductionKind: sum | prod | max | min
//   PermuteRule:   shift = 1 [cyclic]  |  pairs = [[0, 1], [1, 2]]
#ifndef TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OP_SYNTAX_H_
#define TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OP_SYNTAX_H_

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpImplementation.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {

mlir::ParseResult parseAxisRefList(mlir::OpAsmParser& parser, mlir::ArrayAttr& axes);
void printAxisRefList(mlir::OpAsmPrinter& printer, mlir::Operation* op, mlir::ArrayAttr axes);

mlir::ParseResult parseReductionKind(mlir::OpAsmParser& parser, ReductionKindAttr& kind);
void printReductionKind(mlir::OpAsmPrinter& printer, mlir::Operation* op,
                        ReductionKindAttr kind);

// `pairs` holds the (source, target) positions flattened: [s0, t0, s1, t1, ...].
mlir::ParseResult parsePermuteRule(mlir::OpAsmParser& parser, mlir::IntegerAttr& shift,
                                   mlir::UnitAttr& cyclic, mlir::DenseI64ArrayAttr& pairs);
void printPermuteRule(mlir::OpAsmPrinter& printer, mlir::Operation* op, mlir::IntegerAttr shift,
                      mlir::UnitAttr cyclic, mlir::DenseI64ArrayAttr pairs);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_TESSEL_TESSEL_OP_SYNTAX_H_
