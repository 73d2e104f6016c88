// --tessel-partition: walks each function's ops in order (and, through the control-flow
// handlers, the ops of their regions), hands each to a special handler, the rule-driven
// path or the fallback, gives arguments and results their local types, and erases the
// global ops once every use has its local replacement.
#include <cassert>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/sharding_rule_interface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "partitioner/ir/inline_calls.h"
#include "partitioner/ir/ir_counts.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/spmd/partition.h"
#include "partitioner/spmd/collective_reassociation.h"
#include "partitioner/spmd/loop_accumulators.h"
#include "partitioner/spmd/loop_invariant_hoisting.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/passes.h"
#include "partitioner/spmd/random_choices.h"

namespace tessel::spmd {

#define GEN_PASS_DEF_PARTITIONPASS
#include "partitioner/spmd/passes.h.inc"

llvm::ArrayRef<int64_t> shapeOf(mlir::Type type) {
  return llvm::cast<mlir::RankedTensorType>(type).getShape();
}

Layout PartitionState::layoutOf(ir::ShardingAttr sharding, int64_t rank) {
  if (!sharding) return Layout::replicated(nullptr, nullptr, rank);
  auto [it, inserted] = meshes_.try_emplace(sharding.getMeshName());
  if (inserted) {
    it->second =
        symbols_.lookupNearestSymbolFrom<ir::MeshOp>(func_, sharding.getMeshName()).getMesh();
  }
  return Layout::fromSharding(sharding, it->second, rank);
}

Layout PartitionState::annotatedLayout(mlir::OpResult result) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
  int64_t rank = type ? type.getRank() : 0;
  // A dialect attribute: no op has it inherent, so the op's own attributes need no asking.
  auto shardings = llvm::dyn_cast_or_null<ir::ShardingPerValueAttr>(
      result.getOwner()->getDiscardableAttr(shardingAttrName_));
  if (!shardings || shardings.getShardings().size() <= result.getResultNumber()) {
    return Layout::replicated(nullptr, nullptr, rank);
  }
  return layoutOf(shardings.getShardings()[result.getResultNumber()], rank);
}

mlir::Operation* PartitionState::copyUnannotated(mlir::Operation* op,
                                                 mlir::ValueRange operands) {
  assert(op->getNumRegions() == 0 && "ops with regions are cloned");
  // The attributes the op stores itself, as a clone takes them: the discardable ones
  // where the op keeps its inherent ones as properties, all of them where it has none.
  mlir::NamedAttrList attrs(op->getRawDictionaryAttrs());
  attrs.erase(shardingAttrName_);
  mlir::Operation* copy = mlir::Operation::create(
      op->getLoc(), op->getName(), op->getResultTypes(), operands,
      attrs.getDictionary(op->getContext()), op->getPropertiesStorage(), op->getSuccessors(),
      /*numRegions=*/0);
  return builder_.builder().insert(copy);
}

const rules::OpShardingRule* PartitionState::ruleOf(mlir::Operation* op,
                                                    rules::ShardingRuleOrNone& scratch) {
  const bool keyed = rules::ruleKeyOf(op, ruleKey_);
  const rules::ShardingRuleOrNone* answer = keyed ? rulesByKey_.find(ruleKey_) : nullptr;
  if (!answer) {
    scratch = rules::getShardingRuleOf(op, rules::ShardingRuleOptions());
    answer = keyed ? &rulesByKey_.insert(ruleKey_, std::move(scratch)) : &scratch;
  }
  return std::get_if<rules::OpShardingRule>(answer);
}

mlir::FailureOr<mlir::Value> PartitionState::localAs(mlir::Value global, const Layout& to,
                                                     mlir::Location loc) {
  const LocalValue& local = this->local(global);
  return builder_.reshard(local.value, local.layout, to, local.shape, loc);
}

