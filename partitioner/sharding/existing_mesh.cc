// GSPMD shardings on a mesh the module already has (existing_mesh.h).
#include "partitioner/sharding/existing_mesh.h"

#include <map>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "partitioner/sharding/tile_assignment.h"

namespace tessel::sharding {
namespace {

constexpr char kMainMesh[] = "mesh";

std::string SizesText(const Mesh& mesh) {
  std::string text;
  for (const MeshAxis& axis : mesh.axes) {
    absl::StrAppend(&text, text.empty() ? "" : "x", axis.size);
  }
  return text.empty() ? "1" : text;
}

void RenameAll(std::vector<AxisRef>& axes, const std::map<std::string, std::string>& names) {
  for (AxisRef& axis : axes) axis.name = names.at(axis.name);
}

}  // namespace

HloShardingLeaf MeshAsLeaf(const Mesh& mesh) {
  std::vector<int64_t> dims;
  for (const MeshAxis& axis : mesh.axes) dims.push_back(axis.size);
  if (dims.empty()) dims.push_back(1);
  // An iota array without subgroup dims always makes a valid tiled sharding.
  HloSharding sharding = *HloSharding::Tiled(TileAssignment::Iota(dims));
  return HloShardingLeaf{sharding, static_cast<int64_t>(dims.size())};
}

bool AdoptMesh(const std::string& name, const Mesh& mesh, MeshShardingImport& imported) {
  NamedMesh* main = nullptr;
  for (NamedMesh& named : imported.meshes) {
    if (named.name == kMainMesh) main = &named;
  }
  if (!main) return false;
  // The chain mesh has no axes of size 1; `mesh` may.
  std::map<std::string, std::string> names;
  size_t next = 0;
  for (const MeshAxis& axis : mesh.axes) {
    if (axis.size == 1) continue;
    if (next >= main->mesh.axes.size() || main->mesh.axes[next].size != axis.size) return false;
    names[main->mesh.axes[next++].name] = axis.name;
  }
  if (next != main->mesh.axes.size()) return false;
  for (ImportedSharding& imported_sharding : imported.shardings) {
    TensorSharding& sharding = imported_sharding.sharding;
    if (sharding.mesh_name != kMainMesh) continue;
    sharding.mesh_name = name;
    for (DimSharding& dim : sharding.dims) RenameAll(dim.axes, names);
    RenameAll(sharding.replicated_axes, names);
    RenameAll(sharding.unreduced_axes, names);
    for (std::string& axis : imported_sharding.manual_axes) axis = names.at(axis);
  }
  main->name = name;
  main->mesh = mesh;
  return true;
}

absl::StatusOr<ImportedSharding> HloShardingOnMesh(const HloSharding& sharding, int64_t rank,
                                                   const std::string& name, const Mesh& mesh) {
  auto error = [&](const std::string& message) {
    return absl::InvalidArgumentError(absl::StrCat(sharding.ToString(), " ", message));
  };
  for (size_t i = 0; i < mesh.device_ids.size(); ++i) {
    if (mesh.device_ids[i] != static_cast<int64_t>(i)) {
      return error(absl::StrCat("cannot be placed on mesh @", name,
                                ", which orders its devices explicitly"));
    }
  }
  switch (sharding.kind()) {
    case HloSharding::Kind::kMaximal:
      return error("places the value on one device; a mesh sharding cannot");
    case HloSharding::Kind::kTuple:
      return error("is a tuple; one sharding per value is needed");
    case HloSharding::Kind::kTiled:
      if (sharding.TiledDataRank() != rank) {
        return error(absl::StrCat("tiles ", sharding.TiledDataRank(),
                                  " dims but the value has rank ", rank));
      }
      if (sharding.tile_assignment().NumDevices() != mesh.NumDevices()) {
        return error(absl::StrCat("spans ", sharding.tile_assignment().NumDevices(),
                                  " devices but mesh @", name, " has ", mesh.NumDevices()));
      }
      break;
    default:
      break;
  }
  absl::StatusOr<MeshShardingImport> imported =
      HloShardingsToMesh({MeshAsLeaf(mesh), HloShardingLeaf{sharding, rank}}, mesh.NumDevices());
  if (!imported.ok()) return error(std::string(imported.status().message()));
  if (imported->shardings[1].sharding.mesh_name != kMainMesh || !AdoptMesh(name, mesh, *imported)) {
    return error(absl::StrCat("splits the devices where mesh @", name, " (", SizesText(mesh),
                              ") has no axis boundary; no one mesh explains both"));
  }
  return imported->shardings[1];
}

}  // namespace tessel::sharding
