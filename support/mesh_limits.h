// The largest device mesh Tessel accepts, shared by the #tessel.mesh verifier, the sharding
// library's Mesh and GSPMD tile assignments so that all three refuse the same meshes.
#ifndef TESSEL_SUPPORT_MESH_LIMITS_H_
#define TESSEL_SUPPORT_MESH_LIMITS_H_

#include <cstdint>

namespace tessel {

// The most devices a mesh may have. Offset tables, collective groups and the executor's
// partitions are built per device, so a mesh beyond any machine (a mistyped size, a product
// that overflows) is refused where it is declared rather than loop or wrap later.
inline constexpr int64_t kMaxMeshDevices = int64_t{1} << 20;

}  // namespace tessel

#endif  // TESSEL_SUPPORT_MESH_LIMITS_H_
