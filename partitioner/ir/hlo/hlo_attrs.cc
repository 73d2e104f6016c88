// Parsing, printing and verification of the structured `hlo` attributes: dot, convolution,
// gather and scatter dimension numbers.
#include <cstdint>
#include <optional>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "mlir/IR/DialectImplementation.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo {
namespace {

// One `name = [..]` or `name = N` entry of a keyed attribute body. Lists may be left out
// (they are then empty); a required integer may not.
struct KeyedField {
  llvm::StringRef name;
  llvm::SmallVector<int64_t>* list = nullptr;  // set for list fields
  int64_t* scalar = nullptr;                   // set for integer fields
  bool seen = false;
};

// Parses `name = value` fields whose names come from `fields`, in any order, each at most
// once, and checks that every integer field is present. Bracketed form:
// `<a = [1], b = 2>`; inline form (inside an op): `, a = [1], b = 2`.
mlir::LogicalResult parseKeyedFields(mlir::AsmParser& parser,
                                     llvm::MutableArrayRef<KeyedField> fields, bool inlined) {
  auto parseField = [&]() -> mlir::LogicalResult {
    llvm::SMLoc loc = parser.getCurrentLocation();
    llvm::StringRef name;
    if (parser.parseKeyword(&name)) return mlir::failure();
    KeyedField* field =
        llvm::find_if(fields, [&](const KeyedField& f) { return f.name == name; });
    if (field == fields.end()) return parser.emitError(loc) << "unknown field '" << name << "'";
    if (field->seen) return parser.emitError(loc) << "field '" << name << "' appears twice";
    field->seen = true;
    if (parser.parseEqual()) return mlir::failure();
    if (field->scalar) return parser.parseInteger(*field->scalar);
    return parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, [&] {
      return parser.parseInteger(field->list->emplace_back());
    });
  };
  if (inlined) {
    while (mlir::succeeded(parser.parseOptionalComma())) {
      if (mlir::failed(parseField())) return mlir::failure();
    }
  } else {
    if (parser.parseLess()) return mlir::failure();
    if (mlir::failed(parser.parseOptionalGreater())) {
      do {
        if (mlir::failed(parseField())) return mlir::failure();
      } while (mlir::succeeded(parser.parseOptionalComma()));
      if (parser.parseGreater()) return mlir::failure();
    }
  }
  for (const KeyedField& field : fields) {
    if (field.scalar && !field.seen) {
      return parser.emitError(parser.getCurrentLocation())
             << "missing field '" << field.name << "'";
    }
  }
  return mlir::success();
}

using ListFields = llvm::ArrayRef<std::pair<llvm::StringRef, llvm::ArrayRef<int64_t>>>;

// Prints what parseKeyedFields parses, leaving out empty lists.
void printKeyedFields(mlir::AsmPrinter& printer, ListFields lists,
                      std::optional<std::pair<llvm::StringRef, int64_t>> scalar, bool inlined) {
  llvm::ListSeparator separator;
  auto printSeparator = [&] {
    if (inlined) {
      printer << ", ";
    } else {
      printer << static_cast<llvm::StringRef>(separator);
    }
  };
  if (!inlined) printer << "<";
  for (const auto& [name, values] : lists) {
    if (values.empty()) continue;
    printSeparator();
    printer << name << " = [";
    llvm::interleaveComma(values, printer);
    printer << "]";
  }
  if (scalar) {
    printSeparator();
    printer << scalar->first << " = " << scalar->second;
  }
  if (!inlined) printer << ">";
}

// Parser and printer of the fields of DotDimensionNumbersAttr.
mlir::Attribute parseDot(mlir::AsmParser& parser, bool inlined) {
  llvm::SmallVector<int64_t> lhsBatch, rhsBatch, lhsContract, rhsContract;
  KeyedField fields[] = {{"lhs_batch", &lhsBatch},
                         {"rhs_batch", &rhsBatch},
                         {"lhs_contract", &lhsContract},
                         {"rhs_contract", &rhsContract}};
  if (mlir::failed(parseKeyedFields(parser, fields, inlined))) return {};
  return DotDimensionNumbersAttr::get(parser.getContext(), lhsBatch, rhsBatch, lhsContract,
                                      rhsContract);
}

