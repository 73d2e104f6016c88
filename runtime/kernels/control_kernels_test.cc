// Golden tests of the sort, top_k, while, case, custom_call and manual_computation kernels.
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

// JAX's comparator (NaN and -0 canonicalized, then a total-order less-than) sorts the same
// on scalars as through the interpreter, which an unused add in the region forces.
TEST_F(ControlKernelsTest, ScalarComparatorSortsAsTheInterpretedOne) {
  auto program = [](bool interpreted) {
    return absl::StrCat(
        "func.func @main(%x: tensor<2x9xf32>, %i: tensor<2x9xi32>) -> (tensor<2x9xf32>, "
        "tensor<2x9xi32>) {\n",
        "%s:2 = hlo.sort(%x, %i) dimension = 1 is_stable : tensor<2x9xf32>, tensor<2x9xi32> "
        "comparator {\n",
        "^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):\n",
        JaxSortKeyBody(interpreted),
        "  %gt = hlo.compare GT, %c, %d : tensor<i32>\n",
        "  %eq = hlo.compare EQ, %a1, %b1, TOTALORDER : tensor<f32>\n",
        "  %tie = hlo.and %eq, %gt : tensor<i1>\n",
        "  %r = hlo.or %lt, %tie : tensor<i1>\n",
        "  hlo.return %r : tensor<i1>\n",
        "}\nreturn %s#0, %s#1 : tensor<2x9xf32>, tensor<2x9xi32>\n}");
  };
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  std::vector<Tensor> inputs = {
      Tensor::FromVector<float>({2, 9}, {3, -0.0f, kNaN, 0.0f, -kInf, 3, -kNaN, 1, 0.0f,  //
                                         2, 2, 2, -1, kInf, -0.0f, 5, 5, -1}),
      Tensor::FromVector<int32_t>({2, 9}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                           15, 16, 17})};
  absl::StatusOr<std::vector<Tensor>> fast = Run(program(false), inputs);
  absl::StatusOr<std::vector<Tensor>> interpreted = Run(program(true), inputs);
  ASSERT_TRUE(fast.ok()) << fast.status();
  ASSERT_TRUE(interpreted.ok()) << interpreted.status();
  EXPECT_THAT((*fast)[0], BitwiseEq((*interpreted)[0]));
  EXPECT_THAT((*fast)[1], BitwiseEq((*interpreted)[1]));
  // Equal keys go by the larger second operand first (the tie-break reads %c > %d).
  EXPECT_THAT((*fast)[1].ToVector<int32_t>(),
              ElementsAre(4, 8, 3, 1, 7, 5, 0, 6, 2, 17, 12, 14, 11, 10, 9, 16, 15, 13));
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

TEST_F(ControlKernelsTest, SortsAscending) {
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<5xf32>) -> tensor<5xf32> {
      %s = hlo.sort(%x) dimension = 0 : tensor<5xf32> comparator {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %lt = hlo.compare LT, %a, %b : tensor<f32>
        hlo.return %lt : tensor<i1>
      }
      return %s : tensor<5xf32>
    })",
                         {Tensor::FromVector<float>({5}, {3, -1, 2, 8, 0})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(-1, 0, 2, 3, 8));
}

TEST_F(ControlKernelsTest, SortPermutesValuesWithKeysAndIsStable) {
  // Only the keys are compared; equal keys keep their input order, so the values of key 1
  // come out as 1, 3 and those of key 2 as 0, 2.
  auto results = Run(R"(
    func.func @main(%k: tensor<4xi32>, %v: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
      %s:2 = hlo.sort(%k, %v) dimension = 0 is_stable : tensor<4xi32>, tensor<4xi32> comparator {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>, %va: tensor<i32>, %vb: tensor<i32>):
        %lt = hlo.compare LT, %a, %b : tensor<i32>
        hlo.return %lt : tensor<i1>
      }
      return %s#0, %s#1 : tensor<4xi32>, tensor<4xi32>
    })",
                     {Tensor::FromVector<int32_t>({4}, {2, 1, 2, 1}),
                      Tensor::FromVector<int32_t>({4}, {0, 1, 2, 3})});
  ASSERT_THAT(results, ::tessel::testing::IsOk());
  EXPECT_THAT((*results)[0].ToVector<int32_t>(), ElementsAre(1, 1, 2, 2));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(1, 3, 0, 2));
}

