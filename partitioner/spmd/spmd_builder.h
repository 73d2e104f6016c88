// SpmdBuilder: emits the per-partition code of one function. It owns the function's
// partition id (created once at entry), the small offset tables indexed by it (each built
// once and reused), and the reshard planner that turns a local value of one layout into
// the local value of another with collectives and local slices.
//
//   SpmdBuilder b(func, localBlock);   // emits at the end of localBlock
//   FailureOr<Value> y = b.reshard(x, from, to, globalShape, op->getLoc());
#ifndef TESSEL_PARTITIONER_SPMD_SPMD_BUILDER_H_
#define TESSEL_PARTITIONER_SPMD_SPMD_BUILDER_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/spmd/layout.h"
#include "partitioner/spmd/piece_exchange.h"

namespace tessel::spmd {

class SpmdBuilder {
  // Values emitted once and reused while their block is in scope.
  struct Memo {
    // Per-device tables (lookupPerDevice), by their entries.
    std::map<std::vector<int64_t>, mlir::Value> tables;
    // A single device's value made whole on a mesh (broadcastFromOwner), by value and mesh.
    std::map<std::pair<const void*, const void*>, mlir::Value> broadcasts;
  };

 public:
  // Emits into `block` (the function's new, local body), appending.
  SpmdBuilder(mlir::func::FuncOp func, mlir::Block* block);

  mlir::OpBuilder& builder() { return builder_; }

  // While alive, emits at the end of `block`, a region of a local op being built (a loop
  // body, a branch). Offset tables and broadcasts built meanwhile live in that block, so they
  // are forgotten when the scope ends: code after the op must not use them.
  class NestedBlockScope {
   public:
    NestedBlockScope(SpmdBuilder& spmd, mlir::Block* block)
        : spmd_(spmd), guard_(spmd.builder_), memo_(spmd.memo_) {
      spmd.builder_.setInsertionPointToEnd(block);
    }
    ~NestedBlockScope() { spmd_.memo_ = std::move(memo_); }
    NestedBlockScope(const NestedBlockScope&) = delete;
    NestedBlockScope& operator=(const NestedBlockScope&) = delete;

   private:
    SpmdBuilder& spmd_;
    mlir::OpBuilder::InsertionGuard guard_;
    Memo memo_;
  };

  // While alive, emits at the end of a scratch block that is thrown away with the scope,
  // and leaves the offset tables as they were (offsets are placeholders meanwhile, so no
  // partition id is made): how a handler prices
  // one way of partitioning an op (it emits it, measures the block, and forgets it) before
  // it emits the way it chose. Values built meanwhile must not be used after the scope.
  class TrialScope {
   public:
    explicit TrialScope(SpmdBuilder& spmd);
    ~TrialScope();
    TrialScope(const TrialScope&) = delete;
    TrialScope& operator=(const TrialScope&) = delete;

    mlir::Block& block() { return *scratch_; }

   private:
    SpmdBuilder& spmd_;
    mlir::OpBuilder::InsertionGuard guard_;
    Memo memo_;
    std::unique_ptr<mlir::Block> scratch_;
  };

  // The local value of layout `to` for the local value `value` of layout `from`, both
  // describing a global tensor of `globalShape`. Fails (with an error at `loc`) only when
  // the layouts live on different meshes.
  mlir::FailureOr<mlir::Value> reshard(mlir::Value value, const Layout& from, const Layout& to,
                                       llvm::ArrayRef<int64_t> globalShape, mlir::Location loc);

  // Replaces the padding of `value` (local value of `layout`) along `dims` by `fill` (a
  // rank-0 tensor of its element type), so a reduction over those dims cannot see it.
  // Dims that are split evenly need nothing and are skipped.
  mlir::Value maskPadding(mlir::Value value, const Layout& layout,
                          llvm::ArrayRef<int64_t> globalShape, llvm::ArrayRef<int64_t> dims,
                          mlir::Value fill, mlir::Location loc);

  // `value` reduced with `kind` over the groups of `axes` of `layout`'s mesh: one all_reduce
  // (over several axes, --tessel-hierarchical-all-reduce may later split it by axis).
  mlir::Value allReduce(mlir::Value value, const Layout& layout,
                        llvm::ArrayRef<ir::AxisRefAttr> axes, mlir::Location loc,
                        ir::ReductionKind kind = ir::ReductionKind::Sum);

  // A rank-0 constant of `elementType` holding zero (false for i1).
  mlir::Value zeroScalar(mlir::Type elementType, mlir::Location loc);
  // A rank-0 constant that a sum leaves every value as it was: -0 for floats and complex
  // numbers (x + -0 is x, where x + +0 turns -0 into +0), zero otherwise.
  mlir::Value additiveIdentityScalar(mlir::Type elementType, mlir::Location loc);

