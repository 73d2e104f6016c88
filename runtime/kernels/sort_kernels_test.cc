// Tests of the sort kernel: golden cases, and every fast path (a comparator recognised as
// a key comparison, one evaluated on scalars) against the interpreted comparator on random
// rows. The interpreted path is the kernel's original algorithm (a stable merge sort that
// runs the comparator region through the interpreter per comparison), kept as the
// reference: a comparator gets it when it holds an op the scalar evaluator lacks.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_test_util.h"
#include "runtime/random_inputs.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

class SortKernelsTest : public KernelTest {
 protected:
  // Runs `program` and the same program with its comparator forced onto the interpreter,
  // and expects bitwise-equal results.
  void ExpectSameAsInterpreted(const std::string& program, const std::vector<Tensor>& inputs) {
    absl::StatusOr<std::vector<Tensor>> fast = Run(program, inputs);
    absl::StatusOr<std::vector<Tensor>> reference = Run(Interpreted(program), inputs);
    ASSERT_TRUE(fast.ok()) << fast.status();
    ASSERT_TRUE(reference.ok()) << reference.status();
    ASSERT_EQ(fast->size(), reference->size());
    for (size_t i = 0; i < fast->size(); ++i) {
      EXPECT_THAT((*fast)[i], BitwiseEq((*reference)[i])) << "result " << i << " of\n" << program;
    }
  }

  // The program with its comparator's result ANDed with `1 + 1 > 1`: the same order, but
  // the root is no compare (so no key path) and the add is no comparator op (so no scalar
  // evaluation).
  static std::string Interpreted(const std::string& program) {
    return absl::StrReplaceAll(program, {{"  hlo.return %r : tensor<i1>",
                                          "  %one = hlo.constant dense<1> : tensor<i32>\n"
                                          "  %two = hlo.add %one, %one : tensor<i32>\n"
                                          "  %true = hlo.compare GT, %two, %one : tensor<i32>\n"
                                          "  %r2 = hlo.and %r, %true : tensor<i1>\n"
                                          "  hlo.return %r2 : tensor<i1>"}});
  }
};

// A sort of one or more tensors of `types` and `shape` along `dimension` with a comparator
// whose body `body` computes %r from %a<k>, %b<k> (parameters of operand k).
std::string SortProgram(const std::vector<ElementType>& types, const Shape& shape,
                        int dimension, const std::string& body) {
  std::string params, resultTypes, argTypes, results, blockArgs;
  for (size_t k = 0; k < types.size(); ++k) {
    std::string t = MlirTensorType(types[k], shape);
    std::string scalar = MlirTensorType(types[k], {});
    absl::StrAppend(&params, k ? ", " : "", "%x", k, ": ", t);
    absl::StrAppend(&resultTypes, k ? ", " : "", t);
    absl::StrAppend(&argTypes, k ? ", " : "", "%x", k);
    absl::StrAppend(&results, k ? ", " : "", "%s#", k);
    absl::StrAppend(&blockArgs, k ? ", " : "", "%a", k, ": ", scalar, ", %b", k, ": ", scalar);
  }
  return absl::StrCat("func.func @main(", params, ") -> (", resultTypes, ") {\n",
                      "%s:", types.size(), " = hlo.sort(", argTypes, ") dimension = ",
                      dimension, " is_stable : ", resultTypes, " comparator {\n",
                      "^bb0(", blockArgs, "):\n", body, "  hlo.return %r : tensor<i1>\n",
                      "}\nreturn ", results, " : ", resultTypes, "\n}");
}

// f32 values drawn from a small set with duplicates, both zeros, both infinities and NaNs
// of either sign, so that ties, -0 against +0 and NaN placement are all exercised.
Tensor SpecialFloats(const Shape& shape, uint32_t seed) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float pool[] = {kNaN, -kNaN, kInf, -kInf, 0.0f, -0.0f, 1.5f, -1.5f, 2, 3, -7, 1e-30f};
  std::mt19937 random(seed);
  std::vector<float> values(NumElements(shape));
  for (float& v : values) {
    uint32_t draw = random();
    v = draw % 3 == 0 ? pool[(draw >> 8) % std::size(pool)] : static_cast<float>(draw % 17) - 8;
  }
  return Tensor::FromVector<float>(shape, values);
}

