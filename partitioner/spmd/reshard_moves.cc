// The reshard planner's moves that need no gather: an all_to_all where a split moves from one
// dimension to another, and a collective_permute where only the order of the shards over the
// devices changes. Each applies only where it is exact and, by planBytes, cheaper than the
// gather-and-slice plan it replaces; everything else is left to that plan.
#include <algorithm>
#include <map>
#include <vector>

#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "cost_model/hardware_spec.h"
#include "partitioner/spmd/piece_exchange.h"
#include "partitioner/spmd/plan_cost.h"
#include "partitioner/spmd/spmd_builder.h"
#include "partitioner/spmd/strategy_cost.h"

namespace tessel::spmd {
namespace {

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

mlir::RankedTensorType withShape(mlir::Value value, llvm::ArrayRef<int64_t> shape) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

mlir::ArrayAttr axesAttr(mlir::MLIRContext* context, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  return mlir::ArrayAttr::get(context,
                              llvm::SmallVector<mlir::Attribute>(axes.begin(), axes.end()));
}

// One collective_permute over `axes` where group position t receives from sourceOf[t].
mlir::Value permuteFrom(mlir::OpBuilder& builder, mlir::Value value,
                        mlir::FlatSymbolRefAttr meshName, llvm::ArrayRef<ir::AxisRefAttr> axes,
                        llvm::ArrayRef<int64_t> sourceOf, mlir::Location loc) {
  llvm::SmallVector<int64_t> pairs;
  for (auto [target, source] : llvm::enumerate(sourceOf)) {
    if (source < 0) continue;  // receives nothing: zeros
    pairs.push_back(source);
    pairs.push_back(static_cast<int64_t>(target));
  }
  return builder.create<ir::CollectivePermuteOp>(
      loc, value.getType(), value, meshName, axesAttr(builder.getContext(), axes),
      /*shift=*/nullptr, /*cyclic=*/nullptr, builder.getDenseI64ArrayAttr(pairs));
}

// The bytes the gather plan sends for an even reshard from `current` to `to` (local operand
// of `bytes`): per dimension whose axes change, the axes past the common prefix are gathered.
int64_t gatherPlanBytes(const Layout& current, const Layout& to, int64_t bytes) {
  int64_t total = 0, operand = bytes;
  for (int64_t d = 0; d < current.rank(); ++d) {
    const AxisList& a = current.dims[d];
    const AxisList& b = to.dims[d];
    size_t kept = 0;
    while (kept < a.size() && kept < b.size() && a[kept] == b[kept]) ++kept;
    if (kept == a.size()) continue;
    const int64_t group =
        ir::getGroupSize(current.mesh, llvm::ArrayRef<ir::AxisRefAttr>(a).drop_front(kept));
    total += planBytes({{PlanStepKind::kAllGather, group, operand}});
    operand *= group;
  }
  return total;
}

bool startsWith(llvm::ArrayRef<ir::AxisRefAttr> list, llvm::ArrayRef<ir::AxisRefAttr> prefix) {
  return list.size() >= prefix.size() && sameAxes(list.take_front(prefix.size()), prefix);
}

// One all_to_all: the minor axes `moved` of dimension `from` go to the minor end of `to`.
struct AllToAllMove {
  int64_t from;
  int64_t to;
  size_t count;  // how many of `from`'s minor axes move
};

}  // namespace

// Moving the minor axes S (g devices) of dimension a (kept major part P, n_P shards) to the
// minor end of dimension b (so far split n_b ways) is one all_to_all over S with
// split_dim = b and concat_dim = a. The device at position p of S holds shard p of each
// P-block of a; it cuts its b-piece into g parts (part p is its new b-shard) and receives
// the other devices' a-shards of its P-block, in order. It is exact when:
//   - the local b length L_b = ceil(D_b/n_b) divides by g, or b was whole (then it is
//     zero-padded to a multiple of g: the extra rows are the padding of the last shards);
//   - the g received a-shards make up exactly the new a-shard: g*ceil(D_a/(n_P*g)) equals
//     ceil(D_a/n_P), or a becomes whole (then the concatenated padding is sliced off).
mlir::Value SpmdBuilder::moveSplits(mlir::Value value, Layout& current, const Layout& to,
                                    llvm::ArrayRef<int64_t> globalShape, mlir::Location loc) {
  const int64_t rank = current.rank();
  auto findMove = [&]() -> std::optional<AllToAllMove> {
    for (int64_t a = 0; a < rank; ++a) {
      const AxisList& axesA = current.dims[a];
      for (size_t count = axesA.size(); count >= 1; --count) {
        llvm::ArrayRef<ir::AxisRefAttr> kept = llvm::ArrayRef(axesA).drop_back(count);
        llvm::ArrayRef<ir::AxisRefAttr> moved = llvm::ArrayRef(axesA).take_back(count);
        // The part of a that stays must be what the target keeps on a.
        if (!startsWith(to.dims[a], kept)) continue;
        for (int64_t b = 0; b < rank; ++b) {
          if (b == a) continue;
          AxisList grown = current.dims[b];
          grown.append(moved.begin(), moved.end());
          if (!startsWith(to.dims[b], grown)) continue;
          const int64_t g = ir::getGroupSize(current.mesh, moved);
          const int64_t nb = current.numShards(b);
          const int64_t nGrown = nb * g;
          // Beyond the moved axes, the target splits b further: the gather plan keeps the
          // grown prefix only when b splits evenly both ways.
          if (grown.size() != to.dims[b].size() &&
              (globalShape[b] % nGrown != 0 || globalShape[b] % to.numShards(b) != 0)) {
            continue;
          }
          const int64_t lengthB = ceilDiv(globalShape[b], nb);
          if (nb > 1 && lengthB % g != 0) continue;
          const int64_t nKept = ir::getGroupSize(current.mesh, kept);
          const int64_t lengthA = ceilDiv(globalShape[a], nKept * g);
          if (!kept.empty() && lengthA * g != ceilDiv(globalShape[a], nKept)) continue;
          const int64_t bytes = tensorBytes(value.getType());
          if (planBytes({{PlanStepKind::kAllToAll, g, bytes}}) >
              planBytes({{PlanStepKind::kAllGather, g, bytes}})) {
            continue;
          }
          return AllToAllMove{a, b, count};
        }
      }
    }
    return std::nullopt;
  };
  mlir::MLIRContext* context = builder_.getContext();
  // Each move puts its axes where `to` keeps them, so no axis moves twice when `to` uses each
  // axis once. The bound keeps a layout that breaks that rule from moving an axis back and
  // forth forever; the gather plan gets what is left.
  size_t movesLeft = 0;
  for (const AxisList& axes : current.dims) movesLeft += axes.size();
  while (movesLeft > 0) {
    std::optional<AllToAllMove> move = findMove();
    if (!move) break;
    movesLeft -= std::min(movesLeft, move->count);
    const int64_t a = move->from, b = move->to;
    AxisList moved(current.dims[a].end() - move->count, current.dims[a].end());
    const int64_t g = ir::getGroupSize(current.mesh, moved);
    if (g == 1) {
      // Axes of size 1 split nothing: only the layout changes.
      current.dims[a].resize(current.dims[a].size() - move->count);
      current.dims[b].append(moved.begin(), moved.end());
      continue;
    }
    llvm::SmallVector<int64_t> shape =
        llvm::to_vector(llvm::cast<mlir::RankedTensorType>(value.getType()).getShape());
    if (shape[b] % g != 0) {
      llvm::SmallVector<int64_t> high(rank, 0);
      high[b] = g * ceilDiv(shape[b], g) - shape[b];
      shape[b] += high[b];
      value = zeroPadHigh(value, high, loc);
    }
    shape[b] /= g;
    shape[a] *= g;
    value = builder_.create<ir::AllToAllOp>(loc, withShape(value, shape), value,
                                            current.meshName, axesAttr(context, moved),
                                            builder_.getI64IntegerAttr(b),
                                            builder_.getI64IntegerAttr(a));
    current.dims[a].resize(current.dims[a].size() - move->count);
    current.dims[b].append(moved.begin(), moved.end());
    if (current.dims[a].empty() && shape[a] > globalShape[a]) {
      // a is whole again: the concatenated padding of the last shards goes.
      llvm::SmallVector<int64_t> start(rank, 0), strides(rank, 1);
      llvm::SmallVector<int64_t> limit = shape;
      limit[a] = shape[a] = globalShape[a];
      value = builder_.create<hlo::SliceOp>(loc, withShape(value, shape), value,
                                            builder_.getDenseI64ArrayAttr(start),
                                            builder_.getDenseI64ArrayAttr(limit),
                                            builder_.getDenseI64ArrayAttr(strides));
    }
  }
  return value;
}

// When `current` and `to` split every dimension into as many shards, each device already
// holds a piece of the right shape and only needs another device's: one collective_permute
// over the mesh axes either layout uses. Positions in those groups decide the shards, so the
// (source, target) pairs are the same in every group: target t takes the shard `to` gives it
// from a source that holds it in `current` (itself when it can, each source used once).
mlir::Value SpmdBuilder::permuteShards(mlir::Value value, Layout& current, const Layout& to,
                                       mlir::Location loc) {
  const int64_t rank = current.rank();
  bool differs = false;
  for (int64_t d = 0; d < rank; ++d) {
    if (current.numShards(d) != to.numShards(d)) return value;
    differs |= !sameAxes(current.dims[d], to.dims[d]);
  }
  if (!differs) return value;
  ir::MeshAttr mesh = current.mesh;
  mlir::MLIRContext* context = builder_.getContext();
  // The whole mesh axes either layout touches, in mesh order.
  AxisList axes;
  for (ir::MeshAxisAttr meshAxis : mesh.getAxes()) {
    auto full = ir::AxisRefAttr::get(context, meshAxis.getName());
    bool used = false;
    for (int64_t d = 0; d < rank; ++d) {
      for (ir::AxisRefAttr axis : current.dims[d]) used |= full.overlaps(axis);
      for (ir::AxisRefAttr axis : to.dims[d]) used |= full.overlaps(axis);
    }
    if (used) axes.push_back(full);
  }
  const int64_t groupSize = ir::getGroupSize(mesh, axes);
  // The device of each position of group 0, and the shards it holds and needs.
  std::vector<int64_t> deviceAt(groupSize, -1);
  for (int64_t linear = 0; linear < mesh.getTotalSize(); ++linear) {
    ir::GroupPosition where = ir::getGroupPosition(mesh, axes, linear);
    if (where.groupIndex == 0) deviceAt[where.position] = linear;
  }
  auto shardsOf = [&](const Layout& layout, int64_t position) {
    std::vector<int64_t> index(rank);
    for (int64_t d = 0; d < rank; ++d) index[d] = layout.shardIndex(d, deviceAt[position]);
    return index;
  };
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  for (int64_t s = 0; s < groupSize; ++s) holders[shardsOf(current, s)].push_back(s);
  std::vector<int64_t> sourceOf(groupSize, -1);
  std::vector<bool> sending(groupSize, false);
  for (int64_t t = 0; t < groupSize; ++t) {
    if (shardsOf(current, t) == shardsOf(to, t)) sourceOf[t] = t, sending[t] = true;
  }
  bool moves = false;
  for (int64_t t = 0; t < groupSize; ++t) {
    if (sourceOf[t] >= 0) continue;
    for (int64_t s : holders[shardsOf(to, t)]) {
      if (!sending[s]) {
        sourceOf[t] = s;
        sending[s] = true;
        break;
      }
    }
    if (sourceOf[t] < 0) return value;  // no free holder: leave it to the gather plan
    moves = true;
  }
  if (moves) {
    const int64_t bytes = tensorBytes(value.getType());
    int64_t gathered = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (!sameAxes(current.dims[d], to.dims[d])) gathered *= current.numShards(d);
    }
    if (planBytes({{PlanStepKind::kCollectivePermute, groupSize, bytes}}) >
        planBytes({{PlanStepKind::kAllGather, gathered, bytes}})) {
      return value;
    }
    value = permuteFrom(builder_, value, current.meshName, axes, sourceOf, loc);
  }
  current.dims = to.dims;
  return value;
}

