// Importers of opcodes with reducer regions or dimension numbers: reduce, reduce-window,
// select-and-scatter, dot, convolution, gather, scatter, sort.
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

mlir::NamedAttribute named(Importer& im, llvm::StringRef name, mlir::Attribute value) {
  return im.builder().getNamedAttr(name, value);
}

mlir::Attribute i64Array(Importer& im, llvm::ArrayRef<int64_t> v) {
  return im.builder().getDenseI64ArrayAttr(v);
}

// Window padding as the [n, 2] tensor of [low, high] rows that the hlo ops take.
mlir::Attribute paddingRows(Importer& im, llvm::ArrayRef<int64_t> low,
                            llvm::ArrayRef<int64_t> high) {
  llvm::SmallVector<int64_t> flat;
  for (size_t i = 0; i < low.size(); ++i) {
    flat.push_back(low[i]);
    flat.push_back(high[i]);
  }
  auto type = mlir::RankedTensorType::get({int64_t(low.size()), 2}, im.builder().getI64Type());
  return mlir::DenseIntElementsAttr::get(type, flat);
}

mlir::FailureOr<bool> flagAttr(Importer& im, Instruction& inst, llvm::StringRef name) {
  AttrText* attr = im.findAttr(inst, name);
  if (!attr) return false;
  return ParseBoolAttr(*attr, im.context());
}

mlir::FailureOr<llvm::SmallVector<mlir::Value>> arrayOperands(Importer& im,
                                                             const Instruction& inst) {
  llvm::SmallVector<mlir::Value> values;
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    mlir::FailureOr<mlir::Value> v = im.operand(inst, i);
    if (failed(v)) return mlir::failure();
    values.push_back(*v);
  }
  return values;
}

// Creates `opName` with the instruction's leaves as results and fills its regions from the
// computations named by `regionAttrs`.
mlir::FailureOr<Imported> createWithRegions(Importer& im, Instruction& inst,
                                            llvm::StringRef opName,
                                            llvm::ArrayRef<mlir::Value> operands,
                                            llvm::ArrayRef<mlir::NamedAttribute> attrs,
                                            llvm::ArrayRef<llvm::StringRef> regionAttrs) {
  llvm::SmallVector<Computation*> comps;
  for (llvm::StringRef attr : regionAttrs) {
    mlir::FailureOr<Computation*> comp = im.computationAttr(inst, attr);
    if (failed(comp)) return mlir::failure();
    comps.push_back(*comp);
  }
  mlir::Operation* op = im.create(inst, opName, operands, im.leafTypes(inst), attrs,
                                  regionAttrs.size());
  for (size_t i = 0; i < comps.size(); ++i) {
    if (failed(im.importRegion(*comps[i], op->getRegion(i), inst))) return mlir::failure();
  }
  return im.all(op);
}

// Only convolution has a kernel to reverse.
mlir::LogicalResult refuseReversal(Importer& im, const Instruction& inst, const Window& window) {
  if (!window.reversesKernel()) return mlir::success();
  return mlir::emitError(im.loc(window.rhsReversalPos))
         << "window rhs_reversal applies to a convolution's kernel, not to '" << inst.opcode
         << "'";
}