namespace {

bool isSourceOp(mlir::Operation* op) { return llvm::isa<hlo::ConstantOp, hlo::IotaOp>(op); }

// `op` by its sharding rule where it has one and the rule path takes it, else by
// replication (with a remark where `remark`).
mlir::LogicalResult partitionByRuleOrReplication(mlir::Operation* op, PartitionState& state,
                                                 bool remark) {
  rules::ShardingRuleOrNone scratch;
  if (const rules::OpShardingRule* factors = state.ruleOf(op, scratch)) {
    mlir::FailureOr<bool> done = partitionByRule(op, *factors, state);
    if (mlir::failed(done)) return mlir::failure();
    if (*done) return mlir::success();
  }
  return partitionByReplication(op, state, remark);
}

mlir::LogicalResult partitionOp(mlir::Operation* op, PartitionState& state) {
  for (mlir::Value operand : op->getOperands()) {
    if (!state.has(operand)) return op->emitError() << "operand is not a partitioned value";
  }
  if (llvm::isa<mlir::func::CallOp>(op)) {
    return op->emitError() << "'" << op->getName() << "' cannot be partitioned yet";
  }
  if (llvm::isa<ir::AllGatherOp, ir::AllReduceOp, ir::ReduceScatterOp, ir::AllToAllOp,
                ir::CollectivePermuteOp, ir::PartitionIdOp>(op)) {
    // These speak of devices; in a global program they have no single-device meaning, while
    // in a manual computation's body they are per-device code. Along the axes left to
    // automatic partitioning their rules hold (a dimension they do not exchange may stay
    // split: every member of a group along the manual axes holds the same automatic
    // shard), else they run on whole values.
    if (state.inManualCode()) return partitionByRuleOrReplication(op, state, /*remark=*/false);
    return op->emitError() << "'" << op->getName()
                           << "' is only meaningful in per-device code";
  }
  // Propagation has read the group; the values already have their (equal) layouts.
  if (llvm::isa<ir::ShardingGroupOp>(op)) return mlir::success();
  if (llvm::isa<hlo::WhileOp>(op)) return partitionWhile(op, state);
  if (llvm::isa<hlo::CaseOp>(op)) return partitionCase(op, state);
  if (llvm::isa<ir::ManualComputationOp>(op)) return partitionManualComputation(op, state);
  if (llvm::isa<ir::ShardingConstraintOp, ir::ReshardOp>(op)) {
    // The op's sharding is the layout its result must have; the reshard moves the data.
    mlir::OpResult result = op->getResult(0);
    auto attr = op->getAttrOfType<ir::ShardingAttr>("sharding");
    Layout to = op->getAttr(ir::TesselDialect::kShardingAttrName)
                    ? state.annotatedLayout(result)
                    : state.layoutOf(attr, shapeOf(result.getType()).size());
    mlir::FailureOr<mlir::Value> local = state.localAs(op->getOperand(0), to, op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    state.define(result, *local, to, shapeOf(result.getType()));
    return mlir::success();
  }
  mlir::FailureOr<bool> handled = partitionBySpecialHandler(op, state);
  if (mlir::failed(handled)) return mlir::failure();
  if (*handled) return mlir::success();
  if (isSourceOp(op)) return partitionByReplication(op, state, /*remark=*/false);
  return partitionByRuleOrReplication(op, state, /*remark=*/true);
}

}  // namespace

namespace {

// Regions of the local ops from `first` up to the builder's insertion point that still read
// global values from outside them (a reducer reading a scalar of the function, say; every
// handler clones such regions as they are) read those values' local, replicated form
// instead, made just before the op that holds the region.
mlir::LogicalResult localizeCapturedValues(mlir::Block::iterator first, PartitionState& state) {
  mlir::OpBuilder& builder = state.spmd().builder();
  mlir::OpBuilder::InsertPoint end = builder.saveInsertionPoint();
  for (auto it = first; it != end.getPoint(); ++it) {
    mlir::Operation& local = *it;
    for (mlir::Region& region : local.getRegions()) {
      llvm::SetVector<mlir::Value> captured;
      mlir::getUsedValuesDefinedAbove(region, captured);
      for (mlir::Value global : captured) {
        if (!state.has(global)) continue;  // a local value already
        const Layout& layout = state.local(global).layout;
        builder.setInsertionPoint(&local);
        mlir::FailureOr<mlir::Value> whole = state.localAs(
            global, Layout::replicated(layout.mesh, layout.meshName, layout.rank()),
            local.getLoc());
        builder.restoreInsertionPoint(end);
        if (mlir::failed(whole)) return mlir::failure();
        mlir::replaceAllUsesInRegionWith(global, *whole, region);
      }
    }
  }
  return mlir::success();
}

}  // namespace

mlir::LogicalResult partitionOps(mlir::Block& block, PartitionState& state) {
  mlir::OpBuilder& builder = state.spmd().builder();
  for (mlir::Operation& op : block.without_terminator()) {
    // The local ops of `op` go after what the builder has made so far.
    mlir::Block* localBlock = builder.getInsertionBlock();
    mlir::Block::iterator point = builder.getInsertionPoint();
    const bool atStart = point == localBlock->begin();
    mlir::Block::iterator last = atStart ? point : std::prev(point);
    if (mlir::failed(partitionOp(&op, state))) return mlir::failure();
    if (op.getNumRegions() == 0) continue;
    mlir::Block::iterator first = atStart ? localBlock->begin() : std::next(last);
    if (mlir::failed(localizeCapturedValues(first, state))) return mlir::failure();
  }
  return mlir::success();
}

namespace {

// Marks the local op that computes each global op result of `global` (the function's own
// block, not nested bodies, whose values are per-iteration or per-branch) with the
// result's global type and sharding. A local value that stands for several global ones
// (an op partitioned to nothing) keeps the first.
void recordGlobalLayouts(mlir::Block& global, mlir::Block* localBlock,
                         const PartitionState& state) {
  mlir::MLIRContext* context = localBlock->getParent()->getContext();
  for (mlir::Operation& op : global) {
    for (mlir::OpResult result : op.getResults()) {
      if (!state.has(result)) continue;
      const LocalValue& local = state.local(result);
      auto owner = llvm::dyn_cast<mlir::OpResult>(local.value);
      if (!owner || owner.getOwner()->getBlock() != localBlock || !local.layout.mesh) continue;
      if (!llvm::isa<mlir::RankedTensorType>(result.getType())) continue;
      ir::RecordGlobalLayout(owner, result.getType(), local.layout.toSharding(context));
    }
  }
}

mlir::LogicalResult partitionFunction(mlir::func::FuncOp func,
                                      mlir::SymbolTableCollection& symbols,
                                      const PartitionOptions& options) {
  if (func.isExternal()) return mlir::success();
  if (!func.getBody().hasOneBlock()) {
    return func.emitError() << "cannot partition a function of several blocks";
  }
  mlir::Block& block = func.getBody().front();
  mlir::MLIRContext* context = func.getContext();
  // The local body is built in a new block beside the global one, which stays intact (so
  // sharding rules still see global types) until it is dropped at the end.
  auto* localBlock = new mlir::Block();
  func.getBody().push_back(localBlock);
  PartitionState state(func, localBlock, symbols, options);
  state.reserve(ir::countOpsAndValues(func).values);
  llvm::SmallVector<mlir::Type> argTypes;
  for (mlir::BlockArgument arg : block.getArguments()) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(arg.getType());
    if (!type || !type.hasStaticShape()) {
      localBlock->erase();
      return func.emitError() << "cannot partition argument " << arg.getArgNumber()
                              << " of type " << arg.getType();
    }
    Layout layout = state.layoutOf(
        func.getArgAttrOfType<ir::ShardingAttr>(arg.getArgNumber(),
                                                ir::TesselDialect::kShardingAttrName),
        type.getRank());
    auto localType =
        mlir::RankedTensorType::get(layout.localShape(type.getShape()), type.getElementType());
    mlir::Value local = localBlock->addArgument(localType, arg.getLoc());
    state.define(arg, local, layout, type.getShape());
    argTypes.push_back(localType);
  }
  auto fail = [&] {
    localBlock->dropAllDefinedValueUses();
    localBlock->erase();
    return mlir::failure();
  };
  if (mlir::failed(partitionOps(block, state))) return fail();
  if (options.recordGlobalLayouts) recordGlobalLayouts(block, localBlock, state);
  mlir::Operation* terminator = block.getTerminator();
  llvm::SmallVector<mlir::Value> results;
  llvm::SmallVector<mlir::Type> resultTypes;
  for (auto [index, operand] : llvm::enumerate(terminator->getOperands())) {
    if (!state.has(operand)) {
      terminator->emitError() << "cannot partition result " << index;
      return fail();
    }
    Layout layout = state.layoutOf(
        func.getResultAttrOfType<ir::ShardingAttr>(index, ir::TesselDialect::kShardingAttrName),
        state.local(operand).shape.size());
    mlir::FailureOr<mlir::Value> local = state.localAs(operand, layout, terminator->getLoc());
    if (mlir::failed(local)) return fail();
    results.push_back(*local);
    resultTypes.push_back(local->getType());
  }
  state.spmd().builder().create<mlir::func::ReturnOp>(terminator->getLoc(), results);
  block.dropAllDefinedValueUses();
  block.erase();
  func.setFunctionType(mlir::FunctionType::get(context, argTypes, resultTypes));
  return mlir::success();
}

struct PartitionPass : impl::PartitionPassBase<PartitionPass> {
  using PartitionPassBase::PartitionPassBase;

