// Tests of the hierarchical collectives backend under mpirun with 2, 3 and 4 ranks: one
// partition per rank, two per rank in blocks ({0, 1} on rank 0, ...), and two per rank in
// turn ({0, R} on rank 0, ...). Every collective runs over groups that lie on one rank, one
// per rank, and mixed (contiguous runs per rank and interleaved), against values computed
// here; plus calls that must fail on every member.
#include "collectives/hierarchical/hierarchical_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/reduction.h"
#include "collectives/test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::collectives::testing::IdsFrom;
using ::tessel::collectives::testing::In;
using ::tessel::collectives::testing::InputOf;
using ::tessel::collectives::testing::Out;
using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;
using ::testing::ElementsAreArray;

int64_t WorldSize() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int64_t WorldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

struct Placement {
  int64_t per_rank;
  // Partition p on rank p % R (slot p / R) rather than on rank p / per_rank.
  bool in_turn;
};

class HierarchicalTest : public ::testing::TestWithParam<Placement> {
 protected:
  void SetUp() override {
    const int64_t ranks = WorldSize(), k = GetParam().per_rank;
    n_ = ranks * k;
    std::vector<DeviceLocation> locations;
    for (int64_t p = 0; p < n_; ++p) {
      locations.push_back(GetParam().in_turn ? DeviceLocation{p % ranks, p / ranks}
                                             : DeviceLocation{p / k, p % k});
    }
    auto assignment = DeviceAssignment::FromLocations(locations);
    ASSERT_THAT(assignment.status(), IsOk());
    MpiCommunicator::Options options;
    options.timeout = absl::Seconds(60);
    auto mpi = MpiCommunicator::Create(*assignment, options);
    ASSERT_THAT(mpi.status(), IsOk());
    mpi_ = *std::move(mpi);
    communicator_ = std::make_unique<HierarchicalCommunicator>(mpi_.get());
  }

  // Runs `body` on a thread per partition of this rank.
  void OnEveryPartition(const std::function<void(int64_t self)>& body) {
    std::vector<std::thread> threads;
    for (int64_t self : communicator_->local_partitions()) threads.emplace_back(body, self);
    for (std::thread& thread : threads) thread.join();
  }

  // The groups every partition runs each collective over, in the same order everywhere:
  // everyone, everyone reversed, evens then odds (interleaved ranks when several
  // partitions share a rank), the half holding `self`, same parity, and `self` alone.
  std::vector<std::vector<int64_t>> GroupsOf(int64_t self) const {
    std::vector<int64_t> all = IdsFrom(0, n_), reversed = all, evens_then_odds = IdsFrom(0, n_, 2);
    std::reverse(reversed.begin(), reversed.end());
    for (int64_t p : IdsFrom(1, n_, 2)) evens_then_odds.push_back(p);
    const int64_t half = n_ / 2;
    return {all,
            reversed,
            evens_then_odds,
            self < half ? IdsFrom(0, half) : IdsFrom(half, n_),
            IdsFrom(self % 2, n_, 2),
            {self}};
  }

  int64_t n_ = 0;
  std::unique_ptr<MpiCommunicator> mpi_;
  std::unique_ptr<HierarchicalCommunicator> communicator_;
};

// Bytes of partition p's `count` elements of `type`: floats are powers of two (signed), so
// sums and products of a few are exact in every order and every float type.
std::vector<unsigned char> TypedInput(DataType type, int64_t p, int64_t count) {
  std::vector<unsigned char> bytes(count * DataTypeSize(type));
  DispatchDataType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* values = reinterpret_cast<T*>(bytes.data());
    for (int64_t i = 0; i < count; ++i) {
      if constexpr (std::is_same_v<T, bool>) {
        values[i] = (p + i) % 3 != 0;
      } else if constexpr (std::is_integral_v<T>) {
        values[i] = static_cast<T>(static_cast<uint64_t>(70 * p + 13 * i + 120));
      } else {
        const float magnitude = std::ldexp(1.0f, static_cast<int>((p + 2 * i) % 3) - 1);
        values[i] = static_cast<T>((p + i) % 4 == 0 ? -magnitude : magnitude);
      }
    }
  });
  return bytes;
}