// Bodies of comparators the kernel recognises as key comparisons of operand `k`.
std::string Less(int k, const std::string& type, const std::string& compareType = "") {
  return absl::StrCat("  %r = hlo.compare LT, %a", k, ", %b", k, compareType, " : ", type, "\n");
}
std::string Greater(int k, const std::string& type, const std::string& compareType = "") {
  return absl::StrCat("  %r = hlo.compare GT, %a", k, ", %b", k, compareType, " : ", type, "\n");
}

TEST_F(SortKernelsTest, KeyComparatorsSortAsTheInterpretedOnesOnRandomRows) {
  // Odd shapes: rows of 1, 2, 33 and 300 elements, sorted along an inner and an outer
  // dimension.
  const Shape shapes[] = {{3, 33, 5}, {2, 300}, {7, 1}, {1, 2}, {300, 2}};
  for (const Shape& shape : shapes) {
    for (int dimension = 0; dimension < static_cast<int>(shape.size()); ++dimension) {
      SCOPED_TRACE(absl::StrCat("shape rank ", shape.size(), " dimension ", dimension));
      Tensor f = SpecialFloats(shape, 7 + dimension);
      Tensor i = RandomTensor(ElementType::kS32, shape, 3);
      Tensor u = RandomTensor(ElementType::kU8, shape, 4);
      Tensor h = RandomTensor(ElementType::kBF16, shape, 5);
      Tensor p = RandomTensor(ElementType::kPred, shape, 6);
      const ElementType kF32 = ElementType::kF32, kS32 = ElementType::kS32;
      // f32 `<` with NaNs (no strict weak order), total order both ways, descending.
      ExpectSameAsInterpreted(SortProgram({kF32}, shape, dimension, Less(0, "tensor<f32>")), {f});
      ExpectSameAsInterpreted(SortProgram({kF32}, shape, dimension, Greater(0, "tensor<f32>")), {f});
      ExpectSameAsInterpreted(
          SortProgram({kF32}, shape, dimension, Less(0, "tensor<f32>", ", TOTALORDER")), {f});
      ExpectSameAsInterpreted(
          SortProgram({kF32}, shape, dimension, Greater(0, "tensor<f32>", ", TOTALORDER")), {f});
      // Swapped parameters: b < a is a descending sort.
      ExpectSameAsInterpreted(
          SortProgram({kF32}, shape, dimension,
                      "  %r = hlo.compare LT, %b0, %a0, TOTALORDER : tensor<f32>\n"),
          {f});
      // JAX's comparator: a key computed from each element (NaN and -0 canonicalized).
      ExpectSameAsInterpreted(
          absl::StrReplaceAll(
              SortProgram({kF32}, shape, dimension,
                          absl::StrReplaceAll(JaxSortKeyBody(false), {{"%lt =", "%r ="}})),
              {{"^bb0(%a0: tensor<f32>, %b0: tensor<f32>)", "^bb0(%a: tensor<f32>, %b: tensor<f32>)"}}),
          {f});
      // Several operands permuted together, the key on the second one; integer ties keep
      // their order.
      ExpectSameAsInterpreted(
          SortProgram({kF32, kS32, ElementType::kU8}, shape, dimension, Less(1, "tensor<i32>")),
          {f, i, u});
      ExpectSameAsInterpreted(
          SortProgram({kS32, ElementType::kU8}, shape, dimension, Greater(1, "tensor<ui8>")),
          {i, u});
      ExpectSameAsInterpreted(
          SortProgram({ElementType::kBF16, ElementType::kPred}, shape, dimension,
                      Less(0, "tensor<bf16>")),
          {h, p});
      ExpectSameAsInterpreted(
          SortProgram({ElementType::kPred, kS32}, shape, dimension, Greater(0, "tensor<i1>")),
          {p, i});
    }
  }
}

