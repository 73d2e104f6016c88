// Exporters of Tessel collectives and partition_id. Groups named by mesh axes become the
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

// XLA's array all-to-all splits and concatenates along one dimension.
mlir::LogicalResult exportAllToAll(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto a2a = mlir::cast<ir::AllToAllOp>(op);
  if (a2a.getSplitDim() != a2a.getConcatDim()) {
    return op->emitError() << "all_to_all with split_dim " << a2a.getSplitDim()
                           << " != concat_dim " << a2a.getConcatDim()
                           << " has no single HLO instruction";
  }
  return emitCollective(ex, comp, a2a, "all-to-all",
                        ", dimensions={" + std::to_string(a2a.getSplitDim()) + "}");
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

}  // namespace

void RegisterCollectiveExporters(ExporterTable& table) {
  table["tessel.all_reduce"] = exportAllReduce;
  table["tessel.all_gather"] = exportAllGather;
  table["tessel.reduce_scatter"] = exportReduceScatter;
  table["tessel.all_to_all"] = exportAllToAll;
  table["tessel.collective_permute"] = exportCollectivePermute;
  table["tessel.partition_id"] = exportPartitionId;
}

}  // namespace tessel::hlo_text
