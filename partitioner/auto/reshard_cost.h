// What changing a tensor's layout costs, in seconds on the hardware spec: the steps the
// reshard planner (partitioner/spmd/reshard.cc) takes for such a change, each priced by the
// cost model's alpha-beta estimate for its collective. Auto-sharding puts this on the edges
// between a producer's layout and what its consumer needs.
//
//   [{"data"}, {}] -> [{}, {"data"}]   one all_to_all over "data"
//   [{"data"}, {"model"}] -> [{"data"}, {}]   one all_gather over "model"
//   [{}, {}] -> [{"data"}, {}]          a local slice: no communication, only the copy
#ifndef TESSEL_PARTITIONER_AUTO_RESHARD_COST_H_
#define TESSEL_PARTITIONER_AUTO_RESHARD_COST_H_

#include "cost_model/hardware_spec.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/auto/layout.h"

namespace tessel::auto_sharding {

// Seconds to turn `type` laid out as `from` into `to` (same rank). Per dimension the
// longest common prefix of axes stays; an axis that leaves one dimension for another moves
// with an all_to_all over it; the axes that leave altogether are all-gathered together;
// axes that are new are cut locally, which costs no communication but reads the source
// (padded first where the split is uneven) and writes the piece at memory bandwidth, as
// the cost report prices the pad and dynamic_slice the partitioner emits.
double reshardSeconds(const Layout& from, const Layout& to, mlir::ShapedType type,
                      ir::MeshAttr mesh, const cost_model::HardwareSpec& spec);

// Seconds of the all_reduce over `axes` of a partial result laid out as `layout`.
double allReduceSeconds(const Layout& layout, llvm::ArrayRef<int> axes, mlir::ShapedType type,
                        ir::MeshAttr mesh, const cost_model::HardwareSpec& spec);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_RESHARD_COST_H_
