// The rewrite half of weight-update sharding (weight_update_sharding.h): for every update
// weight_update_analysis.h finds, new shardings on its gradients, ops, optimizer state and
// state results, and a tessel.reshard where each gradient is split.
#include "partitioner/passes/weight_update_sharding.h"

#include <string>

#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Diagnostics.h"
#include "partitioner/ir/inline_calls.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/passes/weight_update_analysis.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/spmd/loop_accumulators.h"
#include "partitioner/spmd/partial_sums.h"

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
// `chain`: the ops between a partial-sum producer and the gradient that are linear in it
// (a reshape to the weight's shape, ...), producer first; they stay partial sums too.
void shardUpdate(const WeightUpdate& update, mlir::Block& body,
                 llvm::ArrayRef<mlir::Operation*> chain) {
  for (mlir::Operation* op : chain) {
    mlir::OpResult result = op->getResult(0);
    spmd::setShardingOf(result, spmd::withUnreduced(shardingOf(result), update.axes));
  }
  mlir::MLIRContext* context = body.getParentOp()->getContext();
  ir::ShardingAttr gradientSharding = shardingOf(update.gradients.front());
  // Every value of the update: the gradient's dimensions, with the split axes (all or part
  // of the summed-over axes) splitting `update.dim`.
  llvm::SmallVector<ir::DimShardingAttr> dims(gradientSharding.getDimShardings());
  dims[update.dim] = ir::DimShardingAttr::get(context, update.splitAxes, /*is_closed=*/true,
                                              /*priority=*/std::nullopt);
  auto split = ir::ShardingAttr::get(context, update.meshName, dims);

  llvm::SmallPtrSet<mlir::Operation*, 16> ops(update.ops.begin(), update.ops.end());
  mlir::OpBuilder builder(context);
  for (mlir::Value gradient : update.gradients) {
    // The producer leaves its partial sums unreduced; one reshard per gradient then reduces
    // and splits them at once (a reduce_scatter), however many update ops read the gradient.
    auto result = llvm::cast<mlir::OpResult>(gradient);
    spmd::setShardingOf(result, spmd::withUnreduced(shardingOf(gradient), update.axes));
    mlir::Operation* producer = result.getOwner();
    builder.setInsertionPointAfter(producer);
    auto reshard = builder.create<ir::ReshardOp>(producer->getLoc(), gradient.getType(), gradient,
                                                 split);
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
  if (auto func = llvm::dyn_cast<mlir::func::FuncOp>(body.getParentOp())) {
    for (mlir::BlockArgument arg : update.stateArgs) {
      func.setArgAttr(arg.getArgNumber(), ir::TesselDialect::kShardingAttrName, split);
    }
    for (unsigned index : update.stateResults) {
      func.setResultAttr(index, ir::TesselDialect::kShardingAttrName, split);
    }
    return;
  }
  // A training loop: the state's carries (the same ones in and out) stay split between
  // trips. Where the loop takes the state straight from an argument of its function that
  // nothing else reads, and the function returns it straight, those are split too, so the
  // state is never gathered.
  auto loop = llvm::cast<hlo::WhileOp>(body.getParentOp());
  auto func = loop->getParentOfType<mlir::func::FuncOp>();
  for (unsigned index : update.stateResults) {
    spmd::setShardingOf(loop->getResult(index), split);
    auto arg = llvm::dyn_cast<mlir::BlockArgument>(loop->getOperand(index));
    mlir::OpResult result = loop->getResult(index);
    if (!arg || arg.getOwner() != &func.getBody().front() || !arg.hasOneUse() ||
        !result.hasOneUse() ||
        !llvm::isa<mlir::func::ReturnOp>(*result.getUsers().begin())) {
      continue;
    }
    func.setArgAttr(arg.getArgNumber(), ir::TesselDialect::kShardingAttrName, split);
    for (mlir::OpOperand& use : result.getUses()) {
      func.setResultAttr(use.getOperandNumber(), ir::TesselDialect::kShardingAttrName, split);
    }
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
     << printAxes(update.splitAxes) << " along dimension " << update.dim
     << (update.even ? "" : " (uneven, padded)");
  if (update.splitAxes != update.axes) {
    os << " (the gradient sums over " << printAxes(update.axes) << "; the rest is all-reduced)";
  }
  os << ": " << update.ops.size() << " ops";
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
  llvm::SmallVector<hlo::TransposeOp> transposes;
  func.walk([&](hlo::TransposeOp transpose) { transposes.push_back(transpose); });
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
  llvm::SmallVector<hlo::ReduceOp> reduces;
  func.walk([&](hlo::ReduceOp reduce) { reduces.push_back(reduce); });
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

// Whether no dimension of `value` (nor its unreduced axes) uses any of `axes`.
bool isReplicatedOver(mlir::Value value, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  ir::ShardingAttr sharding = shardingOf(value);
  if (!sharding) return true;
  AxisList used(sharding.getUnreducedAxes().begin(), sharding.getUnreducedAxes().end());
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    used.append(dim.getAxes().begin(), dim.getAxes().end());
  }
  return !anyOverlap(used, axes);
}

// Whether some dimension of `value` is split over one of `axes`: then it cannot also be a
// partial sum over them.
bool splitsOver(mlir::Value value, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  ir::ShardingAttr sharding = shardingOf(value);
  if (!sharding) return false;
  return llvm::any_of(sharding.getDimShardings(), [&](ir::DimShardingAttr dim) {
    return anyOverlap(dim.getAxes(), axes);
  });
}

// Why a dot or convolution gradient summed over `axes` is better computed whole: its
// operands split over those axes hold fewer bytes than the gradient's all_reduce sends
// (ring: twice the gradient), so the partitioner's strategy choice gathers them and
// computes the gradient on every device, sending less than the reduce_scatter and
// all_gather of the update would (small batches, large weights). Nullopt otherwise.
std::optional<std::string> cheaperToGather(mlir::Value gradient, const AxisList& axes) {
  mlir::Operation* producer = gradient.getDefiningOp();
  if (!llvm::isa_and_nonnull<hlo::DotGeneralOp, hlo::ConvolutionOp>(producer)) return std::nullopt;
  double gathered = 0;
  for (mlir::Value operand : producer->getOperands()) {
    ir::ShardingAttr sharding = shardingOf(operand);
    if (!sharding) continue;
    for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
      if (anyOverlap(dim.getAxes(), axes)) {
        gathered += static_cast<double>(cost_model::TensorBytes(operand.getType()));
        break;
      }
    }
  }
  const double reduced = 2.0 * static_cast<double>(cost_model::TensorBytes(gradient.getType()));
  if (gathered == 0 || gathered >= reduced) return std::nullopt;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "its split operands (" << static_cast<int64_t>(gathered)
     << " bytes) are cheaper to gather than the gradient is to reduce ("
     << static_cast<int64_t>(reduced) << " bytes), so it is computed whole";
  return os.str();
}

// Shards the updates of the gradients computed in `body`: a function's, or a while loop's
// whose trips are training steps.
int64_t shardBlock(mlir::Block& body, const WeightUpdateShardingOptions& options) {
  // Gradients come from dots (weights), convolutions (kernels), sums over the batch
  // (biases), and loops that accumulate any of them (their results are unreduced already).
  llvm::SmallVector<std::pair<mlir::Value, AxisList>> gradients;
  for (mlir::Operation& op : body) {
    if (auto dot = llvm::dyn_cast<hlo::DotGeneralOp>(op)) {
      gradients.push_back({dot->getResult(0), partialSumAxes(dot)});
    } else if (auto conv = llvm::dyn_cast<hlo::ConvolutionOp>(op)) {
      gradients.push_back({conv->getResult(0), partialSumAxes(conv)});
    } else if (auto reduce = llvm::dyn_cast<hlo::ReduceOp>(op)) {
      gradients.push_back({reduce->getResult(0), partialSumAxes(reduce)});
    } else if (llvm::isa<hlo::WhileOp>(op)) {
      for (mlir::Value result : op.getResults()) {
        ir::ShardingAttr sharding = shardingOf(result);
        if (!sharding || sharding.getUnreducedAxes().empty()) continue;
        gradients.push_back({result, AxisList(sharding.getUnreducedAxes().begin(),
                                              sharding.getUnreducedAxes().end())});
      }
    }
  }
  llvm::DenseSet<mlir::Value> done;
  int64_t sharded = 0;
  for (auto& entry : gradients) {
    // Not a structured binding: C++17 lambdas cannot capture those, and clang says so.
    mlir::Value gradient = entry.first;
    auto& axes = entry.second;
    if (done.contains(gradient)) continue;
    if (axes.empty() || llvm::cast<mlir::RankedTensorType>(gradient.getType()).getRank() == 0) {
      continue;
    }
    // Only the gradient of a weight, a block argument of its shape replicated over the axes
    // it is summed over, can update a weight or optimizer state; other partial sums (a
    // model-parallel forward pass) are none of this pass's business. A partial sum of
    // another shape may reach the weight's through ops linear in it that only it feeds (a
    // reshape, a transpose, a convert): the last of those is the gradient.
    auto isWeightShaped = [&](mlir::Value value) {
      return llvm::any_of(body.getArguments(), [&](mlir::BlockArgument arg) {
        return arg.getType() == value.getType() && isReplicatedOver(arg, axes);
      });
    };
    llvm::SmallVector<mlir::Operation*> chain;
    while (!isWeightShaped(gradient) && gradient.hasOneUse()) {
      mlir::Operation* user = *gradient.getUsers().begin();
      if (user->getBlock() != &body || user->getNumResults() != 1 ||
          spmd::linearOperandOf(user) != gradient) {
        break;
      }
      chain.push_back(gradient.getDefiningOp());
      gradient = user->getResult(0);
    }
    if (!isWeightShaped(gradient)) continue;
    // Propagation may already have split the gradient, or a value on its way to the weight's
    // shape, over the axes it is summed over (an output pinned so): those values are reduced
    // before they are split, so they cannot stay partial sums.
    if (splitsOver(gradient, axes) || llvm::any_of(chain, [&](mlir::Operation* op) {
          return splitsOver(op->getResult(0), axes);
        })) {
      gradient.getDefiningOp()->emitRemark()
          << "weight-update sharding leaves the update of this gradient alone: it is already "
             "split over "
          << printAxes(axes) << ", the axes it is summed over";
      continue;
    }
    if (std::optional<std::string> reason = cheaperToGather(gradient, axes)) {
      gradient.getDefiningOp()->emitRemark()
          << "weight-update sharding leaves the update of this gradient alone: " << *reason;
      continue;
    }
    WeightUpdateOrReason found = analyzeWeightUpdate(gradient, axes, body);
    if (const auto* reason = std::get_if<std::string>(&found)) {
      gradient.getDefiningOp()->emitRemark()
          << "weight-update sharding leaves the update of this gradient alone: " << *reason;
      continue;
    }
    const WeightUpdate& update = std::get<WeightUpdate>(found);
    if (options.verbose) gradient.getDefiningOp()->emitRemark() << summary(update);
    shardUpdate(update, body, chain);
    done.insert(update.gradients.begin(), update.gradients.end());
    ++sharded;
  }
  return sharded;
}

int64_t shardFunction(mlir::func::FuncOp func, const WeightUpdateShardingOptions& options) {
  foldTransposedDots(func);
  foldTrivialSums(func);
  // Gradients summed over microbatches in a loop stay partial sums through it.
  spmd::keepLoopAccumulatorsUnreduced(func);
  int64_t sharded = shardBlock(func.getBody().front(), options);
  // Training loops: a while whose body computes gradients and updates what it carries.
  llvm::SmallVector<hlo::WhileOp> loops;
  func.walk([&](hlo::WhileOp loop) { loops.push_back(loop); });
  for (hlo::WhileOp loop : loops) sharded += shardBlock(loop.getBody().front(), options);
  return sharded;
}

}  // namespace

int64_t shardWeightUpdates(mlir::ModuleOp module, const WeightUpdateShardingOptions& options) {
  rules::ensureShardingRuleModels(module.getContext());
  // Optimizers call helpers (optax's norms); the update is found in one function body. A
  // module that cannot be inlined (recursion) is left alone here: the partitioner inlines
  // first too and reports it, once.
  {
    mlir::ScopedDiagnosticHandler quiet(module.getContext(),
                                        [](mlir::Diagnostic&) { return mlir::success(); });
    if (mlir::failed(ir::inlineCalls(module))) return 0;
  }
  int64_t sharded = 0;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (func.isDeclaration() || !func.getBody().hasOneBlock()) continue;
    sharded += shardFunction(func, options);
  }
  return sharded;
}

}  // namespace tessel::passes
