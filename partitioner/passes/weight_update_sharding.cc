// The rewrite half of weight-update sharding (weight_update_sharding.h): for every update
// weight_update_analysis.h finds, new shardings on its gradients, ops, optimizer state and
// state results, and a tessel.reshard where each gradient is split.
#include "partitioner/passes/weight_update_sharding.h"

#include <string>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/passes/weight_update_analysis.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::passes {
namespace {

std::string printAxes(llvm::ArrayRef<ir::AxisRefAttr> axes) {
  std::string text = "{";
  for (auto [i, axis] : llvm::enumerate(axes)) {
    text += (i ? ", " : "") + ir::axisRefToString(axis);
  }
  return text + "}";
}

ir::ShardingPerValueAttr perValue(ir::ShardingAttr sharding) {
  return ir::ShardingPerValueAttr::get(sharding.getContext(), {sharding});
}

// Rewrites the shardings of `update` (see the file comment of weight_update_sharding.h).
void shardUpdate(const WeightUpdate& update, mlir::func::FuncOp func) {
  mlir::MLIRContext* context = func.getContext();
  ir::ShardingAttr gradientSharding = shardingOf(update.gradients.front());
  // Every value of the update: the gradient's dimensions, with the summed-over axes
  // splitting `update.dim`.
  llvm::SmallVector<ir::DimShardingAttr> dims(gradientSharding.getDimShardings());
  dims[update.dim] = ir::DimShardingAttr::get(context, update.axes, /*is_closed=*/true,
                                              /*priority=*/std::nullopt);
  auto split = ir::ShardingAttr::get(context, update.meshName, dims);

  llvm::SmallPtrSet<mlir::Operation*, 16> ops(update.ops.begin(), update.ops.end());
  mlir::OpBuilder builder(context);
  for (mlir::Value gradient : update.gradients) {
    // The dot leaves its partial sums unreduced; one reshard per gradient then reduces and
    // splits them at once (a reduce_scatter), however many update ops read the gradient.
    ir::ShardingAttr sharding = shardingOf(gradient);
    auto unreduced = ir::ShardingAttr::get(context, sharding.getMeshName(),
                                           sharding.getDimShardings(),
                                           sharding.getReplicatedAxes(), update.axes);
    mlir::Operation* dot = gradient.getDefiningOp();
    dot->setAttr(ir::TesselDialect::kShardingAttrName, perValue(unreduced));
    builder.setInsertionPointAfter(dot);
    auto reshard = builder.create<ir::ReshardOp>(dot->getLoc(), gradient.getType(), gradient, split);
    reshard->setAttr(ir::TesselDialect::kShardingAttrName, perValue(split));
    gradient.replaceUsesWithIf(reshard.getResult(), [&](mlir::OpOperand& use) {
      return ops.contains(use.getOwner());
    });
  }
  for (mlir::Operation* op : update.ops) {
    op->setAttr(ir::TesselDialect::kShardingAttrName, perValue(split));
  }
  for (mlir::Operation* op : update.sideInputs) {
    op->setAttr(ir::TesselDialect::kShardingAttrName, perValue(split));
  }
  for (mlir::BlockArgument arg : update.stateArgs) {
    func.setArgAttr(arg.getArgNumber(), ir::TesselDialect::kShardingAttrName, split);
  }
  for (unsigned index : update.stateResults) {
    func.setResultAttr(index, ir::TesselDialect::kShardingAttrName, split);
  }
}

std::string summary(const WeightUpdate& update) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto list = [&](llvm::StringRef what, auto numbers) {
    os << ", " << what << " [";
    for (auto [i, n] : llvm::enumerate(numbers)) os << (i ? ", " : "") << n;
    os << "]";
  };
  os << "weight-update sharding splits the update of this gradient over "
     << printAxes(update.axes) << " along dimension " << update.dim
     << (update.even ? "" : " (uneven, padded)") << ": " << update.ops.size() << " ops";
  llvm::SmallVector<unsigned> state, weights;
  for (mlir::BlockArgument arg : update.stateArgs) state.push_back(arg.getArgNumber());
  for (mlir::BlockArgument arg : update.weightArgs) weights.push_back(arg.getArgNumber());
  list("state arguments", state);
  list("weight arguments", weights);
  list("state results", update.stateResults);
  list("weight results", update.weightResults);
  return os.str();
}