  void runOnOperation() override {
    PartitionOptions options;
    options.replicationIsError = replicationIsError;
    options.strategyRemarks = strategyRemarks;
    if (mlir::failed(partitionModule(getOperation(), options))) signalPassFailure();
  }
};

// Replaces every collective over one-device groups (a mesh axis of size 1) by its operand,
// through the ops' folders, so a program on one device holds no collectives.
void foldSingleDeviceCollectives(mlir::func::FuncOp func) {
  llvm::SmallVector<mlir::Operation*> collectives;
  func.walk([&](mlir::Operation* op) {
    if (llvm::isa<ir::AllGatherOp, ir::AllReduceOp, ir::ReduceScatterOp, ir::AllToAllOp,
                  ir::CollectivePermuteOp>(op)) {
      collectives.push_back(op);
    }
  });
  for (mlir::Operation* op : collectives) {
    llvm::SmallVector<mlir::OpFoldResult> folded;
    if (mlir::failed(op->fold(folded)) || folded.size() != 1) continue;
    auto value = llvm::dyn_cast<mlir::Value>(folded.front());
    if (!value) continue;
    op->getResult(0).replaceAllUsesWith(value);
    op->erase();
  }
}

// Removes the ops whose results nothing uses (offsets or masks a plan built but did not
// need), last first so that chains of them go too. The list is in pre-order, so reversed
// it visits the ops of a region before the op that holds them: erasing a dead while or case
// frees its body, which must not be visited after that.
void eraseDeadOps(mlir::func::FuncOp func) {
  llvm::SmallVector<mlir::Operation*> ops;
  func.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) { ops.push_back(op); });
  for (mlir::Operation* op : llvm::reverse(ops)) {
    if (op != func && mlir::isOpTriviallyDead(op)) op->erase();
  }
}

}  // namespace

mlir::LogicalResult partitionModule(mlir::ModuleOp module, const PartitionOptions& options) {
  if (module.getOps<ir::MeshOp>().empty()) return mlir::success();
  std::optional<ScopedRandomChoices> random;
  if (options.randomChoiceSeed) random.emplace(*options.randomChoiceSeed);
  rules::ensureShardingRuleModels(module.getContext());
  if (mlir::failed(ir::inlineCalls(module))) return mlir::failure();
  mlir::SymbolTableCollection symbols;
  for (auto func : llvm::to_vector(module.getOps<mlir::func::FuncOp>())) {
    keepLoopAccumulatorsUnreduced(func);
    if (mlir::failed(partitionFunction(func, symbols, options))) return mlir::failure();
    foldSingleDeviceCollectives(func);
    eraseDeadOps(func);
    reassociateReductions(func);
    hoistInvariantCode(func);
  }
  return mlir::success();
}

}  // namespace tessel::spmd
