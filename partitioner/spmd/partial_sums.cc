// Which values the partitioner computes as partial sums, read off the shardings
// propagation left (partial_sums.h).
#include "partitioner/spmd/partial_sums.h"

#include "llvm/ADT/DenseSet.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/reducer_region.h"
#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::spmd {

ir::ShardingAttr shardingOf(mlir::Value value) {
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    mlir::Operation* parent = arg.getOwner()->getParentOp();
    if (auto func = llvm::dyn_cast<mlir::func::FuncOp>(parent)) {
      return func.getArgAttrOfType<ir::ShardingAttr>(arg.getArgNumber(),
                                                     ir::TesselDialect::kShardingAttrName);
    }
    // A loop's block arguments are its carried values: the while's results.
    if (llvm::isa<hlo::WhileOp>(parent)) return shardingOf(parent->getResult(arg.getArgNumber()));
    return {};
  }
  auto result = llvm::cast<mlir::OpResult>(value);
  auto shardings = result.getOwner()->getAttrOfType<ir::ShardingPerValueAttr>(
      ir::TesselDialect::kShardingAttrName);
  if (!shardings || shardings.getShardings().size() <= result.getResultNumber()) return {};
  return shardings.getShardings()[result.getResultNumber()];
}

namespace {

// The partial-sum axes of a contraction (dot_general, convolution) read off its sharding
// rule: see partialSumAxes(hlo::DotGeneralOp).
AxisList contractionPartialSumAxes(mlir::Operation* dot) {
  ir::ShardingAttr out = shardingOf(dot->getResult(0));
  if (!out || !out.getUnreducedAxes().empty()) return {};
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(dot->getResult(0).getType());
  if (!type || !type.hasStaticShape() || out.getRank() != type.getRank()) return {};
  rules::ShardingRuleOrNone answer = rules::getShardingRuleOf(dot, rules::ShardingRuleOptions());
  const auto* rule = std::get_if<rules::OpShardingRule>(&answer);
  if (!rule) return {};
  // Result dimensions claim their axes first; a contracting factor then takes the axes of
  // the first operand dimension that splits it, unless some are taken already.
  AxisList used;
  for (ir::DimShardingAttr dim : out.getDimShardings()) {
    used.append(dim.getAxes().begin(), dim.getAxes().end());
  }
  AxisList partial;
  llvm::DenseSet<int64_t> claimed;
  for (auto [index, operand] : llvm::enumerate(dot->getOperands())) {
    ir::ShardingAttr sharding = shardingOf(operand);
    if (!sharding || sharding.getMeshName() != out.getMeshName()) continue;
    const rules::TensorFactors& factors = rule->getOperand(index);
    if (static_cast<int64_t>(factors.size()) != sharding.getRank()) continue;
    for (auto [dim, dimFactors] : llvm::enumerate(factors)) {
      if (dimFactors.size() != 1) continue;
      int64_t factor = dimFactors[0];
      if (rule->getFactor(factor).kind != rules::FactorKind::kReduction ||
          rule->getFactor(factor).size == 1 || claimed.count(factor)) {
        continue;
      }
      llvm::ArrayRef<ir::AxisRefAttr> axes = sharding.getDimShardings()[dim].getAxes();
      if (axes.empty() || anyOverlap(axes, used)) continue;
      claimed.insert(factor);
      used.append(axes.begin(), axes.end());
      partial.append(axes.begin(), axes.end());
    }
  }
  return partial;
}

}  // namespace

AxisList partialSumAxes(hlo::DotGeneralOp dot) { return contractionPartialSumAxes(dot); }

AxisList partialSumAxes(hlo::ConvolutionOp conv) { return contractionPartialSumAxes(conv); }

bool isZeroInitSum(hlo::ReduceOp reduce) {
  if (reduce.getInputs().size() != 1) return false;
  auto combiners = hlo::getSingleOpCombiners(reduce.getBody(), /*numInputs=*/1);
  if (!combiners || !llvm::isa<hlo::AddOp>((*combiners)[0])) return false;
  auto init = reduce.getInitValues()[0].getDefiningOp<hlo::ConstantOp>();
  if (!init) return false;
  auto value = llvm::dyn_cast<mlir::DenseElementsAttr>(init.getValue());
  if (!value || !value.isSplat()) return false;
  return llvm::isa<mlir::FloatType>(value.getElementType())
             ? value.getSplatValue<llvm::APFloat>().isZero()
             : value.getSplatValue<llvm::APInt>().isZero();
}

