// Alpha-beta estimates of collectives (the table is in collective_cost.h).
#include "cost_model/collective_cost.h"

#include "absl/strings/str_cat.h"
#include "cost_model/tensor_bytes.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::cost_model {
namespace {

struct AlgorithmShape {
  double sent_fraction;  // bytes sent per device / operand bytes
  double steps;          // latency terms
};

AlgorithmShape ShapeOf(CollectiveKind kind, double n) {
  switch (kind) {
    case CollectiveKind::kAllReduce: return {2 * (n - 1) / n, 2 * (n - 1)};
    case CollectiveKind::kAllGather: return {n - 1, n - 1};
    case CollectiveKind::kReduceScatter: return {(n - 1) / n, n - 1};
    case CollectiveKind::kAllToAll: return {(n - 1) / n, n - 1};
    case CollectiveKind::kCollectivePermute: return {1, 1};
  }
  return {0, 0};
}

std::string AxisLabel(ir::AxisRefAttr axis) {
  if (!axis.isSubAxis()) return axis.getName().str();
  return absl::StrCat(axis.getName().str(), ":(", axis.getPreSize(), ")", axis.getSubSize());
}

template <typename CollectiveOp>
CollectiveOpCost Describe(CollectiveOp op, CollectiveKind kind, const HardwareSpec& spec) {
  CollectiveOpCost cost{kind, {}, op.getGroupSize(), {}};
  std::vector<std::string> names;
  for (ir::AxisRefAttr axis : op.getAxes().template getAsRange<ir::AxisRefAttr>()) {
    cost.axes.push_back(AxisLabel(axis));
    names.push_back(axis.getName().str());
  }
  double operand_bytes = static_cast<double>(TensorBytes(op.getOperand().getType()));
  cost.estimate =
      EstimateCollective(kind, operand_bytes, cost.group_size, LinkForAxes(spec, names));
  return cost;
}

}  // namespace

const char* CollectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::kAllReduce: return "all_reduce";
    case CollectiveKind::kAllGather: return "all_gather";
    case CollectiveKind::kReduceScatter: return "reduce_scatter";
    case CollectiveKind::kAllToAll: return "all_to_all";
    case CollectiveKind::kCollectivePermute: return "collective_permute";
  }
  return "collective";
}

CollectiveEstimate EstimateCollective(CollectiveKind kind, double operand_bytes,
                                      int64_t group_size, const Link& link) {
  CollectiveEstimate estimate;
  estimate.operand_bytes = operand_bytes;
  if (group_size <= 1) return estimate;  // nothing leaves the device
  AlgorithmShape shape = ShapeOf(kind, static_cast<double>(group_size));
  estimate.sent_bytes = shape.sent_fraction * operand_bytes;
  estimate.seconds = shape.steps * link.latency_seconds() +
                     estimate.sent_bytes / link.bandwidth_bytes_per_second();
  return estimate;
}

double EstimateReshardCost(CollectiveKind kind, int64_t element_bytes, int64_t local_elements,
                           int64_t group_size, absl::Span<const std::string> axes,
                           const HardwareSpec& spec) {
  double operand_bytes = static_cast<double>(element_bytes) * static_cast<double>(local_elements);
  return EstimateCollective(kind, operand_bytes, group_size, LinkForAxes(spec, axes)).seconds;
}

std::optional<CollectiveKind> CollectiveKindOf(mlir::Operation* op) {
  if (llvm::isa<ir::AllReduceOp>(op)) return CollectiveKind::kAllReduce;
  if (llvm::isa<ir::AllGatherOp>(op)) return CollectiveKind::kAllGather;
  if (llvm::isa<ir::ReduceScatterOp>(op)) return CollectiveKind::kReduceScatter;
  if (llvm::isa<ir::AllToAllOp>(op)) return CollectiveKind::kAllToAll;
  if (llvm::isa<ir::CollectivePermuteOp>(op)) return CollectiveKind::kCollectivePermute;
  return std::nullopt;
}

std::optional<CollectiveOpCost> EstimateCollectiveOp(mlir::Operation* op,
                                                     const HardwareSpec& spec) {
  if (auto all_reduce = llvm::dyn_cast<ir::AllReduceOp>(op)) {
    return Describe(all_reduce, CollectiveKind::kAllReduce, spec);
  }
  if (auto all_gather = llvm::dyn_cast<ir::AllGatherOp>(op)) {
    return Describe(all_gather, CollectiveKind::kAllGather, spec);
  }
  if (auto reduce_scatter = llvm::dyn_cast<ir::ReduceScatterOp>(op)) {
    return Describe(reduce_scatter, CollectiveKind::kReduceScatter, spec);
  }
  if (auto all_to_all = llvm::dyn_cast<ir::AllToAllOp>(op)) {
    return Describe(all_to_all, CollectiveKind::kAllToAll, spec);
  }
  if (auto permute = llvm::dyn_cast<ir::CollectivePermuteOp>(op)) {
    CollectiveOpCost cost = Describe(permute, CollectiveKind::kCollectivePermute, spec);
    bool moves = false;
    for (auto [source, target] : permute.getSourceTargetPairs()) moves |= source != target;
    if (!moves) cost.estimate = CollectiveEstimate{cost.estimate.operand_bytes, 0, 0};
    return cost;
  }
  return std::nullopt;
}

}  // namespace tessel::cost_model
