// Collective combining (collective_combining.h): finds groups of collectives that can run as
// one and rewrites each group into flatten, concatenate, one collective, slice, reshape.
#include "partitioner/passes/collective_combining.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::passes {
namespace {

// What two collectives must share to be combined: the op, its mesh, axes and reduction
// kind (null for all_gather) and the element type of the operand.
struct Key {
  mlir::OperationName name;
  mlir::Attribute mesh, axes, kind;
  mlir::Type element;
  bool operator==(const Key& other) const {
    return name == other.name && mesh == other.mesh && axes == other.axes &&
           kind == other.kind && element == other.element;
  }
};

// How a collective's operand and result are flattened: 1-D (all_reduce) or 2-D with
// `operandRows` and `resultRows` rows, the group's devices along the rows (all_gather: 1
// row in, n out; reduce_scatter: n rows in, 1 out). The pieces are concatenated along the
// last dimension, so every device's share of each piece stays in its own row.
struct Shape2D {
  bool twoD = false;
  int64_t operandRows = 1, resultRows = 1;
};

struct Candidate {
  mlir::Operation* op;
  Key key;
  Shape2D shape;
  int64_t bytes;
};

std::optional<Candidate> candidateOf(mlir::Operation* op) {
  auto dimZero = [](mlir::IntegerAttr dim) { return dim.getInt() == 0; };
  Candidate c{op, Key{op->getName(), {}, {}, {}, {}}, Shape2D(), 0};
  if (auto reduce = llvm::dyn_cast<ir::AllReduceOp>(op)) {
    c.key.mesh = reduce.getMeshNameAttr();
    c.key.axes = reduce.getAxesAttr();
    c.key.kind = reduce.getKindAttr();
  } else if (auto gather = llvm::dyn_cast<ir::AllGatherOp>(op)) {
    if (!dimZero(gather.getDimAttr())) return std::nullopt;
    c.key.mesh = gather.getMeshNameAttr();
    c.key.axes = gather.getAxesAttr();
    c.shape = Shape2D{true, 1, gather.getGroupSize()};
  } else if (auto scatter = llvm::dyn_cast<ir::ReduceScatterOp>(op)) {
    if (!dimZero(scatter.getDimAttr())) return std::nullopt;
    c.key.mesh = scatter.getMeshNameAttr();
    c.key.axes = scatter.getAxesAttr();
    c.key.kind = scatter.getKindAttr();
    c.shape = Shape2D{true, scatter.getGroupSize(), 1};
  } else {
    return std::nullopt;
  }
  auto operand = llvm::dyn_cast<mlir::RankedTensorType>(op->getOperand(0).getType());
  auto result = llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!operand || !result || !operand.hasStaticShape() || !result.hasStaticShape() ||
      !operand.getElementType().isIntOrFloat() || result.getNumElements() == 0) {
    return std::nullopt;
  }
  c.key.element = operand.getElementType();
  c.bytes = result.getNumElements() * ((c.key.element.getIntOrFloatBitWidth() + 7) / 8);
  return c;
}

// A group being formed. The combined op must come after every operand's definition (at
// block position > lo) and before every user of every result (position < hi, users in
// nested regions counted at their ancestor in the block).
struct Group {
  llvm::SmallVector<Candidate> members;
  int64_t lo, hi, bytes;
};

mlir::RankedTensorType flatType(const Shape2D& shape, int64_t rows, int64_t elements,
                                mlir::Type element) {
  if (!shape.twoD) return mlir::RankedTensorType::get({elements}, element);
  return mlir::RankedTensorType::get({rows, elements / rows}, element);
}

mlir::Value reshapeTo(mlir::OpBuilder& builder, mlir::Location loc, mlir::Value value,
                      mlir::RankedTensorType type) {
  if (value.getType() == type) return value;
  return builder.create<hlo::ReshapeOp>(loc, type, value);
}

