// Golden tests of the dot_general and convolution kernels, plus a comparison of convolution
// with a direct evaluation of its definition for combined attributes.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/kernel_registry.h"
#include "runtime/kernel_test_util.h"

namespace tessel::runtime {
namespace {

using ::testing::ElementsAre;

class LinalgKernelsTest : public KernelTest {};

// "tensor<2x3xf32>"
std::string TypeString(const Shape& shape, absl::string_view element) {
  std::string text = "tensor<";
  for (int64_t d : shape) absl::StrAppend(&text, d, "x");
  return absl::StrCat(text, element, ">");
}

// A program that applies one dot_general or convolution (written as `op`, with `clauses`
// after the operands) to two arguments.
std::string BinaryProgram(absl::string_view op, absl::string_view clauses, const Shape& lhs,
                          absl::string_view lhsType, const Shape& rhs,
                          absl::string_view rhsType, const Shape& out,
                          absl::string_view outType) {
  std::string l = TypeString(lhs, lhsType), r = TypeString(rhs, rhsType),
              o = TypeString(out, outType);
  return absl::StrCat("func.func @main(%a: ", l, ", %b: ", r, ") -> ", o, " {\n  %r = ", op,
                      " %a, %b", clauses, " : (", l, ", ", r, ") -> ", o,
                      "\n  return %r : ", o, "\n}");
}

TEST_F(LinalgKernelsTest, DotIsAMatrixProduct) {
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general", ", lhs_contract = [1], rhs_contract = [0]", {2, 3},
                    "f32", {3, 2}, "f32", {2, 2}, "f32"),
      {Tensor::FromVector<float>({2, 3}, {1, 2, 3, 4, 5, 6}),
       Tensor::FromVector<float>({3, 2}, {1, 0, 0, 1, 1, 1})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(4, 5, 10, 11));
}

// A product large enough to be split into row blocks on the thread pool (300 x 128 x 64
// multiply-adds, two blocks of 150 rows): every element equals the plain sum, which with
// small integers in float is exact whatever the order.
TEST_F(LinalgKernelsTest, DotSplitIntoRowBlocksIsExact) {
  const int64_t m = 300, k = 128, n = 64;
  std::vector<float> a(m * k), b(k * n);
  for (int64_t i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 7) % 5) - 2;
  for (int64_t i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 3) % 7) - 3;
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general", ", lhs_contract = [1], rhs_contract = [0]", {m, k}, "f32",
                    {k, n}, "f32", {m, n}, "f32"),
      {Tensor::FromVector<float>({m, k}, a), Tensor::FromVector<float>({k, n}, b)});
  std::vector<float> got = result.ToVector<float>();
  ASSERT_EQ(static_cast<int64_t>(got.size()), m * n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float want = 0;
      for (int64_t p = 0; p < k; ++p) want += a[i * k + p] * b[p * n + j];
      ASSERT_EQ(got[i * n + j], want) << "row " << i << ", column " << j;
    }
  }
}

TEST_F(LinalgKernelsTest, DotWithBatchDimensions) {
  // Batch 0: [[1,2],[3,4]] x identity; batch 1: identity x [[5,6],[7,8]].
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general",
                    ", lhs_batch = [0], rhs_batch = [0], lhs_contract = [2], rhs_contract = [1]",
                    {2, 2, 2}, "f64", {2, 2, 2}, "f64", {2, 2, 2}, "f64"),
      {Tensor::FromVector<double>({2, 2, 2}, {1, 2, 3, 4, 1, 0, 0, 1}),
       Tensor::FromVector<double>({2, 2, 2}, {1, 0, 0, 1, 5, 6, 7, 8})});
  EXPECT_THAT(result.ToVector<double>(), ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
}

TEST_F(LinalgKernelsTest, DotWithBatchAndContractingDimensionsAnywhere) {
  // lhs [m=1, b=2, k=2], rhs [k=2, b=2]; result [b, m].
  // b0: 1*10 + 2*20 = 50; b1: 3*100 + 4*200 = 1100.
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general",
                    ", lhs_batch = [1], rhs_batch = [1], lhs_contract = [2], rhs_contract = [0]",
                    {1, 2, 2}, "f32", {2, 2}, "f32", {2, 1}, "f32"),
      {Tensor::FromVector<float>({1, 2, 2}, {1, 2, 3, 4}),
       Tensor::FromVector<float>({2, 2}, {10, 100, 20, 200})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(50, 1100));
}

