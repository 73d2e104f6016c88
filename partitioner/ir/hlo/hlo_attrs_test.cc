// Unit tests of what the textual syntax cannot reach: the verifier of convolution
// dimension numbers built from C++ (the compact syntax only produces permutations), and
// result type inference called without a location (speculative inference stays silent).
#include <gtest/gtest.h>

#include <string>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo {
namespace {

class HloAttrsTest : public ::testing::Test {
 protected:
  HloAttrsTest() { context_.loadDialect<HloDialect>(); }

  // Builds ConvDimensionNumbersAttr through its checked getter and returns the diagnostic,
  // or "" if the attribute verified. Lists are {first, second, spatial...} per tensor.
  std::string convError(llvm::ArrayRef<int64_t> input, llvm::ArrayRef<int64_t> kernel,
                        llvm::ArrayRef<int64_t> output) {
    std::string message;
    mlir::ScopedDiagnosticHandler handler(&context_, [&](mlir::Diagnostic& diag) {
      message = diag.str();
      return mlir::success();
    });
    auto emitError = [&] { return mlir::emitError(mlir::UnknownLoc::get(&context_)); };
    ConvDimensionNumbersAttr attr = ConvDimensionNumbersAttr::getChecked(
        llvm::function_ref<mlir::InFlightDiagnostic()>(emitError), &context_, input[0],
        input[1], input.drop_front(2), kernel[0], kernel[1], kernel.drop_front(2), output[0],
        output[1], output.drop_front(2));
    return attr ? "" : message;
  }

  mlir::MLIRContext context_;
};

TEST_F(HloAttrsTest, ConvAcceptsPermutations) {
  EXPECT_EQ(convError({0, 3, 1, 2}, {2, 3, 0, 1}, {0, 3, 1, 2}), "");
}

TEST_F(HloAttrsTest, ConvRejectsDimensionOutOfRange) {
  // Two spatial dimensions make rank 4, so dimension 4 does not exist.
  EXPECT_EQ(convError({0, 4, 1, 2}, {2, 3, 0, 1}, {0, 3, 1, 2}),
            "input dimension 4 is out of range [0, 4)");
}

TEST_F(HloAttrsTest, ConvRejectsRepeatedDimension) {
  EXPECT_EQ(convError({0, 3, 1, 2}, {2, 2, 0, 1}, {0, 3, 1, 2}),
            "kernel dimension 2 appears twice");
  EXPECT_EQ(convError({0, 3, 1, 2}, {2, 3, 0, 1}, {0, 3, 1, 1}),
            "output dimension 1 appears twice");
}

TEST_F(HloAttrsTest, ConvRejectsSpatialCountMismatch) {
  EXPECT_EQ(convError({0, 2, 1}, {2, 3, 0, 1}, {0, 2, 1}),
            "input, kernel and output must have the same number of spatial dimensions, got "
            "1, 2 and 1");
}

TEST_F(HloAttrsTest, InferenceWithoutLocationFailsSilently) {
  int diagnostics = 0;
  mlir::ScopedDiagnosticHandler handler(&context_, [&](mlir::Diagnostic&) {
    ++diagnostics;
    return mlir::success();
  });
  mlir::OpBuilder builder(&context_);
  mlir::OperationState state(builder.getUnknownLoc(), ReduceOp::getOperationName());
  ReduceOp::Properties& properties = state.getOrAddProperties<ReduceOp::Properties>();
  // Dimension 3 is out of range for a rank-1 input.
  properties.dimensions = builder.getDenseI64ArrayAttr({3});
  properties.operandSegmentSizes = {1, 1};
  auto f32 = builder.getF32Type();
  mlir::Value input = builder.create<ConstantOp>(
      builder.getUnknownLoc(),
      mlir::DenseElementsAttr::get(mlir::RankedTensorType::get({4}, f32), 1.0f));
  mlir::Value init = builder.create<ConstantOp>(
      builder.getUnknownLoc(),
      mlir::DenseElementsAttr::get(mlir::RankedTensorType::get({}, f32), 0.0f));
  llvm::SmallVector<mlir::Type> inferred;
  mlir::LogicalResult result = ReduceOp::inferReturnTypes(
      &context_, std::nullopt, mlir::ValueRange{input, init},
      state.attributes.getDictionary(&context_), state.getRawProperties(), {}, inferred);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_EQ(diagnostics, 0);

  // With a location the same check reports what is wrong, like emitOpError.
  std::string message;
  mlir::ScopedDiagnosticHandler capture(&context_, [&](mlir::Diagnostic& diag) {
    message = diag.str();
    return mlir::success();
  });
  result = ReduceOp::inferReturnTypes(&context_, builder.getUnknownLoc(),
                                      mlir::ValueRange{input, init},
                                      state.attributes.getDictionary(&context_),
                                      state.getRawProperties(), {}, inferred);
  EXPECT_TRUE(mlir::failed(result));
  EXPECT_EQ(message, "'hlo.reduce' op dimensions: dimension 3 is out of range [0, 1)");
  input.getDefiningOp()->destroy();
  init.getDefiningOp()->destroy();
}

}  // namespace
}  // namespace tessel::hlo
