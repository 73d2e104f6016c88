// Threefry-2x32 and Philox-4x32 as Salmon et al. define them (SC 2011, "Parallel random
// numbers: as easy as 1, 2, 3"), with XLA's round counts and its layout of the words over a
// tensor (counter_rng.h).
#include "runtime/kernels/counter_rng.h"

#include "absl/strings/str_cat.h"

namespace tessel::runtime::rng {
namespace {

uint32_t RotateLeft(uint32_t v, int distance) {
  return (v << distance) | (v >> (32 - distance));
}

uint32_t Low(uint64_t v) { return static_cast<uint32_t>(v); }
uint32_t High(uint64_t v) { return static_cast<uint32_t>(v >> 32); }

std::vector<int64_t> RowMajor(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
    strides[d] = strides[d + 1] * shape[d + 1];
  }
  return strides;
}

uint64_t Elements(absl::Span<const int64_t> shape) {
  uint64_t n = 1;
  for (int64_t size : shape) n *= static_cast<uint64_t>(size);
  return n;
}

}  // namespace

std::array<uint32_t, 2> Threefry2x32(std::array<uint32_t, 2> counter,
                                     std::array<uint32_t, 2> key) {
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  // The third key word makes the schedule's parity: 0x1BD11BDA xor the two others.
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  uint32_t x0 = counter[0] + ks[0];
  uint32_t x1 = counter[1] + ks[1];
  // Five groups of four rounds; after group g the key words (g, g+1) mod 3 are injected,
  // with g as a counter on the second.
  for (int group = 0; group < 5; ++group) {
    const int* rotations = kRotations + (group % 2) * 4;
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = RotateLeft(x1, rotations[r]) ^ x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + static_cast<uint32_t>(group + 1);
  }
  return {x0, x1};
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 4> counter,
                                   std::array<uint32_t, 2> key) {
  constexpr uint64_t kMultiplierA = 0xD2511F53u, kMultiplierB = 0xCD9E8D57u;
  constexpr uint32_t kWeylA = 0x9E3779B9u, kWeylB = 0xBB67AE85u;
  std::array<uint32_t, 4> x = counter;
  for (int round = 0; round < 10; ++round) {
    const uint64_t a = kMultiplierA * x[0];
    const uint64_t b = kMultiplierB * x[2];
    x = {High(b) ^ x[1] ^ key[0], Low(b), High(a) ^ x[3] ^ key[1], Low(a)};
    key[0] += kWeylA;
    key[1] += kWeylB;
  }
  return x;
}

absl::StatusOr<BitLayout> BitLayout::Create(Algorithm algorithm,
                                            absl::Span<const uint64_t> state,
                                            absl::Span<const int64_t> shape, int bits) {
  const size_t want = algorithm == Algorithm::kThreeFry ? 2 : 0;
  if ((want && state.size() != want) || state.size() < 2 || state.size() > 3) {
    return absl::InvalidArgumentError(
        absl::StrCat("rng_bit_generator state has ", state.size(), " elements"));
  }
  if (bits != 8 && bits != 16 && bits != 32 && bits != 64) {
    return absl::InvalidArgumentError(absl::StrCat("rng_bit_generator cannot make ", bits,
                                                   "-bit elements"));
  }
  BitLayout layout;
  layout.algorithm_ = algorithm;
  layout.state_.assign(state.begin(), state.end());
  layout.bits_ = bits;
  const uint64_t elements = Elements(shape);
  if (algorithm == Algorithm::kPhilox) {
    layout.strides_ = RowMajor(shape);
    const uint64_t perCall = bits == 64 ? 2 : 4;
    layout.calls_ = (elements + perCall - 1) / perCall;
  } else if (bits == 64 || shape.empty()) {
    layout.strides_ = RowMajor(shape);
    layout.calls_ = elements;
  } else {
    // The first even dimension, else the first of the largest.
    int64_t split = -1;
    for (size_t d = 0; d < shape.size() && split < 0; ++d) {
      if (shape[d] % 2 == 0) split = static_cast<int64_t>(d);
    }
    if (split < 0) {
      split = 0;
      for (size_t d = 1; d < shape.size(); ++d) {
        if (shape[d] > shape[split]) split = static_cast<int64_t>(d);
      }
    }
    std::vector<int64_t> half(shape.begin(), shape.end());
    half[split] = (half[split] + 1) / 2;
    layout.split_dim_ = split;
    layout.strides_ = RowMajor(half);
    layout.calls_ = Elements(half);
  }
  return layout;
}

uint64_t BitLayout::Word(uint64_t call, int lane) {
  if (!have_cached_ || cached_call_ != call) {
    const std::array<uint32_t, 2> key = {Low(state_[0]), High(state_[0])};
    if (algorithm_ == Algorithm::kThreeFry) {
      const uint64_t counter = state_[1] + call;
      std::array<uint32_t, 2> out = Threefry2x32({Low(counter), High(counter)}, key);
      cached_ = {out[0], out[1], 0, 0};
    } else {
      uint64_t low = state_[1];
      uint64_t high = state_.size() == 3 ? state_[2] : state_[0];
      const uint64_t sum = low + call;
      if (sum < low) ++high;
      cached_ = Philox4x32({Low(sum), High(sum), Low(high), High(high)}, key);
    }
    cached_call_ = call;
    have_cached_ = true;
  }
  return cached_[lane];
}

uint64_t BitLayout::At(absl::Span<const int64_t> index) {
  uint64_t linear = 0;
  for (size_t d = 0; d < index.size(); ++d) {
    int64_t i = index[d];
    if (static_cast<int64_t>(d) == split_dim_) i /= 2;
    linear += static_cast<uint64_t>(i) * static_cast<uint64_t>(strides_[d]);
  }
  uint64_t word;
  if (algorithm_ == Algorithm::kPhilox) {
    if (bits_ == 64) {
      const int pair = static_cast<int>(linear % 2) * 2;
      const uint64_t call = linear / 2;
      word = Word(call, pair) | (Word(call, pair + 1) << 32);
    } else {
      word = Word(linear / 4, static_cast<int>(linear % 4));
    }
  } else if (bits_ == 64) {
    word = Word(linear, 0) | (Word(linear, 1) << 32);
  } else {
    const int lane = split_dim_ < 0 ? 0 : static_cast<int>(index[split_dim_] % 2);
    word = Word(linear, lane);
  }
  return bits_ == 64 ? word : word & ((uint64_t{1} << bits_) - 1);
}

std::vector<uint64_t> BitLayout::NextState() const {
  std::vector<uint64_t> next = state_;
  if (algorithm_ == Algorithm::kThreeFry) {
    next[1] += calls_;
    return next;
  }
  const uint64_t low = state_[1];
  next[1] = low + calls_;
  if (state_.size() == 3 && next[1] < low) ++next[2];
  return next;
}

}  // namespace tessel::runtime::rng
