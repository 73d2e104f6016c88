// GSPMD form → mesh form (HloShardingsToMesh, see conversion.h).
//
// An iota tile array is arange(N) over the reshape dims, so every way of cutting the device
// order into factors is a chain of "bounds": prefix products 1 | b1 | b2 | ... | N in reshape
// order. A tiled sharding needs the bounds of its factors (shortest common factorization of
// the tile dims and the transposed reshape dims); a module's shardings share a mesh when the
// union of their bounds is still a chain, and the mesh axes are the steps of that chain.
#include <algorithm>
#include <optional>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "partitioner/sharding/conversion.h"

namespace tessel::sharding {
namespace {

constexpr char kMainMesh[] = "mesh";

// How one tiled sharding's tile array splits the device order into factors.
struct FactorPlan {
  // Per factor (in reshape order), its range [first, last) of prefix products.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  // Per tile-array dim, its factors major to minor.
  std::vector<std::vector<int>> dim_factors;
};

std::optional<FactorPlan> PlanFactors(const TileAssignment& tiles) {
  std::optional<IotaFactors> factors =
      tiles.IsArange() ? TileAssignment::Iota(tiles.dims()).Factors() : tiles.Factors();
  if (!factors) return std::nullopt;
  FactorPlan plan;
  int64_t first = 1;
  for (int64_t size : factors->reshape_dims) {
    plan.ranges.push_back({first, first * size});
    first *= size;
  }
  plan.dim_factors = factors->dim_factors;
  return plan;
}

std::set<int64_t> Bounds(const FactorPlan& plan, int64_t num_devices) {
  std::set<int64_t> bounds = {1, num_devices};
  for (auto [first, last] : plan.ranges) {
    bounds.insert(first);
    bounds.insert(last);
  }
  return bounds;
}

bool IsChain(const std::set<int64_t>& bounds) {
  for (auto it = bounds.begin(); std::next(it) != bounds.end(); ++it) {
    if (*std::next(it) % *it != 0) return false;
  }
  return true;
}

// A mesh whose axes are the steps of a chain of bounds, named axis_0, axis_1, ...
struct ChainMesh {
  std::vector<int64_t> bounds;
  Mesh mesh;