TEST_F(LinalgKernelsTest, DotContractingLeadingLhsAndTrailingRhsDimensions) {
  // result[m][n] = sum_k lhs[k][m] * rhs[n][k]: lhs columns (1,3,5) and (2,4,6), rhs rows
  // (1,1,1) and (1,0,-1).
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general", ", lhs_contract = [0], rhs_contract = [1]", {3, 2},
                    "f32", {2, 3}, "f32", {2, 2}, "f32"),
      {Tensor::FromVector<float>({3, 2}, {1, 2, 3, 4, 5, 6}),
       Tensor::FromVector<float>({2, 3}, {1, 1, 1, 1, 0, -1})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(9, -4, 12, -4));
}

TEST_F(LinalgKernelsTest, DotWithoutContractionIsAnOuterProduct) {
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general", "", {2}, "f32", {3}, "f32", {2, 3}, "f32"),
      {Tensor::FromVector<float>({2}, {1, 2}), Tensor::FromVector<float>({3}, {3, 4, 5})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(3, 4, 5, 6, 8, 10));
}

TEST_F(LinalgKernelsTest, DotOverAnEmptyContractionIsZero) {
  Tensor result = RunOne(
      BinaryProgram("hlo.dot_general", ", lhs_contract = [1], rhs_contract = [0]", {2, 0},
                    "f32", {0, 2}, "f32", {2, 2}, "f32"),
      {Tensor::Zeros(ElementType::kF32, {2, 0}), Tensor::Zeros(ElementType::kF32, {0, 2})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(0, 0, 0, 0));
}

TEST_F(LinalgKernelsTest, NarrowFloatDotsAccumulateInF32AndRoundOnce) {
  // 256 + 1 + 1: in bf16 (spacing 2 above 256) adding 1 at a time would stay at 256;
  // accumulated in f32 the sum is 258, which bf16 holds exactly.
  std::string contract = ", lhs_contract = [0], rhs_contract = [0]";
  Tensor a = Tensor::FromVector<bf16>({3}, {bf16(256), bf16(1), bf16(1)});
  Tensor b = Tensor::FromVector<bf16>({3}, {bf16(1), bf16(1), bf16(1)});
  EXPECT_THAT(
      RunOne(BinaryProgram("hlo.dot_general", contract, {3}, "bf16", {3}, "bf16", {}, "f32"),
             {a, b})
          .ToVector<float>(),
      ElementsAre(258));
  EXPECT_EQ(static_cast<float>(
                RunOne(BinaryProgram("hlo.dot_general", contract, {3}, "bf16", {3}, "bf16", {},
                                     "bf16"),
                       {a, b})
                    .ToVector<bf16>()[0]),
            258);
  // The same for f16 above 2048.
  Tensor c = Tensor::FromVector<f16>({3}, {f16(2048), f16(1), f16(1)});
  Tensor d = Tensor::FromVector<f16>({3}, {f16(1), f16(1), f16(1)});
  EXPECT_EQ(static_cast<float>(
                RunOne(BinaryProgram("hlo.dot_general", contract, {3}, "f16", {3}, "f16", {},
                                     "f16"),
                       {c, d})
                    .ToVector<f16>()[0]),
            2050);
}

TEST_F(LinalgKernelsTest, IntegerDotsWrapInTheResultType) {
  std::string contract = ", lhs_contract = [0], rhs_contract = [0]";
  Tensor a = Tensor::FromVector<int8_t>({2}, {100, 100});
  Tensor ones = Tensor::FromVector<int8_t>({2}, {1, 1});
  // 200 wraps to -56 in s8 and fits in s32.
  EXPECT_THAT(RunOne(BinaryProgram("hlo.dot_general", contract, {2}, "i8", {2}, "i8", {}, "i8"),
                     {a, ones})
                  .ToVector<int8_t>(),
              ElementsAre(-56));
  EXPECT_THAT(
      RunOne(BinaryProgram("hlo.dot_general", contract, {2}, "i8", {2}, "i8", {}, "i32"),
             {a, ones})
          .ToVector<int32_t>(),
      ElementsAre(200));
  // 200 * 3 + 100 = 700 = 2 * 256 + 188 in u8.
  EXPECT_THAT(
      RunOne(BinaryProgram("hlo.dot_general", contract, {2}, "ui8", {2}, "ui8", {}, "ui8"),
             {Tensor::FromVector<uint8_t>({2}, {200, 100}),
              Tensor::FromVector<uint8_t>({2}, {3, 1})})
          .ToVector<uint8_t>(),
      ElementsAre(188));
}

// 1-D convolution, layout [b, 0, f] x [0, i, o] -> [b, 0, f].
std::string Conv1D(const Shape& x, const Shape& k, const Shape& out, absl::string_view clauses) {
  return BinaryProgram("hlo.convolution",
                       absl::StrCat(", dims = [b, 0, f]x[0, i, o]->[b, 0, f]", clauses), x,
                       "f32", k, "f32", out, "f32");
}

// x = [1, 2, 3, 4] and kernel taps [1, 10]: out[p] = x[p] + 10 x[p + 1] with no attributes.
const Tensor kX = Tensor::FromVector<float>({1, 4, 1}, {1, 2, 3, 4});
const Tensor kTaps = Tensor::FromVector<float>({2, 1, 1}, {1, 10});

TEST_F(LinalgKernelsTest, ConvolutionBasic) {
  EXPECT_THAT(RunOne(Conv1D({1, 4, 1}, {2, 1, 1}, {1, 3, 1}, ""), {kX, kTaps}).ToVector<float>(),
              ElementsAre(21, 32, 43));
}

TEST_F(LinalgKernelsTest, ConvolutionWithStride) {
  EXPECT_THAT(RunOne(Conv1D({1, 4, 1}, {2, 1, 1}, {1, 2, 1}, ", window_strides = [2]"),
                     {kX, kTaps})
                  .ToVector<float>(),
              ElementsAre(21, 43));
}

TEST_F(LinalgKernelsTest, ConvolutionWithNegativePaddingCrops) {
  // [-1, 0] drops x[0]: windows over [2, 3, 4].
  EXPECT_THAT(RunOne(Conv1D({1, 4, 1}, {2, 1, 1}, {1, 2, 1}, ", padding = [[-1, 0]]"),
                     {kX, kTaps})
                  .ToVector<float>(),
              ElementsAre(32, 43));
  // [1, -1] adds a zero in front and drops x[3]: windows over [0, 1, 2, 3].
  EXPECT_THAT(RunOne(Conv1D({1, 4, 1}, {2, 1, 1}, {1, 3, 1}, ", padding = [[1, -1]]"),
                     {kX, kTaps})
                  .ToVector<float>(),
              ElementsAre(10, 21, 32));
}

TEST_F(LinalgKernelsTest, ConvolutionWithLhsDilationIsATransposedConvolution) {
  // [1, 2, 3] dilated by 2 is [1, 0, 2, 0, 3]: windows give 1, 20, 2, 30.
  EXPECT_THAT(RunOne(Conv1D({1, 3, 1}, {2, 1, 1}, {1, 4, 1}, ", lhs_dilation = [2]"),
                     {Tensor::FromVector<float>({1, 3, 1}, {1, 2, 3}), kTaps})
                  .ToVector<float>(),
              ElementsAre(1, 20, 2, 30));
}

TEST_F(LinalgKernelsTest, ConvolutionWithRhsDilation) {
  // Taps dilated by 2 read x[p] and x[p + 2]: 1 + 30, 2 + 40.
  EXPECT_THAT(RunOne(Conv1D({1, 4, 1}, {2, 1, 1}, {1, 2, 1}, ", rhs_dilation = [2]"),
                     {kX, kTaps})
                  .ToVector<float>(),
              ElementsAre(31, 42));
}

TEST_F(LinalgKernelsTest, DepthwiseConvolutionWithFeatureGroups) {
  // Two input features, two groups: output feature 0 sums taps [1, 1] over feature 0
  // ([1, 2, 3] -> 3, 5); output feature 1 applies [1, -1] to feature 1 ([4, 5, 6] -> -1, -1).
  // x is [b, 0, f] so the features interleave; the kernel is [0, i, o].
  Tensor result = RunOne(Conv1D({1, 3, 2}, {2, 1, 2}, {1, 2, 2}, ", feature_group_count = 2"),
                         {Tensor::FromVector<float>({1, 3, 2}, {1, 4, 2, 5, 3, 6}),
                          Tensor::FromVector<float>({2, 1, 2}, {1, 1, 1, -1})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(3, -1, 5, -1));
}

TEST_F(LinalgKernelsTest, ConvolutionWithBatchGroups) {
  // Two batches, two groups: output feature 0 is batch 0 times 2, output feature 1 is
  // batch 1 times 3; the output has one batch.
  Tensor result = RunOne(Conv1D({2, 2, 1}, {1, 1, 2}, {1, 2, 2}, ", batch_group_count = 2"),
                         {Tensor::FromVector<float>({2, 2, 1}, {1, 2, 10, 20}),
                          Tensor::FromVector<float>({1, 1, 2}, {2, 3})});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(2, 30, 4, 60));
}

TEST_F(LinalgKernelsTest, IntegerConvolutionWraps) {
  // 100 * 1 + 100 * 1 = 200 wraps to -56 in s8.
  Tensor result = RunOne(
      BinaryProgram("hlo.convolution", ", dims = [b, 0, f]x[0, i, o]->[b, 0, f]", {1, 2, 1},
                    "i8", {2, 1, 1}, "i8", {1, 1, 1}, "i8"),
      {Tensor::FromVector<int8_t>({1, 2, 1}, {100, 100}),
       Tensor::FromVector<int8_t>({2, 1, 1}, {1, 1})});
  EXPECT_THAT(result.ToVector<int8_t>(), ElementsAre(-56));
}

// Two input features over a 3x3 image: feature 0 = 1..9, feature 1 = 10 * feature 0.
// Output feature 0 applies the 2x2 diagonal [[1, 0], [0, 1]] to feature 0; output
// feature 1 picks the top-right tap of feature 1.
// Expected o0 = [[1+5, 2+6], [4+8, 5+9]], o1 = [[20, 30], [50, 60]].
float ImageValue(int64_t c, int64_t y, int64_t x) { return (c == 0 ? 1 : 10) * (3 * y + x + 1); }
float KernelValue(int64_t o, int64_t i, int64_t y, int64_t x) {
  if (o == 0 && i == 0) return y == x ? 1 : 0;
  if (o == 1 && i == 1) return (y == 0 && x == 1) ? 1 : 0;
  return 0;
}

TEST_F(LinalgKernelsTest, ConvolutionInNchwLayout) {
  std::vector<float> x, k;
  for (int c = 0; c < 2; ++c)
    for (int y = 0; y < 3; ++y)
      for (int i = 0; i < 3; ++i) x.push_back(ImageValue(c, y, i));
  for (int o = 0; o < 2; ++o)
    for (int i = 0; i < 2; ++i)
      for (int y = 0; y < 2; ++y)
        for (int j = 0; j < 2; ++j) k.push_back(KernelValue(o, i, y, j));
  Tensor result = RunOne(
      BinaryProgram("hlo.convolution", ", dims = [b, f, 0, 1]x[o, i, 0, 1]->[b, f, 0, 1]",
                    {1, 2, 3, 3}, "f32", {2, 2, 2, 2}, "f32", {1, 2, 2, 2}, "f32"),
      {Tensor::FromVector<float>({1, 2, 3, 3}, x), Tensor::FromVector<float>({2, 2, 2, 2}, k)});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(6, 8, 12, 14, 20, 30, 50, 60));
}

