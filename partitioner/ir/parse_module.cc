// MLIR text → verified module, with diagnostics collected into a Status.
#include "partitioner/ir/parse_module.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/ir/verify_tree.h"

namespace tessel {

// Strings and // comments are skipped. A '>' that is not a bracket ("->", ">=") only makes
// the count lower, so this never refuses text the parser would take for fewer levels.
absl::Status CheckMlirNesting(absl::string_view text, absl::string_view buffer_name) {
  int depth = 0;
  int line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    } else if (c == '"') {
      for (++i; i < text.size() && text[i] != '"' && text[i] != '\n'; ++i) {
        if (text[i] == '\\') ++i;
      }
      if (i < text.size() && text[i] == '\n') --i;  // an unterminated string: the parser says so
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > kMaxNesting) {
        return absl::InvalidArgumentError(absl::StrCat(
            buffer_name, ":", line, ":", i - line_start + 1, ": error: brackets nested deeper than ",
            kMaxNesting, " levels"));
      }
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth > 0) {
      --depth;
    }
  }
  return absl::OkStatus();
}

void RegisterTesselDialects(mlir::DialectRegistry& registry) {
  registry.insert<mlir::func::FuncDialect, hlo::HloDialect, ir::TesselDialect>();
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseModule(absl::string_view text,
                                                              absl::string_view buffer_name,
                                                              mlir::MLIRContext& context) {
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  context.appendDialectRegistry(registry);
  context.loadAllAvailableDialects();
  // Errors point at the text with a caret; MLIR's note with the failing op in its generic
  // form ("see current operation: %0 = \"hlo.add\"(...)") repeats that in a spelling the
  // reader never wrote.
  context.printOpOnDiagnostic(false);

  absl::Status nesting = CheckMlirNesting(text, buffer_name);
  if (!nesting.ok()) return nesting;

  llvm::SourceMgr source_mgr;
  source_mgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()),
                                           llvm::StringRef(buffer_name.data(), buffer_name.size())),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  // Prints each diagnostic as "file:line:col: error: message" into `diagnostics`.
  mlir::SourceMgrDiagnosticHandler handler(source_mgr, &context, os);
  // The parser would verify the module with `mlir::verify`; `verifyTree` makes the same
  // checks for less on large programs, and once is enough.
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(source_mgr, config);
  if (module && mlir::failed(ir::verifyTree(*module))) module = nullptr;
  if (!module) {
    os.flush();
    return absl::InvalidArgumentError(diagnostics.empty()
                                          ? absl::StrCat(buffer_name, ": failed to parse")
                                          : diagnostics);
  }
  return module;
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseModuleFile(absl::string_view path,
                                                                  mlir::MLIRContext& context) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(llvm::StringRef(path.data(), path.size()));
  if (!buffer) {
    return absl::NotFoundError(
        absl::StrCat("cannot read ", path, ": ", buffer.getError().message()));
  }
  return ParseModule((*buffer)->getBuffer().str(), path, context);
}

}  // namespace tessel
