// Exporters of hlo ops without regions: elementwise ops, constants, shape ops, dot and
// convolution, gather.
#include "llvm/ADT/StringMap.h"
#include "partitioner/hlo_text/hlo_exporter.h"
#include "partitioner/hlo_text/hlo_literal.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

const llvm::StringMap<llvm::StringRef>& opcodes() {
  static const llvm::StringMap<llvm::StringRef> kOpcodes = {
      {"hlo.abs", "abs"}, {"hlo.neg", "negate"}, {"hlo.exp", "exponential"},
      {"hlo.log", "log"}, {"hlo.log1p", "log-plus-one"},
      {"hlo.expm1", "exponential-minus-one"}, {"hlo.tanh", "tanh"},
      {"hlo.logistic", "logistic"}, {"hlo.sqrt", "sqrt"}, {"hlo.rsqrt", "rsqrt"},
      {"hlo.sin", "sine"}, {"hlo.cos", "cosine"}, {"hlo.floor", "floor"},
      {"hlo.ceil", "ceil"}, {"hlo.round", "round-nearest-afz"}, {"hlo.sign", "sign"},
      {"hlo.not", "not"}, {"hlo.is_finite", "is-finite"}, {"hlo.convert", "convert"},
      {"hlo.round_nearest_even", "round-nearest-even"}, {"hlo.erf", "erf"},
      {"hlo.cbrt", "cbrt"}, {"hlo.tan", "tan"}, {"hlo.popcnt", "popcnt"},
      {"hlo.count_leading_zeros", "count-leading-zeros"},
      {"hlo.bitcast_convert", "bitcast-convert"},
      {"hlo.add", "add"}, {"hlo.sub", "subtract"}, {"hlo.mul", "multiply"},
      {"hlo.div", "divide"}, {"hlo.rem", "remainder"}, {"hlo.max", "maximum"},
      {"hlo.min", "minimum"}, {"hlo.pow", "power"}, {"hlo.atan2", "atan2"},
      {"hlo.and", "and"}, {"hlo.or", "or"}, {"hlo.xor", "xor"},
      {"hlo.shift_left", "shift-left"},
      {"hlo.shift_right_arithmetic", "shift-right-arithmetic"},
      {"hlo.shift_right_logical", "shift-right-logical"}, {"hlo.select", "select"},
      {"hlo.clamp", "clamp"}, {"hlo.complex", "complex"}, {"hlo.real", "real"},
      {"hlo.imag", "imag"}, {"hlo.reshape", "reshape"},
      {"hlo.dynamic_update_slice", "dynamic-update-slice"}};
  return kOpcodes;
}

// `opcode(operands)` followed by `attrs`.
mlir::LogicalResult emit(Exporter& ex, CompText& comp, mlir::Operation* op,
                         llvm::StringRef opcode, const std::string& attrs = "") {
  mlir::FailureOr<std::string> operands = ex.operandList(comp, op->getOperands(), op);
  if (failed(operands)) return mlir::failure();
  ex.define(comp, op, opcode, opcode.str() + "(" + *operands + ")" + attrs);
  return mlir::success();
}

mlir::LogicalResult exportSimple(Exporter& ex, CompText& comp, mlir::Operation* op) {
  return emit(ex, comp, op, opcodes().lookup(op->getName().getStringRef()));
}

mlir::LogicalResult exportCompare(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto compare = mlir::cast<hlo::CompareOp>(op);
  std::string attrs =
      ", direction=" + hlo::stringifyComparisonDirection(compare.getComparisonDirection()).str();
  if (std::optional<hlo::ComparisonType> type = compare.getCompareType()) {
    attrs += ", type=" + hlo::stringifyComparisonType(*type).str();
  }
  return emit(ex, comp, op, "compare", attrs);
}

