// Pieces of custom assembly syntax shared by several hlo ops.
#include "partitioner/ir/hlo/hlo_format_utils.h"

namespace tessel::hlo {

mlir::ParseResult parseCommaTerminatedOperandList(
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

void printCommaTerminatedOperandList(mlir::OpAsmPrinter& printer,
                                     mlir::OperandRange operands) {
  for (mlir::Value operand : operands) printer << operand << ", ";
}

}  // namespace tessel::hlo
