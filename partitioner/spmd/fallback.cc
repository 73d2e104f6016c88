// The fallback: every op without a handler runs on whole tensors. Its operands are
// resharded to replicated, the op is cloned unchanged (nested ops lose their shardings),
// and each result is cut to its annotated layout. Correct for every op, not fast; a warning
// names the op, where it is, the bytes gathered, and a sharding constraint that would let
// the op partition (or says that none would), so users can fix the layout at the source.
#include <string>

#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/rules/sharding_rule_interface.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/plan_cost.h"

namespace tessel::spmd {
namespace {

// A dimension the rule path keeps split: one pass-through factor that the results share.
bool staysSplit(const rules::OpShardingRule& rule, const rules::DimFactors& factors) {
  return factors.size() == 1 &&
         rule.getFactor(factors[0]).kind == rules::FactorKind::kPassThrough &&
         rule.isInResults(factors[0]);
}

// The advice the warning ends with: a constraint on the first split operand that moves the
// axes of the dimensions the op cannot keep split onto one it can, or why none exists.
std::string advice(mlir::Operation* op, PartitionState& state) {
  rules::ShardingRuleOrNone answer = rules::getShardingRuleOf(op, rules::ShardingRuleOptions());
  const auto* rule = std::get_if<rules::OpShardingRule>(&answer);
  if (!rule) {
    return "no sharding constraint avoids it: the op has no sharding rule, so only "
           "replicated operands suit it";
  }
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    const LocalValue& local = state.local(operand);
    if (!local.layout.isSplit() || static_cast<int64_t>(index) >= rule->getNumOperands()) {
      continue;
    }
    const rules::TensorFactors& factors = rule->getOperand(index);
    if (static_cast<int64_t>(factors.size()) != local.layout.rank()) continue;
    Layout suggested = local.layout;
    AxisList moved;
    std::optional<int64_t> free;
    for (int64_t d = 0; d < suggested.rank(); ++d) {
      if (!staysSplit(*rule, factors[d])) {
        moved.append(suggested.dims[d].begin(), suggested.dims[d].end());
        suggested.dims[d].clear();
      } else if (suggested.dims[d].empty() && local.shape[d] > 1 && !free) {
        free = d;
      }
    }
    if (moved.empty()) continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    if (!free) {
      os << "no better layout exists: operand " << index
         << " has no other dimension the op can keep split, so it must be whole";
      return text;
    }
    suggested.dims[*free] = moved;
    os << "a sharding constraint to " << suggested.toSharding(op->getContext())
       << " on operand " << index << " would avoid it";
    return text;
  }
  return "no sharding constraint avoids it: no split dimension of its operands is one the op "
         "can keep split";
}

}  // namespace

mlir::LogicalResult partitionByReplication(mlir::Operation* op, PartitionState& state,
                                           bool remark) {
  int64_t replicatedBytes = 0;
  for (mlir::Value operand : op->getOperands()) {
    const LocalValue& current = state.local(operand);
    auto type = mlir::RankedTensorType::get(
        current.shape, llvm::cast<mlir::ShapedType>(operand.getType()).getElementType());
    if (current.layout.isSplit()) replicatedBytes += tensorBytes(type);
  }
  if (remark && replicatedBytes > 0 && state.options().replicationIsError) {
    return op->emitError() << "'" << op->getName() << "' would be partitioned by replication ("
                           << replicatedBytes
                           << " bytes of split operands gathered), which the options forbid";
  }
  // The advice reads the operands' layouts before anything changes.
  std::string why = remark && replicatedBytes > 0 ? advice(op, state) : std::string();
  mlir::IRMapping mapping;
  for (mlir::Value operand : op->getOperands()) {
    const LocalValue& current = state.local(operand);
    auto type = mlir::RankedTensorType::get(
        current.shape, llvm::cast<mlir::ShapedType>(operand.getType()).getElementType());
    const Layout& from = current.layout;
    Layout whole = Layout::replicated(from.mesh, from.meshName, type.getRank());
    mlir::FailureOr<mlir::Value> local = state.localAs(operand, whole, op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    mapping.map(operand, *local);
  }
  mlir::Operation* global;
  if (op->getNumRegions() == 0) {
    llvm::SmallVector<mlir::Value> localOperands;
    for (mlir::Value operand : op->getOperands()) localOperands.push_back(mapping.lookup(operand));
    global = state.copyUnannotated(op, localOperands);
  } else {
    global = state.spmd().builder().clone(*op, mapping);
    global->walk([](mlir::Operation* nested) {
      nested->removeAttr(ir::TesselDialect::kShardingAttrName);
    });
  }
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape()) {
      return op->emitError() << "cannot partition a result of type " << result.getType();
    }
    Layout to = state.annotatedLayout(result);
    Layout whole = Layout::replicated(to.mesh, to.meshName, type.getRank());
    mlir::FailureOr<mlir::Value> local = state.spmd().reshard(
        global->getResult(index), whole, to, type.getShape(), op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    state.define(result, *local, to, type.getShape());
  }
  // Ops whose operands are whole already move nothing: a remark, not a warning.
  if (remark && replicatedBytes == 0) {
    // The diagnostic carries the op's place; the text names only the op.
    op->emitRemark() << "'" << op->getName()
                     << "' is partitioned by replication: 0 bytes of split operands are gathered";
  } else if (remark) {
    op->emitWarning() << "'" << op->getName()
                      << "' is partitioned by replication: " << replicatedBytes
                      << " bytes of split operands are gathered; " << why;
  }
  return mlir::success();
}

}  // namespace tessel::spmd
