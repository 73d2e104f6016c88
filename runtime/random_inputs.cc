// The deterministic value mapping of random_inputs.h.
#include "runtime/random_inputs.h"

#include <cmath>
#include <random>
#include <type_traits>

namespace tessel::runtime {
namespace {

// A uniform integer in [0, count) by rejection: draws at or above the largest multiple of
// `count` that fits in 64 bits are redrawn, so every residue is equally likely.
uint64_t UniformBelow(std::mt19937_64& engine, uint64_t count) {
  uint64_t limit = ~uint64_t{0} - (~uint64_t{0} % count);
  while (true) {
    uint64_t draw = engine();
    if (draw < limit) return draw % count;
  }
}

// Significand width (implicit bit included) of each float type.
template <typename T>
constexpr int kSignificandBits = std::is_same_v<T, f16>     ? 11
                                 : std::is_same_v<T, bf16>  ? 8
                                 : std::is_same_v<T, float> ? 24
                                                            : 53;

template <typename T>
T RandomElement(std::mt19937_64& engine) {
  if constexpr (std::is_same_v<T, bool>) {
    return (engine() >> 63) != 0;
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    uint64_t count = static_cast<uint64_t>(kRandomSignedMax - kRandomSignedMin + 1);
    return static_cast<T>(kRandomSignedMin + static_cast<int64_t>(UniformBelow(engine, count)));
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(UniformBelow(engine, kRandomUnsignedMax + 1));
  } else if constexpr (kIsComplex<T>) {
    // Each part as a float of the part's type; the real part draws first.
    using Part = typename T::value_type;
    Part real = RandomElement<Part>(engine);
    return T(real, RandomElement<Part>(engine));
  } else {
    // k / 2^(p-1) for k uniform in [-2^(p-1), 2^(p-1)): the top p bits of a draw.
    constexpr int kBits = kSignificandBits<T>;
    int64_t k = static_cast<int64_t>(engine() >> (64 - kBits)) - (int64_t{1} << (kBits - 1));
    double value = std::ldexp(static_cast<double>(k), -(kBits - 1));
    // Exact: T holds every value of the grid (f16 and bf16 also go through float exactly).
    if constexpr (std::is_same_v<T, double>) {
      return value;
    } else {
      return T(static_cast<float>(value));
    }
  }
}

}  // namespace

Tensor RandomTensor(ElementType type, Shape shape, uint64_t seed) {
  Tensor tensor = Tensor::Zeros(type, std::move(shape));
  std::mt19937_64 engine(seed);
  DispatchElementType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    for (T& value : tensor.data<T>()) value = RandomElement<T>(engine);
  });
  return tensor;
}

}  // namespace tessel::runtime