TEST_P(HierarchicalTest, AllReduceEveryDataTypeAndReductionOverEveryGroup) {
  const int64_t count = 5;
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      for (DataType type : kAllDataTypes) {
        for (ReductionKind kind : {ReductionKind::kSum, ReductionKind::kProd, ReductionKind::kMax,
                                   ReductionKind::kMin}) {
          std::vector<unsigned char> input = TypedInput(type, self, count);
          std::vector<unsigned char> output(input.size());
          ASSERT_THAT(
              communicator_->AllReduce(self, group, kind, ConstBuffer{type, input.data(), count},
                                       Buffer{type, output.data(), count}),
              IsOk());
          std::vector<unsigned char> expected = TypedInput(type, group[0], count);
          for (size_t i = 1; i < group.size(); ++i) {
            std::vector<unsigned char> other = TypedInput(type, group[i], count);
            Accumulate(type, kind, expected.data(), other.data(), count);
          }
          EXPECT_EQ(output, expected) << DataTypeName(type) << " " << ReductionKindName(kind)
                                      << " over " << GroupString(group) << " on " << self;
        }
      }
    }
  });
}

TEST_P(HierarchicalTest, AllReduceInPlaceAndBitIdenticalFloatSums) {
  OnEveryPartition([&](int64_t self) {
    std::vector<int32_t> buffer = {static_cast<int32_t>(self), 7};
    ASSERT_THAT(
        communicator_->AllReduceInPlace(self, IdsFrom(0, n_), ReductionKind::kSum, Out(buffer)),
        IsOk());
    EXPECT_EQ(buffer[0], n_ * (n_ - 1) / 2);
    EXPECT_EQ(buffer[1], 7 * n_);
    // A sum whose rounding depends on the order: every member must get the same bits.
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      std::vector<float> input = {1e8f * (self % 2 == 0 ? 1 : -1) + 0.1f * self, 1.0f / (1 + self)},
                         sum(2);
      ASSERT_THAT(communicator_->AllReduce(self, group, ReductionKind::kSum, In(input), Out(sum)),
                  IsOk());
      std::vector<float> everyone(2 * group.size());
      ASSERT_THAT(communicator_->AllGather(self, group, In(sum), Out(everyone)), IsOk());
      for (size_t i = 0; i < group.size(); ++i) {
        EXPECT_EQ(std::memcmp(&everyone[2 * i], sum.data(), sizeof(float) * 2), 0)
            << "partition " << group[i] << " over " << GroupString(group);
      }
    }
  });
}

TEST_P(HierarchicalTest, FloatMaxCombinesInGroupOrder) {
  // max keeps the right operand on ties: over +0 and -0 the sign is the last member's.
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      std::vector<float> input = {self == group.back() ? -0.0f : 0.0f}, output(1);
      ASSERT_THAT(
          communicator_->AllReduce(self, group, ReductionKind::kMax, In(input), Out(output)),
          IsOk());
      EXPECT_TRUE(std::signbit(output[0])) << GroupString(group);
    }
  });
}

TEST_P(HierarchicalTest, AllGatherConcatenatesInGroupOrder) {
  const int64_t count = 3;
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      std::vector<int32_t> input = InputOf(self, count), output(group.size() * count);
      ASSERT_THAT(communicator_->AllGather(self, group, In(input), Out(output)), IsOk());
      std::vector<int32_t> expected;
      for (int64_t p : group) {
        for (int32_t v : InputOf(p, count)) expected.push_back(v);
      }
      EXPECT_THAT(output, ElementsAreArray(expected)) << GroupString(group);
    }
  });
}

