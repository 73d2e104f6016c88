// Golden tests of the reduce, reduce_window and select_and_scatter kernels, and checks that
// the native path for single-op reducers agrees bit for bit with running the region.
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/kernels/combiner.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/random_inputs.h"
#include "runtime/kernel_registry.h"
#include "runtime/kernel_test_util.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;
using ::testing::ElementsAre;

class ReductionKernelsTest : public KernelTest {
 protected:
  // Whether the reducer of the first hlo.reduce in `text` runs natively.
  bool IsNative(absl::string_view text, ElementType type) {
    auto module = ParseModule(text, "test.mlir", context_);
    EXPECT_THAT(module, IsOk());
    if (!module.ok()) return false;
    module_ = *std::move(module);
    hlo::ReduceOp reduce;
    module_->walk([&](hlo::ReduceOp op) { reduce = op; });
    Interpreter interpreter;
    return Combiner(reduce.getBody(), {type}, interpreter).is_native();
  }
};

// A sum reducer written as one op (native) and as two ops that add a zero first (run
// through the interpreter); a + 0 == a for every value these tests use.
constexpr absl::string_view kNativeSum = R"(
    func.func @main(%x: tensor<2x3x4xi32>) -> tensor<3xi32> {
      %zero = hlo.constant dense<0> : tensor<i32>
      %r = hlo.reduce(%x) init(%zero) dimensions = [0, 2]
          : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32> reducer {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %s = hlo.add %b, %a : tensor<i32>
        hlo.return %s : tensor<i32>
      }
      return %r : tensor<3xi32>
    })";
constexpr absl::string_view kRegionSum = R"(
    func.func @main(%x: tensor<2x3x4xi32>) -> tensor<3xi32> {
      %zero = hlo.constant dense<0> : tensor<i32>
      %r = hlo.reduce(%x) init(%zero) dimensions = [0, 2]
          : (tensor<2x3x4xi32>, tensor<i32>) -> tensor<3xi32> reducer {
      ^bb0(%a: tensor<i32>, %b: tensor<i32>):
        %z = hlo.constant dense<0> : tensor<i32>
        %t = hlo.add %a, %z : tensor<i32>
        %s = hlo.add %t, %b : tensor<i32>
        hlo.return %s : tensor<i32>
      }
      return %r : tensor<3xi32>
    })";

std::vector<int32_t> Iota(int32_t n) {
  std::vector<int32_t> values(n);
  for (int32_t i = 0; i < n; ++i) values[i] = i;
  return values;
}

TEST_F(ReductionKernelsTest, RecognisesSingleOpReducers) {
  EXPECT_TRUE(IsNative(kNativeSum, ElementType::kS32));
  EXPECT_FALSE(IsNative(kRegionSum, ElementType::kS32));
}

TEST_F(ReductionKernelsTest, ReducesOverSeveralDimensions) {
  // x[i][j][k] = 12i + 4j + k; summing over i and k gives 48 + 32j + 12 = 60 + 32j.
  Tensor x = Tensor::FromVector<int32_t>({2, 3, 4}, Iota(24));
  EXPECT_THAT(RunOne(kNativeSum, {x}).ToVector<int32_t>(), ElementsAre(60, 92, 124));
  EXPECT_THAT(RunOne(kRegionSum, {x}).ToVector<int32_t>(), ElementsAre(60, 92, 124));
}

TEST_F(ReductionKernelsTest, NativeAndRegionFloatSumsAgreeBitwise) {
  // Both paths fold in row-major order, so even rounding errors agree.
  auto program = [](absl::string_view body) {
    return absl::StrCat(R"(
      func.func @main(%x: tensor<4x5xf32>) -> tensor<4xf32> {
        %zero = hlo.constant dense<0.0> : tensor<f32>
        %r = hlo.reduce(%x) init(%zero) dimensions = [1]
            : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32> reducer {
        ^bb0(%a: tensor<f32>, %b: tensor<f32>):)",
                        body, R"(
        }
        return %r : tensor<4xf32>
      })");
  };
  std::vector<float> values;
  for (int i = 0; i < 20; ++i) values.push_back(1.0f / (i + 1) + (i % 3 == 0 ? 1e7f : 0.0f));
  Tensor x = Tensor::FromVector<float>({4, 5}, values);
  Tensor native = RunOne(program(R"(
          %s = hlo.add %a, %b : tensor<f32>
          hlo.return %s : tensor<f32>)"),
                         {x});
  Tensor region = RunOne(program(R"(
          %z = hlo.constant dense<0.0> : tensor<f32>
          %t = hlo.add %a, %z : tensor<f32>
          %s = hlo.add %t, %b : tensor<f32>
          hlo.return %s : tensor<f32>)"),
                         {x});
  EXPECT_TRUE(native.BitwiseEquals(region)) << native.ToString() << " vs " << region.ToString();
}