mlir::FailureOr<Imported> importReduce(Importer& im, Instruction& inst) {
  if (inst.operands.empty() || inst.operands.size() % 2 != 0) {
    return im.error(inst) << "'" << inst.opcode
                          << "' takes N inputs and N init values, got " << inst.operands.size()
                          << " operands";
  }
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  if (failed(operands)) return mlir::failure();
  int32_t n = operands->size() / 2;
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      named(im, "operandSegmentSizes", im.builder().getDenseI32ArrayAttr({n, n}))};
  if (inst.opcode == "reduce") {
    mlir::FailureOr<IntList> dims = im.intListAttr(inst, "dimensions");
    if (failed(dims)) return mlir::failure();
    attrs.push_back(named(im, "dimensions", i64Array(im, *dims)));
  } else {
    mlir::FailureOr<AttrText*> windowAttr = im.requireAttr(inst, "window");
    if (failed(windowAttr)) return mlir::failure();
    mlir::FailureOr<Window> window = ParseWindow(**windowAttr, im.context());
    if (failed(window) || failed(refuseReversal(im, inst, *window))) return mlir::failure();
    attrs.push_back(named(im, "window_dimensions", i64Array(im, window->size)));
    if (!window->stride.empty()) attrs.push_back(named(im, "window_strides", i64Array(im, window->stride)));
    if (!window->lhsDilate.empty()) attrs.push_back(named(im, "base_dilations", i64Array(im, window->lhsDilate)));
    if (!window->rhsDilate.empty()) attrs.push_back(named(im, "window_dilations", i64Array(im, window->rhsDilate)));
    if (!window->padLow.empty()) attrs.push_back(named(im, "padding", paddingRows(im, window->padLow, window->padHigh)));
  }
  llvm::StringRef opName = inst.opcode == "reduce" ? "hlo.reduce" : "hlo.reduce_window";
  return createWithRegions(im, inst, opName, *operands, attrs, {"to_apply"});
}

mlir::FailureOr<Imported> importSelectAndScatter(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 3))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<AttrText*> windowAttr = im.requireAttr(inst, "window");
  if (failed(operands) || failed(windowAttr)) return mlir::failure();
  mlir::FailureOr<Window> window = ParseWindow(**windowAttr, im.context());
  if (failed(window) || failed(refuseReversal(im, inst, *window))) return mlir::failure();
  if (!window->lhsDilate.empty() || !window->rhsDilate.empty()) {
    return im.error(**windowAttr) << "'select-and-scatter' does not take window dilations";
  }
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      named(im, "window_dimensions", i64Array(im, window->size))};
  if (!window->stride.empty()) attrs.push_back(named(im, "window_strides", i64Array(im, window->stride)));
  if (!window->padLow.empty()) attrs.push_back(named(im, "padding", paddingRows(im, window->padLow, window->padHigh)));
  return createWithRegions(im, inst, "hlo.select_and_scatter", *operands, attrs,
                           {"select", "scatter"});
}

mlir::FailureOr<Imported> importDot(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<IntList> lb = im.optionalIntListAttr(inst, "lhs_batch_dims");
  mlir::FailureOr<IntList> rb = im.optionalIntListAttr(inst, "rhs_batch_dims");
  mlir::FailureOr<IntList> lc = im.optionalIntListAttr(inst, "lhs_contracting_dims");
  mlir::FailureOr<IntList> rc = im.optionalIntListAttr(inst, "rhs_contracting_dims");
  if (failed(operands) || failed(type) || failed(lb) || failed(rb) || failed(lc) || failed(rc)) {
    return mlir::failure();
  }
  auto dims = hlo::DotDimensionNumbersAttr::get(im.context(), *lb, *rb, *lc, *rc);
  return im.single(im.create(inst, "hlo.dot_general", *operands, *type,
                             {named(im, "dot_dimension_numbers", dims)}));
}

