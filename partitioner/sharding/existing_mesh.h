// GSPMD shardings imported onto a mesh the module already has. GSPMD's form of shard_map
// names devices, not axes, and its body's collectives are imported on a mesh before the
// shardings are: these helpers put the shardings on that same mesh, so that a manual
// computation, its collectives and the shardings around it share axes.
//
//   Mesh mesh = *Mesh::Create({{"axis_0", 4}, {"axis_1", 2}});
//   HloShardingOnMesh(*HloSharding::Parse("{devices=[4,1,2]<=[8] last_tile_dim_replicate}"),
//                     /*rank=*/2, "mesh", mesh);   // <@mesh, [{"axis_0"}, {}]>
//   HloShardingOnMesh(*HloSharding::Parse("{devices=[2,4]<=[8]}"), 2, "mesh", mesh);
//                     // error: the 2x4 split needs axes the 4x2 mesh does not have
#ifndef TESSEL_PARTITIONER_SHARDING_EXISTING_MESH_H_
#define TESSEL_PARTITIONER_SHARDING_EXISTING_MESH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/mesh.h"

namespace tessel::sharding {

// A tiled sharding whose tile array is `mesh`'s device array: put first among the leaves of
// HloShardingsToMesh, it makes the common mesh cut the device order at least where `mesh`'s
// axes do. REQUIRES: `mesh` is valid and in device order (no explicit device ids).
HloShardingLeaf MeshAsLeaf(const Mesh& mesh);

// Where the main mesh of `imported` ("mesh", from HloShardingsToMesh) has exactly `mesh`'s
// axes (sizes above 1, in order): renames it to `name`, with `mesh`'s axis names, in every
// sharding on it, and returns true. Leaves `imported` unchanged and returns false otherwise.
bool AdoptMesh(const std::string& name, const Mesh& mesh, MeshShardingImport& imported);

// `sharding`, applied to an array of `rank`, on the existing mesh `name`. Its manual tile
// dims give `manual_axes`; `{manual}` makes every axis manual.
// Errors: `mesh` has explicit device ids; the sharding is maximal or a tuple; its tile
// assignment holds another device count, has another data rank, or cuts the devices where
// `mesh` has no axis boundary.
absl::StatusOr<ImportedSharding> HloShardingOnMesh(const HloSharding& sharding, int64_t rank,
                                                   const std::string& name, const Mesh& mesh);

// The device groups of a collective (replica groups over global device ids) as a rank-1
// tiled sharding whose replication groups they are, in the iota form HloShardingsToMesh
// factors, so that a mesh made with it has axes for the groups. None where no iota form has
// exactly these groups (or they are not equal-sized groups that cover 0..num_devices-1 once).
// {{0,2},{1,3},{4,6},{5,7}} on 8 devices: {devices=[4,2]<=[2,2,2]T(0,2,1)
// last_tile_dim_replicate}, whose factorization cuts the devices in halves and quarters.
std::optional<HloSharding> DeviceGroupsAsSharding(const std::vector<std::vector<int64_t>>& groups,
                                                  int64_t num_devices);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_EXISTING_MESH_H_
