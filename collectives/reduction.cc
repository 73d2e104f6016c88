// Elementwise reductions over every data type (see reduction.h for the semantics).
#include "collectives/reduction.h"

#include <type_traits>

#include "absl/strings/str_cat.h"

namespace tessel::collectives {
namespace {

template <typename T>
bool IsNan(T value) {
  if constexpr (std::is_integral_v<T> || kIsComplex<T>) {
    return false;
  } else {
    return Eigen::numext::isnan(value);
  }
}

// The type integer arithmetic is done in: unsigned, so overflow wraps instead of being
// undefined, and at least as wide as `unsigned`, so u8 and u16 are not promoted to int.
template <typename T>
using WrapType = std::common_type_t<std::make_unsigned_t<T>, unsigned>;

template <typename T>
T Combine(ReductionKind kind, T a, T b) {
  if constexpr (std::is_same_v<T, bool>) {
    bool either = kind == ReductionKind::kSum || kind == ReductionKind::kMax;
    return either ? (a || b) : (a && b);
  } else {
    switch (kind) {
      case ReductionKind::kSum:
        if constexpr (std::is_integral_v<T>) {
          return static_cast<T>(static_cast<WrapType<T>>(a) + static_cast<WrapType<T>>(b));
        } else {
          return static_cast<T>(a + b);
        }
      case ReductionKind::kProd:
        if constexpr (std::is_integral_v<T>) {
          return static_cast<T>(static_cast<WrapType<T>>(a) * static_cast<WrapType<T>>(b));
        } else {
          return static_cast<T>(a * b);
        }
      // A NaN on either side wins; otherwise the larger (smaller) value. Complex numbers
      // have no order: ValidateReduction refuses max and min on them before any data moves,
      // so this branch never runs for them.
      case ReductionKind::kMax:
        if constexpr (kIsComplex<T>)
          return a;
        else
          return (IsNan(a) || a > b) ? a : b;
      case ReductionKind::kMin:
        if constexpr (kIsComplex<T>)
          return a;
        else
          return (IsNan(a) || a < b) ? a : b;
    }
    return a;
  }
}

// One loop per (type, kind) pair, so the compiler can vectorize it.
template <typename T, ReductionKind kKind>
void AccumulateLoop(T* acc, const T* src, int64_t count) {
  for (int64_t i = 0; i < count; ++i) acc[i] = Combine(kKind, acc[i], src[i]);
}

}  // namespace

absl::string_view ReductionKindName(ReductionKind kind) {
  switch (kind) {
    case ReductionKind::kSum: return "sum";
    case ReductionKind::kProd: return "prod";
    case ReductionKind::kMax: return "max";
    case ReductionKind::kMin: return "min";
  }
  return "unknown";
}

absl::Status ValidateReduction(DataType type, ReductionKind kind) {
  if (IsComplexDataType(type) && (kind == ReductionKind::kMax || kind == ReductionKind::kMin)) {
    return absl::InvalidArgumentError(absl::StrCat(ReductionKindName(kind), " reduction of ",
                                                   DataTypeName(type),
                                                   ": complex numbers have no order"));
  }
  return absl::OkStatus();
}

void Accumulate(DataType type, ReductionKind kind, void* acc, const void* src, int64_t count) {
  DispatchDataType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* a = static_cast<T*>(acc);
    const T* s = static_cast<const T*>(src);
    switch (kind) {
      case ReductionKind::kSum: return AccumulateLoop<T, ReductionKind::kSum>(a, s, count);
      case ReductionKind::kProd: return AccumulateLoop<T, ReductionKind::kProd>(a, s, count);
      case ReductionKind::kMax: return AccumulateLoop<T, ReductionKind::kMax>(a, s, count);
      case ReductionKind::kMin: return AccumulateLoop<T, ReductionKind::kMin>(a, s, count);
    }
  });
}

}  // namespace tessel::collectives
