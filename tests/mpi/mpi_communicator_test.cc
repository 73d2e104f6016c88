// Tests of the MPI collectives backend, run under mpirun with 2, 3, 4 and 8 ranks: every
// collective, contiguous and strided subgroups, uneven counts, every data type and
// reduction of all_reduce, in-place forms, a permuted device assignment, and calls that must
// fail on every member (mismatched sizes, one member's invalid call); floating-point
// reductions are the left fold in group order through the all-to-all path.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/mpi/mpi_communicator.h"
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

class MpiCommunicatorTest : public ::testing::Test {
 protected:
  virtual MpiCommunicator::Options MakeOptions() const {
    MpiCommunicator::Options options;
    options.timeout = absl::Seconds(60);
    return options;
  }
  void SetUp() override {
    auto created = MpiCommunicator::Create(DeviceAssignment::Identity(n_), MakeOptions());
    ASSERT_THAT(created.status(), IsOk());
    communicator_ = *std::move(created);
    self_ = communicator_->partition_id();
  }

  const int64_t n_ = WorldSize();
  int64_t self_ = 0;
  std::unique_ptr<MpiCommunicator> communicator_;
};

TEST_F(MpiCommunicatorTest, AllReduceSumsUnevenCount) {
  const int64_t count = 7;  // not a multiple of any group size above 1
  std::vector<int32_t> input = InputOf(self_, count), output(count);
  ASSERT_THAT(communicator_->AllReduce(self_, IdsFrom(0, n_), ReductionKind::kSum, In(input),
                                       Out(output)),
              IsOk());
  std::vector<int32_t> expected(count, 0);
  for (int64_t p = 0; p < n_; ++p) {
    for (int64_t i = 0; i < count; ++i) expected[i] += InputOf(p, count)[i];
  }
  EXPECT_THAT(output, ElementsAreArray(expected));
}

TEST_F(MpiCommunicatorTest, AllReduceInPlaceAndSignedSumsWrap) {
  std::vector<int32_t> buffer = {INT32_MAX, INT32_MIN, static_cast<int32_t>(self_)};
  ASSERT_THAT(communicator_->AllReduceInPlace(self_, IdsFrom(0, n_), ReductionKind::kSum,
                                              Out(buffer)),
              IsOk());
  const auto wrap = [](uint64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  EXPECT_EQ(buffer[0], wrap(static_cast<uint64_t>(INT32_MAX) * n_));
  EXPECT_EQ(buffer[1], wrap(static_cast<uint64_t>(static_cast<uint32_t>(INT32_MIN)) * n_));
  EXPECT_EQ(buffer[2], n_ * (n_ - 1) / 2);
}

// Raw bytes of partition p's `count` elements of `type`: small values, exactly
// representable in every type (so floating sums are exact in any order), with integers that
// wrap in s8/u8.
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
        values[i] = static_cast<T>(0.5f * static_cast<float>((p + 2 * i) % 7) - 1.0f);
      }
    }
  });
  return bytes;
}

TEST_F(MpiCommunicatorTest, AllReduceEveryDataTypeAndReduction) {
  const int64_t count = 5;
  for (DataType type : kAllDataTypes) {
    for (ReductionKind kind : {ReductionKind::kSum, ReductionKind::kProd, ReductionKind::kMax,
                               ReductionKind::kMin}) {
      std::vector<unsigned char> input = TypedInput(type, self_, count);
      std::vector<unsigned char> output(input.size());
      ASSERT_THAT(communicator_->AllReduce(self_, IdsFrom(0, n_), kind,
                                           ConstBuffer{type, input.data(), count},
                                           Buffer{type, output.data(), count}),
                  IsOk())
          << DataTypeName(type) << " " << ReductionKindName(kind);
      // The reference: reduction.h's Accumulate over the members in group order.
      std::vector<unsigned char> expected = TypedInput(type, 0, count);
      for (int64_t p = 1; p < n_; ++p) {
        std::vector<unsigned char> other = TypedInput(type, p, count);
        Accumulate(type, kind, expected.data(), other.data(), count);
      }
      EXPECT_EQ(output, expected) << DataTypeName(type) << " " << ReductionKindName(kind);
    }
  }
}