TEST_F(LinalgKernelsTest, ConvolutionInNhwcLayoutWithAChannelsFirstResult) {
  std::vector<float> x, k;
  for (int y = 0; y < 3; ++y)
    for (int i = 0; i < 3; ++i)
      for (int c = 0; c < 2; ++c) x.push_back(ImageValue(c, y, i));
  for (int y = 0; y < 2; ++y)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        for (int o = 0; o < 2; ++o) k.push_back(KernelValue(o, i, y, j));
  // Input NHWC, kernel HWIO, result NCHW: the same numbers as above.
  Tensor result = RunOne(
      BinaryProgram("hlo.convolution", ", dims = [b, 0, 1, f]x[0, 1, i, o]->[b, f, 0, 1]",
                    {1, 3, 3, 2}, "f32", {2, 2, 2, 2}, "f32", {1, 2, 2, 2}, "f32"),
      {Tensor::FromVector<float>({1, 3, 3, 2}, x), Tensor::FromVector<float>({2, 2, 2, 2}, k)});
  EXPECT_THAT(result.ToVector<float>(), ElementsAre(6, 8, 12, 14, 20, 30, 50, 60));
}

// Attributes of a 2-D convolution in layout [b, 0, 1, f] x [0, 1, i, o] -> [b, 0, 1, f].
struct Conv2D {
  int64_t batch, features, outFeatures;
  int64_t spatial[2], taps[2], stride[2], padLow[2], padHigh[2], lhsDil[2], rhsDil[2];
  int64_t featureGroups = 1, batchGroups = 1;

