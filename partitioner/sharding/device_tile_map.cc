// Device → tile maps of both sharding forms (see device_tile_map.h).
#include "partitioner/sharding/device_tile_map.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/sharding/conversion.h"

namespace tessel::sharding {
namespace {

// A placement before its groups are renumbered: the raw group keys of a representation.
struct RawPlacement {
  std::vector<int64_t> tile;
  std::vector<int64_t> manual_key;
  std::vector<int64_t> unreduced_key;
};

// Renumbers groups by first appearance over increasing device ids (std::map iterates so).
DeviceTileMap Renumber(const std::map<int64_t, RawPlacement>& raw) {
  std::map<std::vector<int64_t>, int64_t> manual_ids;
  std::map<std::pair<std::vector<int64_t>, std::vector<int64_t>>, int64_t> unreduced_ids;
  DeviceTileMap map;
  for (const auto& [device, placement] : raw) {
    auto manual = manual_ids.emplace(placement.manual_key, manual_ids.size()).first;
    auto unreduced =
        unreduced_ids
            .emplace(std::make_pair(placement.tile, placement.unreduced_key), unreduced_ids.size())
            .first;
    map[device] = DevicePlacement{placement.tile, manual->second, unreduced->second};
  }
  return map;
}

// The coordinate of a device along (sub-)axis `ref`, given its coordinate along the axis.
int64_t SubCoordinate(const AxisRef& ref, int64_t coordinate, int64_t axis_size) {
  if (!ref.IsSubAxis()) return coordinate;
  return coordinate / (axis_size / (ref.pre_size * ref.size)) % ref.size;
}

}  // namespace

void TileOfDevice(const Mesh& mesh, const TensorSharding& sharding, int64_t linear,
                  std::vector<int64_t>& tile, std::vector<int64_t>* unreduced_key) {
  const std::vector<int64_t> coordinates = mesh.Coordinates(linear);
  auto coordinate_of = [&](const AxisRef& ref) {
    const int axis = *mesh.FindAxis(ref.name);
    return SubCoordinate(ref, coordinates[axis], mesh.axes[axis].size);
  };
  tile.clear();
  for (const DimSharding& dim : sharding.dims) {
    int64_t index = 0;
    for (const AxisRef& ref : dim.axes) index = index * ref.Size(mesh) + coordinate_of(ref);
    tile.push_back(index);
  }
  if (unreduced_key == nullptr) return;
  unreduced_key->clear();
  for (const AxisRef& ref : sharding.unreduced_axes) unreduced_key->push_back(coordinate_of(ref));
}

absl::StatusOr<DeviceTileMap> DeviceTileMapOf(const Mesh& mesh, const TensorSharding& sharding,
                                              const std::vector<std::string>& manual_axes) {
  absl::Status status = ValidateMeshSharding(mesh, sharding, manual_axes);
  if (!status.ok()) return status;
  std::map<int64_t, RawPlacement> raw;
  for (int64_t linear = 0; linear < mesh.NumDevices(); ++linear) {
    RawPlacement placement;
    TileOfDevice(mesh, sharding, linear, placement.tile, &placement.unreduced_key);
    if (!manual_axes.empty()) {
      const std::vector<int64_t> coordinates = mesh.Coordinates(linear);
      for (const std::string& name : manual_axes) {
        placement.manual_key.push_back(coordinates[*mesh.FindAxis(name)]);
      }
    }
    raw[mesh.DeviceId(linear)] = std::move(placement);
  }
  return Renumber(raw);
}

absl::StatusOr<DeviceTileMap> DeviceTileMapOf(const HloSharding& sharding, int64_t rank,
                                              int64_t num_devices) {
  std::map<int64_t, RawPlacement> raw;
  const std::vector<int64_t> origin(rank, 0);
  switch (sharding.kind()) {
    case HloSharding::Kind::kTuple:
      return absl::InvalidArgumentError("a tuple sharding has one map per leaf");
    case HloSharding::Kind::kMaximal:
      raw[sharding.device()] = {origin, {}, {}};
      return Renumber(raw);
    case HloSharding::Kind::kReplicated:
    case HloSharding::Kind::kManual:
    case HloSharding::Kind::kUnreduced:
      for (int64_t device = 0; device < num_devices; ++device) {
        RawPlacement& placement = raw[device];
        placement.tile = origin;
        // {manual}: every device runs its own code; {unreduced}: every device holds its own
        // partial sum.
        if (sharding.kind() == HloSharding::Kind::kManual) placement.manual_key = {device};
        if (sharding.kind() == HloSharding::Kind::kUnreduced) placement.unreduced_key = {device};
      }
      return Renumber(raw);
    case HloSharding::Kind::kTiled:
      break;
  }
  const TileAssignment& tiles = sharding.tile_assignment();
  const int64_t data_rank = sharding.TiledDataRank();
  if (data_rank != rank || tiles.NumDevices() != num_devices) {
    return absl::InvalidArgumentError(
        absl::StrCat(sharding.ToString(), " tiles ", data_rank, " dims on ", tiles.NumDevices(),
                     " devices, expected ", rank, " dims on ", num_devices));
  }
  const std::vector<int64_t> devices = tiles.Devices();
  for (int64_t linear = 0; linear < tiles.NumDevices(); ++linear) {
    const std::vector<int64_t> index = Unravel(linear, tiles.dims());
    RawPlacement placement;
    placement.tile.assign(index.begin(), index.begin() + data_rank);
    for (size_t k = 0; k < sharding.subgroup_types().size(); ++k) {
      const int64_t position = index[data_rank + k];
      if (sharding.subgroup_types()[k] == SubgroupType::kManual) {
        placement.manual_key.push_back(position);
      } else if (sharding.subgroup_types()[k] == SubgroupType::kUnreduced) {
        placement.unreduced_key.push_back(position);
      }
    }
    raw[devices[linear]] = std::move(placement);
  }
  return Renumber(raw);
}

std::string DeviceTileMapToString(const DeviceTileMap& map) {
  return absl::StrCat("{",
                      absl::StrJoin(map, ", ",
                                    [](std::string* out, const auto& entry) {
                                      absl::StrAppend(out, entry.first, ": [",
                                                      absl::StrJoin(entry.second.tile, ","), "] m",
                                                      entry.second.manual_group, " u",
                                                      entry.second.unreduced_group);
                                    }),
                      "}");
}

}  // namespace tessel::sharding