TEST_F(MpiCommunicatorTest, FloatAllReduceIsBitIdenticalOnEveryMember) {
  // Values whose sum depends on the order: every member must still get the same bits.
  std::vector<float> input = {1e8f * (self_ % 2 == 0 ? 1 : -1) + 0.1f * self_, 1.0f / (1 + self_)};
  std::vector<float> sum(2);
  ASSERT_THAT(communicator_->AllReduce(self_, IdsFrom(0, n_), ReductionKind::kSum, In(input),
                                       Out(sum)),
              IsOk());
  std::vector<float> everyone(2 * n_);
  ASSERT_THAT(communicator_->AllGather(self_, IdsFrom(0, n_), In(sum), Out(everyone)), IsOk());
  for (int64_t p = 0; p < n_; ++p) {
    EXPECT_EQ(std::memcmp(&everyone[2 * p], sum.data(), sizeof(float) * 2), 0)
        << "partition " << p;
  }
}

TEST_F(MpiCommunicatorTest, FloatMaxCombinesInGroupOrder) {
  // max keeps the right operand on ties, so over +0 and -0 the result's sign is the last
  // member's in group order, whatever the association: a check that MPI applies the
  // non-commutative operation in rank (= group) order. Only the last member contributes
  // -0, in the group and in its reverse.
  for (bool reversed : {false, true}) {
    std::vector<int64_t> group = IdsFrom(0, n_);
    if (reversed) std::reverse(group.begin(), group.end());
    std::vector<float> input = {self_ == group.back() ? -0.0f : 0.0f}, output(1);
    ASSERT_THAT(communicator_->AllReduce(self_, group, ReductionKind::kMax, In(input),
                                         Out(output)),
                IsOk());
    EXPECT_TRUE(std::signbit(output[0])) << "reversed " << reversed;
  }
}

TEST_F(MpiCommunicatorTest, AllGatherConcatenatesInGroupOrder) {
  const int64_t count = 3;
  // Reversed group: position i is partition n - 1 - i.
  std::vector<int64_t> group;
  for (int64_t p = n_ - 1; p >= 0; --p) group.push_back(p);
  std::vector<int32_t> input = InputOf(self_, count), output(n_ * count);
  ASSERT_THAT(communicator_->AllGather(self_, group, In(input), Out(output)), IsOk());
  std::vector<int32_t> expected;
  for (int64_t p : group) {
    for (int32_t v : InputOf(p, count)) expected.push_back(v);
  }
  EXPECT_THAT(output, ElementsAreArray(expected));
}

TEST_F(MpiCommunicatorTest, ReduceScatterLeavesBlockIOnPositionI) {
  const int64_t block = 3;
  std::vector<int64_t> input(n_ * block), output(block);
  for (int64_t i = 0; i < n_ * block; ++i) input[i] = 1000 * self_ + i;
  ASSERT_THAT(communicator_->ReduceScatter(self_, IdsFrom(0, n_), ReductionKind::kMax, In(input),
                                           Out(output)),
              IsOk());
  for (int64_t j = 0; j < block; ++j) {
    EXPECT_EQ(output[j], 1000 * (n_ - 1) + self_ * block + j);
  }
}

TEST_F(MpiCommunicatorTest, AllToAllSendsBlockJToPositionJ) {
  const int64_t block = 2;
  std::vector<uint16_t> input(n_ * block), output(n_ * block);
  for (int64_t i = 0; i < n_ * block; ++i) input[i] = static_cast<uint16_t>(100 * self_ + i);
  ASSERT_THAT(communicator_->AllToAll(self_, IdsFrom(0, n_), In(input), Out(output)), IsOk());
  for (int64_t i = 0; i < n_; ++i) {
    for (int64_t j = 0; j < block; ++j) {
      EXPECT_EQ(output[i * block + j], 100 * i + self_ * block + j);
    }
  }
}

TEST_F(MpiCommunicatorTest, AllToAllWithOutputOverInput) {
  std::vector<int8_t> buffer(n_);
  for (int64_t i = 0; i < n_; ++i) buffer[i] = static_cast<int8_t>(10 * self_ + i);
  ASSERT_THAT(communicator_->AllToAll(self_, IdsFrom(0, n_), In(buffer), Out(buffer)), IsOk());
  for (int64_t i = 0; i < n_; ++i) EXPECT_EQ(buffer[i], 10 * i + self_);
}

