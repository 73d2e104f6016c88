// Kernels of hlo.compare, hlo.select and hlo.clamp.
#include <cstring>
#include <type_traits>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"

namespace tessel::runtime {
namespace {

using hlo::ComparisonDirection;
using hlo::ComparisonType;

// Without an explicit comparison type the element type decides: FLOAT for floats, SIGNED
// for signed integers, UNSIGNED for unsigned integers and pred.
ComparisonType DefaultComparisonType(ElementType type) {
  if (IsFloat(type)) return ComparisonType::FLOAT;
  if (IsSignedInt(type)) return ComparisonType::SIGNED;
  return ComparisonType::UNSIGNED;
}

// out[i] = key(a[i]) <direction> key(b[i]); the switch sits outside the element loops.
template <typename T, typename KeyFn>
void CompareWithKey(ComparisonDirection direction, absl::Span<const T> a, absl::Span<const T> b,
                    absl::Span<bool> out, KeyFn key) {
  size_t n = out.size();
  switch (direction) {
    case ComparisonDirection::EQ:
      for (size_t i = 0; i < n; ++i) out[i] = key(a[i]) == key(b[i]);
      break;
    case ComparisonDirection::NE:
      for (size_t i = 0; i < n; ++i) out[i] = key(a[i]) != key(b[i]);
      break;
    case ComparisonDirection::GE:
      for (size_t i = 0; i < n; ++i) out[i] = key(a[i]) >= key(b[i]);
      break;
    case ComparisonDirection::GT:
      for (size_t i = 0; i < n; ++i) out[i] = key(a[i]) > key(b[i]);
      break;
    case ComparisonDirection::LE:
      for (size_t i = 0; i < n; ++i) out[i] = key(a[i]) <= key(b[i]);
      break;
    case ComparisonDirection::LT:
      for (size_t i = 0; i < n; ++i) out[i] = key(a[i]) < key(b[i]);
      break;
  }
}

absl::StatusOr<Tensor> Compare(const Tensor& lhs, const Tensor& rhs, ComparisonDirection direction,
                               std::optional<ComparisonType> requested) {
  if (lhs.type() != rhs.type() || lhs.shape() != rhs.shape()) {
    return absl::InvalidArgumentError(
        absl::StrCat("operands ", lhs.ShapeString(), " and ", rhs.ShapeString(), " differ"));
  }
  ComparisonType type = requested.value_or(DefaultComparisonType(lhs.type()));
  return DispatchElementType(lhs.type(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    // Complex numbers have no order; the verifier refuses compare on them.
    if constexpr (kIsComplex<T>) return UnsupportedElementType(lhs.type());
    Tensor result = Tensor::Zeros(ElementType::kPred, lhs.shape());
    absl::Span<const T> a = lhs.data<T>(), b = rhs.data<T>();
    absl::Span<bool> out = result.data<bool>();
    bool fits = false;
    if constexpr (kIsFloat<T>) {
      if (type == ComparisonType::FLOAT) {
        // IEEE comparison: NaN is unordered, so only NE holds for it.
        CompareWithKey(direction, a, b, out, [](T x) { return static_cast<ComputeType<T>>(x); });
        fits = true;
      } else if (type == ComparisonType::TOTALORDER) {
        CompareWithKey(direction, a, b, out, [](T x) { return TotalOrderKey(x); });
        fits = true;
      }
    } else if constexpr (kIsPred<T>) {
      if (type == ComparisonType::UNSIGNED) {
        CompareWithKey(direction, a, b, out, [](bool x) { return x; });
        fits = true;
      }
    } else if constexpr (!kIsComplex<T>) {
      // SIGNED and UNSIGNED read the integer's bits as two's complement or as unsigned.
      if (type == ComparisonType::SIGNED) {
        CompareWithKey(direction, a, b, out,
                       [](T x) { return static_cast<std::make_signed_t<T>>(x); });
        fits = true;
      } else if (type == ComparisonType::UNSIGNED) {
        CompareWithKey(direction, a, b, out,
                       [](T x) { return static_cast<std::make_unsigned_t<T>>(x); });
        fits = true;
      }
    }
    if (!fits) {
      return absl::InvalidArgumentError(
          absl::StrCat("comparison type ", hlo::stringifyComparisonType(type).str(),
                       " does not fit element type ", ElementTypeName(lhs.type())));
    }
    return result;
  });
}

// The tensor an elementwise kernel writes its result into: the operand `reuse` when it
// may be overwritten (KernelArgs::Overwritable) and matches, else `fresh`, made here.
Tensor& ResultBuffer(Tensor* reuse, const Tensor& like, Tensor& fresh) {
  if (reuse != nullptr && reuse->type() == like.type() && reuse->shape() == like.shape()) {
    return *reuse;
  }
  fresh = Tensor::Uninitialized(like.type(), like.shape());
  return fresh;
}

// result[i] = pred[i] ? on_true[i] : on_false[i]; a rank-0 pred picks a whole tensor. The
// result may be written over on_true or on_false (`reuse`): each element is read before it
// is written.
Tensor Select(const Tensor& pred, const Tensor& onTrue, const Tensor& onFalse, Tensor* reuse) {
  if (pred.rank() == 0 && onTrue.rank() != 0) {
    const Tensor& picked = pred.data<bool>()[0] ? onTrue : onFalse;
    if (reuse == &picked) return std::move(*reuse);
    return picked;
  }
  Tensor fresh;
  Tensor& result = ResultBuffer(reuse, onTrue, fresh);
  DispatchElementType(onTrue.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const bool* p = pred.data<bool>().data();
    const T* t = onTrue.data<T>().data();
    const T* f = onFalse.data<T>().data();
    T* out = result.data<T>().data();
    const size_t n = static_cast<size_t>(result.num_elements());
    for (size_t i = 0; i < n; ++i) out[i] = p[i] ? t[i] : f[i];
  });
  return std::move(result);
}

// result[i] = min(max(operand[i], lo), hi) with hlo.max/hlo.min's rules (NaN propagates);
// a rank-0 bound applies to every element. Complex numbers have no order and are refused.
// `reuse` is operand's own tensor when the result may be written over it, else null.
absl::StatusOr<Tensor> Clamp(const Tensor& lo, const Tensor& operand, const Tensor& hi,
                             Tensor* reuse) {
  if (IsComplex(operand.type())) return UnsupportedElementType(operand.type());
  Tensor fresh;
  Tensor& result = ResultBuffer(reuse, operand, fresh);
  DispatchElementType(operand.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsComplex<T>) {
      const T* x = operand.data<T>().data();
      const T* low = lo.data<T>().data();
      const T* high = hi.data<T>().data();
      T* out = result.data<T>().data();
      const size_t n = static_cast<size_t>(result.num_elements());
      size_t lowStep = lo.rank() == 0 ? 0 : 1, highStep = hi.rank() == 0 ? 0 : 1;
      for (size_t i = 0; i < n; ++i) {
        out[i] = MinFn()(MaxFn()(x[i], low[i * lowStep]), high[i * highStep]);
      }
    }
  });
  return std::move(result);
}

}  // namespace

void RegisterElementwiseKernels(KernelRegistry& registry) {
  registry.Register<hlo::CompareOp>(
      [](hlo::CompareOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Compare(*args.operands[0], *args.operands[1], op.getComparisonDirection(),
                                 op.getCompareType()));
      });
  registry.Register<hlo::SelectOp>(
      [](hlo::SelectOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        Tensor* reuse = args.Overwritable(1) ? args.Overwritable(1) : args.Overwritable(2);
        return OneResult(
            Select(*args.operands[0], *args.operands[1], *args.operands[2], reuse));
      });
  registry.Register<hlo::ClampOp>(
      [](hlo::ClampOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Clamp(*args.operands[0], *args.operands[1], *args.operands[2],
                               args.Overwritable(1)));
      });
}

}  // namespace tessel::runtime