mlir::FailureOr<Imported> importConvolution(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<AttrText*> labelsAttr = im.requireAttr(inst, "dim_labels");
  if (failed(operands) || failed(type) || failed(labelsAttr)) return mlir::failure();
  mlir::FailureOr<ConvLabels> labels = ParseConvLabels(**labelsAttr, im.context());
  if (failed(labels)) return mlir::failure();
  auto dims = hlo::ConvDimensionNumbersAttr::getChecked(
      [&] { return im.error(**labelsAttr); }, im.context(), labels->inputBatch,
      labels->inputFeature, llvm::ArrayRef<int64_t>(labels->inputSpatial), labels->kernelInput,
      labels->kernelOutput, llvm::ArrayRef<int64_t>(labels->kernelSpatial), labels->outputBatch,
      labels->outputFeature, llvm::ArrayRef<int64_t>(labels->outputSpatial));
  if (!dims) return mlir::failure();
  llvm::SmallVector<mlir::NamedAttribute> attrs = {named(im, "dimension_numbers", dims)};
  if (AttrText* windowAttr = im.findAttr(inst, "window")) {
    mlir::FailureOr<Window> window = ParseWindow(*windowAttr, im.context());
    if (failed(window)) return mlir::failure();
    auto kernel = mlir::cast<mlir::RankedTensorType>((*operands)[1].getType());
    for (size_t i = 0; i < window->size.size(); ++i) {
      if (i >= labels->kernelSpatial.size() || kernel.getRank() <= labels->kernelSpatial[i] ||
          kernel.getDimSize(labels->kernelSpatial[i]) != window->size[i]) {
        return im.error(*windowAttr) << "window size does not match the kernel's spatial "
                                        "dimensions";
      }
    }
    if (!window->rhsReversal.empty() && window->rhsReversal.size() != window->size.size()) {
      return mlir::emitError(im.loc(window->rhsReversalPos))
             << "window rhs_reversal has " << window->rhsReversal.size()
             << " entries but the window has " << window->size.size() << " dimensions";
    }
    // A reversed kernel is a reverse of the kernel feeding a plain convolution: the dialect
    // keeps one convolution form, and the reverse partitions like any other op.
    if (window->reversesKernel()) {
      llvm::SmallVector<int64_t> reversed;
      for (size_t i = 0; i < window->rhsReversal.size(); ++i) {
        if (window->rhsReversal[i]) reversed.push_back(labels->kernelSpatial[i]);
      }
      (*operands)[1] = im.create(inst, "hlo.reverse", {(*operands)[1]}, {kernel},
                                 {named(im, "dimensions", i64Array(im, reversed))})
                           ->getResult(0);
    }
    if (!window->stride.empty()) attrs.push_back(named(im, "window_strides", i64Array(im, window->stride)));
    if (!window->padLow.empty()) attrs.push_back(named(im, "padding", paddingRows(im, window->padLow, window->padHigh)));
    if (!window->lhsDilate.empty()) attrs.push_back(named(im, "lhs_dilation", i64Array(im, window->lhsDilate)));
    if (!window->rhsDilate.empty()) attrs.push_back(named(im, "rhs_dilation", i64Array(im, window->rhsDilate)));
  }
  for (llvm::StringRef name : {"feature_group_count", "batch_group_count"}) {
    int64_t count = 1;
    if (AttrText* attr = im.findAttr(inst, name)) {
      mlir::FailureOr<int64_t> value = ParseIntAttr(*attr, im.context());
      if (failed(value)) return mlir::failure();
      count = *value;
    }
    attrs.push_back(named(im, name, im.builder().getI64IntegerAttr(count)));
  }
  return im.single(im.create(inst, "hlo.convolution", *operands, *type, attrs));
}

mlir::FailureOr<Imported> importGather(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<IntList> offset = im.optionalIntListAttr(inst, "offset_dims");
  mlir::FailureOr<IntList> collapsed = im.optionalIntListAttr(inst, "collapsed_slice_dims");
  mlir::FailureOr<IntList> opBatch = im.optionalIntListAttr(inst, "operand_batching_dims");
  mlir::FailureOr<IntList> idxBatch = im.optionalIntListAttr(inst, "start_indices_batching_dims");
  mlir::FailureOr<IntList> indexMap = im.optionalIntListAttr(inst, "start_index_map");
  mlir::FailureOr<IntList> sizes = im.intListAttr(inst, "slice_sizes");
  mlir::FailureOr<AttrText*> ivdAttr = im.requireAttr(inst, "index_vector_dim");
  mlir::FailureOr<bool> sorted = flagAttr(im, inst, "indices_are_sorted");
  if (failed(operands) || failed(type) || failed(offset) || failed(collapsed) ||
      failed(opBatch) || failed(idxBatch) || failed(indexMap) || failed(sizes) ||
      failed(ivdAttr) || failed(sorted)) {
    return mlir::failure();
  }
  mlir::FailureOr<int64_t> ivd = ParseIntAttr(**ivdAttr, im.context());
  if (failed(ivd)) return mlir::failure();
  auto dims = hlo::GatherDimensionNumbersAttr::get(im.context(), *offset, *collapsed, *opBatch,
                                                   *idxBatch, *indexMap, *ivd);
  llvm::SmallVector<mlir::NamedAttribute> attrs = {named(im, "dimension_numbers", dims),
                                                   named(im, "slice_sizes", i64Array(im, *sizes))};
  if (*sorted) attrs.push_back(named(im, "indices_are_sorted", im.builder().getUnitAttr()));
  return im.single(im.create(inst, "hlo.gather", *operands, *type, attrs));
}

