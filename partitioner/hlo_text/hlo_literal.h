// Array literals of `constant` instructions: `1.5`, `{1, 2, 3}`, `{{true, false}, ...}`,
// `-inf`, `nan`, and complex values `(1.5, -2)` (real part, imaginary part). Parsing checks the nesting against the shape; printing gives values that
// parse back to the same bits (floats use the shortest decimal that round-trips).
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_LITERAL_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_LITERAL_H_

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/hlo_text/hlo_lexer.h"

namespace tessel::hlo_text {

// Parses the literal `text` (starting at `pos`) as a value of `type`.
mlir::FailureOr<mlir::DenseElementsAttr> ParseLiteral(llvm::StringRef text, SourcePos pos,
                                                      mlir::RankedTensorType type,
                                                      mlir::MLIRContext* context);

// Prints `value` in HLO literal syntax (nested braces, one level per dimension).
void PrintLiteral(mlir::DenseElementsAttr value, llvm::raw_ostream& os);

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_LITERAL_H_
