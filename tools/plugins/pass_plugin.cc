// Tessel's pass plugin for mlir-opt and other MLIR drivers built with plugin support:
//   mlir-opt --load-dialect-plugin=tessel_dialect_plugin.so
//            --load-pass-plugin=tessel_pass_plugin.so
//            --pass-pipeline='builtin.module(tessel-spmd-pipeline)' file.mlir
// registers every Tessel pass and the tessel-spmd-pipeline pipeline (registerAllPasses).
// A driver reads the pass flags before it loads plugins, so plugin passes are named in
// --pass-pipeline rather than as flags of their own.
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "partitioner/api/version.h"
#include "partitioner/registration.h"

extern "C" LLVM_ATTRIBUTE_WEAK mlir::PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "Tessel", TESSEL_VERSION_STRING,
          [] { tessel::registerAllPasses(); }};
}