  explicit ChainMesh(const std::set<int64_t>& chain) : bounds(chain.begin(), chain.end()) {
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      mesh.axes.push_back({absl::StrCat("axis_", i), bounds[i + 1] / bounds[i]});
    }
  }
  // The axes that make up the range [first, last), major to minor.
  std::vector<AxisRef> AxesOf(std::pair<int64_t, int64_t> range) const {
    std::vector<AxisRef> axes;
    for (size_t i = 0; i + 1 < bounds.size(); ++i) {
      if (bounds[i] >= range.first && bounds[i + 1] <= range.second) {
        axes.push_back(AxisRef(mesh.axes[i].name));
      }
    }
    return axes;
  }
};

std::vector<DimSharding> ClosedDims(int64_t rank) { return std::vector<DimSharding>(rank); }

// Fills `imported` for a tiled sharding given the mesh axes of each tile-array dim.
void AssignTiledAxes(const HloSharding& sharding, const std::vector<std::vector<AxisRef>>& dim_axes,
                     ImportedSharding& imported) {
  const int64_t data_rank = sharding.TiledDataRank();
  for (int64_t d = 0; d < static_cast<int64_t>(dim_axes.size()); ++d) {
    if (d < data_rank) {
      imported.sharding.dims[d].axes = dim_axes[d];
      continue;
    }
    switch (sharding.subgroup_types()[d - data_rank]) {
      case SubgroupType::kManual:
        for (const AxisRef& axis : dim_axes[d]) imported.manual_axes.push_back(axis.name);
        break;
      case SubgroupType::kUnreduced:
        imported.sharding.unreduced_axes.insert(imported.sharding.unreduced_axes.end(),
                                                dim_axes[d].begin(), dim_axes[d].end());
        break;
      case SubgroupType::kReplicated:
        break;  // axes nobody uses replicate implicitly
    }
  }
}

std::vector<std::vector<AxisRef>> AxesOfPlan(const FactorPlan& plan, const ChainMesh& mesh) {
  std::vector<std::vector<AxisRef>> dim_axes(plan.dim_factors.size());
  for (size_t d = 0; d < plan.dim_factors.size(); ++d) {
    for (int f : plan.dim_factors[d]) {
      std::vector<AxisRef> axes = mesh.AxesOf(plan.ranges[f]);
      dim_axes[d].insert(dim_axes[d].end(), axes.begin(), axes.end());
    }
  }
  return dim_axes;
}

// A mesh for a tile array no iota factorization describes: one axis per dim of size > 1,
// device ids = the array itself, so mesh coordinates are tile indices.
Mesh DeviceListMesh(const TileAssignment& tiles, std::vector<std::vector<AxisRef>>& dim_axes) {
  Mesh mesh;
  dim_axes.assign(tiles.dims().size(), {});
  for (size_t d = 0; d < tiles.dims().size(); ++d) {
    if (tiles.dims()[d] == 1) continue;
    std::string name = absl::StrCat("axis_", mesh.axes.size());
    mesh.axes.push_back({name, tiles.dims()[d]});
    dim_axes[d].push_back(AxisRef(name));
  }
  if (!tiles.IsArange()) mesh.device_ids = tiles.Devices();
  return mesh;
}

bool SameMesh(const Mesh& a, const Mesh& b) {
  if (a.axes.size() != b.axes.size() || a.NumDevices() != b.NumDevices()) return false;
  for (size_t i = 0; i < a.axes.size(); ++i) {
    if (a.axes[i].name != b.axes[i].name || a.axes[i].size != b.axes[i].size) return false;
  }
  for (int64_t i = 0; i < a.NumDevices(); ++i) {
    if (a.DeviceId(i) != b.DeviceId(i)) return false;
  }
  return true;
}

absl::Status ValidateLeaf(const HloShardingLeaf& leaf, size_t index, int64_t num_devices) {
  const HloSharding& sharding = leaf.sharding;
  auto error = [&](const std::string& message) {
    return absl::InvalidArgumentError(
        absl::StrCat("sharding ", index, " ", sharding.ToString(), ": ", message));
  };
  if (leaf.rank < 0) return error(absl::StrCat("rank ", leaf.rank, " is negative"));
  switch (sharding.kind()) {
    case HloSharding::Kind::kTuple:
      return error("is a tuple; pass its leaves one by one");
    case HloSharding::Kind::kMaximal:
      if (sharding.device() >= num_devices) {
        return error(
            absl::StrCat("device ", sharding.device(), " is out of range [0, ", num_devices, ")"));
      }
      return absl::OkStatus();
    case HloSharding::Kind::kTiled:
      if (sharding.TiledDataRank() != leaf.rank) {
        return error(absl::StrCat("tiles ", sharding.TiledDataRank(),
                                  " dims but the array has rank ", leaf.rank));
      }
      if (sharding.tile_assignment().NumDevices() != num_devices) {
        return error(absl::StrCat("places ", sharding.tile_assignment().NumDevices(),
                                  " devices but the module has ", num_devices));
      }
      return absl::OkStatus();
    default:
      return absl::OkStatus();
  }
}

}  // namespace

const Mesh* MeshShardingImport::FindMesh(const std::string& name) const {
  for (const NamedMesh& named : meshes) {
    if (named.name == name) return &named.mesh;
  }
  return nullptr;
}