mlir::LogicalResult exportReducePrecision(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto reduce = mlir::cast<hlo::ReducePrecisionOp>(op);
  return emit(ex, comp, op, "reduce-precision",
              ", exponent_bits=" + std::to_string(reduce.getExponentBits()) +
                  ", mantissa_bits=" + std::to_string(reduce.getMantissaBits()));
}

mlir::LogicalResult exportConstant(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto value = mlir::dyn_cast<mlir::DenseElementsAttr>(mlir::cast<hlo::ConstantOp>(op).getValue());
  if (!value) return op->emitError() << "only dense constants can be exported";
  std::string text;
  llvm::raw_string_ostream os(text);
  PrintLiteral(value, os);
  ex.define(comp, op, "constant", "constant(" + os.str() + ")");
  return mlir::success();
}

mlir::LogicalResult exportIota(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto iota = mlir::cast<hlo::IotaOp>(op);
  ex.define(comp, op, "iota", "iota(), iota_dimension=" + std::to_string(iota.getIotaDimension()));
  return mlir::success();
}

// XLA's broadcast cannot expand a size-1 dimension, so those are reshaped away first.
mlir::LogicalResult exportBroadcast(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto bcast = mlir::cast<hlo::BroadcastInDimOp>(op);
  auto inType = mlir::cast<mlir::RankedTensorType>(bcast.getOperand().getType());
  auto outType = mlir::cast<mlir::RankedTensorType>(bcast.getType());
  llvm::SmallVector<int64_t> keptDims, keptShape;
  for (int64_t i = 0; i < inType.getRank(); ++i) {
    int64_t target = bcast.getBroadcastDimensions()[i];
    if (inType.getDimSize(i) == outType.getDimSize(target)) {
      keptDims.push_back(target);
      keptShape.push_back(inType.getDimSize(i));
    }
  }
  mlir::FailureOr<std::string> input = ex.operandList(comp, bcast.getOperand(), op);
  if (failed(input)) return mlir::failure();
  std::string source = *input;
  if (int64_t(keptDims.size()) != inType.getRank()) {
    source = ex.addLine(comp, "reshape",
                        Exporter::shapeOf(mlir::RankedTensorType::get(keptShape,
                                                                      inType.getElementType())),
                        "reshape(" + source + ")");
  }
  ex.define(comp, op, "broadcast",
            "broadcast(" + source + "), dimensions=" + Exporter::intList(keptDims));
  return mlir::success();
}

mlir::LogicalResult exportTranspose(Exporter& ex, CompText& comp, mlir::Operation* op) {
  return emit(ex, comp, op, "transpose",
              ", dimensions=" + Exporter::intList(mlir::cast<hlo::TransposeOp>(op).getPermutation()));
}

mlir::LogicalResult exportReverse(Exporter& ex, CompText& comp, mlir::Operation* op) {
  return emit(ex, comp, op, "reverse",
              ", dimensions=" + Exporter::intList(mlir::cast<hlo::ReverseOp>(op).getDimensions()));
}

mlir::LogicalResult exportSlice(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto slice = mlir::cast<hlo::SliceOp>(op);
  std::string ranges = "{";
  for (size_t i = 0; i < slice.getStartIndices().size(); ++i) {
    ranges += std::string(i ? ", " : "") + "[" + std::to_string(slice.getStartIndices()[i]) +
              ":" + std::to_string(slice.getLimitIndices()[i]);
    if (slice.getStrides()[i] != 1) ranges += ":" + std::to_string(slice.getStrides()[i]);
    ranges += "]";
  }
  return emit(ex, comp, op, "slice", ", slice=" + ranges + "}");
}

mlir::LogicalResult exportDynamicSlice(Exporter& ex, CompText& comp, mlir::Operation* op) {
  return emit(ex, comp, op, "dynamic-slice",
              ", dynamic_slice_sizes=" +
                  Exporter::intList(mlir::cast<hlo::DynamicSliceOp>(op).getSliceSizes()));
}

