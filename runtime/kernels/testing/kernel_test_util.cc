// Test fixture and stand-in compare/select kernels for the kernel tests.
#include "runtime/kernels/testing/kernel_test_util.h"

#include <cstring>
#include <type_traits>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::runtime::testing {
namespace {

// The IEEE totalOrder key of a float: its bits as a signed integer, with the magnitude bits
// of negative values flipped so that integer order is -NaN < -inf < ... < -0 < +0 < ... <
// +inf < +NaN.
template <typename T>
int64_t TotalOrderKey(T x) {
  if constexpr (sizeof(T) == 2) {
    int16_t bits;
    std::memcpy(&bits, &x, 2);
    return bits < 0 ? (bits ^ 0x7fff) : bits;
  } else if constexpr (sizeof(T) == 4) {
    int32_t bits;
    std::memcpy(&bits, &x, 4);
    return bits < 0 ? (bits ^ 0x7fffffff) : bits;
  } else {
    int64_t bits;
    std::memcpy(&bits, &x, 8);
    return bits < 0 ? (bits ^ 0x7fffffffffffffff) : bits;
  }
}

template <typename T>
bool Compare(hlo::ComparisonDirection direction, T a, T b) {
  switch (direction) {
    case hlo::ComparisonDirection::EQ: return a == b;
    case hlo::ComparisonDirection::NE: return a != b;
    case hlo::ComparisonDirection::GE: return a >= b;
    case hlo::ComparisonDirection::GT: return a > b;
    case hlo::ComparisonDirection::LE: return a <= b;
    case hlo::ComparisonDirection::LT: return a < b;
  }
  return false;
}

absl::StatusOr<std::vector<Tensor>> RunCompare(hlo::CompareOp op, KernelArgs args) {
  const Tensor& lhs = *args.operands[0];
  const Tensor& rhs = *args.operands[1];
  Tensor result = Tensor::Zeros(ElementType::kPred, lhs.shape());
  bool totalOrder = op.getCompareType() == hlo::ComparisonType::TOTALORDER;
  DispatchElementType(lhs.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    absl::Span<const T> a = lhs.data<T>(), b = rhs.data<T>();
    absl::Span<bool> out = result.data<bool>();
    for (int64_t i = 0; i < result.num_elements(); ++i) {
      if constexpr (!std::is_integral_v<T>) {
        if (totalOrder) {
          out[i] = Compare(op.getComparisonDirection(), TotalOrderKey(a[i]), TotalOrderKey(b[i]));
          continue;
        }
      }
      out[i] = Compare(op.getComparisonDirection(), a[i], b[i]);
    }
  });
  return std::vector<Tensor>{std::move(result)};
}

absl::StatusOr<std::vector<Tensor>> RunSelect(hlo::SelectOp, KernelArgs args) {
  const Tensor& pred = *args.operands[0];
  const Tensor& onTrue = *args.operands[1];
  const Tensor& onFalse = *args.operands[2];
  Tensor result = onFalse;
  int64_t size = ElementTypeSize(result.type());
  for (int64_t i = 0; i < result.num_elements(); ++i) {
    if (pred.data<bool>()[pred.rank() == 0 ? 0 : i]) {
      std::memcpy(result.bytes().data() + i * size, onTrue.bytes().data() + i * size, size);
    }
  }
  return std::vector<Tensor>{std::move(result)};
}

}  // namespace

const KernelRegistry& TestRegistry() {
  static const KernelRegistry* registry = [] {
    auto* registry = new KernelRegistry(DefaultKernelRegistry());
    registry->Register<hlo::CompareOp>(RunCompare);
    registry->Register<hlo::SelectOp>(RunSelect);
    return registry;
  }();
  return *registry;
}

absl::StatusOr<std::vector<Tensor>> KernelTest::Run(absl::string_view text,
                                                    std::vector<Tensor> args,
                                                    const KernelRegistry& registry) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(text, "test.mlir", context_);
  if (!module.ok()) return module.status();
  module_ = *std::move(module);
  Interpreter interpreter(registry, PartitionContext{});
  return interpreter.RunFunction(module_->lookupSymbol<mlir::func::FuncOp>("main"), args);
}

Tensor KernelTest::RunOne(absl::string_view text, std::vector<Tensor> args,
                          const KernelRegistry& registry) {
  absl::StatusOr<std::vector<Tensor>> results = Run(text, std::move(args), registry);
  if (!results.ok()) {
    ADD_FAILURE() << results.status();
    return Tensor();
  }
  if (results->size() != 1) {
    ADD_FAILURE() << "expected one result, got " << results->size();
    return Tensor();
  }
  return (*results)[0];
}

}  // namespace tessel::runtime::testing