TEST_F(ControlKernelsTest, SortsByTwoKeysLexicographically) {
  // (k1, k2) pairs (1,5) (0,9) (1,2) (0,3) sort to (0,3) (0,9) (1,2) (1,5).
  auto results = Run(R"(
    func.func @main(%k1: tensor<4xi32>, %k2: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
      %s:2 = hlo.sort(%k1, %k2) dimension = 0 : tensor<4xi32>, tensor<4xi32> comparator {
      ^bb0(%a1: tensor<i32>, %b1: tensor<i32>, %a2: tensor<i32>, %b2: tensor<i32>):
        %lt1 = hlo.compare LT, %a1, %b1 : tensor<i32>
        %eq1 = hlo.compare EQ, %a1, %b1 : tensor<i32>
        %lt2 = hlo.compare LT, %a2, %b2 : tensor<i32>
        %r = hlo.select %eq1, %lt2, %lt1 : tensor<i1>, tensor<i1>
        hlo.return %r : tensor<i1>
      }
      return %s#0, %s#1 : tensor<4xi32>, tensor<4xi32>
    })",
                     {Tensor::FromVector<int32_t>({4}, {1, 0, 1, 0}),
                      Tensor::FromVector<int32_t>({4}, {5, 9, 2, 3})});
  ASSERT_THAT(results, ::tessel::testing::IsOk());
  EXPECT_THAT((*results)[0].ToVector<int32_t>(), ElementsAre(0, 0, 1, 1));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(3, 9, 2, 5));
}

TEST_F(ControlKernelsTest, SortsEachRowAlongTheLastDimension) {
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<2x3xi32>) -> tensor<2x3xi32> {
      %s = hlo.sort(%x) dimension = 1 : tensor<2x3xi32> comparator {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %gt = hlo.compare GT, %a, %b : tensor<i32>
        hlo.return %gt : tensor<i1>
      }
      return %s : tensor<2x3xi32>
    })",
                         {Tensor::FromVector<int32_t>({2, 3}, {1, 3, 2, 6, 4, 5})});
  EXPECT_THAT(result.ToVector<int32_t>(), ElementsAre(3, 2, 1, 6, 5, 4));
}

TEST_F(ControlKernelsTest, SortsEachColumnAlongTheFirstDimension) {
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<3x2xi32>) -> tensor<3x2xi32> {
      %s = hlo.sort(%x) dimension = 0 : tensor<3x2xi32> comparator {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %lt = hlo.compare LT, %a, %b : tensor<i32>
        hlo.return %lt : tensor<i1>
      }
      return %s : tensor<3x2xi32>
    })",
                         {Tensor::FromVector<int32_t>({3, 2}, {5, 0, 1, 9, 3, 4})});
  // Columns {5, 1, 3} and {0, 9, 4}.
  EXPECT_THAT(result.ToVector<int32_t>(), ElementsAre(1, 0, 3, 4, 5, 9));
}

TEST_F(ControlKernelsTest, SortsWithATotalOrderComparatorIncludingNanAndSignedZeros) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<6xf32>) -> tensor<6xf32> {
      %s = hlo.sort(%x) dimension = 0 : tensor<6xf32> comparator {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %lt = hlo.compare LT, %a, %b, TOTALORDER : tensor<f32>
        hlo.return %lt : tensor<i1>
      }
      return %s : tensor<6xf32>
    })",
                         {Tensor::FromVector<float>({6}, {nan, 1, -inf, 0.0f, -0.0f, -1})});
  std::vector<float> sorted = result.ToVector<float>();
  ASSERT_EQ(sorted.size(), 6u);
  // -0 sorts before +0 and NaN after +inf.
  EXPECT_EQ(sorted[0], -inf);
  EXPECT_EQ(sorted[1], -1);
  EXPECT_TRUE(sorted[2] == 0 && std::signbit(sorted[2]));
  EXPECT_TRUE(sorted[3] == 0 && !std::signbit(sorted[3]));
  EXPECT_EQ(sorted[4], 1);
  EXPECT_TRUE(std::isnan(sorted[5]));
}

TEST_F(ControlKernelsTest, AComparatorThatIsNotAnOrderStillYieldsAPermutation) {
  // "Always true" is no strict weak order; the result is unspecified but must be a
  // permutation of the input, and the kernel must stay in bounds.
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<9xi32>, %t: tensor<i1>) -> tensor<9xi32> {
      %s = hlo.sort(%x) dimension = 0 : tensor<9xi32> comparator {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        hlo.return %t : tensor<i1>
      }
      return %s : tensor<9xi32>
    })",
                         {Tensor::FromVector<int32_t>({9}, {0, 1, 2, 3, 4, 5, 6, 7, 8}),
                          Tensor::Scalar<bool>(true)});
  EXPECT_THAT(result.ToVector<int32_t>(),
              ::testing::UnorderedElementsAre(0, 1, 2, 3, 4, 5, 6, 7, 8));
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

TEST_F(ControlKernelsTest, AFailingComparatorFailsTheSort) {
  // The comparator calls a custom_call the executor cannot run, so the sort reports it.
  auto results = Run(R"(
    func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
      %s = hlo.sort(%x) dimension = 0 : tensor<3xi32> comparator {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %r = hlo.custom_call @unknown_target(%a) : (tensor<i32>) -> tensor<i32>
        %lt = hlo.compare LT, %r, %b : tensor<i32>
        hlo.return %lt : tensor<i1>
      }
      return %s : tensor<3xi32>
    })",
                     {Tensor::FromVector<int32_t>({3}, {3, 2, 1})});
  EXPECT_THAT(results, StatusIs(absl::StatusCode::kUnimplemented, "hlo.sort at test.mlir"));
}

}  // namespace
}  // namespace tessel::runtime
