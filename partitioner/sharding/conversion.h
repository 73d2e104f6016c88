// Exact conversions between the mesh form (Mesh + TensorSharding) and the GSPMD form
// (HloSharding), following ALGORITHMS.md §1.3. docs/sharding.md explains the rules.
//
//   // x=2, y=4; rows over y, columns over x.
//   Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 4}});
//   TensorSharding sharding{"mesh", {DimSharding{{AxisRef("y")}}, DimSharding{{AxisRef("x")}}}};
//   MeshShardingToHlo(mesh, sharding)->ToString();   // {devices=[4,2]<=[2,4]T(1,0)}
//
//   // And back: a fresh mesh "mesh" with axes axis_0=2, axis_1=4 and [{"axis_1"}, {"axis_0"}].
//   TESSEL_ASSIGN_OR_RETURN(MeshShardingImport imported,
//                           HloShardingToMesh(*HloSharding::Parse("{devices=[4,2]<=[2,4]T(1,0)}"),
//                                             /*rank=*/2, /*num_devices=*/8));
#ifndef TESSEL_PARTITIONER_SHARDING_CONVERSION_H_
#define TESSEL_PARTITIONER_SHARDING_CONVERSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mesh.h"
#include "partitioner/sharding/tensor_sharding.h"

namespace tessel::sharding {

// The GSPMD sharding that places data on devices exactly as `sharding` on `mesh` does.
// `manual_axes` are the (whole) mesh axes that are manual where the value lives (those of
// the enclosing tessel.manual_computation); GSPMD folds them into a `manual` trailing dim.
// Open/closed dims and priorities have no GSPMD form and are dropped.
// Errors: the sharding does not validate against the mesh; a manual axis is unknown,
// repeated, or also used by the sharding.
absl::StatusOr<HloSharding> MeshShardingToHlo(const Mesh& mesh, const TensorSharding& sharding,
                                              const std::vector<std::string>& manual_axes = {});

// Succeeds if `mesh` and `sharding` are valid and `manual_axes` are distinct axes of `mesh`
// that the sharding does not use: the preconditions of MeshShardingToHlo.
absl::Status ValidateMeshSharding(const Mesh& mesh, const TensorSharding& sharding,
                                  const std::vector<std::string>& manual_axes);

// A named mesh created by an import.
struct NamedMesh {
  std::string name;
  Mesh mesh;
};

// One imported sharding: the mesh sharding and the mesh axes that are manual for it.
struct ImportedSharding {
  TensorSharding sharding;
  std::vector<std::string> manual_axes;
};

// The result of importing GSPMD shardings: the meshes they need and one sharding per input.
struct MeshShardingImport {
  std::vector<NamedMesh> meshes;
  std::vector<ImportedSharding> shardings;

  // The mesh called `name`, or null.
  const Mesh* FindMesh(const std::string& name) const;
};

// A non-tuple GSPMD sharding and the rank of the array it applies to.
struct HloShardingLeaf {
  HloSharding sharding;
  int64_t rank = 0;
};

// Imports the shardings of one module (tuple shardings flattened into their leaves) running
// on `num_devices` devices, finding one mesh for as many of them as possible:
//  - every iota-tiled sharding is factored against its device order (shortest common
//    factorization); the factorizations of all of them are merged into mesh "mesh" with
//    axes axis_0, axis_1, ... (the common refinement), so shardings share axes;
//  - {replicated}, {manual} and {unreduced} use "mesh" (all of its axes manual or
//    unreduced for the latter two);
//  - {maximal device=N} uses mesh "maximal_mesh_N" = <[], device_ids=[N]>;
//  - a sharding whose factorization does not fit the common one gets its own mesh
//    "mesh_K" (K = 1, 2, ...); an explicit device list that is not 0,1,2,... and an iota form
//    with no factorization get a mesh with device_ids = the tile array, one axis per dim.
// Every dim of every imported sharding is closed: GSPMD shardings are final.
// Errors (never a crash): a tuple leaf; a tiled sharding whose data rank is not `rank` or
// whose tile assignment does not hold `num_devices` devices; a maximal device outside
// [0, num_devices); num_devices < 1.
absl::StatusOr<MeshShardingImport> HloShardingsToMesh(const std::vector<HloShardingLeaf>& leaves,
                                                      int64_t num_devices);

// HloShardingsToMesh for a single sharding.
absl::StatusOr<MeshShardingImport> HloShardingToMesh(const HloSharding& sharding, int64_t rank,
                                                     int64_t num_devices);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_CONVERSION_H_
