// Importers of opcodes that create or rearrange arrays: constant, iota, broadcast,
// reshape, transpose, slice, dynamic-slice, dynamic-update-slice, pad, concatenate,
// reverse.
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/hlo_text/hlo_literal.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

mlir::NamedAttribute i64Array(Importer& im, llvm::StringRef name, llvm::ArrayRef<int64_t> v) {
  return im.builder().getNamedAttr(name, im.builder().getDenseI64ArrayAttr(v));
}

// Operands [first, end) as single arrays.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> arrayOperands(Importer& im,
                                                             const Instruction& inst,
                                                             size_t first = 0) {
  llvm::SmallVector<mlir::Value> values;
  for (size_t i = first; i < inst.operands.size(); ++i) {
    mlir::FailureOr<mlir::Value> v = im.operand(inst, i);
    if (failed(v)) return mlir::failure();
    values.push_back(*v);
  }
  return values;
}

mlir::FailureOr<Imported> importConstant(Importer& im, Instruction& inst) {
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(type)) return mlir::failure();
  mlir::FailureOr<mlir::DenseElementsAttr> value =
      ParseLiteral(inst.rawOperands, inst.rawOperandsPos,
                   mlir::cast<mlir::RankedTensorType>(*type), im.context());
  if (failed(value)) return mlir::failure();
  return im.single(im.create(inst, "hlo.constant", {}, *type,
                             {im.builder().getNamedAttr("value", *value)}));
}

mlir::FailureOr<Imported> importIota(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 0))) return mlir::failure();
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<AttrText*> dimAttr = im.requireAttr(inst, "iota_dimension");
  if (failed(type) || failed(dimAttr)) return mlir::failure();
  mlir::FailureOr<int64_t> dim = ParseIntAttr(**dimAttr, im.context());
  if (failed(dim)) return mlir::failure();
  return im.single(im.create(
      inst, "hlo.iota", {}, *type,
      {im.builder().getNamedAttr("iota_dimension", im.builder().getI64IntegerAttr(*dim))}));
}

// Opcodes with N array operands, the instruction's shape as result, and one list attribute.
mlir::FailureOr<Imported> importWithList(Importer& im, Instruction& inst, size_t numOperands,
                                         llvm::StringRef opName, llvm::StringRef hloAttr,
                                         llvm::StringRef opAttr) {
  if (failed(im.expectOperands(inst, numOperands))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(operands) || failed(type)) return mlir::failure();
  llvm::SmallVector<mlir::NamedAttribute> attrs;
  if (!hloAttr.empty()) {
    mlir::FailureOr<IntList> list = im.intListAttr(inst, hloAttr);
    if (failed(list)) return mlir::failure();
    attrs.push_back(i64Array(im, opAttr, *list));
  }
  return im.single(im.create(inst, opName, *operands, *type, attrs));
}

mlir::FailureOr<Imported> importBroadcast(Importer& im, Instruction& inst) {
  return importWithList(im, inst, 1, "hlo.broadcast_in_dim", "dimensions",
                        "broadcast_dimensions");
}

mlir::FailureOr<Imported> importReshape(Importer& im, Instruction& inst) {
  return importWithList(im, inst, 1, "hlo.reshape", "", "");
}

mlir::FailureOr<Imported> importTranspose(Importer& im, Instruction& inst) {
  return importWithList(im, inst, 1, "hlo.transpose", "dimensions", "permutation");
}

mlir::FailureOr<Imported> importReverse(Importer& im, Instruction& inst) {
  return importWithList(im, inst, 1, "hlo.reverse", "dimensions", "dimensions");
}

mlir::FailureOr<Imported> importSlice(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<mlir::Value> input = im.operand(inst, 0);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<AttrText*> attr = im.requireAttr(inst, "slice");
  if (failed(input) || failed(type) || failed(attr)) return mlir::failure();
  mlir::FailureOr<SliceRanges> ranges = ParseSliceRanges(**attr, im.context());
  if (failed(ranges)) return mlir::failure();
  return im.single(im.create(inst, "hlo.slice", *input, *type,
                             {i64Array(im, "start_indices", ranges->starts),
                              i64Array(im, "limit_indices", ranges->limits),
                              i64Array(im, "strides", ranges->strides)}));
}

mlir::FailureOr<Imported> importDynamicSlice(Importer& im, Instruction& inst) {
  if (failed(im.expectMinOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(operands) || failed(type)) return mlir::failure();
  mlir::FailureOr<IntList> sizes = im.intListAttr(inst, "dynamic_slice_sizes");
  if (failed(sizes)) return mlir::failure();
  return im.single(im.create(inst, "hlo.dynamic_slice", *operands, *type,
                             {i64Array(im, "slice_sizes", *sizes)}));
}

mlir::FailureOr<Imported> importDynamicUpdateSlice(Importer& im, Instruction& inst) {
  if (failed(im.expectMinOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(operands) || failed(type)) return mlir::failure();
  return im.single(im.create(inst, "hlo.dynamic_update_slice", *operands, *type));
}

mlir::FailureOr<Imported> importPad(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 2))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<AttrText*> attr = im.requireAttr(inst, "padding");
  if (failed(operands) || failed(type) || failed(attr)) return mlir::failure();
  mlir::FailureOr<PaddingConfig> config = ParsePaddingConfig(**attr, im.context());
  if (failed(config)) return mlir::failure();
  return im.single(im.create(inst, "hlo.pad", *operands, *type,
                             {i64Array(im, "edge_padding_low", config->low),
                              i64Array(im, "edge_padding_high", config->high),
                              i64Array(im, "interior_padding", config->interior)}));
}

mlir::FailureOr<Imported> importConcatenate(Importer& im, Instruction& inst) {
  if (failed(im.expectMinOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> operands = arrayOperands(im, inst);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  mlir::FailureOr<IntList> dims = im.intListAttr(inst, "dimensions");
  if (failed(operands) || failed(type) || failed(dims)) return mlir::failure();
  if (dims->size() != 1) {
    return im.error(inst) << "'concatenate' needs exactly one dimension, got " << dims->size();
  }
  return im.single(im.create(
      inst, "hlo.concatenate", *operands, *type,
      {im.builder().getNamedAttr("dimension", im.builder().getI64IntegerAttr((*dims)[0]))}));
}

}  // namespace

void RegisterShapeImporters(ImporterTable& table) {
  table["constant"] = importConstant;
  table["iota"] = importIota;
  table["broadcast"] = importBroadcast;
  table["reshape"] = importReshape;
  table["transpose"] = importTranspose;
  table["reverse"] = importReverse;
  table["slice"] = importSlice;
  table["dynamic-slice"] = importDynamicSlice;
  table["dynamic-update-slice"] = importDynamicUpdateSlice;
  table["pad"] = importPad;
  table["concatenate"] = importConcatenate;
}

}  // namespace tessel::hlo_text