mlir::LogicalResult exportPad(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto pad = mlir::cast<hlo::PadOp>(op);
  std::string config;
  for (size_t i = 0; i < pad.getEdgePaddingLow().size(); ++i) {
    config += std::string(i ? "x" : "") + std::to_string(pad.getEdgePaddingLow()[i]) + "_" +
              std::to_string(pad.getEdgePaddingHigh()[i]);
    if (pad.getInteriorPadding()[i] != 0) {
      config += "_" + std::to_string(pad.getInteriorPadding()[i]);
    }
  }
  if (config.empty()) return op->emitError() << "a pad of a rank-0 tensor has no HLO form";
  return emit(ex, comp, op, "pad", ", padding=" + config);
}

mlir::LogicalResult exportConcatenate(Exporter& ex, CompText& comp, mlir::Operation* op) {
  int64_t dim = mlir::cast<hlo::ConcatenateOp>(op).getDimension();
  return emit(ex, comp, op, "concatenate", ", dimensions={" + std::to_string(dim) + "}");
}

mlir::LogicalResult exportDot(Exporter& ex, CompText& comp, mlir::Operation* op) {
  hlo::DotDimensionNumbersAttr dims = mlir::cast<hlo::DotGeneralOp>(op).getDotDimensionNumbers();
  std::string attrs;
  auto add = [&](llvm::StringRef name, llvm::ArrayRef<int64_t> list) {
    if (!list.empty()) attrs += ", " + name.str() + "=" + Exporter::intList(list);
  };
  add("lhs_batch_dims", dims.getLhsBatch());
  add("lhs_contracting_dims", dims.getLhsContract());
  add("rhs_batch_dims", dims.getRhsBatch());
  add("rhs_contracting_dims", dims.getRhsContract());
  return emit(ex, comp, op, "dot", attrs);
}

std::string xJoined(llvm::ArrayRef<int64_t> values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? "x" : "") + std::to_string(values[i]);
  return text;
}

// ` size=2x2 stride=...` for the window fields that are present.
std::string windowFields(llvm::ArrayRef<int64_t> size, std::optional<llvm::ArrayRef<int64_t>> stride,
                         std::optional<mlir::DenseIntElementsAttr> padding,
                         std::optional<llvm::ArrayRef<int64_t>> lhsDilate,
                         std::optional<llvm::ArrayRef<int64_t>> rhsDilate) {
  std::string text = "{size=" + xJoined(size);
  if (stride) text += " stride=" + xJoined(*stride);
  if (padding) {
    llvm::SmallVector<int64_t> flat(padding->getValues<int64_t>());
    text += " pad=";
    for (size_t i = 0; i + 1 < flat.size(); i += 2) {
      text += (i ? "x" : "") + std::to_string(flat[i]) + "_" + std::to_string(flat[i + 1]);
    }
  }
  if (lhsDilate) text += " lhs_dilate=" + xJoined(*lhsDilate);
  if (rhsDilate) text += " rhs_dilate=" + xJoined(*rhsDilate);
  return text + "}";
}

