// A compiler that embeds Tessel's dialects and passes in its own MLIR setup, built against
// an installed Tessel and the system's MLIR: it makes its own DialectRegistry and
// MLIRContext, registers Tessel's dialects, sharding rules and passes through Tessel's
// registration functions, parses a program and runs propagation and partitioning by name
// in its own PassManager. It checks what partitioning must produce whatever its strategy:
// a dimension of 7 split 3 ways is 3 long on each device (ceil(7/3)), and a sum over that
// dimension needs an all_reduce across the devices.
#include <iostream>
#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/propagation/passes.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/spmd/passes.h"

namespace {

constexpr const char kProgram[] = R"mlir(
tessel.mesh @mesh = <["x"=3]>
func.func @main(%a: tensor<7x5xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}]>},
                %b: tensor<7x5xf32>) -> tensor<5xf32> {
  %sum = hlo.add %a, %b : tensor<7x5xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.reduce(%sum) init(%zero) dimensions = [0]
      : (tensor<7x5xf32>, tensor<f32>) -> tensor<5xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  return %r : tensor<5xf32>
}
)mlir";

int Fail(const std::string& what, mlir::ModuleOp module = nullptr) {
  std::cerr << "FAIL: " << what << "\n";
  if (module) module.print(llvm::errs());
  return 1;
}

}  // namespace

int main() {
  // Registered by name, as a compiler's own driver would, so that the pipeline below can
  // be written as text.
  tessel::propagation::registerPropagationPasses();
  tessel::spmd::registerSpmdPasses();

  mlir::DialectRegistry registry;
  registry.insert<mlir::func::FuncDialect, tessel::hlo::HloDialect, tessel::ir::TesselDialect>();
  tessel::rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);

  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(kProgram, &context);
  if (!module) return Fail("the program does not parse");

  // The passes are added to the module's own pass manager: a "builtin.module(...)" string
  // here would nest, and run on modules inside this one.
  mlir::PassManager pm(&context, mlir::ModuleOp::getOperationName());
  if (mlir::failed(mlir::parsePassPipeline("tessel-propagate,tessel-partition", pm,
                                           llvm::errs()))) {
    return Fail("the pipeline does not parse: are Tessel's passes registered?");
  }
  if (mlir::failed(pm.run(*module))) return Fail("the pipeline failed");

  auto main_function = module->lookupSymbol<mlir::func::FuncOp>("main");
  if (!main_function) return Fail("no @main after partitioning");
  auto local = mlir::dyn_cast<mlir::RankedTensorType>(main_function.getArgumentTypes()[0]);
  if (!local || local.getShape() != llvm::ArrayRef<int64_t>({3, 5})) {
    std::string type;
    llvm::raw_string_ostream os(type);
    main_function.getArgumentTypes()[0].print(os);
    return Fail("argument 0 is " + os.str() + " on each device, expected tensor<3x5xf32>",
                *module);
  }
  int all_reduces = 0;
  module->walk([&](mlir::Operation* op) {
    if (op->getName().getStringRef() == "tessel.all_reduce") ++all_reduces;
  });
  if (all_reduces == 0) return Fail("no tessel.all_reduce sums the partial results", *module);
  std::cout << "mlir_consumer: ok (" << all_reduces << " all_reduce, argument 0 is "
            << "tensor<3x5xf32> on each of 3 devices)\n";
  return 0;
}
