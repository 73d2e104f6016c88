// "file:line:col" for a location (location.h); "file:line" where the column is 0, which
// MLIR reads as unknown and which C++ call sites have when the compiler gives no column.
#include "partitioner/ir/location.h"

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel {

std::string FormatLocation(mlir::Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = loc->findInstanceOf<mlir::FileLineColLoc>()) {
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine();
    if (fileLoc.getColumn() != 0) os << ":" << fileLoc.getColumn();
  } else {
    loc.print(os);
  }
  return os.str();
}

}  // namespace tessel
