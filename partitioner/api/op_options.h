// Plain structs and enums that GraphBuilder's ops take: comparison directions, reduction
// kinds, windows, and the dimension numbers of dot_general, convolution, gather and scatter.
// Their fields follow XLA's operation semantics; the hlo dialect's op descriptions
// (docs/ops.md) give the exact rules.
//
//   DotDimensions dims;
//   dims.lhs_batch = {0};
//   dims.rhs_batch = {0};
//   dims.lhs_contracting = {2};
//   dims.rhs_contracting = {1};
//   Value y = builder.DotGeneral(a, b, dims);  // f32[2,3,4] x f32[2,4,5] -> f32[2,3,5]
#ifndef TESSEL_PARTITIONER_API_OP_OPTIONS_H_
#define TESSEL_PARTITIONER_API_OP_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partitioner/api/tensor_type.h"

namespace tessel {

// The generator of RngBitGenerator. kDefault is Philox, as on XLA's CPU and GPU backends.
enum class RngAlgorithm { kDefault, kThreeFry, kPhilox };

// How Compare orders its operands.
enum class ComparisonDirection { kEq, kNe, kGe, kGt, kLe, kLt };

// How Compare reads elements; without one the element type decides (floats compare as IEEE
// values, integers by their signedness, pred as unsigned).
enum class ComparisonType {
  kFloat,       // IEEE comparison: NaN is unordered
  kTotalOrder,  // IEEE totalOrder: -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN
  kSigned,
  kUnsigned,
};

// The built-in reducers of Reduce, ReduceWindow and SelectAndScatter. Each has an identity
// that the builder uses as the init value (0 for kSum, -inf or the lowest integer for kMax,
// ...). kAnd and kOr need pred or integer elements.
enum class ReduceKind { kSum, kProd, kMax, kMin, kAnd, kOr };

// The window of ReduceWindow and SelectAndScatter, one entry per dimension of the input.
// Empty lists take their defaults: strides and dilations 1, padding (0, 0).
struct Window {
  std::vector<int64_t> strides;
  // (low, high) elements of padding per dimension; not negative.
  std::vector<std::pair<int64_t, int64_t>> padding;
  // Holes put between input elements (ReduceWindow only).
  std::vector<int64_t> base_dilations;
  // Holes put between window elements (ReduceWindow only).
  std::vector<int64_t> window_dilations;
};

// Which dimensions of DotGeneral's operands are batch and contracting dimensions:
// lhs_batch[i] pairs with rhs_batch[i], lhs_contracting[i] with rhs_contracting[i]. The result
// has the batch dimensions, then the other lhs dimensions, then the other rhs dimensions.
struct DotDimensions {
  std::vector<int64_t> lhs_batch;
  std::vector<int64_t> rhs_batch;
  std::vector<int64_t> lhs_contracting;
  std::vector<int64_t> rhs_contracting;
};

// Which dimension of Convolution's input (lhs), kernel (rhs) and output is which. Every
// spatial list has the same length n; each tensor has rank n + 2.
struct ConvDimensions {
  int64_t input_batch = 0;
  int64_t input_feature = 0;
  std::vector<int64_t> input_spatial;
  int64_t kernel_input_feature = 0;
  int64_t kernel_output_feature = 0;
  std::vector<int64_t> kernel_spatial;
  int64_t output_batch = 0;
  int64_t output_feature = 0;
  std::vector<int64_t> output_spatial;

  // The channels-last layout of TensorFlow and JAX: input and output [b, 0, ..., n-1, f],
  // kernel [0, ..., n-1, i, o].
  static ConvDimensions ChannelsLast(int64_t num_spatial_dims);
};

// The window and grouping of Convolution, one entry per spatial dimension. Empty lists take
// their defaults: strides and dilations 1, padding (0, 0). Padding may be negative (crops).
struct ConvolutionOptions {
  std::vector<int64_t> window_strides;
  std::vector<std::pair<int64_t, int64_t>> padding;
  std::vector<int64_t> lhs_dilation;
  std::vector<int64_t> rhs_dilation;
  int64_t feature_group_count = 1;
  int64_t batch_group_count = 1;
  // The result's element type; the input's when unset (set it to accumulate bf16 in f32).
  std::optional<ElementType> result_element_type;
};

// How Gather maps index vectors and slices to its operand and result.
struct GatherDimensions {
  std::vector<int64_t> offset_dims;
  std::vector<int64_t> collapsed_slice_dims;
  std::vector<int64_t> operand_batching_dims;
  std::vector<int64_t> start_indices_batching_dims;
  std::vector<int64_t> start_index_map;
  int64_t index_vector_dim = 0;
};

// How Scatter maps index vectors and update windows to its inputs.
struct ScatterDimensions {
  std::vector<int64_t> update_window_dims;
  std::vector<int64_t> inserted_window_dims;
  std::vector<int64_t> input_batching_dims;
  std::vector<int64_t> scatter_indices_batching_dims;
  std::vector<int64_t> scatter_dims_to_operand_dims;
  int64_t index_vector_dim = 0;
};

// Promises the caller makes about Gather's and Scatter's indices; wrong promises give
// unspecified results.
struct IndexingOptions {
  bool indices_are_sorted = false;
  bool unique_indices = false;  // Scatter only
};

struct CustomCallOptions {
  // Passed through to the target untouched.
  std::optional<std::string> backend_config;
  // The call reads or writes state the program cannot see; it is never removed or reordered.
  bool has_side_effect = false;
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_OP_OPTIONS_H_
