// tessel-translate: converts between XLA HLO text and Tessel's MLIR dialects.
//   tessel-translate --import-hlo model.hlo          HLO text → MLIR
//   tessel-translate --export-hlo model.mlir         MLIR → HLO text
// Errors are reported as file:line:col diagnostics with a non-zero exit status.

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
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
  mlir::TranslateFromMLIRRegistration exportHlo(
      "export-hlo", "export to XLA HLO text",
      [](mlir::Operation* op, llvm::raw_ostream& os) -> mlir::LogicalResult {
        auto module = mlir::dyn_cast<mlir::ModuleOp>(op);
        if (!module) return op->emitError("expected a builtin.module");
        return tessel::hlo_text::ExportHloText(module, os);
      },
      registerDialects);
  return mlir::failed(mlir::mlirTranslateMain(argc, argv, "Tessel translation tool"));
}

}  // namespace

int main(int argc, char** argv) {
  return tessel::RunGuarded("tessel-translate", [&] { return TranslateMain(argc, argv); });
}
