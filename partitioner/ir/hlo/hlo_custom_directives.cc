// Custom assembly directives shared by several hlo op families.
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo {

mlir::ParseResult parseCommaTerminatedOperands(
    mlir::OpAsmParser& parser,
    llvm::SmallVectorImpl<mlir::OpAsmParser::UnresolvedOperand>& operands) {
  while (true) {
    mlir::OpAsmParser::UnresolvedOperand operand;
    mlir::OptionalParseResult result = parser.parseOptionalOperand(operand);
    if (!result.has_value()) return mlir::success();
    if (failed(*result) || parser.parseComma()) return mlir::failure();
    operands.push_back(operand);
  }
}

void printCommaTerminatedOperands(mlir::OpAsmPrinter& printer, mlir::Operation*,
                                  mlir::OperandRange operands) {
  for (mlir::Value operand : operands) printer << operand << ", ";
}

}  // namespace tessel::hlo