// When every dimension splits evenly both ways and `to` refines `current` on each (its
// shard count a multiple of current's), each new shard lies inside one old shard, which
// several devices may hold. Each device cuts, from its old shard, the piece its partner
// needs and one collective_permute hands it over (a device that holds its own new shard
// keeps it). Within the holders of one old shard and the devices whose new shard lies in it
// (equally many) any pairing works; devices keep their own pieces first. This reaches the
// bound of docs/partitioning.md where gathering the moved axes and slicing would send more.
mlir::Value SpmdBuilder::slicePieces(mlir::Value value, Layout& current, const Layout& to,
                                     llvm::ArrayRef<int64_t> globalShape, mlir::Location loc) {
  const int64_t rank = current.rank();
  if (!current.mesh || !to.mesh || current == to || !current.unreduced.empty()) return value;
  bool differs = false;
  for (int64_t d = 0; d < rank; ++d) {
    const int64_t nA = current.numShards(d), nB = to.numShards(d);
    if (globalShape[d] % nA != 0 || globalShape[d] % nB != 0 || nB % nA != 0) return value;
    differs |= !sameAxes(current.dims[d], to.dims[d]);
  }
  if (!differs) return value;
  // Where B only appends axes to A's on every dimension, each device holds its new shard:
  // the local slice of the gather plan does it, without pairing devices.
  bool refinesInPlace = true;
  for (int64_t d = 0; d < rank; ++d) {
    const AxisList& a = current.dims[d];
    refinesInPlace &= to.dims[d].size() >= a.size() &&
                      sameAxes(llvm::ArrayRef(to.dims[d]).take_front(a.size()), a);
  }
  if (refinesInPlace) return value;
  ir::MeshAttr mesh = current.mesh;
  const int64_t devices = mesh.getTotalSize();
  // Shard index vectors per device, and for each device the old shard its new one lies in.
  auto indexOf = [&](const Layout& layout, int64_t linear) {
    std::vector<int64_t> index(rank);
    for (int64_t d = 0; d < rank; ++d) index[d] = layout.shardIndex(d, linear);
    return index;
  };
  auto containing = [&](int64_t linear) {
    std::vector<int64_t> index = indexOf(to, linear);
    for (int64_t d = 0; d < rank; ++d) index[d] = index[d] * current.numShards(d) / to.numShards(d);
    return index;
  };
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders, needers;
  for (int64_t linear = 0; linear < devices; ++linear) {
    holders[indexOf(current, linear)].push_back(linear);
    needers[containing(linear)].push_back(linear);
  }
  std::vector<int64_t> sourceOf(devices, -1), targetOf(devices, -1);
  for (auto& [shard, targets] : needers) {
    std::vector<int64_t>& sources = holders[shard];
    if (sources.size() != targets.size()) return value;
    std::vector<int64_t> free;
    for (int64_t s : sources) {
      if (indexOf(current, s) == containing(s)) {
        sourceOf[s] = targetOf[s] = s;  // it needs a piece of what it holds
      } else {
        free.push_back(s);
      }
    }
    size_t next = 0;
    for (int64_t t : targets) {
      if (sourceOf[t] >= 0) continue;
      sourceOf[t] = free[next++];
      targetOf[sourceOf[t]] = t;
    }
  }
  bool moves = false;
  for (int64_t t = 0; t < devices; ++t) moves |= sourceOf[t] != t;
  llvm::SmallVector<int64_t> pieceShape = to.localShape(globalShape);
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  if (moves) {
    // Compare with gathering the axes that change and slicing.
    const int64_t bytes = tensorBytes(value.getType());
    int64_t pieceBytes = bytes;
    for (int64_t d = 0; d < rank; ++d) pieceBytes = pieceBytes / type.getDimSize(d) * pieceShape[d];
    if (planBytes({{PlanStepKind::kCollectivePermute, devices, pieceBytes}}) >=
        gatherPlanBytes(current, to, bytes)) {
      return value;
    }
  }
  // Device s cuts the piece of targetOf[s] out of its old shard.
  llvm::SmallVector<mlir::Value> starts;
  llvm::SmallVector<int64_t> oldLength = current.localShape(globalShape);
  for (int64_t d = 0; d < rank; ++d) {
    starts.push_back(lookupPerDevice(
        mesh,
        [&](int64_t linear) {
          const int64_t t = targetOf[linear];
          return to.shardIndex(d, t) * pieceShape[d] - current.shardIndex(d, linear) * oldLength[d];
        },
        loc));
  }
  value = builder_.create<hlo::DynamicSliceOp>(loc, withShape(value, pieceShape), value, starts,
                                               builder_.getDenseI64ArrayAttr(pieceShape));
  if (moves) {
    mlir::MLIRContext* context = builder_.getContext();
    AxisList axes;
    for (ir::MeshAxisAttr meshAxis : mesh.getAxes()) {
      axes.push_back(ir::AxisRefAttr::get(context, meshAxis.getName()));
    }
    value = permuteFrom(builder_, value, current.meshName, axes, sourceOf, loc);
  }
  current.dims = to.dims;
  return value;
}

