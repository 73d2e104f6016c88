// Pieces of custom assembly syntax shared by several hlo ops. Ops reach them through
// static members named after the directive (see Hlo_CommaTerminatedOperandsDirective in
// hlo_shape_ops.td), which forward here.
#ifndef TESSEL_PARTITIONER_IR_HLO_HLO_FORMAT_UTILS_H_
#define TESSEL_PARTITIONER_IR_HLO_HLO_FORMAT_UTILS_H_

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/OpImplementation.h"

namespace tessel::hlo {

// Parses zero or more operands, each followed by a comma: `%a, %b,`. ODS's own operand
// lists cannot be followed by `, keyword`, as in `hlo.concatenate %a, %b, dim = 0`.
mlir::ParseResult parseCommaTerminatedOperandList(
    mlir::OpAsmParser& parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand>& operands);

// Prints what parseCommaTerminatedOperandList reads, each comma followed by a space; the
// op's format must not add another space after the directive.
void printCommaTerminatedOperandList(mlir::OpAsmPrinter& printer, mlir::OperandRange operands);

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_HLO_FORMAT_UTILS_H_