mlir::LogicalResult exportConvolution(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto conv = mlir::cast<hlo::ConvolutionOp>(op);
  hlo::ConvDimensionNumbersAttr dims = conv.getDimensionNumbers();
  auto kernel = mlir::cast<mlir::RankedTensorType>(conv.getRhs().getType());
  llvm::SmallVector<int64_t> size;
  for (int64_t d : dims.getKernelSpatialDimensions()) size.push_back(kernel.getDimSize(d));
  // dim_labels: one character per dimension of each tensor.
  auto labels = [](int64_t rank, int64_t a, char aChar, int64_t b, char bChar,
                   llvm::ArrayRef<int64_t> spatial) {
    std::string text(rank, '?');
    text[a] = aChar;
    text[b] = bChar;
    for (size_t i = 0; i < spatial.size(); ++i) text[spatial[i]] = char('0' + i);
    return text;
  };
  int64_t rank = dims.getNumSpatialDims() + 2;
  std::string attrs =
      ", window=" + windowFields(size, conv.getWindowStrides(), conv.getPadding(),
                                 conv.getLhsDilation(), conv.getRhsDilation()) +
      ", dim_labels=" +
      labels(rank, dims.getInputBatchDimension(), 'b', dims.getInputFeatureDimension(), 'f',
             dims.getInputSpatialDimensions()) +
      "_" +
      labels(rank, dims.getKernelInputFeatureDimension(), 'i',
             dims.getKernelOutputFeatureDimension(), 'o', dims.getKernelSpatialDimensions()) +
      "->" +
      labels(rank, dims.getOutputBatchDimension(), 'b', dims.getOutputFeatureDimension(), 'f',
             dims.getOutputSpatialDimensions());
  if (conv.getFeatureGroupCount() != 1) {
    attrs += ", feature_group_count=" + std::to_string(conv.getFeatureGroupCount());
  }
  if (conv.getBatchGroupCount() != 1) {
    attrs += ", batch_group_count=" + std::to_string(conv.getBatchGroupCount());
  }
  return emit(ex, comp, op, "convolution", attrs);
}

mlir::LogicalResult exportGather(Exporter& ex, CompText& comp, mlir::Operation* op) {
  auto gather = mlir::cast<hlo::GatherOp>(op);
  hlo::GatherDimensionNumbersAttr dims = gather.getDimensionNumbers();
  std::string attrs;
  auto add = [&](llvm::StringRef name, llvm::ArrayRef<int64_t> list) {
    if (!list.empty()) attrs += ", " + name.str() + "=" + Exporter::intList(list);
  };
  add("offset_dims", dims.getOffsetDims());
  add("collapsed_slice_dims", dims.getCollapsedSliceDims());
  add("operand_batching_dims", dims.getOperandBatchingDims());
  add("start_indices_batching_dims", dims.getStartIndicesBatchingDims());
  add("start_index_map", dims.getStartIndexMap());
  attrs += ", index_vector_dim=" + std::to_string(dims.getIndexVectorDim());
  attrs += ", slice_sizes=" + Exporter::intList(gather.getSliceSizes());
  if (gather.getIndicesAreSorted()) attrs += ", indices_are_sorted=true";
  return emit(ex, comp, op, "gather", attrs);
}

}  // namespace

// Shared with the region exporters (hlo_export_control.cc).
std::string WindowText(llvm::ArrayRef<int64_t> size,
                       std::optional<llvm::ArrayRef<int64_t>> stride,
                       std::optional<mlir::DenseIntElementsAttr> padding,
                       std::optional<llvm::ArrayRef<int64_t>> lhsDilate,
                       std::optional<llvm::ArrayRef<int64_t>> rhsDilate) {
  return windowFields(size, stride, padding, lhsDilate, rhsDilate);
}

void RegisterElementwiseExporters(ExporterTable& table) {
  for (const auto& entry : opcodes()) table[entry.getKey()] = exportSimple;
  table["hlo.compare"] = exportCompare;
  table["hlo.reduce_precision"] = exportReducePrecision;
}

void RegisterStructuredExporters(ExporterTable& table) {
  table["hlo.constant"] = exportConstant;
  table["hlo.iota"] = exportIota;
  table["hlo.broadcast_in_dim"] = exportBroadcast;
  table["hlo.transpose"] = exportTranspose;
  table["hlo.reverse"] = exportReverse;
  table["hlo.slice"] = exportSlice;
  table["hlo.dynamic_slice"] = exportDynamicSlice;
  table["hlo.pad"] = exportPad;
  table["hlo.concatenate"] = exportConcatenate;
  table["hlo.dot_general"] = exportDot;
  table["hlo.convolution"] = exportConvolution;
  table["hlo.gather"] = exportGather;
}

}  // namespace tessel::hlo_text