  // `value` with high[d] zeros after the end of each dimension d (itself when all are 0):
  // how an uneven split is brought to n*ceil(D/n) before a collective or a slice.
  mlir::Value zeroPadHigh(mlir::Value value, llvm::ArrayRef<int64_t> high, mlir::Location loc);

  // The scalar (tensor<i32>) that partition p reads as `perDevice(linearIndex)`, through
  // a constant table indexed by partition_id. The table has one entry per device id. (In a
  // TrialScope, a placeholder: the code is only priced.)
  mlir::Value lookupPerDevice(ir::MeshAttr mesh, llvm::function_ref<int64_t(int64_t)> perDevice,
                              mlir::Location loc);

 private:
  mlir::Value constantI32(int64_t value, mlir::Location loc);
  mlir::Value partitionId(mlir::Location loc);

  mlir::Value keepOnFirst(mlir::Value value, const Layout& layout,
                          llvm::ArrayRef<ir::AxisRefAttr> axes, mlir::Location loc);
  // All_to_all moves of splits between dimensions (reshard_moves.cc).
  mlir::Value moveSplits(mlir::Value value, Layout& current, const Layout& to,
                         llvm::ArrayRef<int64_t> globalShape, mlir::Location loc);
  // One collective_permute when only the order of the shards changes (reshard_moves.cc).
  mlir::Value permuteShards(mlir::Value value, Layout& current, const Layout& to,
                            mlir::Location loc);
  // One local slice and one collective_permute when every new shard lies inside one old
  // shard (reshard_moves.cc).
  mlir::Value slicePieces(mlir::Value value, Layout& current, const Layout& to,
                          llvm::ArrayRef<int64_t> globalShape, mlir::Location loc);
  // Rounds of slice and collective_permute, one piece each, when new shards span several
  // old ones (piece_exchange.h; reshard_moves.cc).
  mlir::Value exchangePieces(mlir::Value value, Layout& current, const Layout& to,
                             llvm::ArrayRef<int64_t> globalShape, mlir::Location loc);
  // The piece exchange itself, before any other move, where several axes move and the moves
  // below would send more bytes (priced in a trial); none otherwise.
  std::optional<mlir::Value> exchangeBeforeMoves(mlir::Value value, Layout& current,
                                                 const Layout& to,
                                                 llvm::ArrayRef<int64_t> globalShape,
                                                 mlir::Location loc);
  mlir::Value emitPieceExchange(mlir::Value value, Layout& current, const Layout& to,
                                const PieceExchange& plan, llvm::ArrayRef<int64_t> globalShape,
                                mlir::Location loc);
  // The plan for a pair of layouts and a shape, made once (null where there is none).
  const PieceExchange* pieceExchangeFor(const Layout& current, const Layout& to,
                                        llvm::ArrayRef<int64_t> globalShape);
  // Steps 2 to 4 of the plan in reshard.cc, on a value with the unreduced axes of `to`.
  mlir::Value movePieces(mlir::Value value, Layout& current, const Layout& to,
                         llvm::ArrayRef<int64_t> globalShape, mlir::Location loc);
  mlir::Value gatherAndSlice(mlir::Value value, Layout& current, const Layout& to,
                             llvm::ArrayRef<int64_t> globalShape, mlir::Location loc);
  // Moves `value` from `current`'s mesh onto `target`'s, leaving `current` a layout of
  // target's mesh without unreduced axes (cross_mesh_reshard.cc). Fails where no mesh
  // reaches the devices of both.
  mlir::FailureOr<mlir::Value> crossMeshes(mlir::Value value, Layout& current,
                                           const Layout& target,
                                           llvm::ArrayRef<int64_t> globalShape,
                                           mlir::Location loc);
  // `value`, held only by device `owner`, made whole on every device of `over`'s mesh.
  mlir::FailureOr<mlir::Value> broadcastFromOwner(mlir::Value value, int64_t owner,
                                                  const Layout& over, mlir::Location loc);

  mlir::ModuleOp module_;
  mlir::Block* block_;
  mlir::OpBuilder builder_;
  mlir::Value partitionId_;
  Memo memo_;
  std::map<std::vector<const void*>, std::optional<PieceExchange>> exchangePlans_;
  // While a TrialScope is alive: code is only priced, so offset tables (one entry per
  // device, the same small cost whatever their contents) are not computed.
  int pricing_ = 0;
};

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_SPMD_BUILDER_H_