TEST_F(MpiCommunicatorTest, CollectivePermuteRingInPlace) {
  std::vector<SourceTarget> pairs;
  for (int64_t p = 0; p < n_; ++p) pairs.push_back({p, (p + 1) % n_});
  std::vector<double> buffer = {static_cast<double>(self_), 0.5};
  ASSERT_THAT(communicator_->CollectivePermuteInPlace(self_, IdsFrom(0, n_), pairs, Out(buffer)),
              IsOk());
  EXPECT_EQ(buffer[0], static_cast<double>((self_ + n_ - 1) % n_));
  EXPECT_EQ(buffer[1], 0.5);
}

TEST_F(MpiCommunicatorTest, CollectivePermuteZeroesMembersThatAreNoTarget) {
  const std::vector<SourceTarget> pairs = {{n_ - 1, 0}};
  std::vector<int32_t> input = InputOf(self_ + 1, 4), output(4, -1);
  ASSERT_THAT(
      communicator_->CollectivePermute(self_, IdsFrom(0, n_), pairs, In(input), Out(output)),
      IsOk());
  if (self_ == 0) {
    EXPECT_THAT(output, ElementsAreArray(InputOf(n_, 4)));
  } else {
    EXPECT_THAT(output, ElementsAreArray(std::vector<int32_t>(4, 0)));
  }
}

TEST_F(MpiCommunicatorTest, BroadcastCopiesTheRoot) {
  std::vector<Eigen::bfloat16> buffer(3, Eigen::bfloat16(static_cast<float>(self_)));
  ASSERT_THAT(communicator_->Broadcast(self_, IdsFrom(0, n_), n_ - 1, Out(buffer)), IsOk());
  for (Eigen::bfloat16 v : buffer) EXPECT_EQ(static_cast<float>(v), static_cast<float>(n_ - 1));
}

TEST_F(MpiCommunicatorTest, BarrierCompletes) {
  EXPECT_THAT(communicator_->Barrier(self_, IdsFrom(0, n_)), IsOk());
  EXPECT_THAT(communicator_->Barrier(self_, {self_}), IsOk());
}

TEST_F(MpiCommunicatorTest, ContiguousSubgroups) {
  // [0, half) and [half, n): each all-reduces and all-gathers within itself, twice, so the
  // cached communicators are reused.
  const int64_t half = n_ / 2;
  std::vector<int64_t> group = self_ < half ? IdsFrom(0, half) : IdsFrom(half, n_);
  for (int round = 0; round < 2; ++round) {
    std::vector<int64_t> input = {self_ + round}, sum(1);
    ASSERT_THAT(communicator_->AllReduce(self_, group, ReductionKind::kSum, In(input), Out(sum)),
                IsOk());
    int64_t expected = 0;
    for (int64_t p : group) expected += p + round;
    EXPECT_EQ(sum[0], expected);
  }
  std::vector<int32_t> input = InputOf(self_, 2), gathered(2 * group.size());
  ASSERT_THAT(communicator_->AllGather(self_, group, In(input), Out(gathered)), IsOk());
  std::vector<int32_t> expected;
  for (int64_t p : group) {
    for (int32_t v : InputOf(p, 2)) expected.push_back(v);
  }
  EXPECT_THAT(gathered, ElementsAreArray(expected));
}

TEST_F(MpiCommunicatorTest, StridedSubgroups) {
  // Even and odd partitions; reduce_scatter and a ring permute within each.
  std::vector<int64_t> group = IdsFrom(self_ % 2, n_, 2);
  const int64_t size = static_cast<int64_t>(group.size());
  std::vector<int32_t> input(size, static_cast<int32_t>(self_)), output(1);
  ASSERT_THAT(communicator_->ReduceScatter(self_, group, ReductionKind::kSum, In(input),
                                           Out(output)),
              IsOk());
  int32_t expected = 0;
  for (int64_t p : group) expected += static_cast<int32_t>(p);
  EXPECT_EQ(output[0], expected);

  std::vector<SourceTarget> pairs;
  for (int64_t i = 0; i < size; ++i) pairs.push_back({group[i], group[(i + 1) % size]});
  std::vector<int64_t> value = {self_}, received(1);
  ASSERT_THAT(communicator_->CollectivePermute(self_, group, pairs, In(value), Out(received)),
              IsOk());
  int64_t position = 0;
  while (group[position] != self_) ++position;
  EXPECT_EQ(received[0], group[(position + size - 1) % size]);
}

