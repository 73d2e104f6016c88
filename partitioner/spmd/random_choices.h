// A testing hook: while a ScopedRandomChoices is alive on a thread, the partitioner's
// cost-based choices on that thread are made at random from its seed instead (which of an
// op's strategies is emitted, and every bytes comparison between reshard plans, halo
// exchange against a gather included). Each choice the partitioner can make is correct by
// construction, so a program partitioned this way must still compute the same results; the
// differential fuzzer uses it to reach strategies the cost model would rarely pick.
// partitionModule installs one when PartitionOptions::randomChoiceSeed is set.
//
//   ScopedRandomChoices random(seed);
//   std::optional<size_t> pick = randomChoice(candidates);  // nullopt when none is alive
#ifndef TESSEL_PARTITIONER_SPMD_RANDOM_CHOICES_H_
#define TESSEL_PARTITIONER_SPMD_RANDOM_CHOICES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>

namespace tessel::spmd {

class ScopedRandomChoices {
 public:
  explicit ScopedRandomChoices(uint64_t seed);
  ~ScopedRandomChoices();
  ScopedRandomChoices(const ScopedRandomChoices&) = delete;
  ScopedRandomChoices& operator=(const ScopedRandomChoices&) = delete;

 private:
  friend std::optional<size_t> randomChoice(size_t count);
  friend int64_t randomlyScaledBytes(int64_t bytes, uint64_t key);
  ScopedRandomChoices* previous_;
  uint64_t seed_;
  std::mt19937_64 rng_;
};

// Whether a scope is live on this thread.
bool randomChoicesLive();

// A uniform index below `count` (> 0) from the innermost live scope on this thread;
// nullopt when there is none.
std::optional<size_t> randomChoice(size_t count);

// `bytes` times a power of two from 1/8 to 8 under a live scope, else `bytes`. The factor
// is a function of the seed and `key` (what was priced): a handler may ask the same question
// twice, when it plans and when it emits, and must get the same answer.
int64_t randomlyScaledBytes(int64_t bytes, uint64_t key);

}  // namespace tessel::spmd

#endif  // TESSEL_PARTITIONER_SPMD_RANDOM_CHOICES_H_