void printDot(mlir::AsmPrinter& printer, DotDimensionNumbersAttr attr, bool inlined) {
  printKeyedFields(printer,
                   {{"lhs_batch", attr.getLhsBatch()},
                    {"rhs_batch", attr.getRhsBatch()},
                    {"lhs_contract", attr.getLhsContract()},
                    {"rhs_contract", attr.getRhsContract()}},
                   std::nullopt, inlined);
}

mlir::Attribute parseGather(mlir::AsmParser& parser, bool inlined) {
  llvm::SmallVector<int64_t> offset, collapsed, operandBatching, indicesBatching, startIndexMap;
  int64_t indexVectorDim = 0;
  KeyedField fields[] = {{"offset_dims", &offset},
                         {"collapsed_slice_dims", &collapsed},
                         {"operand_batching_dims", &operandBatching},
                         {"start_indices_batching_dims", &indicesBatching},
                         {"start_index_map", &startIndexMap},
                         {"index_vector_dim", nullptr, &indexVectorDim}};
  if (mlir::failed(parseKeyedFields(parser, fields, inlined))) return {};
  return GatherDimensionNumbersAttr::get(parser.getContext(), offset, collapsed,
                                         operandBatching, indicesBatching, startIndexMap,
                                         indexVectorDim);
}

void printGather(mlir::AsmPrinter& printer, GatherDimensionNumbersAttr attr, bool inlined) {
  printKeyedFields(printer,
                   {{"offset_dims", attr.getOffsetDims()},
                    {"collapsed_slice_dims", attr.getCollapsedSliceDims()},
                    {"operand_batching_dims", attr.getOperandBatchingDims()},
                    {"start_indices_batching_dims", attr.getStartIndicesBatchingDims()},
                    {"start_index_map", attr.getStartIndexMap()}},
                   std::make_pair(llvm::StringRef("index_vector_dim"),
                                  attr.getIndexVectorDim()),
                   inlined);
}

mlir::Attribute parseScatter(mlir::AsmParser& parser, bool inlined) {
  llvm::SmallVector<int64_t> updateWindow, inserted, inputBatching, indicesBatching, toOperand;
  int64_t indexVectorDim = 0;
  KeyedField fields[] = {{"update_window_dims", &updateWindow},
                         {"inserted_window_dims", &inserted},
                         {"input_batching_dims", &inputBatching},
                         {"scatter_indices_batching_dims", &indicesBatching},
                         {"scatter_dims_to_operand_dims", &toOperand},
                         {"index_vector_dim", nullptr, &indexVectorDim}};
  if (mlir::failed(parseKeyedFields(parser, fields, inlined))) return {};
  return ScatterDimensionNumbersAttr::get(parser.getContext(), updateWindow, inserted,
                                          inputBatching, indicesBatching, toOperand,
                                          indexVectorDim);
}

void printScatter(mlir::AsmPrinter& printer, ScatterDimensionNumbersAttr attr, bool inlined) {
  printKeyedFields(printer,
                   {{"update_window_dims", attr.getUpdateWindowDims()},
                    {"inserted_window_dims", attr.getInsertedWindowDims()},
                    {"input_batching_dims", attr.getInputBatchingDims()},
                    {"scatter_indices_batching_dims", attr.getScatterIndicesBatchingDims()},
                    {"scatter_dims_to_operand_dims", attr.getScatterDimsToOperandDims()}},
                   std::make_pair(llvm::StringRef("index_vector_dim"),
                                  attr.getIndexVectorDim()),
                   inlined);
}

}  // namespace

//===----------------------------------------------------------------------===//
// DotDimensionNumbersAttr, GatherDimensionNumbersAttr, ScatterDimensionNumbersAttr
//===----------------------------------------------------------------------===//

mlir::Attribute DotDimensionNumbersAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  return parseDot(parser, /*inlined=*/false);
}
void DotDimensionNumbersAttr::print(mlir::AsmPrinter& printer) const {
  printDot(printer, *this, /*inlined=*/false);
}
mlir::Attribute DotDimensionNumbersAttr::parseInline(mlir::AsmParser& parser) {
  return parseDot(parser, /*inlined=*/true);
}
void DotDimensionNumbersAttr::printInline(mlir::AsmPrinter& printer) const {
  printDot(printer, *this, /*inlined=*/true);
}

