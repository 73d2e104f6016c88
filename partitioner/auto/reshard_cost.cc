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

// Whether pieces of `size` split `fine` ways nest in those split `coarse` ways (`coarse`
// divides `fine`): each coarse piece is exactly fine / coarse fine pieces.
bool nests(int64_t size, int64_t coarse, int64_t fine) {
  return (size + fine - 1) / fine * (fine / coarse) == (size + coarse - 1) / coarse;
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
    // Axes added (or dropped) after the kept ones cut (or join) pieces locally only where the
    // finer pieces nest in the coarser: 64 over 2 then 6 gives pieces of 32 and 11, and 3 x 11
    // is not 32, so the planner gathers the kept axes too and slices anew.
    if (kept > 0) {
      const int64_t size = type.getDimSize(d);
      const int64_t coarse = groupOf(llvm::ArrayRef<int>(have).take_front(kept), mesh);
      if (!nests(size, coarse, groupOf(have, mesh)) || !nests(size, coarse, groupOf(want, mesh))) {
        gathered.append(have.begin(), have.begin() + kept);
      }
    }
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
  // Axes that arrive where no all_to_all brings them are cut locally from what the gather
  // left: that source is read (padded first when the cut is uneven) and the piece written.
  bool sliced = false, padded = false;
  for (size_t d = 0; d < to.dims.size(); ++d) {
    bool slicedHere = false;
    for (int axis : to.dims[d]) {
      const int64_t source = dimOf(from, axis);
      const bool stays = source == static_cast<int64_t>(d) && !llvm::is_contained(gathered, axis);
      slicedHere |= !stays && (source < 0 || source == static_cast<int64_t>(d));
    }
    sliced |= slicedHere;
    padded |= slicedHere && type.getDimSize(d) % to.shards(static_cast<int64_t>(d), mesh) != 0;
  }
  if (sliced) {
    const double source =
        static_cast<double>(local * groupOf(gathered, mesh) * elementBytes);
    const double piece = static_cast<double>(to.localBytes(type, mesh));
    seconds += ((padded ? 3.0 : 1.0) * source + piece) / spec.memory_bandwidth_bytes_per_second();
  }
  if (!gathered.empty()) {
    seconds +=
        cost_model::EstimateReshardCost(cost_model::CollectiveKind::kAllGather, elementBytes, local,
                                        groupOf(gathered, mesh), namesOf(gathered, mesh), spec);
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
