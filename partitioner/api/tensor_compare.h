// The comparison of a partitioned run's results with the single-device run's: bit for bit for
// integers and pred, within a tolerance for floats and complex numbers (on |got - want|),
// whose sums a partitioned program may add in another order. Verify() and `tessel run --check` both decide "matches" with it.
//
//   TensorComparison c = CompareTensors(partitioned_result, reference_result);
//   if (!c.matches) std::cerr << c.mismatch << "\n";
#ifndef TESSEL_PARTITIONER_API_TENSOR_COMPARE_H_
#define TESSEL_PARTITIONER_API_TENSOR_COMPARE_H_

#include <string>

#include "runtime/tensor.h"

namespace tessel {

struct TensorComparison {
  bool matches = true;
  // Whether the elements were compared bit for bit (integers and pred).
  bool exact = false;
  // The largest |got - want| over the float elements; 0 for exact comparisons.
  double max_abs_difference = 0;
  // Empty when `matches`; otherwise what differs: "got f32[2], expected f32[3]",
  // "got s32[2] {1, 2}, expected s32[2] {1, 3}" or, for floats, the worst element (the
  // largest difference against its own tolerance) with its index and the tolerance:
  // "element 5 [1, 2]: got 1.5, expected 1.25, |difference| 0.25 > tolerance 0.000135 (...)".
  std::string mismatch;
  // For floats: the bound every element was held to besides its relative part (absolute
  // tolerance plus the ulps of the largest magnitude), for messages.
  double absolute_bound = 0;
};

// A float element matches when |got - want| <= absolute + relative * |want| + 16 ulps of the
// largest finite |want| in the tensor (NaN matches NaN): reordered sums are off by rounding
// errors of their terms, which an element that cancels to near zero cannot absorb in its own
// relative error. The relative tolerance is at least two ulps of the type (f16, bf16).
TensorComparison CompareTensors(const runtime::Tensor& got, const runtime::Tensor& want,
                                double relative_tolerance = 1e-4,
                                double absolute_tolerance = 1e-5);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_TENSOR_COMPARE_H_
