// The element types a collective moves and reduces, independent of MLIR and of the runtime's
// tensors, so that every backend (local threads, MPI, NCCL) can share them.
//
//   ConstBuffer input = MakeConstBuffer(absl::MakeConstSpan(values));  // values: vector<float>
//   DispatchDataType(input.type, [&](auto tag) {
//     using T = typename decltype(tag)::type;
//     ...  // code generic over T
//   });
#ifndef TESSEL_COLLECTIVES_DATA_TYPE_H_
#define TESSEL_COLLECTIVES_DATA_TYPE_H_

#include <complex>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>

#include "Eigen/Core"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"

namespace tessel::collectives {

// pred (bool), signed and unsigned integers, the floating-point types and the complex types
// (c64: two f32, c128: two f64, real part first); the same list as the runtime's element
// types, which the kernels map onto this one.
enum class DataType {
  kPred,
  kS8,
  kS16,
  kS32,
  kS64,
  kU8,
  kU16,
  kU32,
  kU64,
  kF16,
  kBF16,
  kF32,
  kF64,
  kC64,
  kC128,
};

// Every real (ordered) data type, for tests and benchmarks that cover them all. The complex
// types are listed apart because max and min do not apply to them.
inline constexpr DataType kAllDataTypes[] = {
    DataType::kPred, DataType::kS8,  DataType::kS16, DataType::kS32, DataType::kS64,
    DataType::kU8,   DataType::kU16, DataType::kU32, DataType::kU64, DataType::kF16,
    DataType::kBF16, DataType::kF32, DataType::kF64,
};
inline constexpr DataType kComplexDataTypes[] = {DataType::kC64, DataType::kC128};

// Whether `type` is c64 or c128: sum and prod reduce them, max and min do not.
constexpr bool IsComplexDataType(DataType type) {
  return type == DataType::kC64 || type == DataType::kC128;
}

// True for the C++ types of the complex data types.
template <typename T>
inline constexpr bool kIsComplex =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

// The XLA spelling: "pred", "s32", "bf16", ...
absl::string_view DataTypeName(DataType type);

// The data type an XLA spelling names, or nullopt for any other text.
std::optional<DataType> DataTypeFromName(absl::string_view name);

// Size of one element in bytes (pred takes one byte).
int64_t DataTypeSize(DataType type);

template <typename T>
struct DataTypeTag {
  using type = T;
};

// Calls `fn(DataTypeTag<T>{})` with the C++ type T of `type` (bool for pred, Eigen::half and
// Eigen::bfloat16 for f16 and bf16, std::complex<float> and std::complex<double> for c64 and
// c128) and returns what it returns. `fn` must compile for every T; code that has no meaning
// for complex numbers tests kIsComplex<T> and reports an error.
template <typename Fn>
decltype(auto) DispatchDataType(DataType type, Fn&& fn) {
  switch (type) {
    case DataType::kPred: return fn(DataTypeTag<bool>{});
    case DataType::kS8: return fn(DataTypeTag<int8_t>{});
    case DataType::kS16: return fn(DataTypeTag<int16_t>{});
    case DataType::kS32: return fn(DataTypeTag<int32_t>{});
    case DataType::kS64: return fn(DataTypeTag<int64_t>{});
    case DataType::kU8: return fn(DataTypeTag<uint8_t>{});
    case DataType::kU16: return fn(DataTypeTag<uint16_t>{});
    case DataType::kU32: return fn(DataTypeTag<uint32_t>{});
    case DataType::kU64: return fn(DataTypeTag<uint64_t>{});
    case DataType::kF16: return fn(DataTypeTag<Eigen::half>{});
    case DataType::kBF16: return fn(DataTypeTag<Eigen::bfloat16>{});
    case DataType::kF32: return fn(DataTypeTag<float>{});
    case DataType::kF64: return fn(DataTypeTag<double>{});
    case DataType::kC64: return fn(DataTypeTag<std::complex<float>>{});
    case DataType::kC128: return fn(DataTypeTag<std::complex<double>>{});
  }
  return fn(DataTypeTag<bool>{});  // unreachable: every enumerator is handled above
}

// The data type of C++ type T; fails to compile for other types.
template <typename T>
constexpr DataType DataTypeOf() {
  if constexpr (std::is_same_v<T, bool>) {
    return DataType::kPred;
  } else if constexpr (std::is_same_v<T, int8_t>) {
    return DataType::kS8;
  } else if constexpr (std::is_same_v<T, int16_t>) {
    return DataType::kS16;
  } else if constexpr (std::is_same_v<T, int32_t>) {
    return DataType::kS32;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return DataType::kS64;
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return DataType::kU8;
  } else if constexpr (std::is_same_v<T, uint16_t>) {
    return DataType::kU16;
  } else if constexpr (std::is_same_v<T, uint32_t>) {
    return DataType::kU32;
  } else if constexpr (std::is_same_v<T, uint64_t>) {
    return DataType::kU64;
  } else if constexpr (std::is_same_v<T, Eigen::half>) {
    return DataType::kF16;
  } else if constexpr (std::is_same_v<T, Eigen::bfloat16>) {
    return DataType::kBF16;
  } else if constexpr (std::is_same_v<T, float>) {
    return DataType::kF32;
  } else if constexpr (std::is_same_v<T, double>) {
    return DataType::kF64;
  } else if constexpr (std::is_same_v<T, std::complex<float>>) {
    return DataType::kC64;
  } else {
    static_assert(std::is_same_v<T, std::complex<double>>,
                  "not the C++ type of a collectives data type");
    return DataType::kC128;
  }
}

// A contiguous run of elements that a collective reads. The caller owns the memory and keeps
// it alive and unchanged until the collective returns.
struct ConstBuffer {
  DataType type;
  const void* data;
  int64_t num_elements;

  int64_t byte_size() const { return num_elements * DataTypeSize(type); }
};

// A contiguous run of elements that a collective writes (and, for in-place forms, reads).
struct Buffer {
  DataType type;
  void* data;
  int64_t num_elements;

  int64_t byte_size() const { return num_elements * DataTypeSize(type); }
  operator ConstBuffer() const { return ConstBuffer{type, data, num_elements}; }
};

template <typename T>
ConstBuffer MakeConstBuffer(absl::Span<const T> values) {
  return ConstBuffer{DataTypeOf<T>(), values.data(), static_cast<int64_t>(values.size())};
}

template <typename T>
Buffer MakeBuffer(absl::Span<T> values) {
  return Buffer{DataTypeOf<T>(), values.data(), static_cast<int64_t>(values.size())};
}

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_DATA_TYPE_H_
