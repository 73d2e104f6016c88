// MlirText: the textual form MLIR prints for an attribute or a type, as a std::string, for the
// commands that quote shardings and tensor types in their text and JSON output.
#ifndef TESSEL_TOOLS_TESSEL_MLIR_TEXT_H_
#define TESSEL_TOOLS_TESSEL_MLIR_TEXT_H_

#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/Attributes.h"
#include "mlir/IR/Types.h"

namespace tessel::cli {

// Works for anything MLIR streams to a raw_ostream (attributes, types, locations).
template <typename Printable>
std::string MlirText(const Printable& printable) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << printable;
  return os.str();
}

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_MLIR_TEXT_H_