TEST_F(SortKernelsTest, ScalarComparatorsSortAsTheInterpretedOnesOnRandomRows) {
  // Comparators that are no single key comparison: two keys, a non-strict `<=`, and one
  // that is not an order at all. These run on scalars per comparison.
  const Shape shape = {4, 57};
  Tensor i = RandomTensor(ElementType::kS32, shape, 11);
  Tensor j = RandomTensor(ElementType::kS32, shape, 12);
  Tensor f = SpecialFloats(shape, 13);
  const ElementType kF32 = ElementType::kF32, kS32 = ElementType::kS32;
  ExpectSameAsInterpreted(SortProgram({kS32, kS32}, shape, 1,
                                      "  %lt0 = hlo.compare LT, %a0, %b0 : tensor<i32>\n"
                                      "  %eq0 = hlo.compare EQ, %a0, %b0 : tensor<i32>\n"
                                      "  %gt1 = hlo.compare GT, %a1, %b1 : tensor<i32>\n"
                                      "  %r = hlo.select %eq0, %gt1, %lt0 : tensor<i1>, tensor<i1>\n"),
                          {i, j});
  ExpectSameAsInterpreted(
      SortProgram({kF32}, shape, 1, "  %r = hlo.compare LE, %a0, %b0 : tensor<f32>\n"), {f});
  ExpectSameAsInterpreted(
      SortProgram({kS32, kS32}, shape, 0, "  %r = hlo.compare LT, %a0, %b1 : tensor<i32>\n"),
      {i, j});
}

TEST_F(SortKernelsTest, DescendingTotalOrderPutsPositiveNanFirstAndNegativeNanLast) {
  constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
  constexpr float kInf = std::numeric_limits<float>::infinity();
  Tensor x = Tensor::FromVector<float>({7}, {0.0f, kNaN, -kInf, -0.0f, -kNaN, 1, kInf});
  Tensor result = RunOne(
      SortProgram({ElementType::kF32}, {7}, 0, Greater(0, "tensor<f32>", ", TOTALORDER")), {x});
  std::vector<float> v = result.ToVector<float>();
  // XLA's total order: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN.
  EXPECT_TRUE(std::isnan(v[0]) && !std::signbit(v[0]));
  EXPECT_EQ(v[1], kInf);
  EXPECT_EQ(v[2], 1);
  EXPECT_TRUE(v[3] == 0 && !std::signbit(v[3]));
  EXPECT_TRUE(v[4] == 0 && std::signbit(v[4]));
  EXPECT_EQ(v[5], -kInf);
  EXPECT_TRUE(std::isnan(v[6]) && std::signbit(v[6]));
}

TEST_F(SortKernelsTest, DescendingSortKeepsEqualKeysInInputOrder) {
  auto results = Run(SortProgram({ElementType::kS32, ElementType::kS32}, {6}, 0,
                                 Greater(0, "tensor<i32>")),
                     {Tensor::FromVector<int32_t>({6}, {1, 2, 1, 3, 2, 1}),
                      Tensor::FromVector<int32_t>({6}, {0, 1, 2, 3, 4, 5})});
  ASSERT_THAT(results, ::tessel::testing::IsOk());
  EXPECT_THAT((*results)[0].ToVector<int32_t>(), ElementsAre(3, 2, 2, 1, 1, 1));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(3, 1, 4, 0, 2, 5));
}

// JAX's comparator (NaN and -0 canonicalized, then a total-order less-than) sorts the same
// on scalars as through the interpreter, which an unused exp in the region forces.
TEST_F(SortKernelsTest, ScalarComparatorSortsAsTheInterpretedOne) {
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

TEST_F(SortKernelsTest, SortsAscending) {
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

TEST_F(SortKernelsTest, SortPermutesValuesWithKeysAndIsStable) {
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

TEST_F(SortKernelsTest, SortsByTwoKeysLexicographically) {
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

TEST_F(SortKernelsTest, SortsEachRowAlongTheLastDimension) {
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

TEST_F(SortKernelsTest, SortsEachColumnAlongTheFirstDimension) {
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

TEST_F(SortKernelsTest, SortsWithATotalOrderComparatorIncludingNanAndSignedZeros) {
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

TEST_F(SortKernelsTest, AComparatorThatIsNotAnOrderStillYieldsAPermutation) {
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

TEST_F(SortKernelsTest, AFailingComparatorFailsTheSort) {
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
