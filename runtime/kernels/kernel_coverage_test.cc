// Checks that every op of the hlo and tessel dialects has a kernel in the default registry,
// without going through lit or a program: a new op cannot land without one.
#include <string>

#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/kernel_registry.h"

namespace tessel::runtime {
namespace {

TEST(KernelCoverageTest, EveryOpHasAKernel) {
  mlir::MLIRContext context;
  context.loadDialect<hlo::HloDialect, ir::TesselDialect>();
  const KernelRegistry& registry = DefaultKernelRegistry();
  int checked = 0;
  for (mlir::RegisteredOperationName name : context.getRegisteredOperations()) {
    llvm::StringRef op = name.getStringRef();
    // Terminators run as part of their parent op; a mesh is a declaration.
    if (op == "hlo.return" || op == "tessel.return" || op == "tessel.mesh") continue;
    if (!op.starts_with("hlo.") && !op.starts_with("tessel.")) continue;
    ++checked;
    EXPECT_NE(registry.Find(op.str()), nullptr) << op.str() << " has no kernel";
  }
  EXPECT_GT(checked, 60);
}

}  // namespace
}  // namespace tessel::runtime