TEST_F(ReductionKernelsTest, NativeRowFoldsAgreeWithTheRegionBitwiseOnLargeInputs) {
  // Large enough for the native path to split its first dimension over threads when that
  // dimension is kept; each set of dimensions folds rows differently (inner reduced or
  // kept, the first dimension reduced or kept).
  const Shape shape = {72, 33, 115};
  std::vector<float> values(NumElements(shape));
  for (size_t i = 0; i < values.size(); ++i) {
    values[i] = 1.0f / static_cast<float>(i % 97 + 1) + (i % 5 == 0 ? 3e5f : 0.0f);
  }
  Tensor x = Tensor::FromVector<float>(shape, values);
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
           {0}, {1}, {2}, {0, 2}, {1, 2}, {0, 1, 2}, {}}) {
    Shape kept;
    for (int64_t d = 0; d < 3; ++d) {
      if (!absl::c_linear_search(dims, d)) kept.push_back(shape[d]);
    }
    const std::string resultType =
        absl::StrCat("tensor<", absl::StrJoin(kept, "x"), kept.empty() ? "" : "x", "f32>");
    auto program = [&](absl::string_view body) {
      return absl::StrCat(
          "func.func @main(%x: tensor<72x33x115xf32>) -> ", resultType,
          " {\n  %zero = hlo.constant dense<0.0> : tensor<f32>\n"
          "  %r = hlo.reduce(%x) init(%zero) dimensions = [",
          absl::StrJoin(dims, ", "), "]\n      : (tensor<72x33x115xf32>, tensor<f32>) -> ",
          resultType, " reducer {\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n", body,
          "\n  }\n  return %r : ", resultType, "\n}");
    };
    Tensor native = RunOne(program("    %s = hlo.add %a, %b : tensor<f32>\n"
                                   "    hlo.return %s : tensor<f32>"),
                           {x});
    Tensor region = RunOne(program("    %z = hlo.constant dense<0.0> : tensor<f32>\n"
                                   "    %t = hlo.add %a, %z : tensor<f32>\n"
                                   "    %s = hlo.add %t, %b : tensor<f32>\n"
                                   "    hlo.return %s : tensor<f32>"),
                           {x});
    EXPECT_TRUE(native.BitwiseEquals(region))
        << "dimensions [" << absl::StrJoin(dims, ", ") << "]: " << native.ToString(8) << " vs "
        << region.ToString(8);
  }
}

TEST_F(ReductionKernelsTest, ReducesTwoInputsTogetherForArgmax) {
  // Per row, the largest value and its index; ties keep the smaller index.
  auto results = Run(R"(
    func.func @main(%v: tensor<2x4xf32>, %i: tensor<2x4xi32>) -> (tensor<2xf32>, tensor<2xi32>) {
      %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
      %none = hlo.constant dense<-1> : tensor<i32>
      %r:2 = hlo.reduce(%v, %i) init(%ninf, %none) dimensions = [1]
          : (tensor<2x4xf32>, tensor<2x4xi32>, tensor<f32>, tensor<i32>)
          -> (tensor<2xf32>, tensor<2xi32>) reducer {
      ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %xv: tensor<f32>, %xi: tensor<i32>):
        %gt = hlo.compare GT, %xv, %av : tensor<f32>
        %eq = hlo.compare EQ, %xv, %av : tensor<f32>
        %lower = hlo.compare LT, %xi, %ai : tensor<i32>
        %take = hlo.select %eq, %lower, %gt : tensor<i1>, tensor<i1>
        %nv = hlo.select %take, %xv, %av : tensor<i1>, tensor<f32>
        %ni = hlo.select %take, %xi, %ai : tensor<i1>, tensor<i32>
        hlo.return %nv, %ni : tensor<f32>, tensor<i32>
      }
      return %r#0, %r#1 : tensor<2xf32>, tensor<2xi32>
    })",
                     {Tensor::FromVector<float>({2, 4}, {3, 7, 7, 1, 2, 2, 9, 9}),
                      Tensor::FromVector<int32_t>({2, 4}, {0, 1, 2, 3, 0, 1, 2, 3})});
  ASSERT_THAT(results, IsOk());
  EXPECT_THAT((*results)[0].ToVector<float>(), ElementsAre(7, 9));
  EXPECT_THAT((*results)[1].ToVector<int32_t>(), ElementsAre(1, 2));
}