mlir::FailureOr<Imported> importScatter(Importer& im, Instruction& inst) {
  if (inst.operands.size() < 3 || inst.operands.size() % 2 == 0) {
    return im.error(inst) << "'scatter' takes N inputs, indices and N updates, got "
                          << inst.operands.size() << " operands";
  }
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<IntList> window = im.optionalIntListAttr(inst, "update_window_dims");
  mlir::FailureOr<IntList> inserted = im.optionalIntListAttr(inst, "inserted_window_dims");
  mlir::FailureOr<IntList> inBatch = im.optionalIntListAttr(inst, "input_batching_dims");
  mlir::FailureOr<IntList> idxBatch = im.optionalIntListAttr(inst, "scatter_indices_batching_dims");
  mlir::FailureOr<IntList> toOperand = im.optionalIntListAttr(inst, "scatter_dims_to_operand_dims");
  mlir::FailureOr<AttrText*> ivdAttr = im.requireAttr(inst, "index_vector_dim");
  mlir::FailureOr<bool> sorted = flagAttr(im, inst, "indices_are_sorted");
  mlir::FailureOr<bool> unique = flagAttr(im, inst, "unique_indices");
  if (failed(operands) || failed(window) || failed(inserted) || failed(inBatch) ||
      failed(idxBatch) || failed(toOperand) || failed(ivdAttr) || failed(sorted) ||
      failed(unique)) {
    return mlir::failure();
  }
  mlir::FailureOr<int64_t> ivd = ParseIntAttr(**ivdAttr, im.context());
  if (failed(ivd)) return mlir::failure();
  int32_t n = operands->size() / 2;
  auto dims = hlo::ScatterDimensionNumbersAttr::get(im.context(), *window, *inserted, *inBatch,
                                                    *idxBatch, *toOperand, *ivd);
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      named(im, "operandSegmentSizes", im.builder().getDenseI32ArrayAttr({n, 1, n})),
      named(im, "scatter_dimension_numbers", dims)};
  if (*sorted) attrs.push_back(named(im, "indices_are_sorted", im.builder().getUnitAttr()));
  if (*unique) attrs.push_back(named(im, "unique_indices", im.builder().getUnitAttr()));
  return createWithRegions(im, inst, "hlo.scatter", *operands, attrs, {"to_apply"});
}

