// What the tests of every collectives backend share: buffers over vectors, the inputs most
// cases use, and the expected result of a reduction. Backend-specific helpers stay with the
// backend (collectives/local/test_util.h runs partitions as threads).
#ifndef TESSEL_COLLECTIVES_TEST_UTIL_H_
#define TESSEL_COLLECTIVES_TEST_UTIL_H_

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "absl/types/span.h"
#include "collectives/communicator.h"
#include "collectives/data_type.h"
#include "collectives/reduction.h"

namespace tessel::collectives::testing {

template <typename T>
ConstBuffer In(const std::vector<T>& values) {
  return MakeConstBuffer(absl::MakeConstSpan(values));
}
template <typename T>
Buffer Out(std::vector<T>& values) {
  return MakeBuffer(absl::MakeSpan(values));
}

// Partition p's input in most tests: {100p, 100p + 1, ...}, distinct on every partition.
inline std::vector<int32_t> InputOf(int64_t p, int64_t count) {
  std::vector<int32_t> values(count);
  for (int64_t i = 0; i < count; ++i) values[i] = static_cast<int32_t>(100 * p + i);
  return values;
}

// Partition p's `count` elements of `type`: small integers of both signs (both truth values
// for pred), different per partition, so every reduction order gives the same result.
inline std::vector<std::byte> SmallValuesOf(DataType type, int64_t p, int64_t count) {
  std::vector<std::byte> bytes(count * DataTypeSize(type));
  DispatchDataType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* values = reinterpret_cast<T*>(bytes.data());
    for (int64_t i = 0; i < count; ++i) {
      int64_t v = (p * 7 + i * 3) % 5 - (std::is_unsigned_v<T> ? 0 : 2);
      values[i] = static_cast<T>(static_cast<float>(v));
    }
  });
  return bytes;
}

// The expected reduction: the inputs combined in order, left to right, with the reduction
// code the tests of reduction.h check against hand-computed values.
inline std::vector<std::byte> ReduceSerially(DataType type, ReductionKind kind,
                                             const std::vector<std::vector<std::byte>>& inputs) {
  std::vector<std::byte> result = inputs[0];
  const int64_t count = static_cast<int64_t>(result.size()) / DataTypeSize(type);
  for (size_t j = 1; j < inputs.size(); ++j) {
    Accumulate(type, kind, result.data(), inputs[j].data(), count);
  }
  return result;
}

// The ids begin, begin + step, ... below end.
inline std::vector<int64_t> IdsFrom(int64_t begin, int64_t end, int64_t step = 1) {
  std::vector<int64_t> ids;
  for (int64_t i = begin; i < end; i += step) ids.push_back(i);
  return ids;
}

}  // namespace tessel::collectives::testing

#endif  // TESSEL_COLLECTIVES_TEST_UTIL_H_
