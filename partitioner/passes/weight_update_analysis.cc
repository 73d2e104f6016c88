// The detection half of weight-update sharding (weight_update_analysis.h): which values are
// partial sums, and which ops, arguments and results form the update a gradient feeds.
#include "partitioner/passes/weight_update_analysis.h"

#include <deque>
#include <optional>

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/hlo/reducer_region.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::passes {
namespace {

bool overlaps(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b) {
  for (ir::AxisRefAttr x : a) {
    for (ir::AxisRefAttr y : b) {
      if (x.getName() != y.getName()) continue;
      // Two parts of one axis overlap unless their ranges are disjoint.
      if (!x.isSubAxis() || !y.isSubAxis()) return true;
      int64_t xEnd = x.getPreSize() * x.getSubSize(), yEnd = y.getPreSize() * y.getSubSize();
      if (x.getPreSize() < yEnd && y.getPreSize() < xEnd) return true;
    }
  }
  return false;
}

// "'hlo.add' at f.mlir:3:8", or "'hlo.add'" where the location says nothing.
std::string describe(mlir::Operation* op) {
  std::string text = "'" + op->getName().getStringRef().str() + "'";
  if (!llvm::isa<mlir::UnknownLoc>(op->getLoc())) text += " at " + FormatLocation(op->getLoc());
  return text;
}

llvm::ArrayRef<int64_t> shapeOf(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType()).getShape();
}

bool isRankedWithShape(mlir::Value value, llvm::ArrayRef<int64_t> shape) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  return type && type.getShape() == shape;
}

bool isScalar(mlir::Value value) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  return type && type.getRank() == 0;
}

// An op that computes each element of its result from the same element of its operands:
// hlo's elementwise ops (select and clamp included, whose predicate or bounds may be
// scalars), with one result of `shape` and operands of `shape` or scalars.
bool isElementwiseOver(mlir::Operation* op, llvm::ArrayRef<int64_t> shape) {
  if (!llvm::isa<hlo::HloDialect>(op->getDialect()) || op->getNumResults() != 1 ||
      op->getNumRegions() != 0) {
    return false;
  }
  if (!op->hasTrait<mlir::OpTrait::Elementwise>() && !llvm::isa<hlo::SelectOp, hlo::ClampOp>(op)) {
    return false;
  }
  if (!isRankedWithShape(op->getResult(0), shape)) return false;
  return llvm::all_of(op->getOperands(), [&](mlir::Value operand) {
    return isScalar(operand) || isRankedWithShape(operand, shape);
  });
}

// A side input: a scalar, or a tensor made of one (a broadcast of a scalar) or of constants.
bool isSideInput(mlir::Value value) {
  if (isScalar(value)) return true;
  mlir::Operation* def = value.getDefiningOp();
  if (!def) return false;
  if (llvm::isa<hlo::ConstantOp>(def)) return true;
  auto broadcast = llvm::dyn_cast<hlo::BroadcastInDimOp>(def);
  return broadcast && isScalar(broadcast->getOperand(0));
}

bool sameAxes(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b) {
  return a.size() == b.size() && llvm::equal(a, b);
}

}  // namespace

ir::ShardingAttr shardingOf(mlir::Value value) {
  if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(value)) {
    auto func = llvm::dyn_cast<mlir::func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func) return {};
    return func.getArgAttrOfType<ir::ShardingAttr>(arg.getArgNumber(),
                                                   ir::TesselDialect::kShardingAttrName);
  }
  auto result = llvm::cast<mlir::OpResult>(value);
  auto shardings = result.getOwner()->getAttrOfType<ir::ShardingPerValueAttr>(
      ir::TesselDialect::kShardingAttrName);
  if (!shardings || shardings.getShardings().size() <= result.getResultNumber()) return {};
  return shardings.getShardings()[result.getResultNumber()];
}

AxisList partialSumAxes(hlo::DotGeneralOp dot) {
  ir::ShardingAttr out = shardingOf(dot->getResult(0));
  if (!out || !out.getUnreducedAxes().empty()) return {};
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(dot.getType());
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
      if (axes.empty() || overlaps(axes, used)) continue;
      claimed.insert(factor);
      used.append(axes.begin(), axes.end());
      partial.append(axes.begin(), axes.end());
    }
  }
  return partial;
}

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
    if (axes.empty() || overlaps(axes, used) || overlaps(axes, partial)) continue;
    partial.append(axes.begin(), axes.end());
  }
  return partial;
}

