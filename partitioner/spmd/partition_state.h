// What the op handlers of --tessel-partition share while one function is rewritten: the
// SpmdBuilder, and for every global value already handled its local value and layout.
// Handlers read operands with `local(v)`, append local code to the function's new body, and
// record each result's local value with `define`; the pass drops the global body at the end.
#ifndef TESSEL_PARTITIONER_SPMD_PARTITION_STATE_H_
#define TESSEL_PARTITIONER_SPMD_PARTITION_STATE_H_

#include <map>
#include <optional>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Allocator.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/ir/value_address_key.h"
#include "partitioner/rules/op_sharding_rule.h"
#include "partitioner/rules/rule_key.h"
#include "partitioner/rules/sharding_rule_interface.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/partition.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {

struct LocalValue {
  mlir::Value value;
  Layout layout;
  // The global shape (function arguments already carry their local type).
  llvm::SmallVector<int64_t, 4> shape;
};

class PartitionState {
 public:
  PartitionState(mlir::func::FuncOp func, mlir::Block* localBlock,
                 mlir::SymbolTableCollection& symbols, const PartitionOptions& options)
      : builder_(func, localBlock),
        symbols_(symbols),
        func_(func),
        options_(options),
        shardingAttrName_(
            mlir::StringAttr::get(func.getContext(), ir::TesselDialect::kShardingAttrName)) {}

  // Sizes the index for `values` global values: allocated once rather than rehashed (every
  // entry moved to a new place in a table larger than the caches) each time it doubles.
  void reserve(size_t values) { index_.reserve(values); }

  SpmdBuilder& spmd() { return builder_; }
  // `tessel.sharding` as an identifier, made once: every value's layout is read from it and
  // every local op drops it.
  mlir::StringAttr shardingAttrName() const { return shardingAttrName_; }
  const PartitionOptions& options() const { return options_; }

  // The layout `sharding` describes for a value of rank `rank` (null: replicated).
  Layout layoutOf(ir::ShardingAttr sharding, int64_t rank);
  // The layout propagation annotated on `result` of its op (replicated when none).
  Layout annotatedLayout(mlir::OpResult result);

  void define(mlir::Value global, mlir::Value local, Layout layout,
              llvm::ArrayRef<int64_t> shape) {
    auto [it, inserted] = index_.try_emplace(global, nullptr);
    if (inserted) {
      it->second = new (locals_.Allocate())
          LocalValue{local, std::move(layout), llvm::to_vector<4>(shape)};
    } else {
      *it->second = LocalValue{local, std::move(layout), llvm::to_vector<4>(shape)};
    }
  }
  const LocalValue& local(mlir::Value global) const { return *index_.find(global)->second; }
  bool has(mlir::Value global) const { return index_.count(global) != 0; }

  // A copy of `op`, which has no regions, on `operands` at the builder's insertion point,
  // without the sharding annotation propagation left on it: local code carries none. Made
  // directly rather than cloned, which would fill value maps and then rebuild the copy's
  // attribute dictionary without the annotation.
  mlir::Operation* copyUnannotated(mlir::Operation* op, mlir::ValueRange operands);

  // The local value of `global` resharded to `to`.
  mlir::FailureOr<mlir::Value> localAs(mlir::Value global, const Layout& to,
                                       mlir::Location loc);

  // While a while body is partitioned: `body` is its local block, `invariantArgs` the local
  // block arguments the body returns unchanged (they hold the initial value on every trip).
  // Strategy choice prices code that depends only on invariant values as free, since it
  // runs once, before the loop, after hoisting (loop_invariant_hoisting.h).
  // `trips`: the loop's static trip count, when known (partitioner/ir/hlo/trip_count.h).
  void enterLoopBody(mlir::Block* body, llvm::SmallPtrSet<mlir::Value, 4> invariantArgs,
                     std::optional<int64_t> trips = std::nullopt) {
    loops_.push_back({body, std::move(invariantArgs), trips});
  }
  void exitLoopBody() { loops_.pop_back(); }
  // Whether local value `value` is the same on every trip of the innermost loop whose body
  // is being partitioned (false outside loops).
  bool isLoopInvariant(mlir::Value value) const {
    if (loops_.empty()) return false;
    const LoopBody& loop = loops_.back();
    if (loop.invariantArgs.count(value)) return true;
    mlir::Region* region = value.getParentRegion();
    return region && !loop.body->getParent()->isAncestor(region);
  }

  bool inLoopBody() const { return !loops_.empty(); }
  // The trips of the innermost loop whose body is being partitioned, when known.
  std::optional<int64_t> loopTrips() const {
    return loops_.empty() ? std::nullopt : loops_.back().trips;
  }

