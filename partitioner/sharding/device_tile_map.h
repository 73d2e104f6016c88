// DeviceTileMap: which tile of a tensor each device holds — the ground truth two sharding
// representations must agree on. Conversions are tested by comparing these maps, never the
// spelling of the shardings.
//
//   TESSEL_ASSIGN_OR_RETURN(DeviceTileMap from_mesh, DeviceTileMapOf(mesh, sharding));
//   TESSEL_ASSIGN_OR_RETURN(DeviceTileMap from_hlo, DeviceTileMapOf(hlo, rank, num_devices));
//   EXPECT_EQ(from_mesh, from_hlo);
#ifndef TESSEL_PARTITIONER_SHARDING_DEVICE_TILE_MAP_H_
#define TESSEL_PARTITIONER_SHARDING_DEVICE_TILE_MAP_H_

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mesh.h"
#include "partitioner/sharding/tensor_sharding.h"

namespace tessel::sharding {

// What one device holds.
struct DevicePlacement {
  // The tile index along each tensor dim.
  std::vector<int64_t> tile;
  // The manual group: devices with equal values run one instance of the user's per-device
  // code together. Numbered 0, 1, ... in order of first appearance over increasing device
  // ids, so only the grouping matters, not how a representation names groups.
  int64_t manual_group = 0;
  // The partial-sum class: devices with equal tile and equal class hold the same partial
  // value; summing one value per class of a tile gives the tile. Numbered like manual_group
  // (over the pairs of tile and raw class).
  int64_t unreduced_group = 0;

  friend bool operator==(const DevicePlacement& a, const DevicePlacement& b) {
    return a.tile == b.tile && a.manual_group == b.manual_group &&
           a.unreduced_group == b.unreduced_group;
  }
  friend bool operator!=(const DevicePlacement& a, const DevicePlacement& b) { return !(a == b); }
};

// Device id → placement. Devices that hold nothing (all but one under a maximal sharding)
// are absent.
using DeviceTileMap = std::map<int64_t, DevicePlacement>;

// The map of a mesh sharding, with `manual_axes` manual. Errors as MeshShardingToHlo.
absl::StatusOr<DeviceTileMap> DeviceTileMapOf(const Mesh& mesh, const TensorSharding& sharding,
                                              const std::vector<std::string>& manual_axes = {});

// The tile index along each tensor dim of the device at row-major mesh position `linear`,
// into `tile`, and its coordinates along the sharding's unreduced axes (the raw partial-sum
// class) into `unreduced_key` when not null: one device's entry of DeviceTileMapOf without
// building the map. REQUIRES: ValidateMeshSharding(mesh, sharding, {}) succeeds.
void TileOfDevice(const Mesh& mesh, const TensorSharding& sharding, int64_t linear,
                  std::vector<int64_t>& tile, std::vector<int64_t>* unreduced_key = nullptr);

// The map of a non-tuple GSPMD sharding of an array of rank `rank` on `num_devices` devices.
// Errors: a tuple; a tiled sharding of another rank or device count.
absl::StatusOr<DeviceTileMap> DeviceTileMapOf(const HloSharding& sharding, int64_t rank,
                                              int64_t num_devices);

// `{0: [1,0] m0 u0, 1: ...}` for test failure messages.
std::string DeviceTileMapToString(const DeviceTileMap& map);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_DEVICE_TILE_MAP_H_
