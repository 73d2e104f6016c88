// Mesh form → GSPMD form (MeshShardingToHlo, see conversion.h).
//
// Every mesh axis is cut into "pieces" at every boundary a used (sub-)axis needs, so that each
// used axis is a run of whole pieces. The pieces in mesh order are the iota reshape dims (the
// arange over them is the mesh's linear device index); the tile array lists the pieces of
// dim 0's axes, dim 1's, ..., then the manual, unreduced and leftover (replicated) pieces.
#include <algorithm>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "partitioner/sharding/conversion.h"

namespace tessel::sharding {
namespace {

struct Piece {
  int axis;          // index into mesh.axes
  int64_t pre_size;  // product of the axis' pieces before this one
  int64_t size;
  bool used = false;
};

class PieceTable {
 public:
  // Cuts every axis of `mesh` at the boundaries of `refs`. REQUIRES: the refs validated.
  PieceTable(const Mesh& mesh, const std::vector<AxisRef>& refs) : mesh_(mesh) {
    for (int a = 0; a < static_cast<int>(mesh.axes.size()); ++a) {
      const int64_t size = mesh.axes[a].size;
      if (size == 1) continue;  // holds no devices to tell apart
      std::set<int64_t> bounds = {1, size};
      for (const AxisRef& ref : refs) {
        if (ref.name != mesh.axes[a].name) continue;
        auto [first, last] = ref.Range(mesh);
        bounds.insert(first);
        bounds.insert(last);
      }
      // Validated sub-axes of one axis form a chain of divisors, so consecutive bounds divide.
      for (auto it = bounds.begin(); std::next(it) != bounds.end(); ++it) {
        pieces_.push_back({a, *it, *std::next(it) / *it});
      }
    }
  }

  // The pieces `ref` covers, major to minor; marks them used.
  std::vector<int> Take(const AxisRef& ref) {
    std::vector<int> taken;
    const int axis = *mesh_.FindAxis(ref.name);
    auto [first, last] = ref.Range(mesh_);
    for (int p = 0; p < static_cast<int>(pieces_.size()); ++p) {
      Piece& piece = pieces_[p];
      if (piece.axis != axis || piece.pre_size < first || piece.pre_size * piece.size > last) {
        continue;
      }
      piece.used = true;
      taken.push_back(p);
    }
    return taken;
  }

  const std::vector<Piece>& pieces() const { return pieces_; }

 private:
  const Mesh& mesh_;
  std::vector<Piece> pieces_;
};

}  // namespace

absl::Status ValidateMeshSharding(const Mesh& mesh, const TensorSharding& sharding,
                                  const std::vector<std::string>& manual_axes) {
  absl::Status status = mesh.Validate();
  if (status.ok()) status = sharding.Validate(mesh);
  if (!status.ok()) return status;
  std::vector<AxisRef> used = sharding.ShardedAxes();
  used.insert(used.end(), sharding.replicated_axes.begin(), sharding.replicated_axes.end());
  used.insert(used.end(), sharding.unreduced_axes.begin(), sharding.unreduced_axes.end());
  std::set<std::string> seen;
  for (const std::string& name : manual_axes) {
    if (!mesh.FindAxis(name)) {
      return absl::InvalidArgumentError(
          absl::StrCat("manual axis \"", name, "\" is not in the mesh"));
    }
    if (!seen.insert(name).second) {
      return absl::InvalidArgumentError(absl::StrCat("manual axis \"", name, "\" is listed twice"));
    }
    for (const AxisRef& ref : used) {
      if (ref.name == name) {
        return absl::InvalidArgumentError(absl::StrCat(
            "manual axis \"", name, "\" is also used by the sharding as ", ref.ToString()));
      }
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<HloSharding> MeshShardingToHlo(const Mesh& mesh, const TensorSharding& sharding,
                                              const std::vector<std::string>& manual_axes) {
  absl::Status status = ValidateMeshSharding(mesh, sharding, manual_axes);
  if (!status.ok()) return status;
  if (mesh.axes.empty()) {
    if (mesh.IsMaximal()) return HloSharding::Maximal(mesh.device_ids.front());
    return HloSharding::Replicated();
  }

  std::vector<AxisRef> refs = sharding.ShardedAxes();
  refs.insert(refs.end(), sharding.replicated_axes.begin(), sharding.replicated_axes.end());
  refs.insert(refs.end(), sharding.unreduced_axes.begin(), sharding.unreduced_axes.end());
  PieceTable table(mesh, refs);
  if (table.pieces().empty()) return HloSharding::Replicated();  // every axis has size 1

  std::vector<int> order;  // pieces in tile-array order
  std::vector<int64_t> tile_dims;
  auto append = [&](const std::vector<int>& pieces) {
    int64_t product = 1;
    for (int p : pieces) {
      order.push_back(p);
      product *= table.pieces()[p].size;
    }
    return product;
  };
  for (const DimSharding& dim : sharding.dims) {
    int64_t product = 1;
    for (const AxisRef& ref : dim.axes) product *= append(table.Take(ref));
    tile_dims.push_back(product);
  }
  std::vector<SubgroupType> types;
  // Manual and unreduced axes go in mesh order: GSPMD groups them, their order inside the
  // group only renames the groups.
  std::vector<int> manual;
  for (const MeshAxis& axis : mesh.axes) {
    if (std::find(manual_axes.begin(), manual_axes.end(), axis.name) == manual_axes.end()) continue;
    std::vector<int> taken = table.Take(AxisRef(axis.name));
    manual.insert(manual.end(), taken.begin(), taken.end());
  }
  std::vector<int> unreduced;
  for (const AxisRef& ref : sharding.unreduced_axes) {
    std::vector<int> taken = table.Take(ref);
    unreduced.insert(unreduced.end(), taken.begin(), taken.end());
  }
  std::sort(unreduced.begin(), unreduced.end());
  std::vector<int> replicated;
  for (int p = 0; p < static_cast<int>(table.pieces().size()); ++p) {
    if (!table.pieces()[p].used) replicated.push_back(p);
  }
  for (auto [pieces, type] : {std::make_pair(&manual, SubgroupType::kManual),
                              std::make_pair(&unreduced, SubgroupType::kUnreduced),
                              std::make_pair(&replicated, SubgroupType::kReplicated)}) {
    if (pieces->empty()) continue;
    tile_dims.push_back(append(*pieces));
    types.push_back(type);
  }

  std::vector<int64_t> reshape_dims;
  for (const Piece& piece : table.pieces()) reshape_dims.push_back(piece.size);
  std::vector<int> perm(order.begin(), order.end());
  absl::StatusOr<TileAssignment> tiles = TileAssignment::CreateIota(tile_dims, reshape_dims, perm);
  if (!tiles.ok()) return tiles.status();
  if (!mesh.device_ids.empty()) {
    // The iota values are linear mesh indices; explicit ids turn them into a device list.
    std::vector<int64_t> devices = tiles->Devices();
    for (int64_t& device : devices) device = mesh.device_ids[device];
    tiles = TileAssignment::CreateExplicit(tile_dims, std::move(devices));
    if (!tiles.ok()) return tiles.status();
  }
  return HloSharding::Tiled(*std::move(tiles), std::move(types));
}

}  // namespace tessel::sharding
