// XLA's counter-based random bit generators, Threefry-2x32 (20 rounds) and Philox-4x32
// (10 rounds), and the way RngBitGenerator lays their outputs over a tensor, written as a
// function of one element's position. That is what lets a shard make its box of a random
// tensor alone, with the same bits as the whole tensor would have there.
#ifndef TESSEL_RUNTIME_KERNELS_COUNTER_RNG_H_
#define TESSEL_RUNTIME_KERNELS_COUNTER_RNG_H_

#include <array>
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace tessel::runtime::rng {

std::array<uint32_t, 2> Threefry2x32(std::array<uint32_t, 2> counter,
                                     std::array<uint32_t, 2> key);
std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> counter,
                                   std::array<uint32_t, 2> key);

enum class Algorithm { kThreeFry, kPhilox };

// The random bits of an output of `shape` whose elements are `bits` wide (8, 16, 32, 64),
// generated from `state` (key, then counter) the way XLA's RngBitGenerator does:
//  - Threefry, 64-bit: element e (row-major) is the generator at counter state[1] + e,
//    low word first. Narrower: the shape is cut in half along its first even dimension
//    (else its largest); element i along it takes word i % 2 of the call at position i / 2
//    of the half shape, counted row-major.
//  - Philox: a 128-bit counter (state[1] low, then state[2], or state[0] for a 2-element
//    state); call j gives elements 4j..4j+3 (32 bits or narrower) or 2j, 2j+1 (64 bits).
// Narrow elements keep the low bits of a 32-bit word.
class BitLayout {
 public:
  static absl::StatusOr<BitLayout> Create(Algorithm algorithm, absl::Span<const uint64_t> state,
                                          absl::Span<const int64_t> shape, int bits);

  // The bits of the element at `index` (inside the shape).
  uint64_t At(absl::Span<const int64_t> index);

  // The state after generating the whole shape: the key, then the advanced counter.
  std::vector<uint64_t> NextState() const;

 private:
  BitLayout() = default;
  uint64_t Word(uint64_t call, int lane);

  Algorithm algorithm_ = Algorithm::kPhilox;
  std::vector<uint64_t> state_;
  std::vector<int64_t> strides_;  // row-major, of the half shape for narrow Threefry
  int64_t split_dim_ = -1;        // narrow Threefry only; -1 for a rank-0 shape
  int bits_ = 32;
  uint64_t calls_ = 0;            // generator calls the whole shape takes
  // The last call, reused by neighbouring elements.
  uint64_t cached_call_ = 0;
  bool have_cached_ = false;
  std::array<uint32_t, 4> cached_{};
};

}  // namespace tessel::runtime::rng

#endif  // TESSEL_RUNTIME_KERNELS_COUNTER_RNG_H_