TEST_P(HierarchicalTest, ReduceScatterLeavesBlockIOnPositionI) {
  const int64_t block = 3;
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      const int64_t size = static_cast<int64_t>(group.size());
      const int64_t position = std::find(group.begin(), group.end(), self) - group.begin();
      for (ReductionKind kind : {ReductionKind::kSum, ReductionKind::kMax}) {
        std::vector<int64_t> input(size * block), output(block);
        for (int64_t i = 0; i < size * block; ++i) input[i] = 1000 * self + i;
        ASSERT_THAT(communicator_->ReduceScatter(self, group, kind, In(input), Out(output)),
                    IsOk());
        for (int64_t j = 0; j < block; ++j) {
          const int64_t element = position * block + j;
          int64_t expected = kind == ReductionKind::kMax ? INT64_MIN : 0;
          for (int64_t p : group) {
            expected = kind == ReductionKind::kMax ? std::max(expected, 1000 * p + element)
                                                   : expected + 1000 * p + element;
          }
          EXPECT_EQ(output[j], expected) << GroupString(group);
        }
      }
    }
  });
}

TEST_P(HierarchicalTest, AllToAllSendsBlockJToPositionJ) {
  const int64_t block = 2;
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      const int64_t size = static_cast<int64_t>(group.size());
      const int64_t position = std::find(group.begin(), group.end(), self) - group.begin();
      for (bool in_place : {false, true}) {
        std::vector<uint16_t> input(size * block), output(size * block);
        for (int64_t i = 0; i < size * block; ++i) {
          input[i] = static_cast<uint16_t>(100 * self + i);
        }
        if (in_place) {
          ASSERT_THAT(communicator_->AllToAll(self, group, In(input), Out(input)), IsOk());
          output = input;
        } else {
          ASSERT_THAT(communicator_->AllToAll(self, group, In(input), Out(output)), IsOk());
        }
        for (int64_t i = 0; i < size; ++i) {
          for (int64_t j = 0; j < block; ++j) {
            EXPECT_EQ(output[i * block + j], 100 * group[i] + position * block + j)
                << GroupString(group) << " in place " << in_place;
          }
        }
      }
    }
  });
}

TEST_P(HierarchicalTest, CollectivePermuteRingsAndNonTargets) {
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      const int64_t size = static_cast<int64_t>(group.size());
      const int64_t position = std::find(group.begin(), group.end(), self) - group.begin();
      std::vector<SourceTarget> ring;
      for (int64_t i = 0; i < size; ++i) ring.push_back({group[i], group[(i + 1) % size]});
      std::vector<double> buffer = {static_cast<double>(self), 0.5};
      ASSERT_THAT(communicator_->CollectivePermuteInPlace(self, group, ring, Out(buffer)), IsOk());
      EXPECT_EQ(buffer[0], static_cast<double>(group[(position + size - 1) % size]))
          << GroupString(group);
      EXPECT_EQ(buffer[1], 0.5);
      // Only the first member receives, from the last.
      const std::vector<SourceTarget> one = {{group.back(), group.front()}};
      std::vector<int32_t> input = InputOf(self + 1, 4), output(4, -1);
      ASSERT_THAT(communicator_->CollectivePermute(self, group, one, In(input), Out(output)),
                  IsOk());
      if (position == 0) {
        EXPECT_THAT(output, ElementsAreArray(InputOf(group.back() + 1, 4))) << GroupString(group);
      } else {
        EXPECT_THAT(output, ElementsAreArray(std::vector<int32_t>(4, 0))) << GroupString(group);
      }
    }
  });
}

TEST_P(HierarchicalTest, BroadcastCopiesTheRootAndBarrierCompletes) {
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : GroupsOf(self)) {
      for (int64_t root : {group.front(), group.back()}) {
        std::vector<Eigen::bfloat16> buffer(3, Eigen::bfloat16(static_cast<float>(self)));
        ASSERT_THAT(communicator_->Broadcast(self, group, root, Out(buffer)), IsOk());
        for (Eigen::bfloat16 v : buffer) {
          EXPECT_EQ(static_cast<float>(v), static_cast<float>(root)) << GroupString(group);
        }
      }
      EXPECT_THAT(communicator_->Barrier(self, group), IsOk()) << GroupString(group);
    }
  });
}

