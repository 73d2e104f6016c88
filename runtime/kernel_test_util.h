// Test helpers for kernels: run a small program from MLIR text on host tensors and compare
// results bit for bit.
//
//   class AddTest : public KernelTest {};
//   TEST_F(AddTest, Wraps) {
//     Tensor x = Tensor::FromVector<int8_t>({1}, {100});
//     EXPECT_THAT(RunOne(UnaryProgram("hlo.neg", x), {x}), BitwiseEq(...));
//   }
#ifndef TESSEL_RUNTIME_KERNEL_TEST_UTIL_H_
#define TESSEL_RUNTIME_KERNEL_TEST_UTIL_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// The MLIR spelling of a tensor type: "tensor<2x3xf32>", "tensor<ui8>", "tensor<0x4xi1>".
std::string MlirTensorType(ElementType type, const Shape& shape);
inline std::string MlirTensorType(const Tensor& tensor) {
  return MlirTensorType(tensor.type(), tensor.shape());
}

// `func.func @main(%x) { %0 = <op> %x : <type>; return %0 }` for ops whose result has the
// operand's type.
std::string UnaryProgram(absl::string_view op, const Tensor& x);
// The same with two operands %a, %b of one type.
std::string BinaryProgram(absl::string_view op, const Tensor& a, const Tensor& b);

// The body lines JAX writes to order f32 sort keys %a and %b: NaN and -0 canonicalized
// (%a1, %b1), then %lt = %a1 < %b1 in total order. With `interpreted`, an unused exp first,
// which keeps the region off the scalar evaluator (kernels/scalar_region.h).
std::string JaxSortKeyBody(bool interpreted);

class KernelTest : public ::testing::Test {
 protected:
  // Parses `program` and runs its @main on `args` with the default kernels.
  absl::StatusOr<std::vector<Tensor>> Run(absl::string_view program, std::vector<Tensor> args);

  // Like Run, for a program with one result; an error fails the test and gives an f32
  // scalar.
  Tensor RunOne(absl::string_view program, std::vector<Tensor> args);

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

// Lets gtest print tensors in failure messages.
inline void PrintTo(const Tensor& tensor, std::ostream* os) { *os << tensor.ToString(); }

// `fn(x)` with `x` hidden from the optimizer, so that an expected value comes from the same
// run-time libm the kernel calls rather than from the compiler's constant folding (which
// may round differently).
template <typename Fn, typename T>
T AtRunTime(Fn fn, T x) {
  volatile T hidden = x;
  return fn(static_cast<T>(hidden));
}

// Matches a tensor with the same type, shape and element bits as `expected` (so a NaN matches
// the same NaN and -0 does not match +0).
MATCHER_P(BitwiseEq, expected, "is bitwise equal to " + expected.ToString()) {
  *result_listener << "which is " << arg.ToString();
  return arg.BitwiseEquals(expected);
}

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNEL_TEST_UTIL_H_
