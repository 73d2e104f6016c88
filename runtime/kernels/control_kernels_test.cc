// Golden tests of the top_k, while, case, custom_call and manual_computation kernels.
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_registry.h"
#include "runtime/kernel_test_util.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

class ControlKernelsTest : public KernelTest {};

TEST_F(ControlKernelsTest, TopKTakesTheLargestOfEachRowInTotalOrder) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  const char* program = R"(
    func.func @main(%x: tensor<2x5xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
      %v, %i = hlo.top_k %x, k = 3 : tensor<2x5xf32>
      return %v, %i : tensor<2x3xf32>, tensor<2x3xi32>
    })";
  // Ties keep the lower index first; NaN is above everything, -0 below +0.
  absl::StatusOr<std::vector<Tensor>> results =
      Run(program, {Tensor::FromVector<float>({2, 5}, {1, 7, 7, -2, 0,  //
                                                       -0.0f, 0.0f, kNaN, 3, -5})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(1, 2, 0, 2, 3, 1));
  std::vector<float> values = (*results)[0].ToVector<float>();
  EXPECT_THAT(std::vector<float>(values.begin(), values.begin() + 3), ElementsAre(7, 7, 1));
  EXPECT_TRUE(std::isnan(values[3]));
  EXPECT_EQ(values[4], 3);
  EXPECT_FALSE(std::signbit(values[5]));
}

// A manual computation runs its body on every device of the mesh, with collectives, each
// on its shard: [1, 2] and [3, 4] sum to [4, 6], and each adds its own shard back.
TEST_F(ControlKernelsTest, ManualComputationRunsTheBodyOnEveryDevice) {
  Tensor result = RunOne(R"(
    tessel.mesh @mesh = <["x"=2]>
    func.func @main(%a: tensor<4xi32>) -> tensor<4xi32> {
      %r = tessel.manual_computation(%a) in_shardings=[<@mesh, [{"x"}]>] out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%la: tensor<2xi32>) {
        %s = tessel.all_reduce %la over @mesh ["x"] kind = sum : tensor<2xi32>
        %t = hlo.add %s, %la : tensor<2xi32>
        tessel.return %t : tensor<2xi32>
      } : (tensor<4xi32>) -> tensor<4xi32>
      return %r : tensor<4xi32>
    })",
                         {Tensor::FromVector<int32_t>({4}, {1, 2, 3, 4})});
  EXPECT_THAT(result.ToVector<int32_t>(), ElementsAre(5, 8, 7, 10));
}

TEST_F(ControlKernelsTest, TopKSmallestOfIntegers) {
  absl::StatusOr<std::vector<Tensor>> results = Run(R"(
    func.func @main(%x: tensor<6xui8>) -> (tensor<2xui8>, tensor<2xi32>) {
      %v, %i = hlo.top_k %x, k = 2 smallest : tensor<6xui8>
      return %v, %i : tensor<2xui8>, tensor<2xi32>
    })",
                                                    {Tensor::FromVector<uint8_t>({6}, {9, 200, 3, 3, 7, 255})});
  ASSERT_TRUE(results.ok()) << results.status();
  EXPECT_THAT((*results)[0].ToVector<uint8_t>(), ElementsAre(3, 3));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(2, 3));
}

TEST_F(ControlKernelsTest, WhileCarriesStateUntilTheConditionFails) {
  // Sums i for i = 0..4 while counting i up to 5: acc = 10.
  auto results = Run(R"(
    func.func @main(%n: tensor<i32>) -> (tensor<i32>, tensor<i32>) {
      %zero = hlo.constant dense<0> : tensor<i32>
      %one = hlo.constant dense<1> : tensor<i32>
      %r:2 = hlo.while(%i = %zero, %acc = %zero) : tensor<i32>, tensor<i32>
      cond {
        %lt = hlo.compare LT, %i, %n : tensor<i32>
        hlo.return %lt : tensor<i1>
      } do {
        %i1 = hlo.add %i, %one : tensor<i32>
        %acc1 = hlo.add %acc, %i : tensor<i32>
        hlo.return %i1, %acc1 : tensor<i32>, tensor<i32>
      }
      return %r#0, %r#1 : tensor<i32>, tensor<i32>
    })",
                     {Tensor::Scalar<int32_t>(5)});
  ASSERT_THAT(results, ::tessel::testing::IsOk());
  EXPECT_THAT((*results)[0].ToVector<int32_t>(), ElementsAre(5));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(10));
}

TEST_F(ControlKernelsTest, WhileWhoseConditionIsFalseAtOnceReturnsItsInputs) {
  auto results = Run(R"(
    func.func @main(%x: tensor<2xf32>, %f: tensor<i1>) -> tensor<2xf32> {
      %r = hlo.while(%s = %x) : tensor<2xf32>
      cond {
        hlo.return %f : tensor<i1>
      } do {
        %s1 = hlo.add %s, %s : tensor<2xf32>
        hlo.return %s1 : tensor<2xf32>
      }
      return %r : tensor<2xf32>
    })",
                     {Tensor::FromVector<float>({2}, {1.5f, 2.5f}), Tensor::Scalar<bool>(false)});
  ASSERT_THAT(results, ::tessel::testing::IsOk());
  EXPECT_THAT((*results)[0].ToVector<float>(), ElementsAre(1.5f, 2.5f));
}

constexpr absl::string_view kCaseProgram = R"(
    func.func @main(%i: tensor<i32>, %x: tensor<2xf32>) -> tensor<2xf32> {
      %r = hlo.case %i branches {
        hlo.return %x : tensor<2xf32>
      }, {
        %d = hlo.add %x, %x : tensor<2xf32>
        hlo.return %d : tensor<2xf32>
      }, {
        %c = hlo.constant dense<[7.0, 8.0]> : tensor<2xf32>
        hlo.return %c : tensor<2xf32>
      } : (tensor<i32>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    })";

TEST_F(ControlKernelsTest, CaseRunsTheIndexedBranch) {
  Tensor x = Tensor::FromVector<float>({2}, {1, 2});
  EXPECT_THAT(RunOne(kCaseProgram, {Tensor::Scalar<int32_t>(0), x}).ToVector<float>(),
              ElementsAre(1, 2));
  EXPECT_THAT(RunOne(kCaseProgram, {Tensor::Scalar<int32_t>(1), x}).ToVector<float>(),
              ElementsAre(2, 4));
  EXPECT_THAT(RunOne(kCaseProgram, {Tensor::Scalar<int32_t>(2), x}).ToVector<float>(),
              ElementsAre(7, 8));
}

TEST_F(ControlKernelsTest, CaseWithAnIndexOutOfRangeRunsTheLastBranch) {
  Tensor x = Tensor::FromVector<float>({2}, {1, 2});
  EXPECT_THAT(RunOne(kCaseProgram, {Tensor::Scalar<int32_t>(3), x}).ToVector<float>(),
              ElementsAre(7, 8));
  EXPECT_THAT(RunOne(kCaseProgram, {Tensor::Scalar<int32_t>(-1), x}).ToVector<float>(),
              ElementsAre(7, 8));
}

TEST_F(ControlKernelsTest, CustomCallIsUnimplementedAndNamesItsTarget) {
  auto results = Run(R"(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %r = hlo.custom_call @my_kernel(%x) : (tensor<4xf32>) -> tensor<4xf32>
      return %r : tensor<4xf32>
    })",
                     {Tensor::FromVector<float>({4}, {1, 2, 3, 4})});
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kUnimplemented,
                                "custom_call target \"my_kernel\" has no executor"));
}

}  // namespace
}  // namespace tessel::runtime
