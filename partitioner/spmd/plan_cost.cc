// The bytes-moved estimate of reshard plans (see plan_cost.h).
#include "partitioner/spmd/plan_cost.h"

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/spmd/random_choices.h"

namespace tessel::spmd {

int64_t planBytes(llvm::ArrayRef<PlanStep> steps) {
  int64_t total = 0;
  uint64_t key = steps.size();
  for (const PlanStep& step : steps) {
    for (int64_t part : {static_cast<int64_t>(step.kind), step.groupSize, step.operandBytes}) {
      key = key * 1000003 + static_cast<uint64_t>(part);
    }
    const int64_t n = step.groupSize, bytes = step.operandBytes;
    if (n <= 1) continue;
    switch (step.kind) {
      case PlanStepKind::kLocal: break;
      case PlanStepKind::kAllGather: total += (n - 1) * bytes; break;
      case PlanStepKind::kAllToAll: total += (n - 1) * bytes / n; break;
      case PlanStepKind::kCollectivePermute: total += bytes; break;
      case PlanStepKind::kAllReduce: total += 2 * (n - 1) * bytes / n; break;
      case PlanStepKind::kReduceScatter: total += (n - 1) * bytes / n; break;
    }
  }
  return randomlyScaledBytes(total, key);
}

int64_t tensorBytes(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) return 0;
  int64_t bits = tensor.getElementType().isIntOrFloat() ? tensor.getElementType().getIntOrFloatBitWidth() : 0;
  return tensor.getNumElements() * ((bits + 7) / 8);
}

}  // namespace tessel::spmd
