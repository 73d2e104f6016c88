// Exporters of ops with regions or callees (reduce, reduce_window, select_and_scatter,
// scatter, sort, while, case, custom_call, func.call) and of top_k, optimization_barrier,
// replica_id, rng_bit_generator and tessel.manual_computation.
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/Transforms/RegionUtils.h"
#include "partitioner/hlo_text/hlo_exporter.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::hlo_text {
namespace {

// `opcode(operands)attrs, <regionAttr>=%computation ...` for each region in order.
mlir::LogicalResult emitWithRegions(Exporter& ex, CompText& comp, mlir::Operation* op,
                                    llvm::StringRef opcode, std::string attrs,
                                    llvm::ArrayRef<llvm::StringRef> regionAttrs) {
  mlir::FailureOr<std::string> operands = ex.operandList(comp, op->getOperands(), op);
  if (failed(operands)) return mlir::failure();
  for (size_t i = 0; i < regionAttrs.size(); ++i) {
    mlir::FailureOr<std::string> name =
        ex.regionComputation(op->getRegion(i), op, (opcode + "_" + regionAttrs[i]).str());
    if (failed(name)) return mlir::failure();
    attrs += ", " + regionAttrs[i].str() + "=%" + *name;
  }
  ex.define(comp, op, opcode, opcode.str() + "(" + *operands + ")" + attrs);
  return mlir::success();
}

mlir::LogicalResult exportReduce(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto reduce = mlir::cast<hlo::ReduceOp>(op);
  return emitWithRegions(ex, comp, op, "reduce",
                         ", dimensions=" + Exporter::intList(reduce.getDimensions()),
                         {"to_apply"});
}

mlir::LogicalResult exportReduceWindow(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto rw = mlir::cast<hlo::ReduceWindowOp>(op);
  std::string window = WindowText(rw.getWindowDimensions(), rw.getWindowStrides(),
                                  rw.getPadding(), rw.getBaseDilations(), rw.getWindowDilations());
  return emitWithRegions(ex, comp, op, "reduce-window", ", window=" + window, {"to_apply"});
}

mlir::LogicalResult exportSelectAndScatter(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto sas = mlir::cast<hlo::SelectAndScatterOp>(op);
  std::string window = WindowText(sas.getWindowDimensions(), sas.getWindowStrides(),
                                  sas.getPadding(), std::nullopt, std::nullopt);
  return emitWithRegions(ex, comp, op, "select-and-scatter", ", window=" + window,
                         {"select", "scatter"});
}

mlir::LogicalResult exportScatter(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto scatter = mlir::cast<hlo::ScatterOp>(op);
  hlo::ScatterDimensionNumbersAttr dims = scatter.getScatterDimensionNumbers();
  std::string attrs;
  auto add = [&](llvm::StringRef name, llvm::ArrayRef<int64_t> list) {
    if (!list.empty()) attrs += ", " + name.str() + "=" + Exporter::intList(list);
  };
  add("update_window_dims", dims.getUpdateWindowDims());
  add("inserted_window_dims", dims.getInsertedWindowDims());
  add("input_batching_dims", dims.getInputBatchingDims());
  add("scatter_indices_batching_dims", dims.getScatterIndicesBatchingDims());
  add("scatter_dims_to_operand_dims", dims.getScatterDimsToOperandDims());
  attrs += ", index_vector_dim=" + std::to_string(dims.getIndexVectorDim());
  if (scatter.getIndicesAreSorted()) attrs += ", indices_are_sorted=true";
  if (scatter.getUniqueIndices()) attrs += ", unique_indices=true";
  return emitWithRegions(ex, comp, op, "scatter", attrs, {"to_apply"});
}

mlir::LogicalResult exportSort(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto sort = mlir::cast<hlo::SortOp>(op);
  std::string attrs = ", dimensions={" + std::to_string(sort.getDimension()) + "}";
  if (sort.getIsStable()) attrs += ", is_stable=true";
  return emitWithRegions(ex, comp, op, "sort", attrs, {"to_apply"});
}

mlir::LogicalResult exportTopK(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto topK = mlir::cast<hlo::TopKOp>(op);
  mlir::FailureOr<std::string> operands = ex.operandList(comp, op->getOperands(), op);
  if (failed(operands)) return mlir::failure();
  ex.define(comp, op, "topk",
            "topk(" + *operands + "), k=" + std::to_string(topK.getK()) +
                ", largest=" + (topK.getSmallest() ? "false" : "true"));
  return mlir::success();
}

// XLA's barrier takes one tuple and returns one, even for a single value.
mlir::LogicalResult exportOptimizationBarrier(Exporter& ex, CompText& comp, mlir::Operation* op) {
  mlir::FailureOr<std::string> operands = ex.operandList(comp, op->getOperands(), op);
  if (failed(operands)) return mlir::failure();
  std::string tuple = ex.addLine(comp, "tuple", Exporter::tupleShapeOf(op->getOperandTypes()),
                                 "tuple(" + *operands + ")");
  ex.define(comp, op, "opt-barrier", "opt-barrier(" + tuple + ")", /*forceTuple=*/true);
  return mlir::success();
}

mlir::LogicalResult exportReplicaId(Exporter& ex, CompText& comp, mlir::Operation* op) {
  ex.define(comp, op, "replica-id", "replica-id()");
  return mlir::success();
}

// XLA's op makes the whole output. A windowed op (a shard's box) becomes the whole output,
// padded with zeros by the window's size on both sides of every dimension, and a
// dynamic-slice at start + size: positions outside the whole output read the padding's 0s,
// as they do in the op, and no start the partitioner makes is clamped.
mlir::LogicalResult exportRngBitGenerator(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto rng = mlir::cast<hlo::RngBitGeneratorOp>(op);
  mlir::FailureOr<std::string> state = ex.operandList(comp, rng.getState(), op);
  if (failed(state)) return mlir::failure();
  const std::string call = "rng-bit-generator(" + *state + "), algorithm=rng_" +
                           hlo::stringifyRngAlgorithm(rng.getAlgorithm()).str();
  std::optional<llvm::ArrayRef<int64_t>> window = rng.getGlobalShape();
  if (!window) {
    ex.define(comp, op, "rng-bit-generator", call);
    return mlir::success();
  }
  mlir::FailureOr<std::string> starts = ex.operandList(comp, rng.getStartIndices(), op);
  if (failed(starts)) return mlir::failure();
  auto localType = rng.getOutput().getType();
  mlir::Type element = localType.getElementType();
  auto wholeType = mlir::RankedTensorType::get(*window, element);
  const std::string tuple = ex.addLine(
      comp, "rng-bit-generator",
      Exporter::tupleShapeOf({rng.getState().getType(), wholeType}), call);
  comp.names[rng.getOutputState()] =
      ex.addLine(comp, "get-tuple-element", Exporter::shapeOf(rng.getState().getType()),
                 "get-tuple-element(" + tuple + "), index=0");
  const std::string whole = ex.addLine(comp, "get-tuple-element", Exporter::shapeOf(wholeType),
                                       "get-tuple-element(" + tuple + "), index=1");
  const std::string zero =
      ex.addLine(comp, "constant", Exporter::shapeOf(mlir::RankedTensorType::get({}, element)),
                 "constant(0)");
  llvm::SmallVector<int64_t> paddedShape;
  std::string config;
  std::string shifted;
  for (auto [d, size] : llvm::enumerate(localType.getShape())) {
    paddedShape.push_back((*window)[d] + 2 * size);
    config += (d ? "x" : "") + std::to_string(size) + "_" + std::to_string(size);
    mlir::Value start = rng.getStartIndices()[d];
    const std::string startShape = Exporter::shapeOf(start.getType());
    const std::string offset = ex.addLine(comp, "constant", startShape,
                                          "constant(" + std::to_string(size) + ")");
    mlir::FailureOr<std::string> name = ex.operandList(comp, start, op);
    if (failed(name)) return mlir::failure();
    shifted += (d ? ", " : "") +
               ex.addLine(comp, "add", startShape, "add(" + *name + ", " + offset + ")");
  }
  const std::string padded = ex.addLine(
      comp, "pad", Exporter::shapeOf(mlir::RankedTensorType::get(paddedShape, element)),
      "pad(" + whole + ", " + zero + "), padding=" + config);
  comp.names[rng.getOutput()] = ex.addLine(
      comp, "dynamic-slice", Exporter::shapeOf(localType),
      "dynamic-slice(" + padded + (shifted.empty() ? "" : ", " + shifted) +
          "), dynamic_slice_sizes=" + Exporter::intList(localType.getShape()));
  return mlir::success();
}

// GSPMD's form of shard_map, which HLO import reads back: per operand a Sharding call with
// the in sharding and an SPMDFullToShardShape to the local value (manual along the manual
// axes), a call of the body, and per result a Sharding call of the local value and an
// SPMDShardToFullShape with the out sharding. The shardings are the GSPMD text that
// --tessel-export-hlo-shardings leaves on the op.
mlir::LogicalResult exportManualComputation(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto manual = mlir::cast<ir::ManualComputationOp>(op);
  auto texts = [&](llvm::StringRef name) {
    auto array = op->getAttrOfType<mlir::ArrayAttr>(name);
    return array ? llvm::to_vector(array.getAsValueRange<mlir::StringAttr>())
                 : llvm::SmallVector<llvm::StringRef>();
  };
  llvm::SmallVector<llvm::StringRef> in = texts("tessel.hlo_in_shardings");
  llvm::SmallVector<llvm::StringRef> inLocal = texts("tessel.hlo_in_local_shardings");
  llvm::SmallVector<llvm::StringRef> out = texts("tessel.hlo_out_shardings");
  llvm::SmallVector<llvm::StringRef> outLocal = texts("tessel.hlo_out_local_shardings");
  if (in.size() != op->getNumOperands() || inLocal.size() != in.size() ||
      out.size() != op->getNumResults() || outLocal.size() != out.size()) {
    return op->emitError() << "'" << op->getName()
                           << "' needs its shardings in GSPMD form to be written as HLO (run "
                              "--tessel-export-hlo-shardings first)";
  }
  mlir::Block& body = manual.getBody().front();
  // The sharding goes where the exporter looks for one (so a ROOT gets no second one).
  auto annotated = [&](llvm::StringRef hint, mlir::Type type, std::string rest,
                       llvm::StringRef sharding) {
    std::string name = ex.addLine(comp, hint, Exporter::shapeOf(type), std::move(rest));
    comp.lines.back().extra = ", sharding=" + sharding.str();
    return name;
  };
  std::vector<std::string> locals;
  for (auto [k, operand] : llvm::enumerate(op->getOperands())) {
    mlir::FailureOr<std::string> name = ex.operandList(comp, operand, op);
    if (failed(name)) return mlir::failure();
    std::string global =
        annotated("sharding", operand.getType(),
                  "custom-call(" + *name + "), custom_call_target=\"Sharding\"", in[k]);
    locals.push_back(annotated(
        "full-to-shard", body.getArgument(k).getType(),
        "custom-call(" + global + "), custom_call_target=\"SPMDFullToShardShape\"", inLocal[k]));
  }
  mlir::FailureOr<std::string> callee = ex.regionComputation(manual.getBody(), op, "shard_map_body");
  if (failed(callee)) return mlir::failure();
  mlir::TypeRange localTypes = body.getTerminator()->getOperandTypes();
  const bool single = localTypes.size() == 1;
  std::string call = ex.addLine(
      comp, "call", single ? Exporter::shapeOf(localTypes[0]) : Exporter::tupleShapeOf(localTypes),
      "call(" + llvm::join(locals, ", ") + "), to_apply=%" + *callee);
  for (auto [j, result] : llvm::enumerate(op->getResults())) {
    std::string local = call;
    if (!single) {
      local = ex.addLine(comp, "get-tuple-element", Exporter::shapeOf(localTypes[j]),
                         "get-tuple-element(" + call + "), index=" + std::to_string(j));
    }
    std::string manualValue =
        annotated("sharding", localTypes[j],
                  "custom-call(" + local + "), custom_call_target=\"Sharding\"", outLocal[j]);
    comp.names[result] = annotated(
        "shard-to-full", result.getType(),
        "custom-call(" + manualValue + "), custom_call_target=\"SPMDShardToFullShape\"",
        out[j]);
  }
  return mlir::success();
}

// The state travels as one tuple; the body returns a tuple even for one value. An HLO
// computation cannot read values from outside, so the values the regions capture are
// carried along: appended to the state, passed on unchanged by the body, dropped after.
mlir::LogicalResult exportWhile(Exporter& ex, CompText& comp, mlir::Operation* op) {
  llvm::SetVector<mlir::Value> captured;
  for (mlir::Region& region : op->getRegions()) {
    mlir::getUsedValuesDefinedAbove(region, captured);
  }
  llvm::SmallVector<mlir::Value> inputs(op->getOperands());
  inputs.append(captured.begin(), captured.end());
  mlir::FailureOr<std::string> operands = ex.operandList(comp, inputs, op);
  if (failed(operands)) return mlir::failure();
  mlir::Region& cond = op->getRegion(0);
  mlir::Region& body = op->getRegion(1);
  auto bound = [&](mlir::Region& region) {
    llvm::SmallVector<mlir::Value> values(region.front().getArguments());
    values.append(captured.begin(), captured.end());
    return values;
  };
  mlir::FailureOr<std::string> condName =
      ex.tupleParamComputation(cond, bound(cond), op, "while_condition", false);
  if (failed(condName)) return mlir::failure();
  mlir::FailureOr<std::string> bodyName = ex.tupleParamComputation(
      body, bound(body), op, "while_body", true, captured.getArrayRef());
  if (failed(bodyName)) return mlir::failure();
  std::string state = ex.addLine(comp, "tuple",
                                 Exporter::tupleShapeOf(mlir::ValueRange(inputs).getTypes()),
                                 "tuple(" + *operands + ")");
  ex.define(comp, op, "while",
            "while(" + state + "), condition=%" + *condName + ", body=%" + *bodyName,
            /*forceTuple=*/true, mlir::ValueRange(captured.getArrayRef()).getTypes());
  return mlir::success();
}

// Branches use values from above; every branch gets all of them as one tuple parameter.
mlir::LogicalResult exportCase(Exporter& ex, CompText& comp, mlir::Operation* op) {
  llvm::SetVector<mlir::Value> captured;
  for (mlir::Region& region : op->getRegions()) {
    mlir::getUsedValuesDefinedAbove(region, captured);
  }
  mlir::FailureOr<std::string> index = ex.operandList(comp, op->getOperand(0), op);
  mlir::FailureOr<std::string> values = ex.operandList(comp, captured.getArrayRef(), op);
  if (failed(index) || failed(values)) return mlir::failure();
  std::vector<std::string> branches;
  for (mlir::Region& region : op->getRegions()) {
    mlir::FailureOr<std::string> name = ex.tupleParamComputation(
        region, captured.getArrayRef(), op, "branch", false);
    if (failed(name)) return mlir::failure();
    branches.push_back("%" + *name);
  }
  std::string tuple =
      ex.addLine(comp, "tuple", Exporter::tupleShapeOf(mlir::ValueRange(captured.getArrayRef()).getTypes()),
                 "tuple(" + *values + ")");
  std::string operands = *index;
  for (size_t i = 0; i < branches.size(); ++i) operands += ", " + tuple;
  ex.define(comp, op, "conditional",
            "conditional(" + operands + "), branch_computations={" +
                llvm::join(branches, ", ") + "}");
  return mlir::success();
}

mlir::LogicalResult exportCustomCall(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto call = mlir::cast<hlo::CustomCallOp>(op);
  mlir::FailureOr<std::string> operands = ex.operandList(comp, op->getOperands(), op);
  if (failed(operands)) return mlir::failure();
  std::string rest = "custom-call(" + *operands + "), custom_call_target=" +
                     Exporter::quoted(call.getCallTargetName());
  if (std::optional<llvm::StringRef> config = call.getBackendConfig()) {
    rest += ", backend_config=" + Exporter::quoted(*config);
  }
  if (call.getHasSideEffect()) rest += ", custom_call_has_side_effect=true";
  ex.define(comp, op, "custom-call", rest);
  return mlir::success();
}

mlir::LogicalResult exportCall(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto call = mlir::cast<mlir::func::CallOp>(op);
  auto callee = ex.module().lookupSymbol<mlir::func::FuncOp>(call.getCallee());
  if (!callee) return op->emitError() << "callee @" << call.getCallee() << " is not in the module";
  mlir::FailureOr<std::string> name = ex.functionComputation(callee);
  mlir::FailureOr<std::string> operands = ex.operandList(comp, op->getOperands(), op);
  if (failed(name) || failed(operands)) return mlir::failure();
  ex.define(comp, op, "call", "call(" + *operands + "), to_apply=%" + *name);
  return mlir::success();
}

}  // namespace

void RegisterControlExporters(ExporterTable& table) {
  table["hlo.reduce"] = exportReduce;
  table["hlo.reduce_window"] = exportReduceWindow;
  table["hlo.select_and_scatter"] = exportSelectAndScatter;
  table["hlo.scatter"] = exportScatter;
  table["hlo.sort"] = exportSort;
  table["hlo.top_k"] = exportTopK;
  table["hlo.optimization_barrier"] = exportOptimizationBarrier;
  table["hlo.replica_id"] = exportReplicaId;
  table["hlo.rng_bit_generator"] = exportRngBitGenerator;
  table["tessel.manual_computation"] = exportManualComputation;
  table["hlo.while"] = exportWhile;
  table["hlo.case"] = exportCase;
  table["hlo.custom_call"] = exportCustomCall;
  table["func.call"] = exportCall;
}

}  // namespace tessel::hlo_text
