// The two calls a compiler makes to use Tessel from its own MLIR tools and pass managers.
//
//   mlir::DialectRegistry registry;
//   tessel::registerAllDialects(registry);
//   tessel::registerAllPasses();
//   mlir::MLIRContext context(registry);
//   ...
//   mlir::PassManager pm(&context);
//   tessel::passes::buildSpmdPipeline(pm, tessel::passes::SpmdPipelineOptions());
//
// tessel-opt and the mlir-opt plugins (tools/plugins) are built on these two calls.
#ifndef TESSEL_PARTITIONER_REGISTRATION_H_
#define TESSEL_PARTITIONER_REGISTRATION_H_

#include "mlir/IR/DialectRegistry.h"

namespace tessel {

// Registers every dialect Tessel's passes read or create: `hlo`, `tessel` and `func`; the
// input dialects that import passes turn into those (`stablehlo`, `chlo` and `sdy` as far as
// JAX's output needs them, upstream `mesh`); `arith`, `math` and `linalg`, whose ops get
// sharding rules; and the external models that give those rules. Registering loads nothing:
// a context loads a dialect when the input uses it.
void registerAllDialects(mlir::DialectRegistry& registry);

// Registers every Tessel pass (--tessel-propagate, --tessel-partition, the imports, the
// optimizations, ...) and the tessel-spmd-pipeline pipeline with MLIR's global pass
// registry. Calling it again does nothing.
void registerAllPasses();

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_REGISTRATION_H_
