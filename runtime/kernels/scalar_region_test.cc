// ScalarRegion against the interpreter: reducer and comparator regions evaluated on plain
// scalars must give the interpreter's bits for every element type and for the values where
// arithmetic is delicate (NaN, -0, infinities, integer extremes, division by zero).
#include "runtime/kernels/scalar_region.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_test_util.h"
#include "runtime/kernels/combiner.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

using ::tessel::testing::IsOk;

// Reducer bodies over (%a, %b) of element type TYPE, each returning one TYPE.
const char* const kBodies[] = {
    // The sum of a maximum and an operand: two ops where one native op would not do.
    R"(%m = hlo.max %a, %b : tensor<TYPE>
       %s = hlo.add %m, %b : tensor<TYPE>
       hlo.return %s : tensor<TYPE>)",
    R"(%q = hlo.div %a, %b : tensor<TYPE>
       %d = hlo.sub %q, %a : tensor<TYPE>
       %n = hlo.min %d, %b : tensor<TYPE>
       hlo.return %n : tensor<TYPE>)",
    R"(%p = hlo.mul %a, %b : tensor<TYPE>
       %c = hlo.compare LT, %a, %b : tensor<TYPE>
       %s = hlo.select %c, %p, %a : tensor<i1>, tensor<TYPE>
       hlo.return %s : tensor<TYPE>)",
};

// Negation is defined on signed types only.
const char* const kSignedBody = R"(%n = hlo.neg %a : tensor<TYPE>
       %s = hlo.sub %n, %b : tensor<TYPE>
       hlo.return %s : tensor<TYPE>)";

std::string Program(absl::string_view body, absl::string_view type) {
  return absl::StrReplaceAll(absl::StrCat(R"(
    func.func @main(%x: tensor<4xTYPE>, %init: tensor<TYPE>) -> tensor<TYPE> {
      %r = hlo.reduce(%x) init(%init) dimensions = [0]
          : (tensor<4xTYPE>, tensor<TYPE>) -> tensor<TYPE> reducer {
      ^bb0(%a: tensor<TYPE>, %b: tensor<TYPE>):
        )", body, R"(
      }
      return %r : tensor<TYPE>
    })"),
                             {{"TYPE", type}});
}

// Interesting values of each type, as tensors of one element.
template <typename T>
std::vector<Tensor> Values() {
  std::vector<T> values;
  if constexpr (std::is_floating_point_v<T>) {  // f32 and f64
    values = {T(0), -T(0), T(1), T(-2.5), T(3e10), std::numeric_limits<T>::infinity(),
              -std::numeric_limits<T>::infinity(), std::numeric_limits<T>::quiet_NaN(),
              std::numeric_limits<T>::denorm_min(), T(7)};
  } else {
    values = {T(0), T(1), T(2), T(7), std::numeric_limits<T>::max(),
              std::numeric_limits<T>::min(), static_cast<T>(-1)};
  }
  std::vector<Tensor> tensors;
  for (T value : values) tensors.push_back(Tensor::FromVector<T>({}, {value}));
  return tensors;
}

// Half-precision values, rounded from the f32 ones.
template <typename T>
std::vector<Tensor> HalfValues() {
  std::vector<Tensor> tensors;
  for (const Tensor& value : Values<float>()) {
    tensors.push_back(Tensor::FromVector<T>({}, {static_cast<T>(value.ToVector<float>()[0])}));
  }
  return tensors;
}

class ScalarRegionTest : public ::testing::Test {
 protected:
  // The reducer region of the first hlo.reduce of `program`.
  mlir::Region* ParseRegion(const std::string& program) {
    absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
        ParseModule(program, "test.mlir", context_);
    EXPECT_THAT(module, IsOk());
    if (!module.ok()) return nullptr;
    modules_.push_back(*std::move(module));
    mlir::Region* region = nullptr;
    modules_.back()->walk([&](hlo::ReduceOp op) { region = &op.getBody(); });
    return region;
  }

  // Every pair of `values` through the region, on scalars and through the interpreter.
  void ExpectSameBits(mlir::Region& region, const std::vector<Tensor>& values) {
    std::optional<ScalarRegion> compiled = ScalarRegion::Compile(region);
    ASSERT_TRUE(compiled.has_value());
    Interpreter interpreter;
    for (const Tensor& a : values) {
      for (const Tensor& b : values) {
        const Tensor* args[] = {&a, &b};
        absl::StatusOr<std::vector<Tensor>> expected = interpreter.RunRegion(region, args);
        ASSERT_THAT(expected, IsOk());
        Scalar result;
        compiled->RunAll({ReadScalar(a, 0), ReadScalar(b, 0)}, absl::MakeSpan(&result, 1));
        Tensor got = (*expected)[0];
        WriteScalar(got, 0, result);
        EXPECT_TRUE(got.BitwiseEquals((*expected)[0]))
            << a.ToString() << ", " << b.ToString() << ": " << got.ToString() << " vs "
            << (*expected)[0].ToString();
      }
    }
  }