mlir::FailureOr<Imported> importSort(Importer& im, Instruction& inst) {
  if (failed(im.expectMinOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<IntList> dims = im.intListAttr(inst, "dimensions");
  mlir::FailureOr<bool> stable = flagAttr(im, inst, "is_stable");
  if (failed(operands) || failed(dims) || failed(stable)) return mlir::failure();
  if (dims->size() != 1) {
    return im.error(inst) << "'sort' needs exactly one dimension, got " << dims->size();
  }
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      named(im, "dimension", im.builder().getI64IntegerAttr((*dims)[0]))};
  if (*stable) attrs.push_back(named(im, "is_stable", im.builder().getUnitAttr()));
  return createWithRegions(im, inst, "hlo.sort", *operands, attrs, {"to_apply"});
}

mlir::FailureOr<Imported> createTopK(Importer& im, Instruction& inst, mlir::Value operand,
                                     int64_t k, bool largest) {
  llvm::SmallVector<mlir::NamedAttribute> attrs = {
      named(im, "k", im.builder().getI64IntegerAttr(k))};
  if (!largest) attrs.push_back(named(im, "smallest", im.builder().getUnitAttr()));
  return im.all(im.create(inst, "hlo.top_k", {operand}, im.leafTypes(inst), attrs));
}

// `topk(x), k=K, largest=true|false` (largest is true when absent).
mlir::FailureOr<Imported> importTopK(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<mlir::Value> operand = im.operand(inst, 0);
  mlir::FailureOr<AttrText*> kAttr = im.requireAttr(inst, "k");
  if (failed(operand) || failed(kAttr)) return mlir::failure();
  mlir::FailureOr<int64_t> k = ParseIntAttr(**kAttr, im.context());
  if (failed(k)) return mlir::failure();
  bool largest = true;
  if (AttrText* largestAttr = im.findAttr(inst, "largest")) {
    mlir::FailureOr<bool> value = ParseBoolAttr(*largestAttr, im.context());
    if (failed(value)) return mlir::failure();
    largest = *value;
  }
  return createTopK(im, inst, *operand, *k, largest);
}

// The parameter number of the instruction named `name` in `comp`, or -1.
int64_t parameterNumber(const Computation& comp, llvm::StringRef name) {
  for (const Instruction& inst : comp.instructions) {
    if (inst.name != name) continue;
    int64_t number = -1;
    if (inst.opcode != "parameter" || inst.rawOperands.trim().getAsInteger(10, number)) return -1;
    return number;
  }
  return -1;
}

}  // namespace

// XLA's TopK custom call: k is the result's minor dimension, and the comparator decides the
// order. Only the comparators XLA writes for top-k, `compare(p0, p1)` with GT (largest) or
// LT (smallest), are understood; anything else is refused rather than guessed.
mlir::FailureOr<Imported> ImportTopKCustomCall(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<mlir::Value> operand = im.operand(inst, 0);
  mlir::FailureOr<Computation*> comparator = im.computationAttr(inst, "to_apply");
  if (failed(operand) || failed(comparator)) return mlir::failure();
  const Computation& comp = **comparator;
  const Instruction& root = comp.instructions[comp.rootIndex];
  const AttrText* direction = root.peekAttr("direction");
  int64_t lhs = -1, rhs = -1;
  if (root.opcode == "compare" && root.operands.size() == 2) {
    lhs = parameterNumber(comp, root.operands[0].name);
    rhs = parameterNumber(comp, root.operands[1].name);
  }
  const bool swapped = lhs == 1 && rhs == 0;
  if (!direction || !((lhs == 0 && rhs == 1) || swapped) ||
      (direction->value != "GT" && direction->value != "LT")) {
    return im.error(inst) << "'TopK' custom call needs a comparator 'compare(p0, p1)' with "
                             "direction GT or LT";
  }
  const Shape& shape = inst.shape;
  if (!shape.isTuple || shape.elements.size() != 2 || shape.elements[0].isTuple ||
      shape.elements[0].dims.empty()) {
    return im.error(inst) << "'TopK' custom call must return (values, indices)";
  }
  const bool largest = (direction->value == "GT") != swapped;
  return createTopK(im, inst, *operand, shape.elements[0].dims.back(), largest);
}

void RegisterComputeImporters(ImporterTable& table) {
  table["topk"] = importTopK;
  table["reduce"] = importReduce;
  table["reduce-window"] = importReduce;
  table["select-and-scatter"] = importSelectAndScatter;
  table["dot"] = importDot;
  table["convolution"] = importConvolution;
  table["gather"] = importGather;
  table["scatter"] = importScatter;
  table["sort"] = importSort;
}

}  // namespace tessel::hlo_text
