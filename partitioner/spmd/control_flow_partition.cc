// hlo.while and hlo.case partitioned in place: the local op gets local types, and each of
// its regions is the global region partitioned op by op. Loop-carried values take the
// layouts propagation gave the while's results (its block arguments are the same values);
// the initial values and what the body yields are resharded to them, and the condition's
// predicate is made whole on every device so all of them leave the loop together. A case
// runs on a replicated index, and each branch reshards what it returns to the case's result
// layouts. Nested control flow works because the regions go through the same dispatch.
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/trip_count.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

// The global shapes and annotated layouts of `op`'s results, and their local types; fails
// on results without a static shape.
mlir::LogicalResult resultLayouts(mlir::Operation* op, PartitionState& state,
                                  llvm::SmallVectorImpl<Layout>& layouts,
                                  llvm::SmallVectorImpl<mlir::Type>& localTypes) {
  for (mlir::OpResult result : op->getResults()) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
    if (!type || !type.hasStaticShape()) {
      return op->emitError() << "cannot partition result " << result.getResultNumber()
                             << " of type " << result.getType();
    }
    layouts.push_back(state.annotatedLayout(result));
    localTypes.push_back(mlir::RankedTensorType::get(layouts.back().localShape(type.getShape()),
                                                     type.getElementType()));
  }
  return mlir::success();
}

// Partitions the ops of `global` (one block) into a new block of `local` whose arguments
// have `argTypes` and stand for the global block's arguments with `argLayouts`; then ends it
// with an hlo.return of the global terminator's operands resharded to `yieldLayouts`. A
// loop body (`loopBody`) tells the state which of its arguments are loop-invariant and how
// many trips the loop takes, when that is known.
mlir::LogicalResult partitionRegion(mlir::Region& global, mlir::Region& local,
                                    llvm::ArrayRef<mlir::Type> argTypes,
                                    llvm::ArrayRef<Layout> argLayouts,
                                    llvm::ArrayRef<Layout> yieldLayouts, PartitionState& state,
                                    bool loopBody = false,
                                    std::optional<int64_t> trips = std::nullopt) {
  mlir::Block& globalBlock = global.front();
  auto* block = new mlir::Block();
  local.push_back(block);
  llvm::SmallPtrSet<mlir::Value, 4> invariantArgs;
  for (auto [arg, type, layout] :
       llvm::zip(globalBlock.getArguments(), argTypes, argLayouts)) {
    mlir::Value localArg = block->addArgument(type, arg.getLoc());
    state.define(arg, localArg, layout, shapeOf(arg.getType()));
    if (loopBody && globalBlock.getTerminator()->getOperand(arg.getArgNumber()) == arg) {
      invariantArgs.insert(localArg);
    }
  }
  SpmdBuilder::NestedBlockScope scope(state.spmd(), block);
  if (loopBody) state.enterLoopBody(block, std::move(invariantArgs), trips);
  mlir::LogicalResult partitioned = partitionOps(globalBlock, state);
  if (loopBody) state.exitLoopBody();
  if (mlir::failed(partitioned)) return mlir::failure();
  mlir::Operation* terminator = globalBlock.getTerminator();
  llvm::SmallVector<mlir::Value> yielded;
  for (auto [index, operand] : llvm::enumerate(terminator->getOperands())) {
    if (!state.has(operand)) {
      return terminator->emitError() << "cannot partition returned value " << index;
    }
    mlir::FailureOr<mlir::Value> value =
        state.localAs(operand, yieldLayouts[index], terminator->getLoc());
    if (mlir::failed(value)) return mlir::failure();
    yielded.push_back(*value);
  }
  state.spmd().builder().create<hlo::ReturnOp>(terminator->getLoc(), yielded);
  return mlir::success();
}

}  // namespace

mlir::LogicalResult partitionWhile(mlir::Operation* op, PartitionState& state) {
  auto loop = llvm::cast<hlo::WhileOp>(op);
  llvm::SmallVector<Layout> layouts;
  llvm::SmallVector<mlir::Type> localTypes;
  if (mlir::failed(resultLayouts(op, state, layouts, localTypes))) return mlir::failure();
  llvm::SmallVector<mlir::Value> inits;
  for (auto [input, layout] : llvm::zip(loop.getInputs(), layouts)) {
    mlir::FailureOr<mlir::Value> init = state.localAs(input, layout, op->getLoc());
    if (mlir::failed(init)) return mlir::failure();
    inits.push_back(*init);
  }
  mlir::OperationState build(op->getLoc(), hlo::WhileOp::getOperationName());
  build.addOperands(inits);
  build.addTypes(localTypes);
  build.addRegion();
  build.addRegion();
  mlir::Operation* local = state.spmd().builder().create(build);
  mlir::Region& cond = local->getRegion(0);
  mlir::Region& body = local->getRegion(1);
  // The predicate must be whole everywhere: every device takes the same number of trips.
  Layout whole = Layout::replicated(nullptr, nullptr, 0);
  if (mlir::failed(partitionRegion(loop.getCond(), cond, localTypes, layouts, {whole}, state)) ||
      mlir::failed(partitionRegion(loop.getBody(), body, localTypes, layouts, layouts, state,
                                   /*loopBody=*/true, hlo::staticTripCount(loop)))) {
    return mlir::failure();
  }
  for (auto [result, localResult, layout] :
       llvm::zip(op->getResults(), local->getResults(), layouts)) {
    state.define(result, localResult, layout, shapeOf(result.getType()));
  }
  return mlir::success();
}

mlir::LogicalResult partitionCase(mlir::Operation* op, PartitionState& state) {
  auto caseOp = llvm::cast<hlo::CaseOp>(op);
  llvm::SmallVector<Layout> layouts;
  llvm::SmallVector<mlir::Type> localTypes;
  if (mlir::failed(resultLayouts(op, state, layouts, localTypes))) return mlir::failure();
  // Every device must run the same branch: its collectives meet those of the others.
  mlir::FailureOr<mlir::Value> index = state.localAs(
      caseOp.getIndex(), Layout::replicated(nullptr, nullptr, 0), op->getLoc());
  if (mlir::failed(index)) return mlir::failure();
  mlir::OperationState build(op->getLoc(), hlo::CaseOp::getOperationName());
  build.addOperands(*index);
  build.addTypes(localTypes);
  for (size_t i = 0; i < caseOp.getBranches().size(); ++i) build.addRegion();
  mlir::Operation* local = state.spmd().builder().create(build);
  for (auto [global, branch] : llvm::zip(caseOp.getBranches(), local->getRegions())) {
    if (mlir::failed(partitionRegion(global, branch, {}, {}, layouts, state))) {
      return mlir::failure();
    }
  }
  for (auto [result, localResult, layout] :
       llvm::zip(op->getResults(), local->getResults(), layouts)) {
    state.define(result, localResult, layout, shapeOf(result.getType()));
  }
  return mlir::success();
}

}  // namespace tessel::spmd