  // Strategy choices made so far, keyed by everything that decides them (strategy_choice.cc):
  // repeated layers reuse the choice instead of pricing every strategy again.
  std::map<std::vector<const void*>, size_t>& strategyCache() { return strategyCache_; }

  // Whether the ops being partitioned are the body of a manual computation, where
  // collectives and partition_id are per-device code that runs as written.
  bool inManualCode() const { return manualDepth_ > 0; }
  void enterManualCode() { ++manualDepth_; }
  void exitManualCode() { --manualDepth_; }

  // The factor rule of `op`, or null when it has none. Ops whose rule follows from what
  // rules::ruleKeyOf keys (name, types, the attributes the rule reads) share the one made for
  // the first of them; other ops' answers are made into `scratch`.
  const rules::OpShardingRule* ruleOf(mlir::Operation* op, rules::ShardingRuleOrNone& scratch);

 private:
  SpmdBuilder builder_;
  mlir::SymbolTableCollection& symbols_;
  mlir::func::FuncOp func_;
  const PartitionOptions& options_;
  // The meshes layoutOf has looked up, by name: every value's layout names one, and a
  // symbol lookup from the function per value cost about 2% of partitioning.
  llvm::SmallDenseMap<mlir::Attribute, ir::MeshAttr, 2> meshes_;
  mlir::StringAttr shardingAttrName_;
  // The local values in the order they were defined (program order), found through a
  // small index: a map holding the local values themselves would scatter them over a table
  // far larger than the caches in a large program, and move them all each time it grows.
  // The allocator never moves them, so references stay valid across define(); it takes
  // memory in slabs of many values (a deque took a block for every two) and destroys them
  // with the state.
  llvm::SpecificBumpPtrAllocator<LocalValue> locals_;
  llvm::DenseMap<mlir::Value, LocalValue*, ir::ValueAddressKey> index_;
  int manualDepth_ = 0;
  struct LoopBody {
    mlir::Block* body;
    llvm::SmallPtrSet<mlir::Value, 4> invariantArgs;
    std::optional<int64_t> trips;
  };
  llvm::SmallVector<LoopBody, 2> loops_;
  std::map<std::vector<const void*>, size_t> strategyCache_;
  // Rules of ops that share them by rules::ruleKeyOf (ruleOf), and the key being looked up.
  rules::RulesByKey<rules::ShardingRuleOrNone> rulesByKey_;
  rules::RuleKey ruleKey_;
};

// The shape of a ranked tensor type.
llvm::ArrayRef<int64_t> shapeOf(mlir::Type type);

// Partitions `op` from its sharding rule when the rule allows it (only pass-through and
// reduction factors, one factor per dimension, static shapes); returns failure() without
// touching anything otherwise, so the caller falls back.
mlir::FailureOr<bool> partitionByRule(mlir::Operation* op, const rules::OpShardingRule& rule,
                                      PartitionState& state);

// The special handlers (handlers.cc lists them; one file per op family). Each returns true
// when it partitioned `op`, false when it leaves `op` to the next path (having emitted
// nothing), and failure() after an error.
mlir::FailureOr<bool> partitionBySpecialHandler(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionIota(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionReduce(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionVariadicReduce(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionGather(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionScatter(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionConvolution(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionReduceWindow(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionSelectAndScatter(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionSliceOrPad(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionConcatenate(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionReverse(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionTopK(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionRngBitGenerator(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionOptimizationBarrier(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionDynamicSlices(mlir::Operation* op, PartitionState& state);
mlir::FailureOr<bool> partitionReshape(mlir::Operation* op, PartitionState& state);

// Partitions every op of `block` but its terminator, in order, appending local code where
// the builder points: a function body, or a region of control flow being rebuilt.
mlir::LogicalResult partitionOps(mlir::Block& block, PartitionState& state);

// Control flow and manual computations (partition_pass.cc dispatches to them): regions are
// partitioned op by op with partitionOps into the regions of a new local op.
mlir::LogicalResult partitionWhile(mlir::Operation* op, PartitionState& state);
mlir::LogicalResult partitionCase(mlir::Operation* op, PartitionState& state);
mlir::LogicalResult partitionManualComputation(mlir::Operation* op, PartitionState& state);

// Partitions `op` by replicating its operands, running it on whole tensors and cutting its
// results to their layouts. Correct for every op; `remark` says whether to tell the user.
mlir::LogicalResult partitionByReplication(mlir::Operation* op, PartitionState& state,
                                           bool remark);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_PARTITION_STATE_H_