absl::StatusOr<MeshShardingImport> HloShardingsToMesh(const std::vector<HloShardingLeaf>& leaves,
                                                      int64_t num_devices) {
  if (num_devices < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("the number of devices must be at least 1, got ", num_devices));
  }
  for (size_t i = 0; i < leaves.size(); ++i) {
    absl::Status status = ValidateLeaf(leaves[i], i, num_devices);
    if (!status.ok()) return status;
  }

  // First pass: which tiled shardings join the common chain of the main mesh.
  std::vector<std::optional<FactorPlan>> plans(leaves.size());
  std::vector<bool> on_main(leaves.size(), false);
  std::set<int64_t> main_bounds = {1, num_devices};
  bool main_used = false;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const HloSharding& sharding = leaves[i].sharding;
    if (sharding.kind() == HloSharding::Kind::kMaximal) {
      // Moving a value off its device takes a mesh over every device.
      main_used = main_used || num_devices > 1;
      continue;
    }
    if (sharding.kind() != HloSharding::Kind::kTiled) {
      on_main[i] = main_used = true;
      continue;
    }
    plans[i] = PlanFactors(sharding.tile_assignment());
    if (!plans[i]) continue;
    std::set<int64_t> merged = Bounds(*plans[i], num_devices);
    merged.insert(main_bounds.begin(), main_bounds.end());
    if (!IsChain(merged)) continue;
    main_bounds = std::move(merged);
    on_main[i] = main_used = true;
  }

  MeshShardingImport result;
  const ChainMesh main_mesh(main_bounds);
  if (main_used) result.meshes.push_back({kMainMesh, main_mesh.mesh});
  int own_meshes = 0;
  for (size_t i = 0; i < leaves.size(); ++i) {
    const HloSharding& sharding = leaves[i].sharding;
    ImportedSharding imported;
    imported.sharding.mesh_name = kMainMesh;
    imported.sharding.dims = ClosedDims(leaves[i].rank);
    switch (sharding.kind()) {
      case HloSharding::Kind::kReplicated:
        break;
      case HloSharding::Kind::kManual:
        for (const MeshAxis& axis : main_mesh.mesh.axes) imported.manual_axes.push_back(axis.name);
        break;
      case HloSharding::Kind::kUnreduced:
        for (const MeshAxis& axis : main_mesh.mesh.axes) {
          imported.sharding.unreduced_axes.push_back(AxisRef(axis.name));
        }
        break;
      case HloSharding::Kind::kMaximal: {
        std::string name = absl::StrCat("maximal_mesh_", sharding.device());
        if (!result.FindMesh(name)) {
          result.meshes.push_back({name, Mesh{{}, {sharding.device()}}});
        }
        imported.sharding.mesh_name = name;
        break;
      }
      case HloSharding::Kind::kTiled: {
        std::vector<std::vector<AxisRef>> dim_axes;
        if (on_main[i]) {
          dim_axes = AxesOfPlan(*plans[i], main_mesh);
        } else {
          Mesh mesh;
          if (plans[i]) {
            ChainMesh own(Bounds(*plans[i], num_devices));
            dim_axes = AxesOfPlan(*plans[i], own);
            mesh = own.mesh;
          } else {
            mesh = DeviceListMesh(sharding.tile_assignment(), dim_axes);
          }
          // Shardings over one device order share its mesh.
          auto same =
              std::find_if(result.meshes.begin(), result.meshes.end(),
                           [&](const NamedMesh& named) { return SameMesh(named.mesh, mesh); });
          if (same != result.meshes.end()) {
            imported.sharding.mesh_name = same->name;
          } else {
            std::string name = absl::StrCat(kMainMesh, "_", ++own_meshes);
            result.meshes.push_back({name, std::move(mesh)});
            imported.sharding.mesh_name = name;
          }
        }
        AssignTiledAxes(sharding, dim_axes, imported);
        break;
      }
      case HloSharding::Kind::kTuple:
        break;  // rejected by ValidateLeaf
    }
    result.shardings.push_back(std::move(imported));
  }
  return result;
}

absl::StatusOr<MeshShardingImport> HloShardingToMesh(const HloSharding& sharding, int64_t rank,
                                                     int64_t num_devices) {
  return HloShardingsToMesh({HloShardingLeaf{sharding, rank}}, num_devices);
}

}  // namespace tessel::sharding
