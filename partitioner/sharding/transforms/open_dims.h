// The dimensions a GSPMD `Sharding` call leaves unconstrained (JAX's `P.UNCONSTRAINED`),
// which GSPMD's sharding text cannot say, and a sharding with them left open. Both HLO
// sharding imports use them: the plain one for constraints, the shard_map one for in and
// out shardings.
#ifndef TESSEL_PARTITIONER_SHARDING_TRANSFORMS_OPEN_DIMS_H_
#define TESSEL_PARTITIONER_SHARDING_TRANSFORMS_OPEN_DIMS_H_

#include <cstdint>

#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Operation.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::sharding {

// GSPMD lists them as `backend_config="unspecified_dims=[0,2]"`, Shardy writes `{?}` or
// `{"x", ?}` in the op's `xla.sdy.sharding` frontend attribute.
llvm::SmallVector<int64_t> OpenDims(mlir::Operation* op);

// Whether the op's Shardy annotation leaves every dimension open and empty (`[{?}, {?}]`)
// and says nothing else: such a Sharding call constrains nothing. JAX writes these for the
// automatic axes inside a partly manual shard_map, with `sharding={replicated}` beside them
// as GSPMD's nearest form.
bool SaysNothing(mlir::Operation* op);

// `sharding` with the dimensions `open` left open to propagation (others out of range are
// ignored).
ir::ShardingAttr OpenUp(ir::ShardingAttr sharding, llvm::ArrayRef<int64_t> open);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_TRANSFORMS_OPEN_DIMS_H_
