// Tests of the local backend's collectives: results for groups of 1 to 8 partitions,
// subgroups, every data type, uneven counts and the in-place forms.
#include "collectives/local/local_communicator.h"

#include <atomic>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/local/test_util.h"
#include "collectives/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::collectives::testing::Iota;
using ::tessel::collectives::testing::In;
using ::tessel::collectives::testing::InputOf;
using ::tessel::collectives::testing::Out;
using ::tessel::collectives::testing::ReduceSerially;
using ::tessel::collectives::testing::RunOnPartitions;
using ::tessel::collectives::testing::SmallValuesOf;
using ::tessel::testing::IsOk;
using ::testing::Each;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;

class GroupSizeTest : public ::testing::TestWithParam<int64_t> {};

INSTANTIATE_TEST_SUITE_P(OneToEight, GroupSizeTest, ::testing::Range<int64_t>(1, 9));

TEST_P(GroupSizeTest, AllReduceSumsUnevenCounts) {
  const int64_t n = GetParam(), count = 7;  // 7 does not divide into n slices evenly
  LocalCommunicator communicator(n);
  std::vector<std::vector<int32_t>> outputs(n, std::vector<int32_t>(count));
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, count);
    return communicator.AllReduce(p, Iota(n), ReductionKind::kSum, In(input), Out(outputs[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  std::vector<int32_t> expected(count, 0);
  for (int64_t p = 0; p < n; ++p) {
    for (int64_t i = 0; i < count; ++i) expected[i] += InputOf(p, count)[i];
  }
  EXPECT_THAT(outputs, Each(ElementsAreArray(expected)));
}

TEST_P(GroupSizeTest, AllGatherConcatenatesInGroupOrder) {
  const int64_t n = GetParam(), count = 3;
  LocalCommunicator communicator(n);
  std::vector<std::vector<int32_t>> outputs(n, std::vector<int32_t>(n * count));
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, count);
    return communicator.AllGather(p, Iota(n), In(input), Out(outputs[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  std::vector<int32_t> expected;
  for (int64_t p = 0; p < n; ++p) {
    for (int32_t v : InputOf(p, count)) expected.push_back(v);
  }
  EXPECT_THAT(outputs, Each(ElementsAreArray(expected)));
}

TEST_P(GroupSizeTest, ReduceScatterLeavesBlockIOnPositionI) {
  const int64_t n = GetParam(), block = 2;
  LocalCommunicator communicator(n);
  std::vector<std::vector<int32_t>> outputs(n, std::vector<int32_t>(block));
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, n * block);
    return communicator.ReduceScatter(p, Iota(n), ReductionKind::kSum, In(input), Out(outputs[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < n; ++p) {
    for (int64_t i = 0; i < block; ++i) {
      // Element p*block + i summed over the inputs 100q + (p*block + i).
      int32_t expected = static_cast<int32_t>(100 * n * (n - 1) / 2 + n * (p * block + i));
      EXPECT_EQ(outputs[p][i], expected) << "partition " << p << " element " << i;
    }
  }
}

TEST_P(GroupSizeTest, AllToAllSendsBlockJToPositionJ) {
  const int64_t n = GetParam(), block = 2;
  LocalCommunicator communicator(n);
  std::vector<std::vector<int32_t>> outputs(n, std::vector<int32_t>(n * block));
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, n * block);
    return communicator.AllToAll(p, Iota(n), In(input), Out(outputs[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < n; ++p) {
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i < block; ++i) {
        // Block j of p's output is block p of j's input.
        EXPECT_EQ(outputs[p][j * block + i], 100 * j + p * block + i);
      }
    }
  }
}

TEST_P(GroupSizeTest, CollectivePermuteShiftsAndZeroFillsNonTargets) {
  const int64_t n = GetParam(), count = 3;
  LocalCommunicator communicator(n);
  std::vector<SourceTarget> pairs;  // p -> p + 1, so partition 0 receives nothing
  for (int64_t p = 0; p + 1 < n; ++p) pairs.push_back({p, p + 1});
  std::vector<std::vector<int32_t>> outputs(n, std::vector<int32_t>(count, -1));
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, count);
    return communicator.CollectivePermute(p, Iota(n), pairs, In(input), Out(outputs[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(outputs[0], Each(0));
  for (int64_t p = 1; p < n; ++p) EXPECT_THAT(outputs[p], ElementsAreArray(InputOf(p - 1, count)));
}

TEST_P(GroupSizeTest, BroadcastCopiesTheRootsBuffer) {
  const int64_t n = GetParam(), root = n - 1, count = 5;
  LocalCommunicator communicator(n);
  std::vector<std::vector<int32_t>> buffers(n);
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    buffers[p] = InputOf(p, count);
    return communicator.Broadcast(p, Iota(n), root, Out(buffers[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(buffers, Each(ElementsAreArray(InputOf(root, count))));
}

TEST_P(GroupSizeTest, BarrierReturnsOnlyOnceEveryMemberArrived) {
  const int64_t n = GetParam();
  LocalCommunicator communicator(n);
  std::atomic<int64_t> arrived{0};
  std::vector<int64_t> seen(n, -1);
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    ++arrived;
    absl::Status status = communicator.Barrier(p, Iota(n));
    seen[p] = arrived.load();
    return status;
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(seen, Each(n));
}

TEST(LocalCommunicatorTest, AllReduceHandlesEveryDataTypeAndKind) {
  constexpr int64_t n = 3, count = 10;
  for (DataType type : kAllDataTypes) {
    for (ReductionKind kind :
         {ReductionKind::kSum, ReductionKind::kProd, ReductionKind::kMax, ReductionKind::kMin}) {
      SCOPED_TRACE(absl::StrCat(DataTypeName(type), " ", ReductionKindName(kind)));
      const int64_t bytes = count * DataTypeSize(type);
      // Small values of both signs (and both truth values for pred), different per partition.
      std::vector<std::vector<std::byte>> inputs;
      for (int64_t p = 0; p < n; ++p) inputs.push_back(SmallValuesOf(type, p, count));
      LocalCommunicator communicator(n);
      std::vector<std::vector<std::byte>> outputs(n, std::vector<std::byte>(bytes));
      auto statuses = RunOnPartitions(n, [&](int64_t p) {
        return communicator.AllReduce(p, Iota(n), kind, ConstBuffer{type, inputs[p].data(), count},
                                      Buffer{type, outputs[p].data(), count});
      });
      EXPECT_THAT(statuses, Each(IsOk()));
      EXPECT_THAT(outputs, Each(ElementsAreArray(ReduceSerially(type, kind, inputs))));
    }
  }
}

TEST(LocalCommunicatorTest, AllReduceOfPredIsOrAndIntegerSumsWrap) {
  LocalCommunicator communicator(2);
  bool pred_out[2][2];
  int8_t s8_out[2][1];
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    bool pred_in[2] = {p == 1, false};
    TESSEL_RETURN_IF_ERROR(communicator.AllReduce(p, {0, 1}, ReductionKind::kSum,
                                                  ConstBuffer{DataType::kPred, pred_in, 2},
                                                  Buffer{DataType::kPred, pred_out[p], 2}));
    int8_t s8_in[1] = {100};
    return communicator.AllReduce(p, {0, 1}, ReductionKind::kSum,
                                  ConstBuffer{DataType::kS8, s8_in, 1},
                                  Buffer{DataType::kS8, s8_out[p], 1});
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int p = 0; p < 2; ++p) {
    EXPECT_THAT(pred_out[p], ElementsAre(true, false));
    EXPECT_EQ(s8_out[p][0], -56);  // 200 wraps around in 8 bits
  }
}

TEST(LocalCommunicatorTest, InPlaceFormsReadEveryInputBeforeAnyIsOverwritten) {
  constexpr int64_t n = 4, count = 6;
  LocalCommunicator communicator(n);
  std::vector<std::vector<int32_t>> sums(n), shifted(n);
  auto statuses = RunOnPartitions(n, [&](int64_t p) {
    sums[p] = InputOf(p, count);
    TESSEL_RETURN_IF_ERROR(
        communicator.AllReduceInPlace(p, Iota(n), ReductionKind::kMax, Out(sums[p])));
    shifted[p] = InputOf(p, count);
    // A cycle: every member's input is some other member's source.
    std::vector<SourceTarget> cycle = {{0, 1}, {1, 2}, {2, 3}, {3, 0}};
    return communicator.CollectivePermuteInPlace(p, Iota(n), cycle, Out(shifted[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(sums, Each(ElementsAreArray(InputOf(3, count))));
  for (int64_t p = 0; p < n; ++p) {
    EXPECT_THAT(shifted[p], ElementsAreArray(InputOf((p + n - 1) % n, count)));
  }
}

TEST(LocalCommunicatorTest, EightPartitionsAsTwoGroupsOfFour) {
  LocalCommunicator communicator(8);
  std::vector<std::vector<int32_t>> sums(8, std::vector<int32_t>(1)),
      gathered(8, std::vector<int32_t>(4));
  auto statuses = RunOnPartitions(8, [&](int64_t p) {
    std::vector<int64_t> group =
        p < 4 ? std::vector<int64_t>{0, 1, 2, 3} : std::vector<int64_t>{4, 5, 6, 7};
    std::vector<int32_t> input = {static_cast<int32_t>(p)};
    TESSEL_RETURN_IF_ERROR(
        communicator.AllReduce(p, group, ReductionKind::kSum, In(input), Out(sums[p])));
    return communicator.AllGather(p, group, In(input), Out(gathered[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < 8; ++p) {
    EXPECT_THAT(sums[p], ElementsAre(p < 4 ? 0 + 1 + 2 + 3 : 4 + 5 + 6 + 7));
    EXPECT_THAT(gathered[p], p < 4 ? ElementsAre(0, 1, 2, 3) : ElementsAre(4, 5, 6, 7));
  }
}

TEST(LocalCommunicatorTest, EightPartitionsAsFourStridedGroupsOfTwoInAnyOrder) {
  LocalCommunicator communicator(8);
  std::vector<std::vector<int32_t>> gathered(8, std::vector<int32_t>(2)),
      scattered(8, std::vector<int32_t>(1));
  auto statuses = RunOnPartitions(8, [&](int64_t p) {
    // Groups {p % 4 + 4, p % 4}: strided members, listed high id first.
    std::vector<int64_t> group = {p % 4 + 4, p % 4};
    std::vector<int32_t> input = {static_cast<int32_t>(p)};
    TESSEL_RETURN_IF_ERROR(communicator.AllGather(p, group, In(input), Out(gathered[p])));
    std::vector<int32_t> pieces = {static_cast<int32_t>(10 * p), static_cast<int32_t>(p)};
    return communicator.ReduceScatter(p, group, ReductionKind::kSum, In(pieces), Out(scattered[p]));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < 8; ++p) {
    int32_t low = static_cast<int32_t>(p % 4), high = low + 4;
    EXPECT_THAT(gathered[p], ElementsAre(high, low));
    // Position 0 (the high id) gets the sum of the first pieces, position 1 of the second.
    EXPECT_THAT(scattered[p], ElementsAre(p >= 4 ? 10 * (low + high) : low + high));
  }
}

TEST(LocalCommunicatorTest, ManyCallsOverOverlappingGroupsMeetInOrder) {
  constexpr int64_t n = 4, rounds = 200;
  LocalCommunicator communicator(n);
  auto statuses = RunOnPartitions(n, [&](int64_t p) -> absl::Status {
    for (int64_t round = 0; round < rounds; ++round) {
      // Alternate between the whole group and pairs, so sequences per group differ.
      std::vector<int64_t> group =
          round % 2 == 0 ? Iota(n) : std::vector<int64_t>{p / 2 * 2, p / 2 * 2 + 1};
      std::vector<int32_t> input = {static_cast<int32_t>(round + p)}, output(1);
      TESSEL_RETURN_IF_ERROR(
          communicator.AllReduce(p, group, ReductionKind::kSum, In(input), Out(output)));
      int32_t expected = 0;
      for (int64_t member : group) expected += static_cast<int32_t>(round + member);
      if (output[0] != expected) return absl::InternalError(absl::StrCat("round ", round));
    }
    return absl::OkStatus();
  });
  EXPECT_THAT(statuses, Each(IsOk()));
}

TEST(LocalCommunicatorTest, EmptyBuffersAreFine) {
  LocalCommunicator communicator(2);
  auto statuses = RunOnPartitions(2, [&](int64_t p) {
    std::vector<float> empty, out;
    TESSEL_RETURN_IF_ERROR(
        communicator.AllReduce(p, {0, 1}, ReductionKind::kSum, In(empty), Out(out)));
    TESSEL_RETURN_IF_ERROR(communicator.AllGather(p, {0, 1}, In(empty), Out(out)));
    return communicator.CollectivePermute(p, {0, 1}, {{0, 1}}, In(empty), Out(out));
  });
  EXPECT_THAT(statuses, Each(IsOk()));
}

}  // namespace
}  // namespace tessel::collectives
