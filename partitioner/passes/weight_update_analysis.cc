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

// A side input: a scalar, constants, or a broadcast (of a scalar, or of a smaller value
// such as Adafactor's row and column statistics, which the partitioner broadcasts straight
// into the update's split).
bool isSideInput(mlir::Value value) {
  if (isScalar(value)) return true;
  mlir::Operation* def = value.getDefiningOp();
  return def && llvm::isa<hlo::ConstantOp, hlo::BroadcastInDimOp>(def);
}

// An op that reads the update but is not part of it: a reduce (the norms of LAMB and LARS
// trust ratios and of clipping by global norm, sums of squares), or any op whose results are
// scalars. Its input is split like the rest of the update, so the partitioner computes it
// from the shards and combines the small partial results; what it computes may come back
// into the update only as a scalar or a broadcast of one.
bool isReductionOutOfUpdate(mlir::Operation* op) {
  if (llvm::isa<hlo::ReduceOp>(op)) return true;
  return op->getNumResults() > 0 && llvm::all_of(op->getResults(), isScalar);
}

bool sameAxes(llvm::ArrayRef<ir::AxisRefAttr> a, llvm::ArrayRef<ir::AxisRefAttr> b) {
  return a.size() == b.size() && llvm::equal(a, b);
}

// The axis lists an update may be split over, from all of `axes` down: each prefix of
// `axes`, alone and followed by the major part ("x":(1)k) of the next axis when that is a
// whole axis, for every k dividing its size.
llvm::SmallVector<AxisList> splitCandidates(const AxisList& axes, ir::MeshAttr mesh) {
  llvm::SmallVector<AxisList> candidates;
  for (size_t length = axes.size() + 1; length-- > 0;) {
    AxisList prefix(axes.begin(), axes.begin() + length);
    if (!prefix.empty()) candidates.push_back(prefix);
    if (length == axes.size() || axes[length].isSubAxis()) continue;
    ir::AxisRefAttr next = axes[length];
    const int64_t size = mesh.getAxisSize(next.getName());
    for (int64_t k = size - 1; k > 1; --k) {
      if (size % k != 0) continue;
      AxisList candidate = prefix;
      candidate.push_back(ir::AxisRefAttr::get(next.getContext(), next.getName(), 1, k));
      candidates.push_back(candidate);
    }
  }
  return candidates;
}

}  // namespace

WeightUpdateOrReason analyzeWeightUpdate(mlir::Value gradient, const AxisList& axes,
                                         mlir::Block& body) {
  mlir::Operation* terminator = body.getTerminator();
  const bool loop = llvm::isa<hlo::WhileOp>(body.getParentOp());
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
    if (ops.contains(op) || op == terminator) continue;
    if (op->getBlock() != &body) {
      return "the update reaches " + describe(op) +
             ", which is nested in a region; only a function's own ops are rewritten";
    }
    if (!isElementwiseOver(op, shape)) {
      if (isReductionOutOfUpdate(op)) continue;
      return "the update feeds " + describe(op) + ", which is neither elementwise over the " +
             "gradient's shape nor a reduction";
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

  auto meshOp = mlir::SymbolTable::lookupNearestSymbolFrom<ir::MeshOp>(body.getParentOp(),
                                                                       update.meshName);
  if (!meshOp) return "the gradient's mesh is not declared";
  update.mesh = meshOp.getMesh();
  // Where to split: all of `axes` along the first dimension the gradient does not split
  // yet that divides evenly. Else as many devices as divide some free dimension evenly,
  // among the leading axes of `axes` and the major part of the next one: the gradient is
  // then reduce-scattered over those and all-reduced over the rest, which sends what the
  // all_reduce did (padding would send more). Else all of `axes` along the free dimension
  // that pads least, unevenly, padded by the partitioner, unless that pads more than a
  // quarter: the reduce_scatter and all_gather of the padded gradient would send that much
  // more than the all_reduce (a 3-wide kernel dimension over 4 devices pads by a third).
  llvm::SmallVector<int64_t> free;
  for (auto [dim, sharding] : llvm::enumerate(gradientSharding.getDimShardings())) {
    if (sharding.getAxes().empty()) free.push_back(dim);
  }
  if (free.empty()) return "every dimension of the gradient is split already";
  const int64_t groupSize = ir::getGroupSize(update.mesh, axes);
  auto padding = [&](int64_t dim) {
    const int64_t padded = (shape[dim] + groupSize - 1) / groupSize * groupSize;
    return static_cast<double>(padded - shape[dim]) / static_cast<double>(shape[dim]);
  };
  update.dim = *llvm::min_element(free, [&](int64_t a, int64_t b) { return padding(a) < padding(b); });
  update.splitAxes = axes;
  update.even = false;
  int64_t best = 1;
  for (const AxisList& candidate : splitCandidates(axes, update.mesh)) {
    const int64_t size = ir::getGroupSize(update.mesh, candidate);
    if (size <= best) continue;
    for (int64_t dim : free) {
      if (shape[dim] % size != 0) continue;
      best = size;
      update.dim = dim;
      update.splitAxes = candidate;
      update.even = true;
      break;
    }
  }
  if (!update.even && padding(update.dim) > 0.25) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "no dimension of the gradient divides by any part of the " << groupSize
       << " devices it is summed over, and splitting dimension " << update.dim
       << " would pad it by " << static_cast<int64_t>(padding(update.dim) * 100 + 0.5)
       << "%, sending that much more than the all_reduce";
    return os.str();
  }

  // Arguments: state when only the update reads them, a weight when other ops do too.
  for (mlir::Value value : args) {
    auto arg = llvm::cast<mlir::BlockArgument>(value);
    bool otherOp = false, returned = false;
    for (mlir::Operation* user : arg.getUsers()) {
      if (ops.contains(user)) continue;
      (user == terminator ? returned : otherOp) = true;
    }
    std::string name =
        (loop ? "loop-carried value " : "argument ") + std::to_string(arg.getArgNumber());
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
      if (anyOverlap(weightAxes, axes)) {
        return "weight " + name + " is split over the axes the gradient is summed over";
      }
    }
    update.weightArgs.push_back(arg);
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
  // An update must end in new optimizer state or new weights: a stateless optimizer (plain
  // SGD) still computes its new weights on shards and all-gathers them, as the paper does.
  if (update.stateArgs.empty() && (update.weightArgs.empty() || update.weightResults.empty())) {
    return "the update reads no optimizer state and returns no new weight, so there is " +
           std::string("nothing to shard");
  }
  // More values computed from the weights than there are weights: some new state reads a
  // weight too (an L2 term folded into the gradient), and which results are the state the
  // caller keeps sharded cannot be told.
  if (newWeights.size() > update.weightArgs.size()) {
    return std::to_string(newWeights.size()) + " results are computed from " +
           std::to_string(update.weightArgs.size()) +
           " weight(s), so new weights cannot be told from new optimizer state";
  }
  // A loop carries each value in one place: the carry a piece of optimizer state comes in
  // by must be the one its new value goes back by, so that it can stay split between trips.
  if (loop) {
    llvm::SmallVector<unsigned> in, out(update.stateResults);
    for (mlir::BlockArgument arg : update.stateArgs) in.push_back(arg.getArgNumber());
    llvm::sort(in);
    llvm::sort(out);
    if (in != out) {
      return std::string("the optimizer state the update reads and the new state it ") +
             "yields are not carried by the same loop-carried values";
    }
  }
  return update;
}

}  // namespace tessel::passes