TEST_F(MpiCommunicatorTest, MismatchedSizesFailOnEveryMember) {
  // Partition 0 sends 4 elements, the others 5: every member fails, none hangs, and the
  // communicator stays usable.
  const int64_t count = self_ == 0 ? 4 : 5;
  std::vector<int32_t> input(count, 1), output(count);
  EXPECT_THAT(communicator_->AllReduce(self_, IdsFrom(0, n_), ReductionKind::kSum, In(input),
                                       Out(output)),
              StatusIs(absl::StatusCode::kInvalidArgument, "all_reduce over group"));
  std::vector<int32_t> one = {1}, sum(1);
  ASSERT_THAT(communicator_->AllReduce(self_, IdsFrom(0, n_), ReductionKind::kSum, In(one),
                                       Out(sum)),
              IsOk());
  EXPECT_EQ(sum[0], n_);
}

TEST_F(MpiCommunicatorTest, OneMembersInvalidCallFailsEveryMember) {
  // The last partition's output is too short for an all_gather.
  std::vector<int32_t> input = {1}, output(self_ == n_ - 1 ? n_ - 1 : n_);
  absl::Status status = communicator_->AllGather(self_, IdsFrom(0, n_), In(input), Out(output));
  if (self_ == n_ - 1) {
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument, "output has"));
  } else {
    EXPECT_THAT(status, StatusIs(absl::StatusCode::kInvalidArgument,
                                 absl::StrCat("partition ", n_ - 1, " made an invalid call")));
  }
}

TEST_F(MpiCommunicatorTest, CallerMustBeThisRanksPartition) {
  EXPECT_THAT(communicator_->Barrier((self_ + 1) % n_, IdsFrom(0, n_)),
              StatusIs(absl::StatusCode::kInvalidArgument, "runs partition"));
  EXPECT_THAT(communicator_->Barrier(self_, {n_}),
              StatusIs(absl::StatusCode::kInvalidArgument, "out of range"));
}

TEST(MpiDeviceAssignmentTest, MismatchWithWorldSizeIsRejectedBeforeAnyCollective) {
  EXPECT_THAT(MpiCommunicator::Create(DeviceAssignment::Identity(WorldSize() + 1)).status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       absl::StrCat("device assignment has ", WorldSize() + 1,
                                    " partitions but the MPI job has ", WorldSize(), " ranks")));
}

TEST(MpiDeviceAssignmentTest, PermutedAssignmentOrdersByPartition) {
  // Partition p runs on rank n - 1 - p: all_gather follows partition order, not rank order.
  const int64_t n = WorldSize();
  std::vector<int64_t> ranks;
  for (int64_t p = 0; p < n; ++p) ranks.push_back(n - 1 - p);
  auto assignment = DeviceAssignment::FromRanks(ranks);
  ASSERT_THAT(assignment.status(), IsOk());
  auto communicator = MpiCommunicator::Create(*assignment);
  ASSERT_THAT(communicator.status(), IsOk());
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int64_t self = (*communicator)->partition_id();
  EXPECT_EQ(self, n - 1 - rank);
  std::vector<int64_t> input = {self}, output(n);
  ASSERT_THAT((*communicator)->AllGather(self, IdsFrom(0, n), In(input), Out(output)), IsOk());
  EXPECT_THAT(output, ElementsAreArray(IdsFrom(0, n)));
}

