// Tests of `rng` import by running it: the lowered program draws from the distribution it
// names, two rng ops draw different numbers, and bad operands are located errors.
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "runtime/interpreter.h"
#include "support/status_matchers.h"

namespace tessel::hlo_text {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

std::vector<runtime::Tensor> RunHlo(const std::string& text) {
  mlir::MLIRContext context;
  auto module = ImportHloTextToModule(text, "rng.hlo", context);
  EXPECT_THAT(module.status(), IsOk());
  if (!module.ok()) return {};
  runtime::Interpreter interpreter;
  auto results =
      interpreter.RunFunction((*module)->lookupSymbol<mlir::func::FuncOp>("main"), {});
  EXPECT_THAT(results.status(), IsOk());
  return results.ok() ? *results : std::vector<runtime::Tensor>{};
}

struct Moments {
  double mean = 0, stddev = 0, min = INFINITY, max = -INFINITY;
};

template <typename T>
Moments MomentsOf(const runtime::Tensor& tensor) {
  Moments m;
  auto values = tensor.data<T>();
  for (T v : values) {
    m.mean += v;
    m.min = std::min<double>(m.min, v);
    m.max = std::max<double>(m.max, v);
  }
  m.mean /= values.size();
  for (T v : values) m.stddev += (v - m.mean) * (v - m.mean);
  m.stddev = std::sqrt(m.stddev / values.size());
  return m;
}

TEST(HloRngTest, UniformLiesInItsHalfOpenRangeWithTheRightMoments) {
  std::vector<runtime::Tensor> results = RunHlo(R"(HloModule m
ENTRY main {
  lo = f32[] constant(-2)
  hi = f32[] constant(6)
  ROOT r = f32[128,128] rng(lo, hi), distribution=rng_uniform
})");
  ASSERT_EQ(results.size(), 1u);
  Moments m = MomentsOf<float>(results[0]);
  EXPECT_GE(m.min, -2.0);
  EXPECT_LT(m.max, 6.0);
  // U(-2, 6): mean 2, standard deviation 8 / sqrt(12) = 2.309; 16384 draws put the sample
  // mean within about 0.02 of it.
  EXPECT_NEAR(m.mean, 2.0, 0.1);
  EXPECT_NEAR(m.stddev, 8.0 / std::sqrt(12.0), 0.05);
}

TEST(HloRngTest, NormalHasTheGivenMeanAndStandardDeviation) {
  std::vector<runtime::Tensor> results = RunHlo(R"(HloModule m
ENTRY main {
  mu = f64[] constant(3)
  sigma = f64[] constant(0.5)
  ROOT r = f64[128,128] rng(mu, sigma), distribution=rng_normal
})");
  ASSERT_EQ(results.size(), 1u);
  Moments m = MomentsOf<double>(results[0]);
  EXPECT_NEAR(m.mean, 3.0, 0.02);
  EXPECT_NEAR(m.stddev, 0.5, 0.02);
  // Finite everywhere: the logarithm never sees 0.
  EXPECT_TRUE(std::isfinite(m.min) && std::isfinite(m.max));
}

TEST(HloRngTest, TwoRngOpsDrawDifferentNumbersAndARunIsRepeatable) {
  const std::string text = R"(HloModule m
ENTRY main {
  lo = f32[] constant(0)
  hi = f32[] constant(1)
  a = f32[16] rng(lo, hi), distribution=rng_uniform
  b = f32[16] rng(lo, hi), distribution=rng_uniform
  ROOT t = (f32[16], f32[16]) tuple(a, b)
})";
  std::vector<runtime::Tensor> first = RunHlo(text);
  std::vector<runtime::Tensor> second = RunHlo(text);
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(second.size(), 2u);
  auto a = first[0].data<float>(), b = first[1].data<float>(), again = second[0].data<float>();
  int same = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same += a[i] == b[i];
    EXPECT_EQ(a[i], again[i]);
  }
  EXPECT_LT(same, 2);
}

TEST(HloRngTest, OperandsOfAnotherTypeAreLocatedErrors) {
  mlir::MLIRContext context;
  auto module = ImportHloTextToModule(R"(HloModule m
ENTRY main {
  lo = f32[] constant(0)
  hi = f32[2] constant({1, 2})
  ROOT r = f32[16] rng(lo, hi), distribution=rng_uniform
})",
                                      "bad.hlo", context);
  EXPECT_THAT(module.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "bad.hlo:5:28: error: operand 'hi' of 'rng' must be a rank-0 'f32', got 'tensor<2xf32>'"));
}

}  // namespace
}  // namespace tessel::hlo_text