namespace {

// Whether more than one mesh axis sits elsewhere (another dimension or position) in `to`
// than in `current`: the reshards the per-axis moves above may not do in the fewest bytes.
bool severalAxesMove(const Layout& current, const Layout& to) {
  int64_t moved = 0;
  for (ir::MeshAxisAttr meshAxis : current.mesh.getAxes()) {
    auto where = [&](const Layout& layout) {
      for (int64_t d = 0; d < layout.rank(); ++d) {
        for (auto [at, axis] : llvm::enumerate(layout.dims[d])) {
          if (axis.getName() == meshAxis.getName()) return std::make_pair(d, int64_t(at));
        }
      }
      return std::make_pair(int64_t{-1}, int64_t{-1});
    };
    moved += where(current) != where(to);
  }
  return moved > 1;
}

}  // namespace

const PieceExchange* SpmdBuilder::pieceExchangeFor(const Layout& current, const Layout& to,
                                                   llvm::ArrayRef<int64_t> globalShape) {
  // Planning walks every device and piece; a function reshards the same pair often (and
  // strategy trials price it again), so plans are kept per pair and shape.
  std::vector<const void*> key = {current.meshName.getAsOpaquePointer(),
                                  to.meshName.getAsOpaquePointer()};
  for (const Layout* layout : {&current, &to}) {
    for (const AxisList& axes : layout->dims) {
      key.push_back(nullptr);
      for (ir::AxisRefAttr axis : axes) key.push_back(axis.getAsOpaquePointer());
    }
    key.push_back(nullptr);
    for (ir::AxisRefAttr axis : layout->unreduced) key.push_back(axis.getAsOpaquePointer());
  }
  for (int64_t length : globalShape) key.push_back(reinterpret_cast<const void*>(length));
  auto [entry, added] = exchangePlans_.try_emplace(std::move(key));
  if (added) entry->second = planPieceExchange(current, to, globalShape);
  return entry->second ? &*entry->second : nullptr;
}

