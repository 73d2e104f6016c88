// Seeded random tensors for tests and differential runs: the same (type, shape, seed) gives
// the same bits on every run, machine and standard library.
//
//   Tensor x = RandomTensor(ElementType::kBF16, {128, 64}, /*seed=*/7);
//
// Values (each element drawn independently, in row-major order):
//   - floats: uniform over [-1, 1) on a grid every value of which the type holds exactly:
//     k / 2^(p-1) for integers k in [-2^(p-1), 2^(p-1)), where p is the significand width
//     (f16: 11, bf16: 8, f32: 24, f64: 53). So bf16 takes 256 distinct values, f32 2^24.
//   - signed integers: uniform over [-8, 8];
//   - unsigned integers: uniform over [0, 16];
//   - pred: true or false with equal probability;
//   - complex (c64, c128): a real and then an imaginary part, each drawn as f32 / f64.
// The small integer ranges keep sums and products of modest size exact and free of
// wrap-around, so results do not depend on the order a partitioned program adds in.
//
// The generator is std::mt19937_64 (its output is fixed by the C++ standard) with Tessel's
// own mapping to values; std::uniform_*_distribution is avoided because its algorithm is
// left to the library.
#ifndef TESSEL_RUNTIME_RANDOM_INPUTS_H_
#define TESSEL_RUNTIME_RANDOM_INPUTS_H_

#include <cstdint>

#include "runtime/tensor.h"

namespace tessel::runtime {

// The smallest and largest integer RandomTensor draws for signed and unsigned types.
inline constexpr int64_t kRandomSignedMin = -8;
inline constexpr int64_t kRandomSignedMax = 8;
inline constexpr uint64_t kRandomUnsignedMax = 16;

// A tensor of `type` and `shape` filled as described above from `seed`.
// REQUIRES: every dimension >= 0.
Tensor RandomTensor(ElementType type, Shape shape, uint64_t seed);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_RANDOM_INPUTS_H_
