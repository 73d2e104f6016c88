// Kernels of the unary elementwise ops on numbers (abs ... tan, is_finite) and hlo.convert.
#include <algorithm>
#include <cmath>
#include <type_traits>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

// A float-only op: `Derived::Apply` runs in ComputeType (float for f16/bf16) and the result
// is rounded to the element type once.
template <typename Derived>
struct FloatUnary {
  template <typename T>
  static constexpr bool kAccepts = kIsFloat<T>;
  template <typename T>
  T operator()(T x) const {
    using C = ComputeType<T>;
    return static_cast<T>(Derived::Apply(static_cast<C>(x)));
  }
};

struct ExpFn : FloatUnary<ExpFn> {
  template <typename C> static C Apply(C x) { return std::exp(x); }
};
struct LogFn : FloatUnary<LogFn> {
  template <typename C> static C Apply(C x) { return std::log(x); }
};
struct Log1pFn : FloatUnary<Log1pFn> {
  template <typename C> static C Apply(C x) { return std::log1p(x); }
};
struct Expm1Fn : FloatUnary<Expm1Fn> {
  template <typename C> static C Apply(C x) { return std::expm1(x); }
};
struct TanhFn : FloatUnary<TanhFn> {
  template <typename C> static C Apply(C x) { return std::tanh(x); }
};
struct LogisticFn : FloatUnary<LogisticFn> {
  // For very negative x, e^-x overflows to inf and the result is the correct limit 0.
  template <typename C> static C Apply(C x) { return C(1) / (C(1) + std::exp(-x)); }
};
struct SqrtFn : FloatUnary<SqrtFn> {
  template <typename C> static C Apply(C x) { return std::sqrt(x); }
};
struct RsqrtFn : FloatUnary<RsqrtFn> {
  template <typename C> static C Apply(C x) { return C(1) / std::sqrt(x); }
};
struct SinFn : FloatUnary<SinFn> {
  template <typename C> static C Apply(C x) { return std::sin(x); }
};
struct CosFn : FloatUnary<CosFn> {
  template <typename C> static C Apply(C x) { return std::cos(x); }
};
struct FloorFn : FloatUnary<FloorFn> {
  template <typename C> static C Apply(C x) { return std::floor(x); }
};
struct CeilFn : FloatUnary<CeilFn> {
  template <typename C> static C Apply(C x) { return std::ceil(x); }
};
struct RoundFn : FloatUnary<RoundFn> {
  // std::round rounds halfway cases away from zero, as hlo.round does.
  template <typename C> static C Apply(C x) { return std::round(x); }
};
struct RoundNearestEvenFn : FloatUnary<RoundNearestEvenFn> {
  // Ties to even without depending on the thread's rounding mode: round away from zero,
  // then step back where that landed on an odd number from an exact half.
  template <typename C> static C Apply(C x) {
    C rounded = std::round(x);
    if (std::fabs(x - std::trunc(x)) == C(0.5) && std::fmod(rounded, C(2)) != C(0)) {
      rounded -= std::copysign(C(1), x);
    }
    return std::copysign(rounded, x);  // -0.5 -> -0
  }
};
struct ErfFn : FloatUnary<ErfFn> {
  template <typename C> static C Apply(C x) { return std::erf(x); }
};
struct CbrtFn : FloatUnary<CbrtFn> {
  template <typename C> static C Apply(C x) { return std::cbrt(x); }
};
struct TanFn : FloatUnary<TanFn> {
  template <typename C> static C Apply(C x) { return std::tan(x); }
};

// abs and neg of signed integers wrap: the most negative value maps to itself, which the
// unsigned arithmetic gives without overflow. For floats both only touch the sign bit
// (Eigen's f16/bf16 versions do too), so NaN payloads survive.
struct AbsFn {
  template <typename T>
  static constexpr bool kAccepts = kIsSignedInt<T> || kIsFloat<T>;
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsSignedInt<T>) {
      using U = std::make_unsigned_t<T>;
      return x < 0 ? static_cast<T>(U{0} - static_cast<U>(x)) : x;
    } else if constexpr (kIsHalfFloat<T>) {
      return Eigen::numext::abs(x);
    } else {
      return std::fabs(x);
    }
  }
};

struct NegFn {
  template <typename T>
  static constexpr bool kAccepts = kIsSignedInt<T> || kIsFloat<T> || kIsComplex<T>;
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsSignedInt<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(U{0} - static_cast<U>(x));
    } else {
      return -x;
    }
  }
};

// -1, 0 or 1; for floats NaN stays NaN and a zero keeps its sign (sign(-0) = -0).
struct SignFn {
  template <typename T>
  static constexpr bool kAccepts = kIsSignedInt<T> || kIsFloat<T>;
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsSignedInt<T>) {
      return static_cast<T>((x > 0) - (x < 0));
    } else {
      using C = ComputeType<T>;
      C value = static_cast<C>(x);
      if (std::isnan(value) || value == C(0)) return x;
      return static_cast<T>(std::copysign(C(1), value));
    }
  }
};