  int64_t OutSize(int d) const {
    int64_t padded = padLow[d] + (spatial[d] - 1) * lhsDil[d] + 1 + padHigh[d];
    int64_t window = (taps[d] - 1) * rhsDil[d] + 1;
    return padded < window ? 0 : (padded - window) / stride[d] + 1;
  }
};

// The definition, evaluated directly: out[b, p0, p1, o] sums x * w over the taps and the
// input features of o's group, with x read at the dilated, padded position (zero when
// it falls on padding or a dilation hole).
std::vector<float> ReferenceConvolution(const Conv2D& c, const std::vector<float>& x,
                                        const std::vector<float>& w) {
  int64_t groups = c.featureGroups * c.batchGroups;
  int64_t outBatch = c.batch / c.batchGroups, groupOut = c.outFeatures / groups;
  int64_t kernelFeatures = c.features / c.featureGroups;
  int64_t p0Size = c.OutSize(0), p1Size = c.OutSize(1);
  std::vector<float> out;
  for (int64_t ob = 0; ob < outBatch; ++ob)
    for (int64_t p0 = 0; p0 < p0Size; ++p0)
      for (int64_t p1 = 0; p1 < p1Size; ++p1)
        for (int64_t o = 0; o < c.outFeatures; ++o) {
          int64_t g = o / groupOut;
          int64_t b = (c.batchGroups > 1 ? g * outBatch : 0) + ob;
          double sum = 0;
          for (int64_t k0 = 0; k0 < c.taps[0]; ++k0)
            for (int64_t k1 = 0; k1 < c.taps[1]; ++k1) {
              int64_t q[2] = {p0 * c.stride[0] + k0 * c.rhsDil[0] - c.padLow[0],
                              p1 * c.stride[1] + k1 * c.rhsDil[1] - c.padLow[1]};
              bool inside = true;
              for (int d = 0; d < 2; ++d) {
                inside = inside && q[d] >= 0 && q[d] % c.lhsDil[d] == 0 &&
                         q[d] / c.lhsDil[d] < c.spatial[d];
              }
              if (!inside) continue;
              int64_t i0 = q[0] / c.lhsDil[0], i1 = q[1] / c.lhsDil[1];
              for (int64_t ci = 0; ci < kernelFeatures; ++ci) {
                int64_t f = (c.featureGroups > 1 ? g * kernelFeatures : 0) + ci;
                sum += x[((b * c.spatial[0] + i0) * c.spatial[1] + i1) * c.features + f] *
                       w[((k0 * c.taps[1] + k1) * kernelFeatures + ci) * c.outFeatures + o];
              }
            }
          out.push_back(static_cast<float>(sum));
        }
  return out;
}