AxisList partialSumAxes(hlo::ReduceOp reduce) {
  if (!isZeroInitSum(reduce)) return {};
  ir::ShardingAttr out = shardingOf(reduce->getResult(0));
  ir::ShardingAttr in = shardingOf(reduce.getInputs()[0]);
  if (!out || !in || !out.getUnreducedAxes().empty() || !in.getUnreducedAxes().empty() ||
      in.getMeshName() != out.getMeshName()) {
    return {};
  }
  auto inputType = llvm::dyn_cast<mlir::RankedTensorType>(reduce.getInputs()[0].getType());
  if (!inputType || !inputType.hasStaticShape() || in.getRank() != inputType.getRank()) return {};
  AxisList used;
  for (ir::DimShardingAttr dim : out.getDimShardings()) {
    used.append(dim.getAxes().begin(), dim.getAxes().end());
  }
  AxisList partial;
  for (int64_t d : reduce.getDimensions()) {
    llvm::ArrayRef<ir::AxisRefAttr> axes = in.getDimShardings()[d].getAxes();
    if (axes.empty() || anyOverlap(axes, used) || anyOverlap(axes, partial)) continue;
    partial.append(axes.begin(), axes.end());
  }
  return partial;
}

void setShardingOf(mlir::OpResult result, ir::ShardingAttr sharding) {
  mlir::Operation* op = result.getOwner();
  auto existing =
      op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
  llvm::SmallVector<ir::ShardingAttr> shardings(existing.getShardings());
  shardings[result.getResultNumber()] = sharding;
  op->setAttr(ir::TesselDialect::kShardingAttrName,
              ir::ShardingPerValueAttr::get(op->getContext(), shardings));
}

ir::ShardingAttr withUnreduced(ir::ShardingAttr sharding, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  AxisList unreduced(sharding.getUnreducedAxes().begin(), sharding.getUnreducedAxes().end());
  for (ir::AxisRefAttr axis : axes) {
    if (!llvm::is_contained(unreduced, axis)) unreduced.push_back(axis);
  }
  return ir::ShardingAttr::get(sharding.getContext(), sharding.getMeshName(),
                               sharding.getDimShardings(), sharding.getReplicatedAxes(),
                               unreduced);
}

namespace {

bool isScalarLike(mlir::Value value) {
  if (llvm::cast<mlir::ShapedType>(value.getType()).getRank() == 0) return true;
  mlir::Operation* def = value.getDefiningOp();
  if (!def) return false;
  if (llvm::isa<hlo::ConstantOp>(def)) return true;
  auto broadcast = llvm::dyn_cast<hlo::BroadcastInDimOp>(def);
  return broadcast &&
         llvm::cast<mlir::ShapedType>(broadcast->getOperand(0).getType()).getRank() == 0;
}

bool isFloat(mlir::Value value) {
  return llvm::isa<mlir::FloatType>(llvm::cast<mlir::ShapedType>(value.getType()).getElementType());
}

}  // namespace

mlir::Value linearOperandOf(mlir::Operation* op) {
  if (llvm::isa<hlo::TransposeOp, hlo::ReshapeOp, hlo::BroadcastInDimOp, hlo::NegOp>(op)) {
    return op->getOperand(0);
  }
  if (llvm::isa<hlo::ConvertOp>(op)) {
    return isFloat(op->getOperand(0)) && isFloat(op->getResult(0)) ? op->getOperand(0)
                                                                    : mlir::Value();
  }
  if (llvm::isa<hlo::DivOp>(op)) {
    return isScalarLike(op->getOperand(1)) ? op->getOperand(0) : mlir::Value();
  }
  if (llvm::isa<hlo::MulOp>(op)) {
    if (isScalarLike(op->getOperand(1))) return op->getOperand(0);
    if (isScalarLike(op->getOperand(0))) return op->getOperand(1);
  }
  return {};
}

}  // namespace tessel::spmd
