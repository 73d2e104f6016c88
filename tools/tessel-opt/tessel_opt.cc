// tessel-opt: an mlir-opt style driver with Tessel's dialects and passes registered.
// Every stage of the pipeline can be run alone from here and tested with lit.

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/registration.h"
#include "support/guarded_main.h"

namespace {

int OptMain(int argc, char** argv) {
  // Upstream's generic passes (canonicalize, cse, ...) for tests that clean up around ours.
  mlir::registerTransformsPasses();
  tessel::registerAllPasses();
  mlir::DialectRegistry registry;
  tessel::registerAllDialects(registry);
  // MlirOptMain(argc, argv, ...) in its parts, so that the input is checked for nesting too
  // deep for MLIR's recursive parser before that parser sees it.
  auto [inputFile, outputFile] =
      mlir::registerAndParseCLIOptions(argc, argv, "Tessel optimizer driver\n", registry);
  const mlir::MlirOptMainConfig config = mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFile, outputFile, registry));
  }
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> input = mlir::openInputFile(inputFile, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return 1;
  }
  absl::Status nesting =
      tessel::CheckMlirNesting(
      absl::string_view(input->getBufferStart(), input->getBufferSize()),
      input->getBufferIdentifier().str());
  if (!nesting.ok()) {
    llvm::errs() << std::string(nesting.message()) << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output = mlir::openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(mlir::MlirOptMain(output->os(), std::move(input), registry, config))) {
    return 1;
  }
  output->keep();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return tessel::RunGuarded("tessel-opt", [&] { return OptMain(argc, argv); });
}