// Rewrites `group` (two members or more) right after the op at block position `lo` (or at
// the block start). The originals lose their uses; the caller erases them.
void rewrite(const Group& group, mlir::Block& block, llvm::ArrayRef<mlir::Operation*> ops) {
  const Candidate& first = group.members.front();
  const Shape2D& shape = first.shape;
  mlir::Type element = first.key.element;
  llvm::SmallVector<mlir::Location> locs;
  for (const Candidate& c : group.members) locs.push_back(c.op->getLoc());
  mlir::OpBuilder builder(first.op->getContext());
  mlir::Location loc = builder.getFusedLoc(locs);
  if (group.lo < 0) {
    builder.setInsertionPointToStart(&block);
  } else {
    builder.setInsertionPointAfter(ops[group.lo]);
  }

  llvm::SmallVector<mlir::Value> pieces;
  int64_t operandColumns = 0, resultColumns = 0;
  for (const Candidate& c : group.members) {
    mlir::Value operand = c.op->getOperand(0);
    auto type = llvm::cast<mlir::RankedTensorType>(operand.getType());
    auto flat = flatType(shape, shape.operandRows, type.getNumElements(), element);
    pieces.push_back(reshapeTo(builder, loc, operand, flat));
    operandColumns += flat.getShape().back();
    auto result = llvm::cast<mlir::RankedTensorType>(c.op->getResult(0).getType());
    resultColumns += result.getNumElements() / shape.resultRows;
  }
  auto concatType = flatType(shape, shape.operandRows, shape.operandRows * operandColumns,
                             element);
  mlir::Value concat = builder.create<hlo::ConcatenateOp>(
      loc, concatType, pieces, builder.getI64IntegerAttr(concatType.getRank() - 1));
  // A clone of the first member keeps its mesh, axes, kind and dimension attributes.
  mlir::Operation* combined = builder.clone(*first.op);
  combined->setLoc(loc);
  combined->setOperand(0, concat);
  auto combinedType = flatType(shape, shape.resultRows, shape.resultRows * resultColumns,
                               element);
  combined->getResult(0).setType(combinedType);

  int64_t offset = 0;
  const int64_t rank = combinedType.getRank();
  for (const Candidate& c : group.members) {
    auto result = llvm::cast<mlir::RankedTensorType>(c.op->getResult(0).getType());
    auto flat = flatType(shape, shape.resultRows, result.getNumElements(), element);
    const int64_t columns = flat.getShape().back();
    llvm::SmallVector<int64_t> start(rank, 0), limit(combinedType.getShape()), strides(rank, 1);
    start.back() = offset;
    limit.back() = offset + columns;
    offset += columns;
    mlir::Value piece = combined->getResult(0);
    if (flat != combinedType) {
      piece = builder.create<hlo::SliceOp>(c.op->getLoc(), flat, piece,
                                           builder.getDenseI64ArrayAttr(start),
                                           builder.getDenseI64ArrayAttr(limit),
                                           builder.getDenseI64ArrayAttr(strides));
    }
    c.op->getResult(0).replaceAllUsesWith(reshapeTo(builder, c.op->getLoc(), piece, result));
  }
}

// Placement rule: the combined op goes at the EARLIEST point where all operands are
// ready, right after the last op of the block that defines one of them. Any valid point
// must lie after every operand's definition and before every user, so a group that can be
// placed anywhere can be placed there: this rule combines every group some placement
// could, and it moves no other op. Users that sit between the original collectives are
// fine as long as the operands of the later ones are defined before those users.
//
// The window also rules out dependent collectives: if B's operand depends on A's result
// through other ops of the block, the first op on that path uses A's result (position >=
// hi) and comes no later than B's operand's definition (position <= lo), so lo >= hi.
// Only B reading A's result directly is checked apart, and so is B reading a member of
// another group (see combineBlock).
// Moves what reads the collectives of `block` (their users, transitively, where all are free
// of side effects) to the end of the block, in their order. A backward pass interleaves each
// layer's gradient collective with the update that reads it, so no two collectives would
// have a common place to run; with the updates after the last gradient, every collective's
// window reaches the end of the block and independent ones combine. Nothing else moves, and
// dependent collectives stay apart (the later one's operand is among the moved ops).
void sinkCollectiveUsers(mlir::Block& block, const CollectiveCombiningOptions& options) {
  if (block.empty() || !block.back().hasTrait<mlir::OpTrait::IsTerminator>()) return;
  mlir::Operation* terminator = &block.back();
  llvm::SmallPtrSet<mlir::Operation*, 32> sink;
  for (mlir::Operation& op : block) {
    std::optional<Candidate> c = candidateOf(&op);
    if (!c || c->bytes > options.max_bytes) continue;
    llvm::SmallPtrSet<mlir::Operation*, 16> slice;
    llvm::SmallVector<mlir::Operation*> worklist{&op};
    bool free = true;
    while (!worklist.empty() && free) {
      mlir::Operation* current = worklist.pop_back_val();
      for (mlir::Operation* user : current->getUsers()) {
        mlir::Operation* inBlock = block.findAncestorOpInBlock(*user);
        if (!inBlock || inBlock == terminator || !slice.insert(inBlock).second) continue;
        if (!mlir::isMemoryEffectFree(inBlock)) free = false;
        worklist.push_back(inBlock);
      }
    }
    if (free) sink.insert(slice.begin(), slice.end());
  }
  llvm::SmallVector<mlir::Operation*> moved;
  for (mlir::Operation& op : block) {
    if (sink.contains(&op)) moved.push_back(&op);
  }
  for (mlir::Operation* op : moved) op->moveBefore(terminator);
}