// Inputs that overlap their outputs without being them (MPI forbids that aliasing, so the
// backend sends from a copy): an all_gather whose input is the start of its own output, a
// reduce_scatter whose output is the start of its own input, and an all_to_all in place.
TEST_F(MpiCommunicatorTest, OverlappingInputsAndOutputs) {
  const int64_t count = 3;
  std::vector<int32_t> gathered(count * n_, -1);
  const std::vector<int32_t> mine = InputOf(self_, count);
  std::copy(mine.begin(), mine.end(), gathered.begin());
  ConstBuffer gather_input = MakeConstBuffer(absl::MakeConstSpan(gathered.data(), count));
  ASSERT_THAT(communicator_->AllGather(self_, IdsFrom(0, n_), gather_input, Out(gathered)), IsOk());
  std::vector<int32_t> expected_gather;
  for (int64_t p = 0; p < n_; ++p) {
    for (int32_t v : InputOf(p, count)) expected_gather.push_back(v);
  }
  EXPECT_THAT(gathered, ElementsAreArray(expected_gather));

  std::vector<int32_t> scattered = InputOf(self_, count * n_);
  Buffer scatter_output = MakeBuffer(absl::MakeSpan(scattered.data(), count));
  ASSERT_THAT(communicator_->ReduceScatter(self_, IdsFrom(0, n_), ReductionKind::kSum,
                                           In(scattered), scatter_output),
              IsOk());
  for (int64_t i = 0; i < count; ++i) {
    int32_t sum = 0;
    for (int64_t p = 0; p < n_; ++p) sum += InputOf(p, count * n_)[self_ * count + i];
    EXPECT_EQ(scattered[i], sum) << "element " << i;
  }

  std::vector<int32_t> exchanged = InputOf(self_, count * n_);
  ASSERT_THAT(communicator_->AllToAll(self_, IdsFrom(0, n_), In(exchanged), Out(exchanged)),
              IsOk());
  for (int64_t p = 0; p < n_; ++p) {
    for (int64_t i = 0; i < count; ++i) {
      EXPECT_EQ(exchanged[p * count + i], InputOf(p, count * n_)[self_ * count + i])
          << "block " << p << " element " << i;
    }
  }
}

// Floating-point reductions through the fold path (Options::fold_min_bytes = 0 sends every
// size there): the result must be the left fold in group order, bit for bit, which is what
// the local backend computes.
class MpiFoldTest : public MpiCommunicatorTest {
 protected:
  MpiCommunicator::Options MakeOptions() const override {
    MpiCommunicator::Options options = MpiCommunicatorTest::MakeOptions();
    options.fold_min_bytes = 0;
    return options;
  }
};

constexpr DataType kFloatTypes[] = {DataType::kF16, DataType::kBF16, DataType::kF32,
                                    DataType::kF64};

// Partition p's `count` elements of `type`: magnitudes far apart and both signs, so that
// sums depend on the order they are added in; a NaN and signed zeros for max and min.
std::vector<unsigned char> FloatInputOf(DataType type, int64_t p, int64_t count) {
  std::vector<unsigned char> bytes(count * DataTypeSize(type));
  DispatchDataType(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* values = reinterpret_cast<T*>(bytes.data());
    for (int64_t i = 0; i < count; ++i) {
      double v = (p % 2 == 0 ? 1 : -1) * std::ldexp(1.0, static_cast<int>((p * 7 + i) % 23)) +
                 0.3 * static_cast<double>(i + p);
      if (i % 11 == 5 && p == 1) v = std::nan("");
      if (i % 13 == 7) v = (p % 2 == 0) ? 0.0 : -0.0;
      values[i] = static_cast<T>(static_cast<float>(v));
      if constexpr (std::is_same_v<T, double>) values[i] = v;
    }
  });
  return bytes;
}

// The left fold over `group` of the members' inputs.
std::vector<unsigned char> LeftFold(DataType type, ReductionKind kind,
                                    const std::vector<int64_t>& group, int64_t count) {
  std::vector<unsigned char> result = FloatInputOf(type, group[0], count);
  for (size_t j = 1; j < group.size(); ++j) {
    Accumulate(type, kind, result.data(), FloatInputOf(type, group[j], count).data(), count);
  }
  return result;
}

TEST_F(MpiFoldTest, AllReduceIsTheLeftFoldInGroupOrder) {
  for (bool reversed : {false, true}) {
    std::vector<int64_t> group = IdsFrom(0, n_);
    if (reversed) std::reverse(group.begin(), group.end());
    // Fewer elements than members (empty blocks), uneven blocks, even blocks.
    for (int64_t count : {n_ - 1, n_ + 1, 3 * n_, int64_t{1000}}) {
      for (DataType type : kFloatTypes) {
        for (ReductionKind kind : {ReductionKind::kSum, ReductionKind::kProd,
                                   ReductionKind::kMax, ReductionKind::kMin}) {
          SCOPED_TRACE(absl::StrCat(DataTypeName(type), " ", ReductionKindName(kind), " count ",
                                    count, reversed ? " reversed" : ""));
          const std::vector<unsigned char> input = FloatInputOf(type, self_, count);
          std::vector<unsigned char> output(input.size());
          ASSERT_THAT(communicator_->AllReduce(self_, group, kind,
                                               ConstBuffer{type, input.data(), count},
                                               Buffer{type, output.data(), count}),
                      IsOk());
          EXPECT_EQ(output, LeftFold(type, kind, group, count));
          // In place: the same result.
          std::vector<unsigned char> buffer = input;
          ASSERT_THAT(communicator_->AllReduce(self_, group, kind,
                                               ConstBuffer{type, buffer.data(), count},
                                               Buffer{type, buffer.data(), count}),
                      IsOk());
          EXPECT_EQ(buffer, output);
        }
      }
    }
  }
}