// Small integers, so every sum is exact in f32 and the comparison can be exact.
std::vector<float> SmallValues(int64_t n, int64_t seed) {
  std::vector<float> values;
  for (int64_t i = 0; i < n; ++i) values.push_back(static_cast<float>((i * 7 + seed) % 11 - 5));
  return values;
}

// `count` convolutions with every attribute drawn: odd sizes, strides, padding of either
// sign, both dilations, and feature or batch groups (depthwise and multipliers included).
std::vector<Conv2D> RandomConvolutions(int count) {
  std::vector<Conv2D> cases;
  uint64_t state = 12345;
  auto draw = [&](int64_t lo, int64_t hi) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(hi - lo + 1));
  };
  while (static_cast<int>(cases.size()) < count) {
    Conv2D c;
    int64_t groups = draw(1, 6), perGroupIn = draw(1, 3), perGroupOut = draw(1, 3);
    bool batchGroups = draw(0, 3) == 0;
    c.featureGroups = batchGroups ? 1 : groups;
    c.batchGroups = batchGroups ? groups : 1;
    c.batch = (batchGroups ? groups : 1) * draw(1, 2);
    c.features = batchGroups ? perGroupIn : groups * perGroupIn;
    c.outFeatures = groups * perGroupOut;
    for (int d = 0; d < 2; ++d) {
      c.spatial[d] = draw(1, 7);
      c.taps[d] = draw(1, 3);
      c.stride[d] = draw(1, 2);
      c.padLow[d] = draw(-1, 2);
      c.padHigh[d] = draw(-1, 2);
      c.lhsDil[d] = draw(1, 2);
      c.rhsDil[d] = draw(1, 2);
    }
    if (c.OutSize(0) > 0 && c.OutSize(1) > 0) cases.push_back(c);
  }
  return cases;
}

