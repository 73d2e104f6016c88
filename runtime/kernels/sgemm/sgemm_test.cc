// The f32 matrix product on each instruction set this CPU has: the vector kernels give the
// fused multiply-add chain over k in order bit for bit (so they agree with each other), the
// baseline (Eigen) agrees with them to rounding, and the choice honours TESSEL_ISA.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "runtime/kernels/linalg_utils.h"

namespace tessel::runtime {
namespace {

struct Size {
  int64_t m, k, n;
};

// Around every blocking edge: tile rows (6, 12), panel widths (16, 32), depth slices (128,
// 256), blocks of rows (192), task rows (24, 256), and products large enough to be split
// between threads (2^21 multiply-adds).
constexpr Size kSizes[] = {
    {1, 1, 1},     {1, 7, 1},      {5, 3, 7},      {6, 16, 16},    {12, 32, 32},
    {13, 17, 33},  {7, 129, 15},   {25, 300, 47},  {200, 129, 100}, {193, 257, 65},
    {260, 100, 300}, {512, 64, 600}, {97, 600, 530}, {3, 5000, 200}, {700, 40, 20},
};

std::vector<float> Random(int64_t count, std::mt19937& rng) {
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> values(count);
  for (float& v : values) v = dist(rng);
  return values;
}

std::vector<float> FmaChain(const std::vector<float>& a, const std::vector<float>& b,
                            const Size& s) {
  std::vector<float> out(s.m * s.n);
  for (int64_t i = 0; i < s.m; ++i) {
    for (int64_t j = 0; j < s.n; ++j) {
      float sum = 0.0f;
      for (int64_t p = 0; p < s.k; ++p) sum = std::fma(a[i * s.k + p], b[p * s.n + j], sum);
      out[i * s.n + j] = sum;
    }
  }
  return out;
}

std::vector<float> Product(MatMulIsa isa, const std::vector<float>& a,
                           const std::vector<float>& b, const Size& s) {
  // Filled with NaN: every element must be written.
  std::vector<float> out(s.m * s.n, std::numeric_limits<float>::quiet_NaN());
  MatMulWithIsa(isa, a.data(), b.data(), out.data(), s.m, s.k, s.n);
  return out;
}

bool SameBits(float x, float y) {
  if (std::isnan(x) && std::isnan(y)) return true;
  return std::memcmp(&x, &y, sizeof(float)) == 0;
}

std::string Describe(const Size& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.k) + " @ " + std::to_string(s.k) + "x" +
         std::to_string(s.n);
}

TEST(SgemmTest, VectorKernelsGiveTheFmaChainBitForBit) {
  std::mt19937 rng(7);
  for (MatMulIsa isa : {MatMulIsa::kAvx2, MatMulIsa::kAvx512}) {
    if (!CpuSupports(isa)) {
      std::cout << MatMulIsaName(isa) << ": not on this CPU, skipped\n";
      continue;
    }
    for (const Size& s : kSizes) {
      std::vector<float> a = Random(s.m * s.k, rng), b = Random(s.k * s.n, rng);
      std::vector<float> want = FmaChain(a, b, s), got = Product(isa, a, b, s);
      int64_t wrong = 0;
      for (size_t i = 0; i < want.size(); ++i) wrong += !SameBits(want[i], got[i]);
      EXPECT_EQ(wrong, 0) << MatMulIsaName(isa) << " " << Describe(s);
    }
  }
}

TEST(SgemmTest, SpecialValuesPropagateAsInTheFmaChain) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Size s = {14, 9, 35};
  std::mt19937 rng(11);
  std::vector<float> a = Random(s.m * s.k, rng), b = Random(s.k * s.n, rng);
  a[3] = inf;
  a[20] = -0.0f;
  a[40] = nan;
  b[50] = -inf;
  b[70] = 3e38f;
  a[100] = 3e38f;
  for (MatMulIsa isa : {MatMulIsa::kAvx2, MatMulIsa::kAvx512}) {
    if (!CpuSupports(isa)) continue;
    std::vector<float> want = FmaChain(a, b, s), got = Product(isa, a, b, s);
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_TRUE(SameBits(want[i], got[i]))
          << MatMulIsaName(isa) << " element " << i << ": " << got[i] << " vs " << want[i];
    }
  }
}

TEST(SgemmTest, BaselineAgreesToRounding) {
  std::mt19937 rng(3);
  const float eps = std::numeric_limits<float>::epsilon();
  for (const Size& s : kSizes) {
    std::vector<float> a = Random(s.m * s.k, rng), b = Random(s.k * s.n, rng);
    std::vector<float> base = Product(MatMulIsa::kBaseline, a, b, s);
    std::vector<float> chosen = Product(ChosenMatMulIsa(), a, b, s);
    for (int64_t i = 0; i < s.m; ++i) {
      for (int64_t j = 0; j < s.n; ++j) {
        // Both differ from the exact sum by at most about k roundings of the partial sums.
        double magnitude = 0;
        for (int64_t p = 0; p < s.k; ++p) {
          magnitude += std::fabs(double{a[i * s.k + p]} * b[p * s.n + j]);
        }
        const double bound = 2.0 * s.k * eps * magnitude;
        ASSERT_LE(std::fabs(double{base[i * s.n + j]} - chosen[i * s.n + j]), bound)
            << Describe(s) << " at " << i << ", " << j;
      }
    }
  }
}

TEST(SgemmTest, ChoiceIsTheBestSupportedUnderTheCap) {
  MatMulIsa best = CpuSupports(MatMulIsa::kAvx512) ? MatMulIsa::kAvx512
                   : CpuSupports(MatMulIsa::kAvx2) ? MatMulIsa::kAvx2
                                                   : MatMulIsa::kBaseline;
  std::cout << "this CPU: " << MatMulIsaName(best) << "; this process: "
            << MatMulIsaName(ChosenMatMulIsa()) << "\n";
  EXPECT_EQ(*ChooseMatMulIsa(nullptr), best);
  EXPECT_EQ(*ChooseMatMulIsa(""), best);
  EXPECT_EQ(*ChooseMatMulIsa("avx512"), best);
  EXPECT_EQ(*ChooseMatMulIsa("baseline"), MatMulIsa::kBaseline);
  EXPECT_EQ(*ChooseMatMulIsa("avx2"),
            best == MatMulIsa::kBaseline ? MatMulIsa::kBaseline : MatMulIsa::kAvx2);
  EXPECT_FALSE(ChooseMatMulIsa("avx1024").ok());
  const char* cap = std::getenv("TESSEL_ISA");
  if (cap == nullptr) {
    EXPECT_EQ(ChosenMatMulIsa(), best);
  }
}

}  // namespace
}  // namespace tessel::runtime
