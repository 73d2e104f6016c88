// Tessel's dialect plugin for mlir-opt and other MLIR drivers built with plugin support:
//   mlir-opt --load-dialect-plugin=tessel_dialect_plugin.so file.mlir
// registers Tessel's dialects and the sharding-rule models (registerAllDialects), so the
// driver parses, verifies and prints `hlo` and `tessel` IR.
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "partitioner/api/version.h"
#include "partitioner/registration.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tessel", TESSEL_VERSION_STRING,
          [](mlir::DialectRegistry* registry) { tessel::registerAllDialects(*registry); }};
}
