// Shardy's annotations as XLA HLO text carries them in frontend attributes, read into the
// tessel dialect's attributes. JAX with Shardy writes a value's sharding as
// `xla.sdy.sharding="#sdy.sharding<@mesh, [{\"data\"}, {}]>"` (a parameter) or
// `"#sdy.sharding_per_value<[<@mesh, [{\"data\"}, {}]>]>"` (an instruction, one entry per
// result), and a shard_map's `xla.sdy.in_shardings` / `out_shardings` in the second form. The
// part inside the brackets is Tessel's own sharding syntax, so the tessel attribute parser
// reads it.
//
//   absl::StatusOr<std::vector<ir::ShardingAttr>> shardings =
//       ParseShardyShardings(&context, R"(#sdy.sharding<@mesh, [{"data"}, {}]>)");
//   HloSharding gspmd = *ShardyShardingToHlo(declared_mesh, (*shardings)[0]);
//   // {devices=[4,1,2]<=[8] last_tile_dim_replicate} on data=4, model=2
#ifndef TESSEL_PARTITIONER_SHARDING_SHARDY_TEXT_H_
#define TESSEL_PARTITIONER_SHARDING_SHARDY_TEXT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "llvm/ADT/StringRef.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mesh.h"

namespace tessel::sharding {

// The shardings of `#sdy.sharding<...>` (one) or `#sdy.sharding_per_value<[...]>` (one per
// value, possibly none). Nothing is checked against a mesh here. Errors: text of neither
// form, or whose body is not a sharding (the message says why, without a location).
// REQUIRES: the tessel dialect is loaded in `context`.
absl::StatusOr<std::vector<ir::ShardingAttr>> ParseShardyShardings(mlir::MLIRContext* context,
                                                                   llvm::StringRef text);

// The GSPMD sharding that places a value as `sharding` does on `mesh` (its device order
// included); open dims and priorities have no GSPMD form and are dropped.
// Errors: the sharding does not fit the mesh (unknown axis, bad sub-axis, ...).
absl::StatusOr<HloSharding> ShardyShardingToHlo(const Mesh& mesh, ir::ShardingAttr sharding);

// Whether two non-tuple GSPMD shardings put the same tiles on the same devices, however
// they are written (an iota or its device list, `{replicated}` or a one-tile assignment).
bool SamePlacement(const HloSharding& a, const HloSharding& b);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_SHARDY_TEXT_H_
