// The mesh a frontend declared, given back its names: JAX with Shardy writes its mesh as
// `xla.sdy.meshes={mesh = #sdy.mesh<["data"=4, "model"=2]>}` beside the GSPMD shardings,
// which name devices, not axes. The GSPMD import (HloShardingsToMesh) builds its own axes
// (axis_0, axis_1, ...); where they line up with the declared ones, this renames them so the
// user's names are the names everywhere after import.
//
//   std::vector<DeclaredMesh> declared = *ParseShardyMeshes(R"({mesh = #sdy.mesh<["data"=4, "model"=2]>})");
//   NameAxesAsDeclared(declared, imported);   // axis_0=4 -> data, axis_1=2 -> model
#ifndef TESSEL_PARTITIONER_SHARDING_DECLARED_AXES_H_
#define TESSEL_PARTITIONER_SHARDING_DECLARED_AXES_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/mesh.h"

namespace tessel::sharding {

struct DeclaredMesh {
  std::string name;
  Mesh mesh;
};

// The meshes of Shardy's `xla.sdy.meshes` frontend attribute value: a dictionary
// `{name = #sdy.mesh<["a"=4, "b"=2]>, ...}`; a mesh may carry `device_ids=[...]`.
// Sizes are read as written (a negative one too): Mesh::Validate judges them.
// Errors: text that is not of that form, anything but braces and commas between meshes.
absl::StatusOr<std::vector<DeclaredMesh>> ParseShardyMeshes(const std::string& text);

// Renames the axes of `imported` (and every sharding on them) after the declared mesh they
// line up with: one imported mesh, in device order 0..n-1, whose axes are consecutive runs
// that multiply to the declared axes in order (several imported axes for one declared axis
// merge where every sharding uses them together, major to minor); the declared mesh must
// also be in device order. Returns whether it renamed; leaves `imported` unchanged if not.
bool NameAxesAsDeclared(const std::vector<DeclaredMesh>& declared, MeshShardingImport& imported);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_DECLARED_AXES_H_
