// Parsers of the values of HLO instruction attributes (`dimensions={1,0}`,
// `window={size=2x2 stride=2x2}`, `padding=0_0x1_2_1`, `dim_labels=b01f_01io->b01f`,
// `replica_groups=...`, ...). Each takes the raw value kept by the parser, reports errors at
// the exact position inside it, and returns failure after reporting.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_ATTR_PARSERS_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_ATTR_PARSERS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "llvm/ADT/SmallVector.h"
#include "mlir/Support/LogicalResult.h"
#include "partitioner/hlo_text/hlo_parser.h"

namespace tessel::hlo_text {

using IntList = llvm::SmallVector<int64_t>;

// `{1,2,3}` or `{}`.
mlir::FailureOr<IntList> ParseIntList(const AttrText& attr, mlir::MLIRContext* context);
// `{{0,1},{2,3}}`.
mlir::FailureOr<std::vector<IntList>> ParseIntListList(const AttrText& attr,
                                                       mlir::MLIRContext* context);
// A plain integer, e.g. `index=1`.
mlir::FailureOr<int64_t> ParseIntAttr(const AttrText& attr, mlir::MLIRContext* context);
// `true` or `false`.
mlir::FailureOr<bool> ParseBoolAttr(const AttrText& attr, mlir::MLIRContext* context);
// A quoted string (unescaped), or for brace-delimited values (`backend_config={...}`) the
// raw text including the braces.
mlir::FailureOr<std::string> ParseStringAttr(const AttrText& attr,
                                             mlir::MLIRContext* context);
// A bare word, e.g. `direction=LT`.
mlir::FailureOr<std::string> ParseWordAttr(const AttrText& attr, mlir::MLIRContext* context);
// `%name` or `name`: a computation reference.
mlir::FailureOr<std::string> ParseComputationRef(const AttrText& attr,
                                                 mlir::MLIRContext* context);
// `{%a, %b}`.
mlir::FailureOr<std::vector<std::string>> ParseComputationList(const AttrText& attr,
                                                               mlir::MLIRContext* context);

// `slice={[0:4], [1:9:2]}`: per dimension start, limit and stride (default 1).
struct SliceRanges {
  IntList starts, limits, strides;
};
mlir::FailureOr<SliceRanges> ParseSliceRanges(const AttrText& attr, mlir::MLIRContext* context);

// `padding=0_0x1_2_1`: per dimension low_high[_interior] (interior defaults to 0).
struct PaddingConfig {
  IntList low, high, interior;
};
mlir::FailureOr<PaddingConfig> ParsePaddingConfig(const AttrText& attr,
                                                  mlir::MLIRContext* context);

// `window={size=3x3 stride=2x2 pad=1_1x1_1 lhs_dilate=1x1 rhs_dilate=1x1}`. Lists that are
// absent stay empty. `rhs_reversal` other than all 0 is rejected.
struct Window {
  IntList size, stride, padLow, padHigh, lhsDilate, rhsDilate;
  // `rhs_reversal=1x0`: per window dimension, 1 where the kernel is reversed (convolution).
  IntList rhsReversal;
  SourcePos rhsReversalPos;  // where the field starts, for errors about it
  bool reversesKernel() const {
    return llvm::any_of(rhsReversal, [](int64_t v) { return v != 0; });
  }
};
mlir::FailureOr<Window> ParseWindow(const AttrText& attr, mlir::MLIRContext* context);

// `dim_labels=b01f_01io->b01f`: for input and output the batch and feature dimension, for
// the kernel the input- and output-feature dimension, and for each the spatial dimensions.
struct ConvLabels {
  int64_t inputBatch = -1, inputFeature = -1;
  IntList inputSpatial;
  int64_t kernelInput = -1, kernelOutput = -1;
  IntList kernelSpatial;
  int64_t outputBatch = -1, outputFeature = -1;
  IntList outputSpatial;
};
mlir::FailureOr<ConvLabels> ParseConvLabels(const AttrText& attr, mlir::MLIRContext* context);

// `replica_groups=` in any of its forms, expanded to explicit groups of device ids:
//   {{0,1},{2,3}}   explicit;   {}   one group of all `numDevices` devices;
//   [2,4]<=[8]  or  [4,2]<=[2,4]T(1,0)   iota (reshape, transpose, reshape);
//   mesh['a'=4,'b'=2] {'b'}   groups along named axes of an iota device mesh;
//   mesh['a'=4,'b'=2]  with `deviceIds` = `([2,4]T(1,0)) {'b'}` (or explicit ids): the same
//   over a mesh whose devices are the listed ones, as XLA prints `device_ids=`.
mlir::FailureOr<std::vector<IntList>> ParseReplicaGroups(const AttrText& attr,
                                                         int64_t numDevices,
                                                         mlir::MLIRContext* context,
                                                         const AttrText* deviceIds = nullptr);

// `frontend_attributes={k="v", k2={raw}}` as (key, value) pairs; raw values keep braces.
mlir::FailureOr<std::vector<std::pair<std::string, std::string>>> ParseFrontendAttributes(
    const AttrText& attr, mlir::MLIRContext* context);

// Splits a tuple sharding `{{a}, {b}}` into `{a}` and `{b}` (text only, no interpretation);
// returns nullopt if the text is not a tuple sharding.
std::optional<std::vector<std::string>> SplitTupleSharding(llvm::StringRef text);

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_ATTR_PARSERS_H_
