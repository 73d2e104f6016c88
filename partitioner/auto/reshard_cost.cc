// Pricing of layout changes with the planner's steps and the collective cost model.
#include "partitioner/auto/reshard_cost.h"

#include <string>
#include <vector>

#include "cost_model/collective_cost.h"
#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/STLExtras.h"

namespace tessel::auto_sharding {
namespace {

// The dimension `axis` splits in `layout`, or -1.
int64_t dimOf(const Layout& layout, int axis) {
  for (size_t d = 0; d < layout.dims.size(); ++d) {
    if (llvm::is_contained(layout.dims[d], axis)) return static_cast<int64_t>(d);
  }
  return -1;
}

std::vector<std::string> namesOf(llvm::ArrayRef<int> axes, ir::MeshAttr mesh) {
  std::vector<std::string> names;
  for (int axis : axes) names.push_back(mesh.getAxes()[axis].getName().str());
  return names;
}

int64_t groupOf(llvm::ArrayRef<int> axes, ir::MeshAttr mesh) {
  int64_t n = 1;
  for (int axis : axes) n *= mesh.getAxes()[axis].getSize();
  return n;
}

}  // namespace

double reshardSeconds(const Layout& from, const Layout& to, mlir::ShapedType type,
                      ir::MeshAttr mesh, const cost_model::HardwareSpec& spec) {
  if (from == to) return 0;
  const int64_t elementBytes = cost_model::ElementBytes(type.getElementType());
  const int64_t local = from.localElements(type, mesh);
  double seconds = 0;
  llvm::SmallVector<int, 4> gathered;
  for (size_t d = 0; d < from.dims.size(); ++d) {
    const auto& have = from.dims[d];
    const auto& want = to.dims[d];
    size_t kept = 0;
    while (kept < have.size() && kept < want.size() && have[kept] == want[kept]) ++kept;
    for (size_t i = kept; i < have.size(); ++i) {
      const int axis = have[i];
      const int64_t target = dimOf(to, axis);
      if (target >= 0 && target != static_cast<int64_t>(d)) {
        seconds += cost_model::EstimateReshardCost(
            cost_model::CollectiveKind::kAllToAll, elementBytes, local,
            mesh.getAxes()[axis].getSize(), namesOf({axis}, mesh), spec);
      } else {
        gathered.push_back(axis);
      }
    }
  }
  if (!gathered.empty()) {
    seconds += cost_model::EstimateReshardCost(cost_model::CollectiveKind::kAllGather,
                                               elementBytes, local, groupOf(gathered, mesh),
                                               namesOf(gathered, mesh), spec);
  }
  return seconds;
}

double allReduceSeconds(const Layout& layout, llvm::ArrayRef<int> axes, mlir::ShapedType type,
                        ir::MeshAttr mesh, const cost_model::HardwareSpec& spec) {
  if (axes.empty()) return 0;
  return cost_model::EstimateReshardCost(
      cost_model::CollectiveKind::kAllReduce, cost_model::ElementBytes(type.getElementType()),
      layout.localElements(type, mesh), groupOf(axes, mesh), namesOf(axes, mesh), spec);
}

}  // namespace tessel::auto_sharding
