// Mesh: a device mesh as a plain C++ value, independent of MLIR, so that HLO text import,
// protos, the CLI and the cost model can reason about meshes without an MLIRContext. It means
// exactly what `#tessel.mesh` means (see partitioner/ir/tessel/tessel_attrs.td).
//
//   TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", 4}, {"model", 2}}));
//   mesh.NumDevices();           // 8
//   mesh.DeviceId(5);            // 5 (no explicit ids: the linear index is the id)
//   mesh.Coordinates(5);         // {2, 1}: data=2, model=1
#ifndef TESSEL_PARTITIONER_SHARDING_MESH_H_
#define TESSEL_PARTITIONER_SHARDING_MESH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "support/mesh_limits.h"

namespace tessel::sharding {

// One named axis of a mesh and the number of devices along it.
struct MeshAxis {
  std::string name;
  int64_t size = 1;

  friend bool operator==(const MeshAxis& a, const MeshAxis& b) {
    return a.name == b.name && a.size == b.size;
  }
  friend bool operator!=(const MeshAxis& a, const MeshAxis& b) { return !(a == b); }
};

// Devices arranged as an array whose shape is the axis sizes, major to minor. The device at
// row-major position `i` has id `device_ids[i]`, or `i` when `device_ids` is empty. A mesh
// without axes holds one device; it may name it with a single id of any value (a "maximal"
// mesh, which is how a GSPMD `{maximal device=N}` sharding is expressed).
struct Mesh {
  std::vector<MeshAxis> axes;
  // Empty means the identity order; explicit ids exist so that any GSPMD tile assignment,
  // even one no iota form describes, has a mesh form.
  std::vector<int64_t> device_ids;

  // Validates and returns the mesh. Errors: empty or repeated axis names, sizes below 1,
  // more than kMaxMeshDevices devices in all, a device id list whose length is not the mesh size or that is not a permutation of
  // [0, size); a mesh without axes takes at most one (non-negative) id.
  static absl::StatusOr<Mesh> Create(std::vector<MeshAxis> axes,
                                     std::vector<int64_t> device_ids = {});
  absl::Status Validate() const;

  // The product of the axis sizes (1 without axes).
  int64_t NumDevices() const;
  // The position of axis `name` in `axes`, or nullopt.
  std::optional<int> FindAxis(const std::string& name) const;
  // The size of axis `name`, or nullopt if there is no such axis.
  std::optional<int64_t> FindAxisSize(const std::string& name) const;
  // The id of the device at row-major position `linear_index`.
  // REQUIRES: 0 <= linear_index < NumDevices().
  int64_t DeviceId(int64_t linear_index) const;
  // The coordinate along each axis of the device at row-major position `linear_index`.
  std::vector<int64_t> Coordinates(int64_t linear_index) const;
  // Whether this is a mesh without axes that names its single device.
  bool IsMaximal() const { return axes.empty() && device_ids.size() == 1; }
  // `<["x"=2, "y"=4], device_ids=[...]>`, the body of `#tessel.mesh`.
  std::string ToString() const;

  friend bool operator==(const Mesh& a, const Mesh& b) {
    return a.axes == b.axes && a.device_ids == b.device_ids;
  }
  friend bool operator!=(const Mesh& a, const Mesh& b) { return !(a == b); }
};

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_MESH_H_