TEST_F(LinalgKernelsTest, ConvolutionMatchesItsDefinitionWithAllAttributesCombined) {
  std::vector<Conv2D> cases = {
      // Feature groups with strides, mixed padding, and both dilations.
      {2, 4, 6, {5, 6}, {3, 2}, {2, 1}, {1, 2}, {-1, 0}, {1, 2}, {2, 1}, 2, 1},
      // Batch groups with dilations and padding.
      {4, 3, 4, {4, 5}, {2, 2}, {1, 2}, {0, 1}, {1, 1}, {2, 1}, {1, 2}, 1, 2},
      // Depthwise with a channel multiplier of 2.
      {1, 3, 6, {4, 4}, {2, 3}, {1, 1}, {1, 1}, {0, 1}, {1, 1}, {1, 1}, 3, 1},
      // Plain, larger, to cross Eigen's blocking.
      {2, 8, 16, {9, 7}, {3, 3}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, 1, 1},
      // Depthwise over more features than a vector block, with both dilations and padding
      // cropping one side (the direct loop, its contiguous case).
      {2, 37, 37, {6, 5}, {3, 2}, {1, 2}, {2, 0}, {-1, 1}, {2, 1}, {1, 2}, 37, 1},
      // Two input and two output features per group (the direct loop, its general case).
      {3, 10, 10, {5, 4}, {2, 3}, {2, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 1}, 5, 1},
      // Groups just above the direct loop's limit stay on im2col.
      {1, 15, 15, {4, 4}, {2, 2}, {1, 1}, {0, 0}, {0, 0}, {1, 1}, {1, 1}, 3, 1},
  };
  for (const Conv2D& c : RandomConvolutions(40)) cases.push_back(c);
  for (const Conv2D& c : cases) {
    Shape xShape = {c.batch, c.spatial[0], c.spatial[1], c.features};
    Shape wShape = {c.taps[0], c.taps[1], c.features / c.featureGroups, c.outFeatures};
    Shape outShape = {c.batch / c.batchGroups, c.OutSize(0), c.OutSize(1), c.outFeatures};
    std::string clauses = absl::StrCat(
        ", dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window_strides = [", c.stride[0],
        ", ", c.stride[1], "], padding = [[", c.padLow[0], ", ", c.padHigh[0], "], [",
        c.padLow[1], ", ", c.padHigh[1], "]], lhs_dilation = [", c.lhsDil[0], ", ",
        c.lhsDil[1], "], rhs_dilation = [", c.rhsDil[0], ", ", c.rhsDil[1],
        "], feature_group_count = ", c.featureGroups,
        ", batch_group_count = ", c.batchGroups);
    std::vector<float> x = SmallValues(NumElements(xShape), 1);
    std::vector<float> w = SmallValues(NumElements(wShape), 4);
    Tensor result = RunOne(BinaryProgram("hlo.convolution", clauses, xShape, "f32", wShape,
                                         "f32", outShape, "f32"),
                           {Tensor::FromVector<float>(xShape, x),
                            Tensor::FromVector<float>(wShape, w)});
    EXPECT_EQ(result.ToVector<float>(), ReferenceConvolution(c, x, w))
        << clauses << " on " << TypeString(xShape, "f32");
  }
}

}  // namespace
}  // namespace tessel::runtime