WeightUpdateOrReason analyzeWeightUpdate(mlir::Value gradient, const AxisList& axes,
                                         mlir::func::FuncOp func) {
  mlir::Block& body = func.getBody().front();
  llvm::ArrayRef<int64_t> shape = shapeOf(gradient);
  ir::ShardingAttr gradientSharding = shardingOf(gradient);
  WeightUpdate update;
  update.axes = axes;
  update.meshName = gradientSharding.getMeshName();
  update.gradients.insert(gradient);

  llvm::SetVector<mlir::Operation*> ops;
  llvm::SetVector<mlir::Value> args, sides;
  std::deque<mlir::Operation*> worklist;
  auto addUsers = [&](mlir::Value value) {
    for (mlir::Operation* user : value.getUsers()) worklist.push_back(user);
  };
  addUsers(gradient);
  while (!worklist.empty()) {
    mlir::Operation* op = worklist.front();
    worklist.pop_front();
    if (ops.contains(op) || llvm::isa<mlir::func::ReturnOp>(op)) continue;
    if (op->getBlock() != &body) {
      return "the update reaches " + describe(op) +
             ", which is nested in a region; only a function's own ops are rewritten";
    }
    if (!isElementwiseOver(op, shape)) {
      return "the update feeds " + describe(op) + ", which is not elementwise over the " +
             "gradient's shape";
    }
    ops.insert(op);
    addUsers(op->getResult(0));
    for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
      if (update.gradients.contains(operand)) continue;
      mlir::Operation* def = operand.getDefiningOp();
      if (def && ops.contains(def)) continue;
      if (isSideInput(operand)) {
        if (!isScalar(operand)) sides.insert(operand);
        continue;
      }
      if (auto arg = llvm::dyn_cast<mlir::BlockArgument>(operand)) {
        if (arg.getOwner() == &body) {
          args.insert(arg);
          continue;
        }
      }
      if (auto dot = llvm::dyn_cast_or_null<hlo::DotGeneralOp>(def)) {
        ir::ShardingAttr sharding = shardingOf(dot->getResult(0));
        if (sameAxes(partialSumAxes(dot), axes) && sharding &&
            sharding.getDimShardings() == gradientSharding.getDimShardings()) {
          update.gradients.insert(operand);
          addUsers(operand);
          continue;
        }
      }
      if (def && def->getBlock() == &body && isElementwiseOver(def, shape)) {
        worklist.push_back(def);
        continue;
      }
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "operand " << index << " of " << describe(op) << " comes from "
         << (def ? describe(def) : std::string("a block argument"))
         << ", which is neither optimizer state, a weight, a scalar nor a gradient";
      return os.str();
    }
  }
  if (ops.empty()) return "the gradient feeds no elementwise update";

  auto meshOp = mlir::SymbolTable::lookupNearestSymbolFrom<ir::MeshOp>(func, update.meshName);
  if (!meshOp) return "the gradient's mesh is not declared";
  update.mesh = meshOp.getMesh();
  // The first dimension the gradient does not split yet that divides evenly, else the first
  // one it does not split (an uneven split, padded by the partitioner).
  int64_t groupSize = ir::getGroupSize(update.mesh, axes);
  std::optional<int64_t> even, free;
  for (auto [dim, sharding] : llvm::enumerate(gradientSharding.getDimShardings())) {
    if (!sharding.getAxes().empty()) continue;
    if (!free) free = dim;
    if (!even && shape[dim] % groupSize == 0) even = dim;
  }
  if (!free) return "every dimension of the gradient is split already";
  update.dim = even ? *even : *free;
  update.even = even.has_value();

  // Arguments: state when only the update reads them, a weight when other ops do too.
  for (mlir::Value value : args) {
    auto arg = llvm::cast<mlir::BlockArgument>(value);
    bool otherOp = false, returned = false;
    for (mlir::Operation* user : arg.getUsers()) {
      if (ops.contains(user)) continue;
      (llvm::isa<mlir::func::ReturnOp>(user) ? returned : otherOp) = true;
    }
    std::string name = "argument " + std::to_string(arg.getArgNumber());
    if (!otherOp && returned) {
      return name + " is returned unchanged besides feeding the update, so it can be " +
             "neither sharded optimizer state nor a weight the forward pass reads";
    }
    if (!otherOp) {
      update.stateArgs.push_back(arg);
      continue;
    }
    if (ir::ShardingAttr sharding = shardingOf(arg)) {
      AxisList weightAxes(sharding.getUnreducedAxes().begin(), sharding.getUnreducedAxes().end());
      for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
        weightAxes.append(dim.getAxes().begin(), dim.getAxes().end());
      }
      if (overlaps(weightAxes, axes)) {
        return "weight " + name + " is split over the axes the gradient is summed over";
      }
    }
    update.weightArgs.push_back(arg);
  }

  // Without optimizer state there is nothing to keep sharded, and a partial sum that only
  // meets an argument in an elementwise op need not be a gradient at all (a model-parallel
  // layer's output added to a residual input looks the same).
  if (update.stateArgs.empty()) {
    return "the update reads no optimizer state (an argument only the update reads), so " +
           std::string("there is nothing to keep sharded");
  }

  // Side inputs the update alone reads are computed on the shard too.
  for (mlir::Value side : sides) {
    if (llvm::all_of(side.getUsers(), [&](mlir::Operation* user) { return ops.contains(user); })) {
      update.sideInputs.push_back(side.getDefiningOp());
    }
  }

  // Program order, and which values are computed from a weight.
  llvm::DenseSet<mlir::Value> fromWeight(update.weightArgs.begin(), update.weightArgs.end());
  for (mlir::Operation& op : body) {
    if (!ops.contains(&op)) continue;
    update.ops.push_back(&op);
    if (llvm::any_of(op.getOperands(), [&](mlir::Value v) { return fromWeight.contains(v); })) {
      fromWeight.insert(op.getResult(0));
    }
  }
  llvm::SetVector<mlir::Value> newWeights;
  for (auto [index, value] : llvm::enumerate(body.getTerminator()->getOperands())) {
    mlir::Operation* def = value.getDefiningOp();
    if (!def || !ops.contains(def)) continue;
    if (fromWeight.contains(value)) newWeights.insert(value);
    (fromWeight.contains(value) ? update.weightResults : update.stateResults)
        .push_back(static_cast<unsigned>(index));
  }
  // More values computed from the weights than there are weights: some new state reads a
  // weight too (an L2 term folded into the gradient), and which results are the state the
  // caller keeps sharded cannot be told.
  if (newWeights.size() > update.weightArgs.size()) {
    return std::to_string(newWeights.size()) + " results are computed from " +
           std::to_string(update.weightArgs.size()) +
           " weight(s), so new weights cannot be told from new optimizer state";
  }
  return update;
}

}  // namespace tessel::passes
