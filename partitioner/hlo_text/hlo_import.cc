// Entry points of HLO text import: parse, import, verify, and report.
#include "partitioner/hlo_text/hlo_import.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/hlo_text/hlo_parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/ir/verify_tree.h"

namespace tessel::hlo_text {

mlir::OwningOpRef<mlir::ModuleOp> ImportHloText(llvm::StringRef text, llvm::StringRef bufferName,
                                                mlir::MLIRContext* context) {
  context->loadDialect<mlir::func::FuncDialect, hlo::HloDialect, ir::TesselDialect>();
  ParsedModule parsed;
  if (failed(ParseHloText(text, bufferName, context, parsed))) return nullptr;
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::ModuleOp::create(
      mlir::FileLineColLoc::get(context, bufferName, parsed.pos.line, parsed.pos.col));
  if (failed(Importer(parsed, *module).run())) return nullptr;
  if (failed(ir::verifyTree(*module))) return nullptr;
  return module;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ImportHloTextToModule(
    absl::string_view text, absl::string_view bufferName, mlir::MLIRContext& context) {
  llvm::StringRef name(bufferName.data(), bufferName.size());
  // Errors point at the HLO text; MLIR's note with the failing op in its generic MLIR form
  // would show the reader a program they never wrote.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  // A view of the caller's text, which outlives the import: the import reads it only here,
  // and a copy of a large program is tens of megabytes of memory to touch.
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBuffer(llvm::StringRef(text.data(), text.size()), name,
                                       /*RequiresNullTerminator=*/false),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context, os);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      ImportHloText(sourceMgr.getMemoryBuffer(1)->getBuffer(), name, &context);
  if (!module) {
    os.flush();
    return absl::InvalidArgumentError(
        diagnostics.empty() ? absl::StrCat(bufferName, ": failed to import HLO text")
                            : diagnostics);
  }
  return module;
}

}  // namespace tessel::hlo_text
