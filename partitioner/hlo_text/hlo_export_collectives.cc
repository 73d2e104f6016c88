// Exporters of Tessel collectives, partition_id and the sharding annotations. Groups named by mesh axes become the
// explicit replica groups of the mesh's devices; each collective gets its own channel id
// and, where it reduces, a reducer computation.
#include "llvm/ADT/StringExtras.h"
#include "partitioner/hlo_text/hlo_exporter.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::hlo_text {
namespace {

template <typename OpT>
mlir::FailureOr<std::string> replicaGroups(Exporter& ex, OpT op) {
  ir::MeshAttr mesh = op.getMesh();
  if (!mesh) return op.emitError() << "mesh @" << op.getMeshName() << " is not in the module";
  if (failed(ex.noteDeviceCount(op, mesh.getTotalSize()))) return mlir::failure();
  llvm::SmallVector<ir::AxisRefAttr> axes;
  for (mlir::Attribute axis : op.getAxes()) axes.push_back(mlir::cast<ir::AxisRefAttr>(axis));
  std::string text = "{";
  bool first = true;
  for (const auto& group : ir::getDeviceGroups(mesh, axes)) {
    text += (first ? "" : ",") + Exporter::intList(group);
    first = false;
  }
  return text + "}";
}

llvm::StringRef reducerOpcode(ir::ReductionKind kind) {
  switch (kind) {
    case ir::ReductionKind::Sum: return "add";
    case ir::ReductionKind::Prod: return "multiply";
    case ir::ReductionKind::Max: return "maximum";
    case ir::ReductionKind::Min: return "minimum";
  }
  return "add";
}

// `opcode(%x), channel_id=N, replica_groups=...` + `attrs`.
template <typename OpT>
mlir::LogicalResult emitCollective(Exporter& ex, CompText& comp, OpT op, llvm::StringRef opcode,
                                   const std::string& attrs) {
  mlir::FailureOr<std::string> groups = replicaGroups(ex, op);
  mlir::FailureOr<std::string> operand = ex.operandList(comp, op->getOperands(), op);
  if (failed(groups) || failed(operand)) return mlir::failure();
  ex.define(comp, op, opcode,
            opcode.str() + "(" + *operand + "), channel_id=" + std::to_string(ex.nextChannelId()) +
                ", replica_groups=" + *groups + attrs);
  return mlir::success();
}

std::string reducer(Exporter& ex, mlir::Operation* op, ir::ReductionKind kind) {
  auto type = mlir::cast<mlir::RankedTensorType>(op->getOperand(0).getType());
  return ", to_apply=%" + ex.binaryComputation(reducerOpcode(kind), type.getElementType());
}

mlir::LogicalResult exportAllReduce(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto ar = mlir::cast<ir::AllReduceOp>(op);
  return emitCollective(ex, comp, ar, "all-reduce",
                        ", use_global_device_ids=true" + reducer(ex, op, ar.getKind()));
}

mlir::LogicalResult exportAllGather(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto ag = mlir::cast<ir::AllGatherOp>(op);
  return emitCollective(ex, comp, ag, "all-gather",
                        ", dimensions={" + std::to_string(ag.getDim()) +
                            "}, use_global_device_ids=true");
}

mlir::LogicalResult exportReduceScatter(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto rs = mlir::cast<ir::ReduceScatterOp>(op);
  return emitCollective(ex, comp, rs, "reduce-scatter",
                        ", dimensions={" + std::to_string(rs.getDim()) +
                            "}, use_global_device_ids=true" + reducer(ex, op, rs.getKind()));
}

// `shape` of `elementType` as HLO text.
std::string shapeText(llvm::ArrayRef<int64_t> shape, mlir::Type elementType) {
  return Exporter::shapeOf(mlir::RankedTensorType::get(shape, elementType));
}

// XLA's array all-to-all splits and concatenates along one dimension. With split s and
// concat c apart (group size n), the operand's dim s is cut into (n, S/n) and the n chunks
// brought to the front, the all-to-all exchanges them along that front dimension, and the
// received chunks (in group order) move to just before dim c and merge with it:
//   reshape, transpose, all-to-all dimensions={0}, transpose, reshape.
mlir::LogicalResult exportAllToAll(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto a2a = mlir::cast<ir::AllToAllOp>(op);
  const int64_t split = a2a.getSplitDim(), concat = a2a.getConcatDim();
  if (split == concat) {
    return emitCollective(ex, comp, a2a, "all-to-all",
                          ", dimensions={" + std::to_string(split) + "}");
  }
  mlir::FailureOr<std::string> groups = replicaGroups(ex, a2a);
  mlir::FailureOr<std::string> operand = ex.operandList(comp, op->getOperands(), op);
  if (failed(groups) || failed(operand)) return mlir::failure();
  auto type = mlir::cast<mlir::RankedTensorType>(a2a.getOperand().getType());
  mlir::Type element = type.getElementType();
  const int64_t n = a2a.getGroupSize();
  const int64_t rank = type.getRank();
  // [.., n, S/n, ..]: the chunk index at position `split`.
  llvm::SmallVector<int64_t> cut(type.getShape());
  cut[split] /= n;
  cut.insert(cut.begin() + split, n);
  std::string value = ex.addLine(comp, "reshape", shapeText(cut, element),
                                 "reshape(" + *operand + ")");
  // [n, rest...] where rest is the operand's shape with dim `split` at S/n.
  llvm::SmallVector<int64_t> toFront = {split};
  llvm::SmallVector<int64_t> front = {n};
  for (int64_t d = 0; d <= rank; ++d) {
    if (d == split) continue;
    toFront.push_back(d);
    front.push_back(cut[d]);
  }
  value = ex.addLine(comp, "transpose", shapeText(front, element),
                     "transpose(" + value + "), dimensions=" + Exporter::intList(toFront));
  value = ex.addLine(comp, "all-to-all", shapeText(front, element),
                     "all-to-all(" + value + "), channel_id=" +
                         std::to_string(ex.nextChannelId()) + ", replica_groups=" + *groups +
                         ", dimensions={0}");
  // [rest[0..c), n, rest[c..)], then n merged into dim c.
  llvm::SmallVector<int64_t> toConcat, beside;
  for (int64_t d = 1; d <= rank; ++d) {
    if (d - 1 == concat) {
      toConcat.push_back(0);
      beside.push_back(n);
    }
    toConcat.push_back(d);
    beside.push_back(front[d]);
  }
  value = ex.addLine(comp, "transpose", shapeText(beside, element),
                     "transpose(" + value + "), dimensions=" + Exporter::intList(toConcat));
  ex.define(comp, op, "reshape", "reshape(" + value + ")");
  return mlir::success();
}

mlir::LogicalResult exportCollectivePermute(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto cp = mlir::cast<ir::CollectivePermuteOp>(op);
  ir::MeshAttr mesh = cp.getMesh();
  if (!mesh) return op->emitError() << "mesh @" << cp.getMeshName() << " is not in the module";
  if (failed(ex.noteDeviceCount(op, mesh.getTotalSize()))) return mlir::failure();
  llvm::SmallVector<ir::AxisRefAttr> axes;
  for (mlir::Attribute axis : cp.getAxes()) axes.push_back(mlir::cast<ir::AxisRefAttr>(axis));
  std::vector<std::string> pairs;
  for (const auto& group : ir::getDeviceGroups(mesh, axes)) {
    for (auto [source, target] : cp.getSourceTargetPairs()) {
      pairs.push_back("{" + std::to_string(group[source]) + "," + std::to_string(group[target]) +
                      "}");
    }
  }
  mlir::FailureOr<std::string> operand = ex.operandList(comp, op->getOperands(), op);
  if (failed(operand)) return mlir::failure();
  ex.define(comp, op, "collective-permute",
            "collective-permute(" + *operand + "), channel_id=" +
                std::to_string(ex.nextChannelId()) + ", source_target_pairs={" +
                llvm::join(pairs, ",") + "}");
  return mlir::success();
}

mlir::LogicalResult exportPartitionId(Exporter& ex, CompText& comp, mlir::Operation* op) {
  ex.define(comp, op, "partition-id", "partition-id()");
  return mlir::success();
}

// A sharding constraint or reshard is GSPMD's annotation call; its sharding travels as the
// `sharding=` of the pass-through attributes (--tessel-export-hlo-shardings writes it).
mlir::LogicalResult exportShardingAnnotation(Exporter& ex, CompText& comp, mlir::Operation* op) {
  if (!op->hasAttr("tessel.hlo_sharding")) {
    return op->emitError() << "'" << op->getName()
                           << "' needs its sharding in GSPMD form to be written as HLO (run "
                              "--tessel-export-hlo-shardings first)";
  }
  mlir::FailureOr<std::string> operand = ex.operandList(comp, op->getOperands(), op);
  if (failed(operand)) return mlir::failure();
  ex.define(comp, op, "sharding",
            "custom-call(" + *operand + "), custom_call_target=\"Sharding\"");
  return mlir::success();
}

// GSPMD's form of a sharding group: one annotation call per value, `{unknown shard_as N}`,
// whose result nothing reads (the side effect keeps it).
mlir::LogicalResult exportShardingGroup(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto group = mlir::cast<ir::ShardingGroupOp>(op);
  for (mlir::Value input : group.getInputs()) {
    mlir::FailureOr<std::string> operand = ex.operandList(comp, input, op);
    if (failed(operand)) return mlir::failure();
    ex.addLine(comp, "shard-as", Exporter::shapeOf(input.getType()),
               "custom-call(" + *operand +
                   "), custom_call_target=\"Sharding\", custom_call_has_side_effect=true, "
                   "sharding={unknown shard_as " +
                   std::to_string(group.getGroupId()) + "}");
  }
  return mlir::success();
}

}  // namespace

void RegisterCollectiveExporters(ExporterTable& table) {
  table["tessel.all_reduce"] = exportAllReduce;
  table["tessel.all_gather"] = exportAllGather;
  table["tessel.reduce_scatter"] = exportReduceScatter;
  table["tessel.all_to_all"] = exportAllToAll;
  table["tessel.collective_permute"] = exportCollectivePermute;
  table["tessel.partition_id"] = exportPartitionId;
  table["tessel.sharding_constraint"] = exportShardingAnnotation;
  table["tessel.reshard"] = exportShardingAnnotation;
  table["tessel.sharding_group"] = exportShardingGroup;
}

}  // namespace tessel::hlo_text