TEST_P(HierarchicalTest, MismatchedSizesFailOnEveryMemberAndLeaveItUsable) {
  OnEveryPartition([&](int64_t self) {
    for (const std::vector<int64_t>& group : {IdsFrom(0, n_), GroupsOf(self)[2]}) {
      const int64_t count = self == 0 ? 4 : 5;
      std::vector<int32_t> input(count, 1), output(count);
      EXPECT_THAT(
          communicator_->AllReduce(self, group, ReductionKind::kSum, In(input), Out(output)),
          StatusIs(absl::StatusCode::kInvalidArgument, "all_reduce"))
          << "partition " << self << " over " << GroupString(group);
      std::vector<int32_t> one = {1}, sum(1);
      ASSERT_THAT(communicator_->AllReduce(self, group, ReductionKind::kSum, In(one), Out(sum)),
                  IsOk());
      EXPECT_EQ(sum[0], n_);
    }
  });
}

TEST_P(HierarchicalTest, OneMembersInvalidCallFailsEveryMember) {
  // The last partition's output is too short for an all_gather.
  OnEveryPartition([&](int64_t self) {
    std::vector<int32_t> input = {1}, output(self == n_ - 1 ? n_ - 1 : n_);
    absl::Status status = communicator_->AllGather(self, IdsFrom(0, n_), In(input), Out(output));
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument, "all_gather"))
        << "partition " << self;
    if (self == n_ - 1) {
      EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument, "output has"));
    }
  });
}

TEST_P(HierarchicalTest, RanksThatDisagreeOnThePairsFail) {
  // Rank 0's partitions permute forwards, the others backwards: the leaders see different
  // calls and every member fails instead of receiving the wrong data.
  OnEveryPartition([&](int64_t self) {
    const std::vector<int64_t> group = IdsFrom(0, n_);
    const bool forwards = mpi_->rank() == 0;
    std::vector<SourceTarget> ring;
    for (int64_t p = 0; p < n_; ++p) {
      ring.push_back(forwards ? SourceTarget{p, (p + 1) % n_} : SourceTarget{(p + 1) % n_, p});
    }
    std::vector<int32_t> input = {1}, output(1);
    EXPECT_THAT(communicator_->CollectivePermute(self, group, ring, In(input), Out(output)),
                StatusIs(absl::StatusCode::kInvalidArgument, "collective_permute"))
        << "partition " << self;
  });
}

TEST_P(HierarchicalTest, CallerMustRunOnThisRank) {
  const int64_t other = mpi_->assignment().PartitionOf((WorldRank() + 1) % WorldSize());
  EXPECT_THAT(communicator_->Barrier(other, IdsFrom(0, n_)),
              StatusIs(absl::StatusCode::kInvalidArgument, "runs on rank"));
  EXPECT_THAT(communicator_->Barrier(communicator_->local_partitions()[0], {n_}),
              StatusIs(absl::StatusCode::kInvalidArgument, "out of range"));
}

INSTANTIATE_TEST_SUITE_P(Placements, HierarchicalTest,
                         ::testing::Values(Placement{1, false}, Placement{2, false},
                                           Placement{2, true}),
                         [](const ::testing::TestParamInfo<Placement>& info) {
                           return absl::StrCat(info.param.per_rank, "PerRank",
                                               info.param.in_turn ? "InTurn" : "InBlocks");
                         });

TEST(HierarchicalSetupTest, SeveralPartitionsPerRankNeedTheWholeWorld) {
  // Two per rank on one rank too many.
  std::vector<DeviceLocation> locations;
  for (int64_t p = 0; p < 2 * (WorldSize() + 1); ++p) locations.push_back({p / 2, p % 2});
  auto assignment = DeviceAssignment::FromLocations(locations);
  ASSERT_THAT(assignment.status(), IsOk());
  EXPECT_THAT(MpiCommunicator::Create(*assignment).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("on ", WorldSize() + 1, " ranks but the MPI job has ",
                                    WorldSize(), " ranks")));
}

}  // namespace
}  // namespace tessel::collectives