TEST_F(ReductionKernelsTest, NativeReducersFollowXlaSemantics) {
  auto reduce = [&](absl::string_view op, absl::string_view type, absl::string_view init,
                    Tensor x) {
    std::string t = absl::StrCat("tensor<", type, ">");
    std::string xt = absl::StrCat("tensor<", x.num_elements(), "x", type, ">");
    return RunOne(absl::StrCat("func.func @main(%x: ", xt, ") -> ", t, " {\n",
                               "%init = hlo.constant dense<", init, "> : ", t, "\n",
                               "%r = hlo.reduce(%x) init(%init) dimensions = [0] : (", xt,
                               ", ", t, ") -> ", t, " reducer {\n",
                               "^bb0(%a: ", t, ", %b: ", t, "):\n", "%s = ", op, " %a, %b : ",
                               t, "\nhlo.return %s : ", t, "\n}\nreturn %r : ", t, "\n}"),
                  {std::move(x)});
  };
  // 16 * 16 * 3 = 768 wraps to 0 in 8 bits.
  EXPECT_THAT(reduce("hlo.mul", "i8", "1", Tensor::FromVector<int8_t>({3}, {16, 16, 3}))
                  .ToVector<int8_t>(),
              ElementsAre(0));
  // Max propagates NaN wherever it appears.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(
      reduce("hlo.max", "f32", "0.0", Tensor::FromVector<float>({3}, {1, nan, 3}))
          .ToVector<float>()[0]));
  EXPECT_THAT(reduce("hlo.min", "ui32", "4294967295",
                     Tensor::FromVector<uint32_t>({3}, {7, 4000000000u, 5}))
                  .ToVector<uint32_t>(),
              ElementsAre(5u));
  EXPECT_THAT(reduce("hlo.and", "i32", "-1", Tensor::FromVector<int32_t>({2}, {6, 3}))
                  .ToVector<int32_t>(),
              ElementsAre(2));
  EXPECT_THAT(reduce("hlo.or", "i1", "false", Tensor::FromVector<bool>({3}, {false, true, false}))
                  .ToVector<bool>(),
              ElementsAre(true));
  // pred add is logical or.
  EXPECT_THAT(reduce("hlo.add", "i1", "false", Tensor::FromVector<bool>({2}, {true, true}))
                  .ToVector<bool>(),
              ElementsAre(true));
}

TEST_F(ReductionKernelsTest, ReduceOfAnEmptyDimensionGivesTheInitValue) {
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<2x0xf32>) -> tensor<2xf32> {
      %init = hlo.constant dense<5.0> : tensor<f32>
      %r = hlo.reduce(%x) init(%init) dimensions = [1]
          : (tensor<2x0xf32>, tensor<f32>) -> tensor<2xf32> reducer {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<2xf32>
    })",
                         {Tensor::Zeros(ElementType::kF32, {2, 0})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(5, 5));
}

// A 1-D window sum of `x` with the given window clauses and init value, as native
// (`hlo.add`) or region (add of a zero first) reducer.
std::string WindowSum(int64_t in, int64_t out, absl::string_view clauses,
                      absl::string_view init, bool native) {
  std::string body = native ? "%s = hlo.add %a, %b : tensor<f32>"
                            : "%z = hlo.constant dense<0.0> : tensor<f32>\n"
                              "%t = hlo.add %a, %z : tensor<f32>\n"
                              "%s = hlo.add %t, %b : tensor<f32>";
  return absl::StrCat("func.func @main(%x: tensor<", in, "xf32>) -> tensor<", out,
                      "xf32> {\n%init = hlo.constant dense<", init, "> : tensor<f32>\n",
                      "%r = hlo.reduce_window(%x) init(%init) ", clauses, " : (tensor<", in,
                      "xf32>, tensor<f32>) -> tensor<", out, "xf32> reducer {\n",
                      "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n", body,
                      "\nhlo.return %s : tensor<f32>\n}\nreturn %r : tensor<", out,
                      "xf32>\n}");
}