int64_t combineBlock(mlir::Block& block, const CollectiveCombiningOptions& options) {
  sinkCollectiveUsers(block, options);
  llvm::SmallVector<mlir::Operation*> ops;
  llvm::DenseMap<mlir::Operation*, int64_t> position;
  for (mlir::Operation& op : block) {
    position[&op] = static_cast<int64_t>(ops.size());
    ops.push_back(&op);
  }
  llvm::SmallVector<Group> open, done;
  auto close = [&](Group& group) {
    if (group.members.size() > 1) done.push_back(std::move(group));
  };
  for (mlir::Operation* op : ops) {
    std::optional<Candidate> c = candidateOf(op);
    if (!c || c->bytes > options.max_bytes) continue;
    int64_t lo = -1, hi = std::numeric_limits<int64_t>::max();
    mlir::Operation* def = op->getOperand(0).getDefiningOp();
    if (def && def->getBlock() == &block) lo = position[def];
    for (mlir::Operation* user : op->getResult(0).getUsers()) {
      hi = std::min(hi, position[block.findAncestorOpInBlock(*user)]);
    }
    auto it = llvm::find_if(open, [&](const Group& g) { return g.members[0].key == c->key; });
    if (it != open.end()) {
      int64_t newLo = std::max(it->lo, lo), newHi = std::min(it->hi, hi);
      bool direct = llvm::any_of(it->members, [&](const Candidate& m) { return m.op == def; });
      if (!direct && newLo < newHi && it->bytes + c->bytes <= options.max_bytes) {
        it->members.push_back(*c);
        it->lo = newLo;
        it->hi = newHi;
        it->bytes += c->bytes;
        continue;
      }
      close(*it);
      open.erase(it);
    }
    open.push_back(Group{{*c}, lo, hi, c->bytes});
  }
  for (Group& group : open) close(group);

  // A member that reads a member of another group directly gets its operand from that
  // group's combined op, which is placed after the other group's anchor: its own group must
  // be anchored strictly later, or the member leaves it (each group reading the other's
  // member would otherwise leave no order that works).
  auto loOf = [&](const Candidate& c) -> int64_t {
    mlir::Operation* def = c.op->getOperand(0).getDefiningOp();
    return def && def->getBlock() == &block ? position[def] : -1;
  };
  for (bool changed = true; changed;) {
    changed = false;
    llvm::DenseMap<mlir::Operation*, size_t> groupOf;
    for (auto [index, group] : llvm::enumerate(done)) {
      for (const Candidate& c : group.members) groupOf[c.op] = index;
    }
    for (auto [index, group] : llvm::enumerate(done)) {
      for (size_t m = 0; m < group.members.size() && !changed; ++m) {
        mlir::Operation* def = group.members[m].op->getOperand(0).getDefiningOp();
        auto read = def ? groupOf.find(def) : groupOf.end();
        if (read == groupOf.end() || read->second == index || group.lo > done[read->second].lo) {
          continue;
        }
        group.bytes -= group.members[m].bytes;
        group.members.erase(group.members.begin() + m);
        group.lo = -1;
        for (const Candidate& c : group.members) group.lo = std::max(group.lo, loOf(c));
        changed = true;
      }
      if (changed) break;
    }
    llvm::erase_if(done, [](const Group& g) { return g.members.size() < 2; });
  }

  // Originals are erased only after every group is rewritten: a later group may be placed
  // right after one of them.
  int64_t removed = 0;
  // Groups placed at the same point come out in program order when the last is placed
  // first (each goes right after the anchor, before those placed there already).
  for (const Group& group : llvm::reverse(done)) rewrite(group, block, ops);
  for (const Group& group : done) {
    for (const Candidate& c : group.members) c.op->erase();
    removed += static_cast<int64_t>(group.members.size()) - 1;
  }
  return removed;
}

}  // namespace

int64_t combineCollectives(mlir::ModuleOp module, const CollectiveCombiningOptions& options) {
  module.getContext()->getOrLoadDialect<hlo::HloDialect>();
  llvm::SmallVector<mlir::Block*> blocks;
  module->walk([&](mlir::Block* block) { blocks.push_back(block); });
  int64_t removed = 0;
  for (mlir::Block* block : blocks) removed += combineBlock(*block, options);
  return removed;
}

}  // namespace tessel::passes