// Frontends emit a weight gradient as a dot_general whose result is [out, in] followed by a
// transpose to the weight's [in, out] (JAX's transpose rule for the forward matmul). When a
// transpose only swaps the two operands' free dimensions of a dot it alone reads, it is the
// dot with its operands swapped: one op the analysis sees as the gradient. The new dot takes
// the transpose's place and sharding. Returns how many were folded.
int64_t foldTransposedDots(mlir::func::FuncOp func) {
  llvm::SmallVector<hlo::TransposeOp> transposes(
      func.getBody().front().getOps<hlo::TransposeOp>());
  int64_t folded = 0;
  for (hlo::TransposeOp transpose : transposes) {
    auto dot = transpose.getOperand().getDefiningOp<hlo::DotGeneralOp>();
    if (!dot || !dot->hasOneUse()) continue;
    hlo::DotDimensionNumbersAttr dims = dot.getDotDimensionNumbers();
    auto lhsType = llvm::cast<mlir::RankedTensorType>(dot.getLhs().getType());
    auto rhsType = llvm::cast<mlir::RankedTensorType>(dot.getRhs().getType());
    const int64_t batch = dims.getLhsBatch().size();
    const int64_t lhsFree = lhsType.getRank() - batch - dims.getLhsContract().size();
    const int64_t rhsFree = rhsType.getRank() - batch - dims.getRhsContract().size();
    // The result of the swapped dot is [batch, rhs free, lhs free].
    llvm::SmallVector<int64_t> swapped;
    for (int64_t i = 0; i < batch; ++i) swapped.push_back(i);
    for (int64_t i = 0; i < rhsFree; ++i) swapped.push_back(batch + lhsFree + i);
    for (int64_t i = 0; i < lhsFree; ++i) swapped.push_back(batch + i);
    if (llvm::ArrayRef<int64_t>(transpose.getPermutation()) != llvm::ArrayRef(swapped)) continue;
    mlir::OpBuilder builder(transpose);
    auto swappedDims = hlo::DotDimensionNumbersAttr::get(
        func.getContext(), dims.getRhsBatch(), dims.getLhsBatch(), dims.getRhsContract(),
        dims.getLhsContract());
    auto replacement = builder.create<hlo::DotGeneralOp>(
        dot.getLoc(), transpose.getType(), dot.getRhs(), dot.getLhs(), swappedDims);
    if (mlir::Attribute sharding = transpose->getAttr(ir::TesselDialect::kShardingAttrName)) {
      replacement->setAttr(ir::TesselDialect::kShardingAttrName, sharding);
    }
    transpose.getResult().replaceAllUsesWith(replacement.getResult());
    transpose.erase();
    dot.erase();
    ++folded;
  }
  return folded;
}

// JAX's backward pass of a broadcast bias emits its gradient as a sum over the batch, a
// reshape adding a size-1 dimension, and a sum over that size-1 dimension. The last two undo
// each other: the second sum is folded away, so the update reads the batch sum directly.
// Returns how many were folded.
int64_t foldTrivialSums(mlir::func::FuncOp func) {
  llvm::SmallVector<hlo::ReduceOp> reduces(func.getBody().front().getOps<hlo::ReduceOp>());
  int64_t folded = 0;
  for (hlo::ReduceOp reduce : reduces) {
    if (!isZeroInitSum(reduce)) continue;
    auto reshape = reduce.getInputs()[0].getDefiningOp<hlo::ReshapeOp>();
    if (!reshape || reshape.getOperand().getType() != reduce->getResult(0).getType()) continue;
    auto inputType = llvm::cast<mlir::RankedTensorType>(reshape.getType());
    if (llvm::any_of(reduce.getDimensions(),
                     [&](int64_t d) { return inputType.getDimSize(d) != 1; })) {
      continue;
    }
    // A sum with init zero over size-1 dimensions is its input.
    reduce->getResult(0).replaceAllUsesWith(reshape.getOperand());
    reduce.erase();
    if (reshape->use_empty()) reshape.erase();
    ++folded;
  }
  return folded;
}

int64_t shardFunction(mlir::func::FuncOp func, const WeightUpdateShardingOptions& options) {
  foldTransposedDots(func);
  foldTrivialSums(func);
  mlir::Block& body = func.getBody().front();
  // Gradients come from dots (weights) and from sums over the batch (biases).
  llvm::SmallVector<mlir::Operation*> producers;
  for (mlir::Operation& op : body) {
    if (llvm::isa<hlo::DotGeneralOp, hlo::ReduceOp>(op)) producers.push_back(&op);
  }
  llvm::DenseSet<mlir::Value> done;
  int64_t sharded = 0;
  for (mlir::Operation* dot : producers) {
    mlir::Value gradient = dot->getResult(0);
    if (done.contains(gradient)) continue;
    AxisList axes = llvm::isa<hlo::ReduceOp>(dot)
                        ? partialSumAxes(llvm::cast<hlo::ReduceOp>(dot))
                        : partialSumAxes(llvm::cast<hlo::DotGeneralOp>(dot));
    if (axes.empty() || llvm::cast<mlir::RankedTensorType>(gradient.getType()).getRank() == 0) {
      continue;
    }
    // Only the gradient of some argument's shape can update a weight or optimizer state;
    // other partial sums (a model-parallel forward pass) are none of this pass's business.
    if (llvm::none_of(func.getArgumentTypes(),
                      [&](mlir::Type type) { return type == gradient.getType(); })) {
      continue;
    }
    WeightUpdateOrReason found = analyzeWeightUpdate(gradient, axes, func);
    if (const auto* reason = std::get_if<std::string>(&found)) {
      dot->emitRemark() << "weight-update sharding leaves the update of this gradient alone: "
                        << *reason;
      continue;
    }
    const WeightUpdate& update = std::get<WeightUpdate>(found);
    if (options.verbose) dot->emitRemark() << summary(update);
    shardUpdate(update, func);
    done.insert(update.gradients.begin(), update.gradients.end());
    ++sharded;
  }
  return sharded;
}

}  // namespace

int64_t shardWeightUpdates(mlir::ModuleOp module, const WeightUpdateShardingOptions& options) {
  rules::ensureShardingRuleModels(module.getContext());
  int64_t sharded = 0;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (func.isDeclaration() || !func.getBody().hasOneBlock()) continue;
    sharded += shardFunction(func, options);
  }
  return sharded;
}

}  // namespace tessel::passes