  mlir::MLIRContext context_;
  std::vector<mlir::OwningOpRef<mlir::ModuleOp>> modules_;
};

TEST_F(ScalarRegionTest, ArithmeticMatchesTheInterpreterOnEveryType) {
  const std::vector<std::pair<std::string, std::vector<Tensor>>> types = {
      {"f32", Values<float>()},
      {"f64", Values<double>()},
      {"bf16", HalfValues<bf16>()},
      {"f16", HalfValues<f16>()},
      {"i32", Values<int32_t>()},
      {"i8", Values<int8_t>()},
      {"i64", Values<int64_t>()},
      {"ui8", Values<uint8_t>()},
      {"ui32", Values<uint32_t>()},
  };
  for (const auto& [type, values] : types) {
    std::vector<const char*> bodies(std::begin(kBodies), std::end(kBodies));
    if (type[0] != 'u') bodies.push_back(kSignedBody);
    for (const char* body : bodies) {
      SCOPED_TRACE(absl::StrCat(type, ": ", body));
      mlir::Region* region = ParseRegion(Program(body, type));
      ASSERT_NE(region, nullptr);
      ExpectSameBits(*region, values);
    }
  }
}

TEST_F(ScalarRegionTest, ReducersOfSeveralValuesRunOnScalarsInTheCombiner) {
  // An argmax reducer (value, index): compare and select, two results.
  mlir::Region* region = ParseRegion(R"(
    func.func @main(%v: tensor<4xf32>, %i: tensor<4xi32>, %v0: tensor<f32>, %i0: tensor<i32>)
        -> (tensor<f32>, tensor<i32>) {
      %r:2 = hlo.reduce(%v, %i) init(%v0, %i0) dimensions = [0]
          : (tensor<4xf32>, tensor<4xi32>, tensor<f32>, tensor<i32>)
          -> (tensor<f32>, tensor<i32>) reducer {
      ^bb0(%av: tensor<f32>, %ai: tensor<i32>, %xv: tensor<f32>, %xi: tensor<i32>):
        %gt = hlo.compare GT, %xv, %av : tensor<f32>
        %eq = hlo.compare EQ, %xv, %av : tensor<f32>
        %lower = hlo.compare LT, %xi, %ai : tensor<i32>
        %take = hlo.select %eq, %lower, %gt : tensor<i1>, tensor<i1>
        %nv = hlo.select %take, %xv, %av : tensor<i1>, tensor<f32>
        %ni = hlo.select %take, %xi, %ai : tensor<i1>, tensor<i32>
        hlo.return %nv, %ni : tensor<f32>, tensor<i32>
      }
      return %r#0, %r#1 : tensor<f32>, tensor<i32>
    })");
  ASSERT_NE(region, nullptr);
  Interpreter interpreter;
  Combiner combiner(*region, {ElementType::kF32, ElementType::kS32}, interpreter);
  EXPECT_FALSE(combiner.is_native());
  Tensor accValue = Tensor::FromVector<float>({2}, {1.0f, 5.0f});
  Tensor accIndex = Tensor::FromVector<int32_t>({2}, {4, 0});
  Tensor value = Tensor::FromVector<float>({2}, {5.0f, 1.0f});
  Tensor index = Tensor::FromVector<int32_t>({2}, {2, 3});
  Tensor* accs[] = {&accValue, &accIndex};
  const Tensor* elems[] = {&value, &index};
  ASSERT_THAT(combiner.Combine(accs, 1, elems, 0), IsOk());
  // acc[1] = (5, 0) against (5, 2): equal values keep the lower index.
  EXPECT_EQ(accValue.ToVector<float>()[1], 5.0f);
  EXPECT_EQ(accIndex.ToVector<int32_t>()[1], 0);
  ASSERT_THAT(combiner.Combine(accs, 0, elems, 0), IsOk());
  EXPECT_EQ(accValue.ToVector<float>()[0], 5.0f);
  EXPECT_EQ(accIndex.ToVector<int32_t>()[0], 2);
}

TEST_F(ScalarRegionTest, OpsItDoesNotEvaluateLeaveTheRegionToTheInterpreter) {
  mlir::Region* region = ParseRegion(Program(R"(%e = hlo.exp %a : tensor<TYPE>
       %s = hlo.add %e, %b : tensor<TYPE>
       hlo.return %s : tensor<TYPE>)",
                                             "f32"));
  ASSERT_NE(region, nullptr);
  EXPECT_FALSE(ScalarRegion::Compile(*region).has_value());
}

}  // namespace
}  // namespace tessel::runtime