mlir::Attribute GatherDimensionNumbersAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  return parseGather(parser, /*inlined=*/false);
}
void GatherDimensionNumbersAttr::print(mlir::AsmPrinter& printer) const {
  printGather(printer, *this, /*inlined=*/false);
}
mlir::Attribute GatherDimensionNumbersAttr::parseInline(mlir::AsmParser& parser) {
  return parseGather(parser, /*inlined=*/true);
}
void GatherDimensionNumbersAttr::printInline(mlir::AsmPrinter& printer) const {
  printGather(printer, *this, /*inlined=*/true);
}

mlir::Attribute ScatterDimensionNumbersAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  return parseScatter(parser, /*inlined=*/false);
}
void ScatterDimensionNumbersAttr::print(mlir::AsmPrinter& printer) const {
  printScatter(printer, *this, /*inlined=*/false);
}
mlir::Attribute ScatterDimensionNumbersAttr::parseInline(mlir::AsmParser& parser) {
  return parseScatter(parser, /*inlined=*/true);
}
void ScatterDimensionNumbersAttr::printInline(mlir::AsmPrinter& printer) const {
  printScatter(printer, *this, /*inlined=*/true);
}

//===----------------------------------------------------------------------===//
// ConvDimensionNumbersAttr
//===----------------------------------------------------------------------===//

namespace {

// The dimensions of one of convolution's three tensors: two named ones (batch and feature,
// or input and output feature) and the spatial ones in spatial order.
struct ConvLayout {
  int64_t first = -1;
  int64_t second = -1;
  llvm::SmallVector<int64_t> spatial;
};

// Parses `[x, 0, 1, y]` where `x`/`y` are the letters `firstName`/`secondName`, each exactly
// once, and the integers number the spatial dimensions 0..n-1 in any order.
mlir::FailureOr<ConvLayout> parseConvLayout(mlir::AsmParser& parser, llvm::StringRef firstName,
                                            llvm::StringRef secondName) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  ConvLayout layout;
  // spatialPos[k] = position of spatial dimension k in the list.
  llvm::SmallVector<int64_t> spatialPos;
  int64_t position = 0;
  auto parseEntry = [&]() -> mlir::ParseResult {
    llvm::SMLoc entryLoc = parser.getCurrentLocation();
    int64_t spatialIndex;
    mlir::OptionalParseResult isInt = parser.parseOptionalInteger(spatialIndex);
    if (isInt.has_value()) {
      if (mlir::failed(*isInt)) return mlir::failure();
      if (spatialIndex < 0) {
        return parser.emitError(entryLoc) << "spatial dimension " << spatialIndex
                                          << " is negative";
      }
      if (spatialIndex >= static_cast<int64_t>(spatialPos.size()))
        spatialPos.resize(spatialIndex + 1, -1);
      if (spatialPos[spatialIndex] != -1) {
        return parser.emitError(entryLoc) << "spatial dimension " << spatialIndex
                                          << " appears twice";
      }
      spatialPos[spatialIndex] = position++;
      return mlir::success();
    }
    llvm::StringRef letter;
    if (parser.parseKeyword(&letter)) return mlir::failure();
    int64_t* slot = letter == firstName ? &layout.first
                    : letter == secondName ? &layout.second
                                           : nullptr;
    if (!slot) {
      return parser.emitError(entryLoc) << "expected '" << firstName << "', '" << secondName
                                        << "' or a spatial dimension, got '" << letter << "'";
    }
    if (*slot != -1) return parser.emitError(entryLoc) << "'" << letter << "' appears twice";
    *slot = position++;
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseEntry))
    return mlir::failure();
  if (layout.first == -1 || layout.second == -1) {
    return parser.emitError(loc) << "dimension list must name '" << firstName << "' and '"
                                 << secondName << "'";
  }
  for (auto [index, pos] : llvm::enumerate(spatialPos)) {
    if (pos == -1) return parser.emitError(loc) << "spatial dimension " << index << " is missing";
    layout.spatial.push_back(pos);
  }
  return layout;
}

void printConvLayout(mlir::AsmPrinter& printer, int64_t first, llvm::StringRef firstName,
                     int64_t second, llvm::StringRef secondName,
                     llvm::ArrayRef<int64_t> spatial) {
  int64_t rank = static_cast<int64_t>(spatial.size()) + 2;
  printer << "[";
  for (int64_t dim = 0; dim < rank; ++dim) {
    if (dim > 0) printer << ", ";
    if (dim == first) {
      printer << firstName;
    } else if (dim == second) {
      printer << secondName;
    } else {
      // A verified attribute names every dimension exactly once.
      printer << (llvm::find(spatial, dim) - spatial.begin());
    }
  }
  printer << "]";
}

}  // namespace

