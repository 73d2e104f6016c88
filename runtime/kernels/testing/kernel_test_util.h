// Test support for kernel tests: a fixture that parses a program and runs its @main, and a
// registry with stand-in kernels for hlo.compare and hlo.select.
//
// The real compare and select kernels belong to the elementwise family, which is written
// on another branch; comparators and argmax reducers in these tests need them, so
// TestRegistry() adds small rank-0-or-same-shape versions (FLOAT/SIGNED/UNSIGNED ordering
// and TOTALORDER for floats) on top of DefaultKernelRegistry(). They replace whatever the
// default registry has for those two ops, and are not used outside tests.
#ifndef TESSEL_RUNTIME_KERNELS_TESTING_KERNEL_TEST_UTIL_H_
#define TESSEL_RUNTIME_KERNELS_TESTING_KERNEL_TEST_UTIL_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/tensor.h"

namespace tessel::runtime::testing {

// DefaultKernelRegistry() plus the stand-in compare and select kernels.
const KernelRegistry& TestRegistry();

class KernelTest : public ::testing::Test {
 protected:
  // Parses `text` and runs its @main on `args` with `registry`.
  absl::StatusOr<std::vector<Tensor>> Run(absl::string_view text, std::vector<Tensor> args,
                                          const KernelRegistry& registry = TestRegistry());

  // Run() for programs with one result; fails the test (and returns an empty f32 scalar)
  // when the run fails.
  Tensor RunOne(absl::string_view text, std::vector<Tensor> args,
                const KernelRegistry& registry = TestRegistry());

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
};

}  // namespace tessel::runtime::testing

#endif  // TESSEL_RUNTIME_KERNELS_TESTING_KERNEL_TEST_UTIL_H_
