// The testing hook that replaces cost-based choices with random ones: off without a scope,
// deterministic for one seed and question, and undone when the scope ends.
#include "partitioner/spmd/random_choices.h"

#include <set>

#include "gtest/gtest.h"

namespace tessel::spmd {
namespace {

TEST(RandomChoicesTest, NothingChangesWithoutAScope) {
  EXPECT_FALSE(randomChoicesLive());
  EXPECT_FALSE(randomChoice(3).has_value());
  EXPECT_EQ(randomlyScaledBytes(1024, 7), 1024);
}

TEST(RandomChoicesTest, TheSameQuestionGetsTheSameAnswer) {
  ScopedRandomChoices random(42);
  ASSERT_TRUE(randomChoicesLive());
  // A handler prices a plan when it plans and again when it emits: both must agree.
  for (uint64_t key = 0; key < 100; ++key) {
    EXPECT_EQ(randomlyScaledBytes(1024, key), randomlyScaledBytes(1024, key));
  }
  std::set<int64_t> scaled;
  for (uint64_t key = 0; key < 200; ++key) scaled.insert(randomlyScaledBytes(1024, key));
  EXPECT_EQ(scaled, (std::set<int64_t>{128, 256, 512, 1024, 2048, 4096, 8192}));
}

TEST(RandomChoicesTest, ChoicesCoverEveryCandidateAndEndWithTheScope) {
  {
    ScopedRandomChoices random(7);
    std::set<size_t> chosen;
    for (int i = 0; i < 100; ++i) chosen.insert(*randomChoice(4));
    EXPECT_EQ(chosen, (std::set<size_t>{0, 1, 2, 3}));
  }
  EXPECT_FALSE(randomChoicesLive());
}

}  // namespace
}  // namespace tessel::spmd
