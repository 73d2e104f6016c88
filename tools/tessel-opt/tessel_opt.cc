// tessel-opt: an mlir-opt style driver with Tessel's dialects and passes registered.
// Every stage of the pipeline can be run alone from here and tested with lit.
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/transforms/passes.h"

int main(int argc, char** argv) {
  mlir::registerTransformsPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, tessel::hlo::HloDialect, tessel::ir::TesselDialect>();
  tessel::sharding::registerShardingPassesAndDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tessel optimizer driver\n", registry));
}