mlir::Attribute ConvDimensionNumbersAttr::parse(mlir::AsmParser& parser, mlir::Type) {
  if (parser.parseLess()) return {};
  mlir::Attribute attr = parseInline(parser);
  if (!attr || parser.parseGreater()) return {};
  return attr;
}

void ConvDimensionNumbersAttr::print(mlir::AsmPrinter& printer) const {
  printer << "<";
  printInline(printer);
  printer << ">";
}

mlir::Attribute ConvDimensionNumbersAttr::parseInline(mlir::AsmParser& parser) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  mlir::FailureOr<ConvLayout> input = parseConvLayout(parser, "b", "f");
  if (mlir::failed(input) || parser.parseKeyword("x")) return {};
  mlir::FailureOr<ConvLayout> kernel = parseConvLayout(parser, "i", "o");
  if (mlir::failed(kernel) || parser.parseArrow()) return {};
  mlir::FailureOr<ConvLayout> output = parseConvLayout(parser, "b", "f");
  if (mlir::failed(output)) return {};
  auto emitError = [&] { return parser.emitError(loc); };
  return getChecked(llvm::function_ref<mlir::InFlightDiagnostic()>(emitError),
                    parser.getContext(), input->first, input->second,
                    llvm::ArrayRef<int64_t>(input->spatial), kernel->first, kernel->second,
                    llvm::ArrayRef<int64_t>(kernel->spatial), output->first, output->second,
                    llvm::ArrayRef<int64_t>(output->spatial));
}

void ConvDimensionNumbersAttr::printInline(mlir::AsmPrinter& printer) const {
  printConvLayout(printer, getInputBatchDimension(), "b", getInputFeatureDimension(), "f",
                  getInputSpatialDimensions());
  printer << "x";
  printConvLayout(printer, getKernelInputFeatureDimension(), "i",
                  getKernelOutputFeatureDimension(), "o", getKernelSpatialDimensions());
  printer << "->";
  printConvLayout(printer, getOutputBatchDimension(), "b", getOutputFeatureDimension(), "f",
                  getOutputSpatialDimensions());
}

mlir::LogicalResult ConvDimensionNumbersAttr::verify(
    llvm::function_ref<mlir::InFlightDiagnostic()> emitError, int64_t inputBatch,
    int64_t inputFeature, llvm::ArrayRef<int64_t> inputSpatial, int64_t kernelInput,
    int64_t kernelOutput, llvm::ArrayRef<int64_t> kernelSpatial, int64_t outputBatch,
    int64_t outputFeature, llvm::ArrayRef<int64_t> outputSpatial) {
  size_t numSpatial = inputSpatial.size();
  if (kernelSpatial.size() != numSpatial || outputSpatial.size() != numSpatial) {
    return emitError() << "input, kernel and output must have the same number of spatial "
                          "dimensions, got "
                       << numSpatial << ", " << kernelSpatial.size() << " and "
                       << outputSpatial.size();
  }
  // Each tensor's dimensions must be a permutation of [0, rank).
  auto checkLayout = [&](llvm::StringRef what, int64_t first, int64_t second,
                         llvm::ArrayRef<int64_t> spatial) -> mlir::LogicalResult {
    int64_t rank = static_cast<int64_t>(numSpatial) + 2;
    llvm::SmallVector<int64_t> dims = {first, second};
    dims.append(spatial.begin(), spatial.end());
    llvm::SmallVector<bool> seen(rank, false);
    for (int64_t dim : dims) {
      if (dim < 0 || dim >= rank) {
        return emitError() << what << " dimension " << dim << " is out of range [0, " << rank
                           << ")";
      }
      if (seen[dim]) return emitError() << what << " dimension " << dim << " appears twice";
      seen[dim] = true;
    }
    return mlir::success();
  };
  if (mlir::failed(checkLayout("input", inputBatch, inputFeature, inputSpatial)) ||
      mlir::failed(checkLayout("kernel", kernelInput, kernelOutput, kernelSpatial)) ||
      mlir::failed(checkLayout("output", outputBatch, outputFeature, outputSpatial))) {
    return mlir::failure();
  }
  return mlir::success();
}

}  // namespace tessel::hlo
