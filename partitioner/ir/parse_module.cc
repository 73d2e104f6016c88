// MLIR text → verified module, with diagnostics collected into a Status.
#include "partitioner/ir/parse_module.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel {

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

  llvm::SourceMgr source_mgr;
  source_mgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()),
                                           llvm::StringRef(buffer_name.data(), buffer_name.size())),
      llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  // Prints each diagnostic as "file:line:col: error: message" into `diagnostics`.
  mlir::SourceMgrDiagnosticHandler handler(source_mgr, &context, os);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(source_mgr, &context);
  if (module && mlir::failed(mlir::verify(*module))) module = nullptr;
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