namespace {

// The bytes one device sends in `plan` (a piece per round), when fewer than gathering the
// axes that change; none otherwise.
std::optional<int64_t> bytesBelowGather(const PieceExchange& plan, mlir::Value value,
                                        const Layout& current, const Layout& to) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  int64_t pieceBytes = tensorBytes(type);
  for (int64_t d = 0; d < type.getRank(); ++d) {
    pieceBytes = pieceBytes / type.getDimSize(d) * plan.piece[d];
  }
  const int64_t bytes = planBytes(std::vector<PlanStep>(
      plan.remote.size(),
      {PlanStepKind::kCollectivePermute, current.mesh.getTotalSize(), pieceBytes}));
  if (bytes >= gatherPlanBytes(current, to, tensorBytes(type))) return std::nullopt;
  return bytes;
}

}  // namespace

// Rounds of the plan of piece_exchange.h, where they send fewer bytes than gathering the
// axes that change (a split moving between axes of different sizes, several axes moving at
// once). The new shard is assembled in a buffer one piece longer along dimension 0: a
// device with nothing to receive (or copy) in a round writes what it got there, and the
// extra piece is sliced off at the end.
mlir::Value SpmdBuilder::exchangePieces(mlir::Value value, Layout& current, const Layout& to,
                                        llvm::ArrayRef<int64_t> globalShape,
                                        mlir::Location loc) {
  if (!current.mesh || current == to) return value;
  const PieceExchange* plan = pieceExchangeFor(current, to, globalShape);
  if (!plan || !bytesBelowGather(*plan, value, current, to)) return value;
  return emitPieceExchange(value, current, to, *plan, globalShape, loc);
}

