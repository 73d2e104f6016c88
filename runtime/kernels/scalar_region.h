// A region of rank-0 ops evaluated on plain scalars instead of tensors: how a sort runs its
// comparator once per comparison, and a reduce or reduce_window a reducer of several ops
// (an argmax's compare and select, a sum of maxima) once per element, without building
// tensors and walking the region through the interpreter. The ops comparators and reducers
// are made of are evaluated (constant, compare, select, and, or, xor, not, add, subtract,
// multiply, divide, maximum, minimum, negate); a region with any other op does not compile,
// and the caller runs it through the interpreter. The results are bit for bit the kernels'
// own: the arithmetic is the kernels' functors (elementwise_util.h).
//
//   std::optional<ScalarRegion> fast = ScalarRegion::Compile(sort.getComparator());
//   bool before = fast->Run({ReadScalar(keys, i), ReadScalar(keys, j)}).bits != 0;
#ifndef TESSEL_RUNTIME_KERNELS_SCALAR_REGION_H_
#define TESSEL_RUNTIME_KERNELS_SCALAR_REGION_H_

#include <cstdint>
#include <optional>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/Region.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// One element: its type and its bits (the element's bytes, zero-extended). Complex
// elements (16 bytes) do not fit; Compile refuses regions that would read them.
struct Scalar {
  ElementType type = ElementType::kPred;
  uint64_t bits = 0;
};

// Element `index` of `tensor` (row-major). REQUIRES: tensor's type is not complex.
Scalar ReadScalar(const Tensor& tensor, int64_t index);

// The value of T whose bytes `bits` holds (as ReadScalar stores them).
template <typename T>
T ScalarAs(uint64_t bits) {
  if constexpr (std::is_same_v<T, bool>) {
    return bits != 0;
  } else {
    using U = std::conditional_t<sizeof(T) == 1, uint8_t,
              std::conditional_t<sizeof(T) == 2, uint16_t,
              std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    return Eigen::numext::bit_cast<T>(static_cast<U>(bits));
  }
}

// The bits ReadScalar would store for `value` (the inverse of ScalarAs).
template <typename T>
uint64_t BitsOf(T value) {
  if constexpr (std::is_same_v<T, bool>) {
    return value ? 1 : 0;
  } else {
    using U = std::conditional_t<sizeof(T) == 1, uint8_t,
              std::conditional_t<sizeof(T) == 2, uint16_t,
              std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>>>;
    return Eigen::numext::bit_cast<U>(value);
  }
}

// Stores `value` as element `index` of `tensor`. REQUIRES: the tensor has value's type.
void WriteScalar(Tensor& tensor, int64_t index, Scalar value);

class ScalarRegion {
 public:
  // `region`'s single block as a sequence of scalar steps, or nothing when an op or a type
  // is not one this evaluates.
  static std::optional<ScalarRegion> Compile(mlir::Region& region);

  // The same, but Run returns `value` (a value computed in the region's block, or one of
  // its arguments) instead of the region's first result: how a sort evaluates the key a
  // comparator derives from one element, once per element rather than once per comparison.
  static std::optional<ScalarRegion> Compile(mlir::Region& region, mlir::Value value);

  // The region's first result for `args` (one per block argument, of their types).
  Scalar Run(absl::Span<const Scalar> args) const;

  // Every result of the region for `args`, into `results` (one per returned value).
  void RunAll(absl::Span<const Scalar> args, absl::Span<Scalar> results) const;

  // How many values the region returns.
  int num_results() const { return static_cast<int>(results_.size()); }

 private:
  enum class Kind {
    kConstant, kCompare, kSelect, kAnd, kOr, kXor, kNot,
    kAdd, kSub, kMul, kDiv, kMax, kMin, kNeg,
  };
  struct Step {
    Kind kind;
    int a = 0, b = 0, c = 0;  // value slots of the operands
    hlo::ComparisonDirection direction = hlo::ComparisonDirection::EQ;
    hlo::ComparisonType compareType = hlo::ComparisonType::FLOAT;
    Scalar constant;
  };

  // Writes every step's value after the arguments in `slots`.
  void Evaluate(llvm::SmallVectorImpl<Scalar>& slots) const;

  int numArgs_ = 0;
  int result_ = 0;
  std::vector<int> results_;  // the slots of every returned value
  std::vector<Step> steps_;
};

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_SCALAR_REGION_H_
