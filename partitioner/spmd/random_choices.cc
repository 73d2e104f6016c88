// Random choices in place of cost-based ones, for testing (see random_choices.h).
#include "partitioner/spmd/random_choices.h"

namespace tessel::spmd {
namespace {

// One scope per thread at a time is live: partitioning a module runs on one thread, and
// tests may partition several modules at once on different threads.
thread_local ScopedRandomChoices* live = nullptr;

}  // namespace

ScopedRandomChoices::ScopedRandomChoices(uint64_t seed)
    : previous_(live), seed_(seed), rng_(seed) {
  live = this;
}

ScopedRandomChoices::~ScopedRandomChoices() { live = previous_; }

bool randomChoicesLive() { return live != nullptr; }

std::optional<size_t> randomChoice(size_t count) {
  if (!live || count == 0) return std::nullopt;
  return static_cast<size_t>(live->rng_() % count);
}

int64_t randomlyScaledBytes(int64_t bytes, uint64_t key) {
  if (!live) return bytes;
  // A splitmix64 finalizer of seed and key.
  uint64_t z = live->seed_ ^ (key + 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  const int shift = static_cast<int>(z % 7) - 3;  // -3 .. 3
  return shift >= 0 ? bytes << shift : bytes >> -shift;
}

}  // namespace tessel::spmd