// Logical not for pred, bitwise not for integers.
struct NotFn {
  template <typename T>
  static constexpr bool kAccepts = kIsPred<T> || kIsInt<T>;
  template <typename T>
  T operator()(T x) const {
    if constexpr (kIsPred<T>) {
      return !x;
    } else {
      return static_cast<T>(~x);
    }
  }
};

template <typename OpT, typename Fn>
void RegisterUnary(KernelRegistry& registry) {
  registry.Register<OpT>([](OpT, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
    return OneResult(MapUnary<Fn>(*args.operands[0], Fn(), args.Overwritable(0)));
  });
}

absl::StatusOr<Tensor> IsFinite(const Tensor& x) {
  return DispatchElementType(x.type(), [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      Tensor result = Tensor::Zeros(ElementType::kPred, x.shape());
      absl::Span<const T> in = x.data<T>();
      absl::Span<bool> out = result.data<bool>();
      for (size_t i = 0; i < in.size(); ++i) {
        out[i] = std::isfinite(static_cast<ComputeType<T>>(in[i]));
      }
      return result;
    } else {
      return UnsupportedElementType(x.type());
    }
  });
}

// Every element of `x` converted to `to` by ConvertElement (element_convert.h has the rules).
// Conversions to or from complex types are refused (only the identity one runs): the rules
// for them (dropping the imaginary part, or not) are not Tessel's to choose silently.
absl::StatusOr<Tensor> Convert(const Tensor& x, ElementType to) {
  if ((IsComplex(x.type()) || IsComplex(to)) && x.type() != to) {
    return absl::InvalidArgumentError(absl::StrCat("convert from ", ElementTypeName(x.type()),
                                                   " to ", ElementTypeName(to),
                                                   " is not supported"));
  }
  Tensor result = Tensor::Zeros(to, x.shape());
  DispatchElementType(x.type(), [&](auto fromTag) {
    using From = typename decltype(fromTag)::type;
    DispatchElementType(to, [&](auto toTag) {
      using To = typename decltype(toTag)::type;
      absl::Span<const From> in = x.data<From>();
      absl::Span<To> out = result.data<To>();
      if constexpr (std::is_same_v<To, From>) {
        std::copy(in.begin(), in.end(), out.begin());
      } else if constexpr (!kIsComplex<To> && !kIsComplex<From>) {
        for (size_t i = 0; i < in.size(); ++i) out[i] = ConvertElement<To>(in[i]);
      }
    });
  });
  return result;
}

}  // namespace

void RegisterUnaryKernels(KernelRegistry& registry) {
  RegisterUnary<hlo::AbsOp, AbsFn>(registry);
  RegisterUnary<hlo::NegOp, NegFn>(registry);
  RegisterUnary<hlo::ExpOp, ExpFn>(registry);
  RegisterUnary<hlo::LogOp, LogFn>(registry);
  RegisterUnary<hlo::Log1pOp, Log1pFn>(registry);
  RegisterUnary<hlo::Expm1Op, Expm1Fn>(registry);
  RegisterUnary<hlo::TanhOp, TanhFn>(registry);
  RegisterUnary<hlo::LogisticOp, LogisticFn>(registry);
  RegisterUnary<hlo::SqrtOp, SqrtFn>(registry);
  RegisterUnary<hlo::RsqrtOp, RsqrtFn>(registry);
  RegisterUnary<hlo::SinOp, SinFn>(registry);
  RegisterUnary<hlo::CosOp, CosFn>(registry);
  RegisterUnary<hlo::FloorOp, FloorFn>(registry);
  RegisterUnary<hlo::CeilOp, CeilFn>(registry);
  RegisterUnary<hlo::RoundOp, RoundFn>(registry);
  RegisterUnary<hlo::RoundNearestEvenOp, RoundNearestEvenFn>(registry);
  RegisterUnary<hlo::ErfOp, ErfFn>(registry);
  RegisterUnary<hlo::CbrtOp, CbrtFn>(registry);
  RegisterUnary<hlo::TanOp, TanFn>(registry);
  RegisterUnary<hlo::SignOp, SignFn>(registry);
  RegisterUnary<hlo::NotOp, NotFn>(registry);
  registry.Register<hlo::IsFiniteOp>(
      [](hlo::IsFiniteOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(IsFinite(*args.operands[0]));
      });
  registry.Register<hlo::ConvertOp>(
      [](hlo::ConvertOp op, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        TESSEL_ASSIGN_OR_RETURN(ElementType to,
                                ElementTypeFromMlir(op.getResult().getType().getElementType()));
        Tensor* operand = args.Overwritable(0);
        if (operand != nullptr && operand->type() == to) return OneResult(std::move(*operand));
        return OneResult(Convert(*args.operands[0], to));
      });
}

}  // namespace tessel::runtime
