// tessel-translate: converts between XLA HLO text and Tessel's MLIR dialects.
//   tessel-translate --import-hlo model.hlo          HLO text → MLIR
//   tessel-translate --export-hlo model.mlir         MLIR → HLO text
//   tessel-translate --export-stablehlo model.mlir   MLIR → StableHLO + Shardy MLIR
// Errors are reported as file:line:col diagnostics with a non-zero exit status.

#include "absl/status/status.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/stablehlo/export.h"
#include "support/guarded_main.h"

namespace {

void registerDialects(mlir::DialectRegistry& registry) {
  registry.insert<mlir::func::FuncDialect, tessel::hlo::HloDialect, tessel::ir::TesselDialect>();
}

int TranslateMain(int argc, char** argv) {
  mlir::TranslateToMLIRRegistration importHlo(
      "import-hlo", "import XLA HLO text",
      [](const std::shared_ptr<llvm::SourceMgr>& sourceMgr,
         mlir::MLIRContext* context) -> mlir::OwningOpRef<mlir::Operation*> {
        const llvm::MemoryBuffer* buffer = sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        mlir::OwningOpRef<mlir::ModuleOp> module = tessel::hlo_text::ImportHloText(
            buffer->getBuffer(), buffer->getBufferIdentifier(), context);
        if (!module) return nullptr;
        return mlir::OwningOpRef<mlir::Operation*>(module.release().getOperation());
      },
      registerDialects);
  // Registered on the source rather than on a parsed module, so that text nested too deep
  // for MLIR's recursive parser is refused before it parses.
  mlir::TranslateRegistration exportHlo(
      "export-hlo", "export to XLA HLO text",
      [](const std::shared_ptr<llvm::SourceMgr>& sourceMgr, llvm::raw_ostream& os,
         mlir::MLIRContext* context) -> mlir::LogicalResult {
        const llvm::MemoryBuffer* buffer = sourceMgr->getMemoryBuffer(sourceMgr->getMainFileID());
        absl::Status nesting = tessel::CheckMlirNesting(
            absl::string_view(buffer->getBufferStart(), buffer->getBufferSize()),
            buffer->getBufferIdentifier().str());
        if (!nesting.ok()) {
          llvm::errs() << std::string(nesting.message()) << "\n";
          return mlir::failure();
        }
        mlir::DialectRegistry registry;
        registerDialects(registry);
        context->appendDialectRegistry(registry);
        context->loadAllAvailableDialects();
        mlir::OwningOpRef<mlir::ModuleOp> module =
            mlir::parseSourceFile<mlir::ModuleOp>(*sourceMgr, mlir::ParserConfig(context));
        if (!module) return mlir::failure();
        return tessel::hlo_text::ExportHloText(*module, os);
      });
  mlir::TranslateRegistration exportStablehlo(
      "export-stablehlo", "export to StableHLO + Shardy MLIR",
      [](const std::shared_ptr<llvm::SourceMgr>& sourceMgr, llvm::raw_ostream& os,
         mlir::MLIRContext* context) -> mlir::LogicalResult {
        mlir::DialectRegistry registry;
        registerDialects(registry);
        context->appendDialectRegistry(registry);
        context->loadAllAvailableDialects();
        mlir::OwningOpRef<mlir::ModuleOp> module =
            mlir::parseSourceFile<mlir::ModuleOp>(*sourceMgr, mlir::ParserConfig(context));
        if (!module) return mlir::failure();
        absl::StatusOr<std::string> text = tessel::stablehlo::ExportStablehloText(*module);
        if (!text.ok()) {
          llvm::errs() << std::string(text.status().message()) << "\n";
          return mlir::failure();
        }
        os << *text;
        return mlir::success();
      });
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "Tessel translation tool"));
}

}  // namespace

int main(int argc, char** argv) {
  return tessel::RunGuarded("tessel-translate", [&] { return TranslateMain(argc, argv); });
}
