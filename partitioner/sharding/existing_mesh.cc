// GSPMD shardings on a mesh the module already has (existing_mesh.h).
#include "partitioner/sharding/existing_mesh.h"

#include <algorithm>
#include <map>
#include <set>
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

std::optional<HloSharding> DeviceGroupsAsSharding(const std::vector<std::vector<int64_t>>& groups,
                                                  int64_t num_devices) {
  if (groups.empty() || groups[0].empty()) return std::nullopt;
  const int64_t size = static_cast<int64_t>(groups[0].size());
  if (size * static_cast<int64_t>(groups.size()) != num_devices) return std::nullopt;
  std::vector<std::vector<int64_t>> sorted;
  std::vector<bool> seen(num_devices, false);
  for (const std::vector<int64_t>& group : groups) {
    if (static_cast<int64_t>(group.size()) != size) return std::nullopt;
    for (int64_t device : group) {
      if (device < 0 || device >= num_devices || seen[device]) return std::nullopt;
      seen[device] = true;
    }
    sorted.push_back(group);
    std::sort(sorted.back().begin(), sorted.back().end());
  }
  std::sort(sorted.begin(), sorted.end());
  // The group of device 0 is a sum of strided runs, one per block of mesh axes it spans:
  // {0, 2} is the run of stride 2 and size 2. Each run is found from its smallest element.
  const std::vector<int64_t>& first = sorted[0];
  const std::set<int64_t> members(first.begin(), first.end());
  std::vector<int64_t> reached = {0};
  std::set<int64_t> bounds = {1, num_devices};
  while (static_cast<int64_t>(reached.size()) < size) {
    std::set<int64_t> have(reached.begin(), reached.end());
    int64_t stride = 0;
    for (int64_t device : first) {
      if (!have.count(device)) {
        stride = device;
        break;
      }
    }
    if (stride <= reached.back()) return std::nullopt;  // runs must not interleave
    int64_t count = 1;
    while (members.count(count * stride)) ++count;
    if (num_devices % (stride * count) != 0) return std::nullopt;
    std::vector<int64_t> next;
    for (int64_t k = 0; k < count; ++k) {
      for (int64_t device : reached) next.push_back(device + k * stride);
    }
    std::sort(next.begin(), next.end());
    reached = std::move(next);
    // Counted from the major end, the run is the devices' factor [N/(stride*count), N/stride).
    bounds.insert(num_devices / (stride * count));
    bounds.insert(num_devices / stride);
  }
  if (std::vector<int64_t>(reached) != first) return std::nullopt;
  std::vector<int64_t> chain(bounds.begin(), bounds.end());
  std::vector<int64_t> sizes;
  for (size_t i = 0; i + 1 < chain.size(); ++i) {
    if (chain[i + 1] % chain[i] != 0) return std::nullopt;
    sizes.push_back(chain[i + 1] / chain[i]);
  }
  // Axes whose stride is in the group vary within it; they go last, so each row of the tile
  // array [num_devices / size, size] is one group.
  std::vector<int> outer, inner;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const int64_t stride = num_devices / chain[i + 1];
    (members.count(stride) ? inner : outer).push_back(static_cast<int>(i));
  }
  std::vector<int> perm = outer;
  perm.insert(perm.end(), inner.begin(), inner.end());
  absl::StatusOr<TileAssignment> tiles =
      TileAssignment::CreateIota({num_devices / size, size}, sizes, perm);
  if (!tiles.ok()) return std::nullopt;
  std::vector<std::vector<int64_t>> rows;
  for (int64_t row = 0; row < num_devices / size; ++row) {
    std::vector<int64_t> devices;
    for (int64_t j = 0; j < size; ++j) devices.push_back(tiles->At(row * size + j));
    std::sort(devices.begin(), devices.end());
    rows.push_back(std::move(devices));
  }
  std::sort(rows.begin(), rows.end());
  if (rows != sorted) return std::nullopt;
  absl::StatusOr<HloSharding> sharding =
      HloSharding::Tiled(*tiles, {SubgroupType::kReplicated});
  if (!sharding.ok()) return std::nullopt;
  return *sharding;
}

}  // namespace tessel::sharding
