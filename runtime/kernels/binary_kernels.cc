// Kernels of the binary elementwise ops: arithmetic, max/min, pow, atan2, logic, shifts.
//
// Integer rules (XLA's, with its CPU backend's choices where XLA leaves them open):
//   - add, sub, mul and pow wrap around: they compute in the unsigned type;
//   - x / 0 is -1 for signed and all ones for unsigned types, x % 0 is x;
//   - INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0 (the overflowing case wraps);
//   - shift amounts are read as unsigned; an amount of at least the bit width gives 0 for
//     shift_left and shift_right_logical and fills with the sign bit for
//     shift_right_arithmetic (which reads the bits as signed, also for unsigned types);
//   - pow with a negative exponent is 0, except for base 1 (1) and base -1 (1 or -1 by the
//     exponent's parity).
// f16 and bf16 compute in float and round once.
#include <cmath>
#include <limits>
#include <type_traits>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"

namespace tessel::runtime {
namespace {

// The remainder has the sign of the dividend (C's % and fmod).
struct RemFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T> || kIsFloat<T>;
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kIsInt<T>) {
      if (b == 0) return a;
      if constexpr (kIsSignedInt<T>) {
        if (a == std::numeric_limits<T>::min() && b == T(-1)) return T(0);
      }
      return static_cast<T>(a % b);
    } else {
      return InCompute(a, b, [](auto x, auto y) { return std::fmod(x, y); });
    }
  }
};

struct PowFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T> || kIsFloat<T>;
  template <typename T>
  T operator()(T base, T exponent) const {
    if constexpr (kIsInt<T>) {
      if constexpr (kIsSignedInt<T>) {
        if (exponent < 0) {
          if (base == T(1)) return T(1);
          if (base == T(-1)) return (exponent & 1) ? T(-1) : T(1);
          return T(0);
        }
      }
      // Square and multiply, wrapping like repeated multiplication would.
      T result = T(1);
      while (exponent != 0) {
        if (exponent & 1) result = WrapMul(result, base);
        base = WrapMul(base, base);
        exponent = static_cast<T>(exponent >> 1);
      }
      return result;
    } else {
      return InCompute(base, exponent, [](auto x, auto y) { return std::pow(x, y); });
    }
  }
};

struct Atan2Fn {
  template <typename T>
  static constexpr bool kAccepts = kIsFloat<T>;
  template <typename T>
  T operator()(T a, T b) const {
    return InCompute(a, b, [](auto y, auto x) { return std::atan2(y, x); });
  }
};

// Logical for pred, bitwise for integers.
struct XorFn {
  template <typename T>
  static constexpr bool kAccepts = kIsPred<T> || kIsInt<T>;
  template <typename T>
  T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

// The shift amount: the bits of `amount` read as unsigned.
template <typename T>
uint64_t ShiftAmount(T amount) {
  return static_cast<std::make_unsigned_t<T>>(amount);
}
template <typename T>
constexpr uint64_t kBitWidth = sizeof(T) * 8;

struct ShiftLeftFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T>;
  template <typename T>
  T operator()(T a, T b) const {
    uint64_t amount = ShiftAmount(b);
    if (amount >= kBitWidth<T>) return T(0);
    return static_cast<T>(static_cast<WrapType<T>>(a) << amount);
  }
};

struct ShiftRightLogicalFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T>;
  template <typename T>
  T operator()(T a, T b) const {
    using U = std::make_unsigned_t<T>;
    uint64_t amount = ShiftAmount(b);
    if (amount >= kBitWidth<T>) return T(0);
    return static_cast<T>(static_cast<U>(a) >> amount);
  }
};

struct ShiftRightArithmeticFn {
  template <typename T>
  static constexpr bool kAccepts = kIsInt<T>;
  template <typename T>
  T operator()(T a, T b) const {
    using S = std::make_signed_t<T>;
    S value = static_cast<S>(a);
    uint64_t amount = ShiftAmount(b);
    if (amount >= kBitWidth<T>) return static_cast<T>(value < 0 ? S(-1) : S(0));
    // >> of a negative value fills with the sign bit on the compilers Tessel supports.
    return static_cast<T>(static_cast<S>(value >> amount));
  }
};

template <typename OpT, typename Fn>
void RegisterBinary(KernelRegistry& registry) {
  registry.Register<OpT>([](OpT, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
    Tensor* overwritable = args.Overwritable(0) ? args.Overwritable(0) : args.Overwritable(1);
    return OneResult(MapBinary<Fn>(*args.operands[0], *args.operands[1], Fn(), overwritable));
  });
}

}  // namespace

void RegisterBinaryKernels(KernelRegistry& registry) {
  RegisterBinary<hlo::AddOp, AddFn>(registry);
  RegisterBinary<hlo::SubOp, SubFn>(registry);
  RegisterBinary<hlo::MulOp, MulFn>(registry);
  RegisterBinary<hlo::DivOp, DivFn>(registry);
  RegisterBinary<hlo::RemOp, RemFn>(registry);
  RegisterBinary<hlo::MaxOp, MaxFn>(registry);
  RegisterBinary<hlo::MinOp, MinFn>(registry);
  RegisterBinary<hlo::PowOp, PowFn>(registry);
  RegisterBinary<hlo::Atan2Op, Atan2Fn>(registry);
  RegisterBinary<hlo::AndOp, AndFn>(registry);
  RegisterBinary<hlo::OrOp, OrFn>(registry);
  RegisterBinary<hlo::XorOp, XorFn>(registry);
  RegisterBinary<hlo::ShiftLeftOp, ShiftLeftFn>(registry);
  RegisterBinary<hlo::ShiftRightArithmeticOp, ShiftRightArithmeticFn>(registry);
  RegisterBinary<hlo::ShiftRightLogicalOp, ShiftRightLogicalFn>(registry);
}

}  // namespace tessel::runtime