TEST_F(MpiFoldTest, ReduceScatterIsTheLeftFoldInGroupOrder) {
  for (bool reversed : {false, true}) {
    std::vector<int64_t> group = IdsFrom(0, n_);
    if (reversed) std::reverse(group.begin(), group.end());
    const int64_t position = std::find(group.begin(), group.end(), self_) - group.begin();
    for (int64_t block : {1, 5}) {
      for (DataType type : kFloatTypes) {
        SCOPED_TRACE(absl::StrCat(DataTypeName(type), " block ", block,
                                  reversed ? " reversed" : ""));
        const int64_t count = block * n_, element = DataTypeSize(type);
        const std::vector<unsigned char> expected_all =
            LeftFold(type, ReductionKind::kSum, group, count);
        const std::vector<unsigned char> expected(
            expected_all.begin() + position * block * element,
            expected_all.begin() + (position + 1) * block * element);
        const std::vector<unsigned char> input = FloatInputOf(type, self_, count);
        std::vector<unsigned char> output(block * element);
        ASSERT_THAT(communicator_->ReduceScatter(self_, group, ReductionKind::kSum,
                                                 ConstBuffer{type, input.data(), count},
                                                 Buffer{type, output.data(), block}),
                    IsOk());
        EXPECT_EQ(output, expected);
        // The output over the start of the input.
        std::vector<unsigned char> buffer = input;
        ASSERT_THAT(communicator_->ReduceScatter(self_, group, ReductionKind::kSum,
                                                 ConstBuffer{type, buffer.data(), count},
                                                 Buffer{type, buffer.data(), block}),
                    IsOk());
        EXPECT_TRUE(std::equal(expected.begin(), expected.end(), buffer.begin()));
      }
    }
  }
}

TEST_F(MpiFoldTest, SubgroupsFoldInTheirOwnOrder) {
  if (n_ < 4) GTEST_SKIP() << "needs 4 ranks, has " << n_;
  // Strided pairs listed high id first: {2, 0}, {3, 1}; the rest alone.
  if (self_ >= 4) return;
  std::vector<int64_t> group = {self_ % 2 + 2, self_ % 2};
  const int64_t count = 7;
  const std::vector<unsigned char> input = FloatInputOf(DataType::kF32, self_, count);
  std::vector<unsigned char> output(input.size());
  ASSERT_THAT(communicator_->AllReduce(self_, group, ReductionKind::kSum,
                                       ConstBuffer{DataType::kF32, input.data(), count},
                                       Buffer{DataType::kF32, output.data(), count}),
              IsOk());
  EXPECT_EQ(output, LeftFold(DataType::kF32, ReductionKind::kSum, group, count));
}

// With the default options large float sums take the fold too, so they equal the local
// backend's left fold bit for bit.
TEST_F(MpiCommunicatorTest, LargeFloatSumsAreTheLeftFoldByDefault) {
  const int64_t count = 100000;  // 400 KB of f32, above the default threshold
  const std::vector<unsigned char> input = FloatInputOf(DataType::kF32, self_, count);
  std::vector<unsigned char> output(input.size());
  ASSERT_THAT(communicator_->AllReduce(self_, IdsFrom(0, n_), ReductionKind::kSum,
                                       ConstBuffer{DataType::kF32, input.data(), count},
                                       Buffer{DataType::kF32, output.data(), count}),
              IsOk());
  EXPECT_EQ(output, LeftFold(DataType::kF32, ReductionKind::kSum, IdsFrom(0, n_), count));
}

}  // namespace
}  // namespace tessel::collectives