TEST_F(ReductionKernelsTest, ReduceWindowWithPaddingAndStride) {
  // Padded [0, 1, 2, 3, 4, 5, 0]; windows of 2 every 2: [0+1, 2+3, 4+5].
  Tensor x = Tensor::FromVector<float>({5}, {1, 2, 3, 4, 5});
  for (bool native : {true, false}) {
    EXPECT_THAT(RunOne(WindowSum(5, 3,
                                 "window_dimensions = [2], window_strides = [2], "
                                 "padding = [[1, 1]]",
                                 "0.0", native),
                       {x})
                    .ToVector<float>(),
                ElementsAre(1, 5, 9))
        << "native " << native;
  }
}

TEST_F(ReductionKernelsTest, ReduceWindowFoldsTheInitValueForPaddingAndHoles) {
  // Base [1, 2, 3] dilated by 2 is [1, h, 2, h, 3]; the holes h hold the init value 10.
  // Each window of 2 folds init + its two elements: 10+1+10, 10+10+2, 10+2+10, 10+10+3.
  Tensor x = Tensor::FromVector<float>({3}, {1, 2, 3});
  for (bool native : {true, false}) {
    EXPECT_THAT(RunOne(WindowSum(3, 4, "window_dimensions = [2], base_dilations = [2]", "10.0",
                                 native),
                       {x})
                    .ToVector<float>(),
                ElementsAre(21, 22, 22, 23))
        << "native " << native;
  }
}

TEST_F(ReductionKernelsTest, ReduceWindowWithWindowDilation) {
  // A window of 2 dilated by 2 reads x[i] and x[i + 2].
  Tensor x = Tensor::FromVector<float>({5}, {1, 2, 3, 4, 5});
  EXPECT_THAT(RunOne(WindowSum(5, 3, "window_dimensions = [2], window_dilations = [2]", "0.0",
                               true),
                     {x})
                  .ToVector<float>(),
              ElementsAre(4, 6, 8));
}

// The reduce_window kernel as it was written first: for every output element and every
// window tap, in row-major order, the tap's input coordinates one dimension at a time.
// Slow, and obviously right; the kernel now folds whole rows and must agree bit for bit.
template <typename T, typename Fn>
Tensor ReferenceReduceWindow(const Tensor& x, T init, const std::vector<WindowDim>& window,
                             Fn fn) {
  const Shape& shape = x.shape();
  Shape resultShape, windowShape;
  for (size_t d = 0; d < shape.size(); ++d) {
    resultShape.push_back(window[d].OutputSize(shape[d]));
    windowShape.push_back(window[d].size);
  }
  std::vector<T> out(NumElements(resultShape), init);
  std::vector<int64_t> strides = RowMajorStrides(shape);
  std::vector<int64_t> o(shape.size(), 0), w(shape.size(), 0);
  for (size_t i = 0; i < out.size(); ++i, NextIndex(resultShape, absl::MakeSpan(o))) {
    for (int64_t k = 0; k < NumElements(windowShape); ++k, NextIndex(windowShape, absl::MakeSpan(w))) {
      int64_t linear = 0;
      for (size_t d = 0; d < shape.size() && linear >= 0; ++d) {
        int64_t c = window[d].InputCoordinate(shape[d], o[d], w[d]);
        linear = c < 0 ? -1 : linear + c * strides[d];
      }
      out[i] = fn(out[i], linear < 0 ? init : x.data<T>()[linear]);
    }
  }
  return Tensor::FromVector<T>(resultShape, out);
}

