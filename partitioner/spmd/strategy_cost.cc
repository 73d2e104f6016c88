// Pricing emitted code for strategy choice (see strategy_cost.h).
#include "partitioner/spmd/strategy_cost.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "cost_model/collective_cost.h"
#include "cost_model/op_cost.h"
#include "cost_model/tensor_bytes.h"
#include "partitioner/ir/tessel/collective_groups.h"

namespace tessel::spmd {
namespace {

template <typename OpT>
std::optional<cost_model::CollectiveKind> kindIf(mlir::Operation* op,
                                                 cost_model::CollectiveKind kind) {
  if (llvm::isa<OpT>(op)) return kind;
  return std::nullopt;
}

std::optional<cost_model::CollectiveKind> collectiveKind(mlir::Operation* op) {
  using cost_model::CollectiveKind;
  if (auto kind = kindIf<ir::AllReduceOp>(op, CollectiveKind::kAllReduce)) return kind;
  if (auto kind = kindIf<ir::AllGatherOp>(op, CollectiveKind::kAllGather)) return kind;
  if (auto kind = kindIf<ir::ReduceScatterOp>(op, CollectiveKind::kReduceScatter)) return kind;
  if (auto kind = kindIf<ir::AllToAllOp>(op, CollectiveKind::kAllToAll)) return kind;
  if (auto kind = kindIf<ir::CollectivePermuteOp>(op, CollectiveKind::kCollectivePermute)) {
    return kind;
  }
  return std::nullopt;
}

}  // namespace

EmittedCost costOfEmitted(mlir::Block& block, ir::MeshAttr mesh,
                          const cost_model::HardwareSpec& spec) {
  EmittedCost cost;
  std::vector<std::string> described;
  for (mlir::Operation& op : block) {
    std::optional<cost_model::CollectiveKind> kind = collectiveKind(&op);
    if (!kind) {
      cost.seconds += cost_model::OpSeconds(cost_model::EstimateOpCost(&op), spec);
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
    cost_model::CollectiveEstimate estimate = cost_model::EstimateCollective(
        *kind, static_cast<double>(cost_model::TensorBytes(op.getOperand(0).getType())),
        groupSize, cost_model::LinkForAxes(spec, names));
    if (groupSize <= 1) continue;
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
