// Pricing emitted code for strategy choice (see strategy_cost.h).
#include "partitioner/spmd/strategy_cost.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cost_model/collective_cost.h"
#include "cost_model/op_cost.h"
#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "partitioner/ir/tessel/collective_groups.h"

namespace tessel::spmd {

EmittedCost costOfEmitted(mlir::Block& block, ir::MeshAttr mesh,
                          const cost_model::HardwareSpec& spec,
                          llvm::function_ref<bool(mlir::Value)> isLoopInvariant) {
  EmittedCost cost;
  std::vector<std::string> described;
  llvm::SmallPtrSet<mlir::Operation*, 16> hoisted;
  auto invariant = [&](mlir::Value value) {
    if (mlir::Operation* def = value.getDefiningOp(); def && def->getBlock() == &block) {
      return hoisted.contains(def);
    }
    return isLoopInvariant(value);
  };
  for (mlir::Operation& op : block) {
    const bool runsOnce = isLoopInvariant && op.getNumRegions() == 0 && mlir::isPure(&op) &&
                          llvm::all_of(op.getOperands(), invariant);
    if (runsOnce) hoisted.insert(&op);
    std::optional<cost_model::CollectiveKind> kind = cost_model::CollectiveKindOf(&op);
    if (!kind) {
      double seconds = cost_model::OpSeconds(cost_model::EstimateOpCost(&op), spec);
      (runsOnce ? cost.hoistedSeconds : cost.seconds) += seconds;
      continue;
    }
    auto axesAttr = op.getAttrOfType<mlir::ArrayAttr>("axes");
    llvm::SmallVector<ir::AxisRefAttr> axes;
    std::vector<std::string> names;
    for (mlir::Attribute axis : axesAttr) {
      axes.push_back(llvm::cast<ir::AxisRefAttr>(axis));
      names.push_back(axes.back().getName().str());
    }
    const int64_t groupSize = mesh ? ir::getGroupSize(mesh, axes) : 1;
    if (groupSize <= 1) continue;
    cost_model::CollectiveEstimate estimate = cost_model::EstimateCollective(
        *kind, static_cast<double>(cost_model::TensorBytes(op.getOperand(0).getType())),
        groupSize, cost_model::LinkForAxes(spec, names));
    if (runsOnce) {
      cost.hoistedSeconds += estimate.seconds;
      cost.hoistedSentBytes += estimate.sent_bytes;
      described.push_back(absl::StrCat(cost_model::CollectiveKindName(*kind), " over ",
                                       absl::StrJoin(names, ","), " before the loop"));
      continue;
    }
    cost.seconds += estimate.seconds;
    cost.communicationSeconds += estimate.seconds;
    cost.sentBytes += estimate.sent_bytes;
    described.push_back(absl::StrCat(cost_model::CollectiveKindName(*kind), " over ",
                                     absl::StrJoin(names, ",")));
  }
  cost.collectives = described.empty() ? "no collectives" : absl::StrJoin(described, ", ");
  return cost;
}

}  // namespace tessel::spmd
