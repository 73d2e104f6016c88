// Resharding between two meshes. HLO import makes one mesh per device order it cannot fold
// into another (`{devices=[2]0,1}` and `{devices=[2]1,0}`), and one single-device mesh per
// maximal sharding, so a value can meet a consumer laid out on another mesh. The meshes
// agree on what a device id is (partition_id), so the move is planned per device id:
//   - from a single-device mesh (a maximal value, whose data only its owner holds): the
//     owner's bits, zeros elsewhere, summed as integers over a mesh that holds every
//     device: a broadcast that is exact for every float (a float sum would turn -0 into +0);
//   - to a single-device mesh: gathered whole on the old mesh, which the owner then holds;
//   - between meshes over the same devices, with as many shards per dim both ways: one
//     collective_permute that hands each device its new shard, which some device holds
//     (none when every device holds its own already); with other shard counts, the piece
//     exchange of piece_exchange.h, planned from old to new shard per device id; else
//     gathered whole and sliced on the new mesh.
// Afterwards the value lies on the target's mesh and the usual same-mesh plan finishes.
#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "llvm/ADT/Sequence.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/spmd/spmd_builder.h"

namespace tessel::spmd {
namespace {

std::set<int64_t> devicesOf(ir::MeshAttr mesh) {
  std::set<int64_t> devices;
  for (int64_t i = 0; i < mesh.getTotalSize(); ++i) devices.insert(mesh.getDeviceId(i));
  return devices;
}

bool covers(const std::set<int64_t>& outer, const std::set<int64_t>& inner) {
  return std::includes(outer.begin(), outer.end(), inner.begin(), inner.end());
}

// Where every dim has as many shards under `to` as under `from`, each device's new shard
// is some device's old one: the (source, target) pairs, by `from`'s linear index, of one
// collective_permute that delivers them (a device that holds its new shard keeps it, as a
// pair with itself). A shard held by k devices is wanted by k devices, so every want is met
// by a distinct holder. None where the shard counts differ.
std::optional<llvm::SmallVector<int64_t>> wholeShardPairs(const Layout& from, const Layout& to) {
  for (int64_t d = 0; d < from.rank(); ++d) {
    if (from.numShards(d) != to.numShards(d)) return std::nullopt;
  }
  const int64_t devices = from.mesh.getTotalSize();
  auto shardOf = [](const Layout& layout, int64_t linear) {
    std::vector<int64_t> index;
    for (int64_t d = 0; d < layout.rank(); ++d) index.push_back(layout.shardIndex(d, linear));
    return index;
  };
  std::vector<std::vector<int64_t>> wanted(devices);
  std::map<std::vector<int64_t>, std::vector<int64_t>> spare;  // holders not yet keeping
  for (int64_t t = 0; t < devices; ++t) {
    std::optional<int64_t> there = to.mesh.findLinearIndex(from.mesh.getDeviceId(t));
    if (!there) return std::nullopt;
    wanted[t] = shardOf(to, *there);
    if (wanted[t] != shardOf(from, t)) spare[shardOf(from, t)].push_back(t);
  }
  llvm::SmallVector<int64_t> pairs;
  for (int64_t t = 0; t < devices; ++t) {
    if (wanted[t] == shardOf(from, t)) {
      pairs.append({t, t});
      continue;
    }
    std::vector<int64_t>& holders = spare[wanted[t]];
    if (holders.empty()) return std::nullopt;
    pairs.append({holders.back(), t});
    holders.pop_back();
  }
  return pairs;
}

}  // namespace

mlir::FailureOr<mlir::Value> SpmdBuilder::broadcastFromOwner(mlir::Value value, int64_t owner,
                                                             const Layout& over,
                                                             mlir::Location loc) {
  const std::pair<const void*, const void*> key = {value.getAsOpaquePointer(),
                                                   over.meshName.getAsOpaquePointer()};
  if (auto found = memo_.broadcasts.find(key); found != memo_.broadcasts.end()) {
    return found->second;
  }
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  mlir::Type element = type.getElementType();
  if (!element.isIntOrFloat()) {
    return mlir::emitError(loc) << "cannot move a value of element type " << element
                                << " off the one device that holds it";
  }
  const unsigned width = element.getIntOrFloatBitWidth();
  mlir::Type bitsElement = builder_.getIntegerType(std::max(width, 8u));
  auto bitsType = mlir::RankedTensorType::get(type.getShape(), bitsElement);
  mlir::Value bits = value;
  if (llvm::isa<mlir::FloatType>(element)) {
    bits = builder_.create<hlo::BitcastConvertOp>(loc, bitsType, value);
  } else if (element != bitsElement) {
    bits = builder_.create<hlo::ConvertOp>(loc, bitsType, value);
  }
  ir::MeshAttr mesh = over.mesh;
  mlir::Value isOwner = lookupPerDevice(
      mesh, [&](int64_t linear) -> int64_t { return mesh.getDeviceId(linear) == owner; }, loc);
  auto predType = mlir::RankedTensorType::get({}, builder_.getI1Type());
  mlir::Value keep = builder_.create<hlo::CompareOp>(
      loc, predType, isOwner, constantI32(1, loc),
      hlo::ComparisonDirectionAttr::get(builder_.getContext(), hlo::ComparisonDirection::EQ),
      nullptr);
  keep = builder_.create<hlo::BroadcastInDimOp>(
      loc, mlir::RankedTensorType::get(type.getShape(), builder_.getI1Type()), keep,
      builder_.getDenseI64ArrayAttr({}));
  mlir::Value zeros = builder_.create<hlo::BroadcastInDimOp>(
      loc, bitsType, zeroScalar(bitsElement, loc), builder_.getDenseI64ArrayAttr({}));
  bits = builder_.create<hlo::SelectOp>(loc, bitsType, keep, bits, zeros);
  AxisList all;
  for (ir::MeshAxisAttr axis : mesh.getAxes()) {
    all.push_back(ir::AxisRefAttr::get(builder_.getContext(), axis.getName()));
  }
  if (!all.empty()) bits = allReduce(bits, over, all, loc);
  mlir::Value whole = bits;
  if (llvm::isa<mlir::FloatType>(element)) {
    whole = builder_.create<hlo::BitcastConvertOp>(loc, type, bits);
  } else if (element != bitsElement) {
    whole = builder_.create<hlo::ConvertOp>(loc, type, bits);
  }
  memo_.broadcasts[key] = whole;
  return whole;
}

mlir::FailureOr<mlir::Value> SpmdBuilder::crossMeshes(mlir::Value value, Layout& current,
                                                      const Layout& target,
                                                      llvm::ArrayRef<int64_t> globalShape,
                                                      mlir::Location loc) {
  const int64_t rank = current.rank();
  const Layout onTarget = Layout::replicated(target.mesh, target.meshName, rank);
  // Unreduced axes name one mesh's groups: the sums are taken before leaving it.
  if (!current.unreduced.empty()) {
    value = allReduce(value, current, current.unreduced, loc);
    current.unreduced.clear();
  }
  const std::set<int64_t> from = devicesOf(current.mesh), to = devicesOf(target.mesh);
  if (current.mesh.getTotalSize() == 1 && from != to) {
    // A mesh over every device the move touches carries the broadcast.
    std::set<int64_t> touched = from;
    touched.insert(to.begin(), to.end());
    std::optional<Layout> over;
    if (covers(to, touched)) over = onTarget;
    for (ir::MeshOp meshOp : module_.getOps<ir::MeshOp>()) {
      if (over) break;
      if (covers(devicesOf(meshOp.getMesh()), touched)) {
        over = Layout::replicated(meshOp.getMesh(),
                                  mlir::FlatSymbolRefAttr::get(meshOp.getSymNameAttr()), rank);
      }
    }
    if (!over) {
      return mlir::emitError(loc) << "cannot move a value from mesh " << current.meshName
                                  << " to mesh " << target.meshName
                                  << ": no mesh holds the devices of both";
    }
    mlir::FailureOr<mlir::Value> whole =
        broadcastFromOwner(value, current.mesh.getDeviceId(0), *over, loc);
    if (mlir::failed(whole)) return mlir::failure();
    current = onTarget;
    return *whole;
  }
  if (target.mesh.getTotalSize() == 1 && covers(from, to)) {
    // The owner holds the whole value once every device of the old mesh does.
    mlir::FailureOr<mlir::Value> whole = reshard(
        value, current, Layout::replicated(current.mesh, current.meshName, rank), globalShape, loc);
    if (mlir::failed(whole)) return mlir::failure();
    current = onTarget;
    return *whole;
  }
  if (from != to) {
    return mlir::emitError(loc) << "cannot reshard from mesh " << current.meshName << " to mesh "
                                << target.meshName << ": they hold different devices";
  }
  Layout moved = target;
  moved.unreduced.clear();
  if (std::optional<llvm::SmallVector<int64_t>> pairs = wholeShardPairs(current, moved)) {
    const bool stays = llvm::all_of(llvm::seq<size_t>(0, pairs->size() / 2), [&](size_t i) {
      return (*pairs)[2 * i] == (*pairs)[2 * i + 1];
    });
    if (!stays) {
      llvm::SmallVector<mlir::Attribute> axes;
      for (ir::MeshAxisAttr axis : current.mesh.getAxes()) {
        axes.push_back(ir::AxisRefAttr::get(builder_.getContext(), axis.getName()));
      }
      value = builder_.create<ir::CollectivePermuteOp>(
          loc, value.getType(), value, current.meshName, builder_.getArrayAttr(axes),
          /*shift=*/nullptr, /*cyclic=*/nullptr, builder_.getDenseI64ArrayAttr(*pairs));
    }
    current = moved;
    return value;
  }
  if (const PieceExchange* plan = pieceExchangeFor(current, moved, globalShape)) {
    value = emitPieceExchange(value, current, moved, *plan, globalShape, loc);
    current = moved;
    return value;
  }
  mlir::FailureOr<mlir::Value> whole = reshard(
      value, current, Layout::replicated(current.mesh, current.meshName, rank), globalShape, loc);
  if (mlir::failed(whole)) return mlir::failure();
  current = onTarget;
  return *whole;
}

}  // namespace tessel::spmd