std::string IntList(const std::vector<int64_t>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

TEST_F(ReductionKernelsTest, ReduceWindowAgreesWithTheReferenceOnRandomWindows) {
  std::mt19937 random(42);
  auto draw = [&](int lo, int hi) { return lo + static_cast<int>(random() % (hi - lo + 1)); };
  for (int trial = 0; trial < 40; ++trial) {
    // Rank 1 to 3, sizes 1 to 9 (odd ones included), every window attribute drawn.
    int rank = draw(1, 3);
    Shape shape;
    std::vector<int64_t> sizes, strides, baseDilations, windowDilations;
    std::vector<std::vector<int64_t>> padding;
    std::vector<WindowDim> window(rank);
    for (int d = 0; d < rank; ++d) {
      shape.push_back(draw(1, 9));
      window[d].size = draw(1, 4);
      window[d].stride = draw(1, 3);
      window[d].base_dilation = draw(1, 2);
      window[d].window_dilation = draw(1, 2);
      window[d].pad_low = draw(0, 3);
      window[d].pad_high = draw(0, 3);
      sizes.push_back(window[d].size);
      strides.push_back(window[d].stride);
      baseDilations.push_back(window[d].base_dilation);
      windowDilations.push_back(window[d].window_dilation);
    }
    Shape resultShape;
    std::string paddingText = "[";
    for (int d = 0; d < rank; ++d) {
      resultShape.push_back(window[d].OutputSize(shape[d]));
      absl::StrAppend(&paddingText, d ? ", " : "", "[", window[d].pad_low, ", ",
                      window[d].pad_high, "]");
    }
    paddingText += "]";
    const std::string in = MlirTensorType(ElementType::kF32, shape);
    const std::string out = MlirTensorType(ElementType::kF32, resultShape);
    const std::string clauses = absl::StrCat(
        "window_dimensions = ", IntList(sizes), ", window_strides = ", IntList(strides),
        ", base_dilations = ", IntList(baseDilations), ", window_dilations = ",
        IntList(windowDilations), ", padding = ", paddingText);
    auto program = [&](const std::string& body) {
      return absl::StrCat("func.func @main(%x: ", in, ", %init: tensor<f32>) -> ", out, " {\n",
                          "%r = hlo.reduce_window(%x) init(%init) ", clauses, " : (", in,
                          ", tensor<f32>) -> ", out, " reducer {\n",
                          "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n", body,
                          "\nhlo.return %s : tensor<f32>\n}\nreturn %r : ", out, "\n}");
    };
    SCOPED_TRACE(absl::StrCat(in, " ", clauses));
    Tensor x = RandomTensor(ElementType::kF32, shape, trial);
    if (trial % 4 == 0) x.data<float>()[0] = std::numeric_limits<float>::quiet_NaN();
    // An init value that is not the identity shows every padding tap and hole.
    const float init = 0.375f;
    Tensor initTensor = Tensor::Scalar<float>(init);
    Tensor sum = ReferenceReduceWindow<float>(x, init, window, AddFn());
    EXPECT_THAT(RunOne(program("%s = hlo.add %a, %b : tensor<f32>"), {x, initTensor}),
                BitwiseEq(sum));
    // The same sum through the interpreted region (not a single op).
    EXPECT_THAT(RunOne(program("%z = hlo.constant dense<0.0> : tensor<f32>\n"
                               "%t = hlo.add %a, %z : tensor<f32>\n"
                               "%s = hlo.add %t, %b : tensor<f32>"),
                       {x, initTensor}),
                BitwiseEq(sum));
    EXPECT_THAT(RunOne(program("%s = hlo.max %a, %b : tensor<f32>"), {x, initTensor}),
                BitwiseEq(ReferenceReduceWindow<float>(x, init, window, MaxFn())));
    EXPECT_THAT(RunOne(program("%s = hlo.mul %b, %a : tensor<f32>"), {x, initTensor}),
                BitwiseEq(ReferenceReduceWindow<float>(x, init, window, MulFn())));
  }
}

TEST_F(ReductionKernelsTest, ReduceWindowMaxPool2D) {
  Tensor result = RunOne(R"(
    func.func @main(%x: tensor<4x4xf32>) -> tensor<2x2xf32> {
      %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
      %r = hlo.reduce_window(%x) init(%ninf) window_dimensions = [2, 2], window_strides = [2, 2]
          : (tensor<4x4xf32>, tensor<f32>) -> tensor<2x2xf32> reducer {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %m = hlo.max %a, %b : tensor<f32>
        hlo.return %m : tensor<f32>
      }
      return %r : tensor<2x2xf32>
    })",
                         {Tensor::FromVector<float>({4, 4}, {1, 5, 2, 0,  //
                                                             3, 4, 8, 8,  //
                                                             7, 0, 1, 2,  //
                                                             6, 7, 3, 9})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(5, 8, 7, 9));
}

TEST_F(ReductionKernelsTest, ReduceWindowLargerThanItsInputIsEmpty) {
  Tensor x = Tensor::FromVector<float>({2}, {1, 2});
  EXPECT_EQ(RunOne(WindowSum(2, 0, "window_dimensions = [3]", "0.0", true), {x}).num_elements(),
            0);
}

// Max-pool gradient: select keeps the first of equal maxima (GE), scatter adds.
constexpr absl::string_view kMaxPoolGrad = R"(
    func.func @main(%x: tensor<4x4xf32>, %src: tensor<2x2xf32>) -> tensor<4x4xf32> {
      %zero = hlo.constant dense<0.0> : tensor<f32>
      %r = hlo.select_and_scatter(%x, %src, %zero) window_dimensions = [2, 2],
          window_strides = [2, 2]
          : (tensor<4x4xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<4x4xf32> select {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %ge = hlo.compare GE, %a, %b : tensor<f32>
        hlo.return %ge : tensor<i1>
      } scatter {
      ^bb0(%a: tensor<f32>, %b: tensor<f32>):
        %s = hlo.add %a, %b : tensor<f32>
        hlo.return %s : tensor<f32>
      }
      return %r : tensor<4x4xf32>
    })";

TEST_F(ReductionKernelsTest, SelectAndScatterIsAMaxPoolGradient) {
  // Window maxima: 5 at (0,1); 8 at (1,2) and (1,3), the first wins; 7 at (2,0) and (3,1),
  // the first wins; 9 at (3,3).
  Tensor result = RunOne(kMaxPoolGrad, {Tensor::FromVector<float>({4, 4}, {1, 5, 2, 0,  //
                                                                            3, 4, 8, 8,  //
                                                                            7, 0, 1, 2,  //
                                                                            6, 7, 3, 9}),
                                        Tensor::FromVector<float>({2, 2}, {10, 20, 30, 40})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(0, 10, 0, 0,   //
                                                    0, 0, 20, 0,   //
                                                    30, 0, 0, 0,   //
                                                    0, 0, 0, 40));
}

// 1-D select_and_scatter with GE select and add scatter.
std::string SelectAndScatter1D(int64_t in, int64_t src, absl::string_view clauses) {
  return absl::StrCat(
      "func.func @main(%x: tensor<", in, "xf32>, %src: tensor<", src, "xf32>) -> tensor<", in,
      "xf32> {\n%zero = hlo.constant dense<0.0> : tensor<f32>\n",
      "%r = hlo.select_and_scatter(%x, %src, %zero) ", clauses, " : (tensor<", in,
      "xf32>, tensor<", src, "xf32>, tensor<f32>) -> tensor<", in, "xf32> select {\n",
      "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n",
      "%ge = hlo.compare GE, %a, %b : tensor<f32>\nhlo.return %ge : tensor<i1>\n",
      "} scatter {\n^bb0(%a: tensor<f32>, %b: tensor<f32>):\n",
      "%s = hlo.add %a, %b : tensor<f32>\nhlo.return %s : tensor<f32>\n}\n",
      "return %r : tensor<", in, "xf32>\n}");
}

TEST_F(ReductionKernelsTest, SelectAndScatterAccumulatesOverlappingWindowsAndSkipsPadding) {
  // Padded [p, 1, 3, 2, p], windows of 3: {p,1,3} {1,3,2} {3,2,p}; padding is never
  // selected, and all three pick the 3, whose position collects 1 + 2 + 4.
  Tensor result = RunOne(
      SelectAndScatter1D(3, 3, "window_dimensions = [3], padding = [[1, 1]]"),
      {Tensor::FromVector<float>({3}, {1, 3, 2}), Tensor::FromVector<float>({3}, {1, 2, 4})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(0, 7, 0));
}

TEST_F(ReductionKernelsTest, SelectAndScatterDropsWindowsThatHoldOnlyPadding) {
  // Padded [p, 5, p] with windows of 1: only the middle window has an element.
  Tensor result = RunOne(
      SelectAndScatter1D(1, 3, "window_dimensions = [1], padding = [[1, 1]]"),
      {Tensor::FromVector<float>({1}, {5}), Tensor::FromVector<float>({3}, {1, 2, 3})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(2));
}

}  // namespace
}  // namespace tessel::runtime
