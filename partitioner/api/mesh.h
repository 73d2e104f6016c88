// A device mesh: the devices of a program laid out as an array with named axes, like JAX's
// `Mesh`. Shardings say which mesh axes split which tensor dimensions.
//
//   // 8 devices as a 4x2 array; "data" is the major axis.
//   TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", 4}, {"model", 2}}));
//   mesh.num_devices();           // 8
//   *mesh.axis_size("model");     // 2
//   mesh.ToString();              // @mesh = <["data"=4, "model"=2]>
//
//   // The same shape with the devices in another order (a permutation of 0..7).
//   Mesh::Create({{"data", 4}, {"model", 2}}, {0, 2, 4, 6, 1, 3, 5, 7});
//
// A mesh is a small immutable value; copy it freely. In a program it becomes the symbol
// `tessel.mesh @<name>`, so two meshes that differ must have different names
// (Mesh::CreateNamed).
#ifndef TESSEL_PARTITIONER_API_MESH_H_
#define TESSEL_PARTITIONER_API_MESH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessel {

// One named axis of a mesh and the number of devices along it.
struct MeshAxis {
  std::string name;
  int64_t size = 1;

  friend bool operator==(const MeshAxis& a, const MeshAxis& b) {
    return a.name == b.name && a.size == b.size;
  }
};

class Mesh {
 public:
  // The name a mesh gets when none is given.
  static constexpr absl::string_view kDefaultName = "mesh";

  // A mesh with `axes`, major to minor, named kDefaultName. `device_ids[i]` is the id of the
  // device at row-major position i of the mesh array; empty means 0, 1, 2, ... Fails with
  // InvalidArgument if an axis name is empty or repeated, a size is below 1, or the ids are
  // not a permutation of [0, num_devices). A mesh without axes is one device; its one id
  // may be any non-negative number (a "maximal" sharding onto that device).
  static absl::StatusOr<Mesh> Create(std::vector<MeshAxis> axes,
                                     std::vector<int64_t> device_ids = {});

  // Like Create, with the symbol name `name` (non-empty).
  static absl::StatusOr<Mesh> CreateNamed(std::string name, std::vector<MeshAxis> axes,
                                          std::vector<int64_t> device_ids = {});

  const std::string& name() const { return name_; }
  absl::Span<const MeshAxis> axes() const { return axes_; }

  // The size of axis `name`, or nullopt if the mesh has no such axis.
  std::optional<int64_t> axis_size(absl::string_view name) const;
  bool has_axis(absl::string_view name) const { return axis_size(name).has_value(); }

  // The product of the axis sizes (1 without axes).
  int64_t num_devices() const { return num_devices_; }

  // The ids given to Create; empty when the devices are in the default order.
  absl::Span<const int64_t> explicit_device_ids() const { return device_ids_; }
  // The id of the device at row-major position `index`. REQUIRES: 0 <= index < num_devices().
  int64_t device_id(int64_t index) const {
    return device_ids_.empty() ? index : device_ids_[index];
  }

  // The MLIR spelling: @mesh = <["data"=4, "model"=2]>, with `, device_ids=[...]` when the
  // order is explicit.
  std::string ToString() const;

  friend bool operator==(const Mesh& a, const Mesh& b) {
    return a.name_ == b.name_ && a.axes_ == b.axes_ && a.device_ids_ == b.device_ids_;
  }
  friend bool operator!=(const Mesh& a, const Mesh& b) { return !(a == b); }

 private:
  Mesh(std::string name, std::vector<MeshAxis> axes, std::vector<int64_t> device_ids,
       int64_t num_devices)
      : name_(std::move(name)),
        axes_(std::move(axes)),
        device_ids_(std::move(device_ids)),
        num_devices_(num_devices) {}

  std::string name_;
  std::vector<MeshAxis> axes_;
  std::vector<int64_t> device_ids_;
  int64_t num_devices_;
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_MESH_H_
