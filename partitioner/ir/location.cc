// "file:line:col" for a location (location.h).
#include "partitioner/ir/location.h"

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace tessel {

std::string FormatLocation(mlir::Location loc) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto fileLoc = loc->findInstanceOf<mlir::FileLineColLoc>()) {
    os << fileLoc.getFilename().getValue() << ":" << fileLoc.getLine() << ":"
       << fileLoc.getColumn();
  } else {
    loc.print(os);
  }
  return os.str();
}

}  // namespace tessel