std::optional<mlir::Value> SpmdBuilder::exchangeBeforeMoves(mlir::Value value, Layout& current,
                                                            const Layout& to,
                                                            llvm::ArrayRef<int64_t> globalShape,
                                                            mlir::Location loc) {
  if (!current.mesh || current == to || !severalAxesMove(current, to)) return std::nullopt;
  const PieceExchange* plan = pieceExchangeFor(current, to, globalShape);
  if (!plan) return std::nullopt;
  std::optional<int64_t> bytes = bytesBelowGather(*plan, value, current, to);
  if (!bytes) return std::nullopt;
  double viaMoves;
  {
    TrialScope trial(*this);
    Layout scratch = current;
    movePieces(value, scratch, to, globalShape, loc);
    viaMoves = costOfEmitted(trial.block(), current.mesh, cost_model::DefaultHardwareSpec())
                   .sentBytes;
  }
  // Equal bytes: the moves, which take fewer collectives.
  if (*bytes >= viaMoves) return std::nullopt;
  return emitPieceExchange(value, current, to, *plan, globalShape, loc);
}

mlir::Value SpmdBuilder::emitPieceExchange(mlir::Value value, Layout& current,
                                           const Layout& to, const PieceExchange& plan,
                                           llvm::ArrayRef<int64_t> globalShape,
                                           mlir::Location loc) {
  const int64_t rank = current.rank();
  ir::MeshAttr mesh = current.mesh;
  const int64_t devices = mesh.getTotalSize();
  mlir::MLIRContext* context = builder_.getContext();
  AxisList axes;
  for (ir::MeshAxisAttr meshAxis : mesh.getAxes()) {
    axes.push_back(ir::AxisRefAttr::get(context, meshAxis.getName()));
  }
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  llvm::SmallVector<int64_t> oldLength = current.localShape(globalShape);
  llvm::SmallVector<int64_t> newShape = to.localShape(globalShape);
  llvm::SmallVector<int64_t> bufferShape = newShape;
  bufferShape[0] += plan.piece[0];
  mlir::Value result = builder_.create<hlo::BroadcastInDimOp>(
      loc, mlir::RankedTensorType::get(bufferShape, type.getElementType()),
      zeroScalar(type.getElementType(), loc), builder_.getDenseI64ArrayAttr({}));
  // Device s cuts, from its old shard, the piece of `target`'s slot `slot`; device t writes
  // what it has at its slot `slot` (-1: the spare piece at the end).
  auto cutAndPlace = [&](mlir::Value piece, llvm::ArrayRef<int64_t> targetOf,
                         llvm::ArrayRef<int64_t> slotOf, llvm::ArrayRef<int64_t> sourceOf,
                         llvm::ArrayRef<int64_t> placedSlot) {
    llvm::SmallVector<mlir::Value> starts, at;
    for (int64_t d = 0; d < rank; ++d) {
      starts.push_back(lookupPerDevice(
          mesh,
          [&](int64_t s) {
            const int64_t t = targetOf[s];
            if (t < 0) return int64_t{0};
            return plan.globalStart(to, t, slotOf[s], d) - current.shardIndex(d, s) * oldLength[d];
          },
          loc));
    }
    mlir::Value cut = builder_.create<hlo::DynamicSliceOp>(
        loc, withShape(piece, plan.piece), piece, starts, builder_.getDenseI64ArrayAttr(plan.piece));
    if (!sourceOf.empty()) cut = permuteFrom(builder_, cut, current.meshName, axes, sourceOf, loc);
    for (int64_t d = 0; d < rank; ++d) {
      at.push_back(lookupPerDevice(
          mesh,
          [&](int64_t t) {
            if (placedSlot[t] < 0) return d == 0 ? newShape[0] : int64_t{0};
            return plan.slotStart(placedSlot[t], d);
          },
          loc));
    }
    result = builder_.create<hlo::DynamicUpdateSliceOp>(loc, result.getType(), result, cut, at);
  };
  for (const std::vector<PieceExchange::Transfer>& round : plan.remote) {
    std::vector<int64_t> targetOf(devices, -1), slotOf(devices, -1), sourceOf(devices, -1),
        placed(devices, -1);
    for (int64_t t = 0; t < devices; ++t) {
      if (round[t].source < 0) continue;
      targetOf[round[t].source] = t;
      slotOf[round[t].source] = round[t].slot;
      sourceOf[t] = round[t].source;
      placed[t] = round[t].slot;
    }
    cutAndPlace(value, targetOf, slotOf, sourceOf, placed);
  }
  for (const std::vector<int64_t>& round : plan.local) {
    std::vector<int64_t> self(devices);
    for (int64_t t = 0; t < devices; ++t) self[t] = round[t] < 0 ? -1 : t;
    cutAndPlace(value, self, round, {}, round);
  }
  llvm::SmallVector<int64_t> zeros(rank, 0), ones(rank, 1);
  result = builder_.create<hlo::SliceOp>(loc, withShape(value, newShape), result,
                                         builder_.getDenseI64ArrayAttr(zeros),
                                         builder_.getDenseI64ArrayAttr(newShape),
                                         builder_.getDenseI64ArrayAttr(ones));
  current.dims = to.dims;
  return result;
}

}  // namespace tessel::spmd
