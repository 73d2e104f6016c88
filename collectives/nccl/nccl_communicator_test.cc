// Tests of the NCCL backend's collectives, the local backend's cases where they apply:
// groups of 1 to 8 partitions (one GPU each), subgroups, every data type and reduction,
// uneven counts and the in-place forms, each with device buffers and with host buffers.
// Without enough GPUs each test skips itself and says why; the cases of one partition run
// on a single GPU.
#include "collectives/nccl/nccl_communicator.h"

#include <atomic>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/local/test_util.h"
#include "collectives/test_util.h"
#include "collectives/nccl/nccl_test_util.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel::collectives {
namespace {

using ::tessel::collectives::nccl::testing::OptionsFor;
using ::tessel::collectives::nccl::testing::WithBuffers;
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
using Location = NcclCommunicator::BufferLocation;

std::string LocationName(Location location) {
  return location == Location::kDevice ? "DeviceBuffers" : "HostBuffers";
}

class GroupSizeTest : public ::testing::TestWithParam<std::tuple<Location, int64_t>> {
 protected:
  Location location() const { return std::get<0>(GetParam()); }
  int64_t n() const { return std::get<1>(GetParam()); }
  std::unique_ptr<NcclCommunicator> MakeCommunicator() {
    auto communicator = NcclCommunicator::CreateSingleProcess(n(), OptionsFor(location()));
    EXPECT_THAT(communicator.status(), IsOk());
    return communicator.ok() ? std::move(*communicator) : nullptr;
  }
  // Runs `collective(p, input, output)` on partition p's buffers in the location under test.
  absl::Status On(int64_t p, ConstBuffer input, Buffer output,
                  const std::function<absl::Status(ConstBuffer, Buffer)>& collective) {
    return WithBuffers(location(), static_cast<int>(p), input, output, collective);
  }
};

// "DeviceBuffers_3" and so on.
std::string SizeAndLocationName(
    const ::testing::TestParamInfo<std::tuple<Location, int64_t>>& info) {
  return absl::StrCat(LocationName(std::get<0>(info.param)), "_", std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(OneToEight, GroupSizeTest,
                         ::testing::Combine(::testing::Values(Location::kDevice, Location::kHost),
                                            ::testing::Range<int64_t>(1, 9)),
                         SizeAndLocationName);

TEST_P(GroupSizeTest, AllReduceSumsUnevenCounts) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  const int64_t count = 7;
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::vector<std::vector<int32_t>> outputs(n(), std::vector<int32_t>(count));
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, count);
    return On(p, In(input), Out(outputs[p]), [&](ConstBuffer in, Buffer out) {
      return communicator->AllReduce(p, Iota(n()), ReductionKind::kSum, in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  std::vector<int32_t> expected(count, 0);
  for (int64_t p = 0; p < n(); ++p) {
    for (int64_t i = 0; i < count; ++i) expected[i] += InputOf(p, count)[i];
  }
  EXPECT_THAT(outputs, Each(ElementsAreArray(expected)));
}

TEST_P(GroupSizeTest, AllGatherConcatenatesInGroupOrder) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  const int64_t count = 3;
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::vector<std::vector<int32_t>> outputs(n(), std::vector<int32_t>(n() * count));
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, count);
    return On(p, In(input), Out(outputs[p]), [&](ConstBuffer in, Buffer out) {
      return communicator->AllGather(p, Iota(n()), in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  std::vector<int32_t> expected;
  for (int64_t p = 0; p < n(); ++p) {
    for (int32_t v : InputOf(p, count)) expected.push_back(v);
  }
  EXPECT_THAT(outputs, Each(ElementsAreArray(expected)));
}

TEST_P(GroupSizeTest, ReduceScatterLeavesBlockIOnPositionI) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  const int64_t block = 2;
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::vector<std::vector<int32_t>> outputs(n(), std::vector<int32_t>(block));
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, n() * block);
    return On(p, In(input), Out(outputs[p]), [&](ConstBuffer in, Buffer out) {
      return communicator->ReduceScatter(p, Iota(n()), ReductionKind::kSum, in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < n(); ++p) {
    for (int64_t i = 0; i < block; ++i) {
      int32_t expected = static_cast<int32_t>(100 * n() * (n() - 1) / 2 + n() * (p * block + i));
      EXPECT_EQ(outputs[p][i], expected) << "partition " << p << " element " << i;
    }
  }
}

TEST_P(GroupSizeTest, AllToAllSendsBlockJToPositionJ) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  const int64_t block = 2;
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::vector<std::vector<int32_t>> outputs(n(), std::vector<int32_t>(n() * block));
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, n() * block);
    return On(p, In(input), Out(outputs[p]), [&](ConstBuffer in, Buffer out) {
      return communicator->AllToAll(p, Iota(n()), in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < n(); ++p) {
    for (int64_t j = 0; j < n(); ++j) {
      for (int64_t i = 0; i < block; ++i) {
        EXPECT_EQ(outputs[p][j * block + i], 100 * j + p * block + i);
      }
    }
  }
}

TEST_P(GroupSizeTest, CollectivePermuteShiftsAndZeroFillsNonTargets) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  const int64_t count = 3;
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::vector<SourceTarget> pairs;  // p -> p + 1, so partition 0 receives nothing
  for (int64_t p = 0; p + 1 < n(); ++p) pairs.push_back({p, p + 1});
  std::vector<std::vector<int32_t>> outputs(n(), std::vector<int32_t>(count, -1));
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    std::vector<int32_t> input = InputOf(p, count);
    return On(p, In(input), Out(outputs[p]), [&](ConstBuffer in, Buffer out) {
      return communicator->CollectivePermute(p, Iota(n()), pairs, in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(outputs[0], Each(0));
  for (int64_t p = 1; p < n(); ++p) {
    EXPECT_THAT(outputs[p], ElementsAreArray(InputOf(p - 1, count)));
  }
}

TEST_P(GroupSizeTest, BroadcastCopiesTheRootsBuffer) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  const int64_t root = n() - 1, count = 5;
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::vector<std::vector<int32_t>> buffers(n());
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    buffers[p] = InputOf(p, count);
    return On(p, Out(buffers[p]), Out(buffers[p]), [&](ConstBuffer, Buffer buffer) {
      return communicator->Broadcast(p, Iota(n()), root, buffer);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(buffers, Each(ElementsAreArray(InputOf(root, count))));
}

TEST_P(GroupSizeTest, BarrierReturnsOnlyOnceEveryMemberArrived) {
  TESSEL_SKIP_WITHOUT_DEVICES(n());
  auto communicator = MakeCommunicator();
  ASSERT_NE(communicator, nullptr);
  std::atomic<int64_t> arrived{0};
  std::vector<int64_t> seen(n(), -1);
  auto statuses = RunOnPartitions(n(), [&](int64_t p) {
    ++arrived;
    absl::Status status = communicator->Barrier(p, Iota(n()));
    seen[p] = arrived.load();
    return status;
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(seen, Each(n()));
}

class LocationTest : public ::testing::TestWithParam<Location> {
 protected:
  absl::Status On(int64_t p, ConstBuffer input, Buffer output,
                  const std::function<absl::Status(ConstBuffer, Buffer)>& collective) {
    return WithBuffers(GetParam(), static_cast<int>(p), input, output, collective);
  }
};

INSTANTIATE_TEST_SUITE_P(BothLocations, LocationTest,
                         ::testing::Values(Location::kDevice, Location::kHost),
                         [](const ::testing::TestParamInfo<Location>& info) {
                           return LocationName(info.param);
                         });

// Tests of groups of 1 to 4: one GPU runs the size-1 cases, which still take every
// staging, type-mapping and in-place path through NCCL.
class SizedLocationTest : public GroupSizeTest {};

INSTANTIATE_TEST_SUITE_P(OneToFour, SizedLocationTest,
                         ::testing::Combine(::testing::Values(Location::kDevice, Location::kHost),
                                            ::testing::Range<int64_t>(1, 5)),
                         SizeAndLocationName);

TEST_P(SizedLocationTest, AllReduceHandlesEveryDataTypeAndKind) {
  const int64_t n = this->n(), count = 10;
  TESSEL_SKIP_WITHOUT_DEVICES(n);
  auto communicator = NcclCommunicator::CreateSingleProcess(n, OptionsFor(location()));
  ASSERT_THAT(communicator.status(), IsOk());
  for (DataType type : kAllDataTypes) {
    for (ReductionKind kind :
         {ReductionKind::kSum, ReductionKind::kProd, ReductionKind::kMax, ReductionKind::kMin}) {
      SCOPED_TRACE(absl::StrCat(DataTypeName(type), " ", ReductionKindName(kind)));
      const int64_t bytes = count * DataTypeSize(type);
      // Small integers of both signs (both truth values for pred): every reduction order
      // gives the same result, so NCCL's order may differ from the serial one.
      std::vector<std::vector<std::byte>> inputs;
      for (int64_t p = 0; p < n; ++p) inputs.push_back(SmallValuesOf(type, p, count));
      std::vector<std::vector<std::byte>> outputs(n, std::vector<std::byte>(bytes));
      auto statuses = RunOnPartitions(n, [&](int64_t p) {
        return On(p, ConstBuffer{type, inputs[p].data(), count},
                  Buffer{type, outputs[p].data(), count}, [&](ConstBuffer in, Buffer out) {
                    return (*communicator)->AllReduce(p, Iota(n), kind, in, out);
                  });
      });
      EXPECT_THAT(statuses, Each(IsOk()));
      EXPECT_THAT(outputs, Each(ElementsAreArray(ReduceSerially(type, kind, inputs))));
    }
  }
}

TEST_P(LocationTest, AllReduceOfPredIsOrAndIntegerSumsWrap) {
  TESSEL_SKIP_WITHOUT_DEVICES(2);
  auto communicator = NcclCommunicator::CreateSingleProcess(2, OptionsFor(GetParam()));
  ASSERT_THAT(communicator.status(), IsOk());
  bool pred_out[2][2];
  int8_t s8_out[2][1];
  int16_t s16_out[2][1];
  auto statuses = RunOnPartitions(2, [&](int64_t p) -> absl::Status {
    bool pred_in[2] = {p == 1, false};
    TESSEL_RETURN_IF_ERROR(
        On(p, ConstBuffer{DataType::kPred, pred_in, 2}, Buffer{DataType::kPred, pred_out[p], 2},
           [&](ConstBuffer in, Buffer out) {
             return (*communicator)->AllReduce(p, {0, 1}, ReductionKind::kSum, in, out);
           }));
    int8_t s8_in[1] = {100};
    TESSEL_RETURN_IF_ERROR(
        On(p, ConstBuffer{DataType::kS8, s8_in, 1}, Buffer{DataType::kS8, s8_out[p], 1},
           [&](ConstBuffer in, Buffer out) {
             return (*communicator)->AllReduce(p, {0, 1}, ReductionKind::kSum, in, out);
           }));
    int16_t s16_in[1] = {30000};  // through the 32-bit widening
    return On(p, ConstBuffer{DataType::kS16, s16_in, 1}, Buffer{DataType::kS16, s16_out[p], 1},
              [&](ConstBuffer in, Buffer out) {
                return (*communicator)->AllReduce(p, {0, 1}, ReductionKind::kSum, in, out);
              });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int p = 0; p < 2; ++p) {
    EXPECT_THAT(pred_out[p], ElementsAre(true, false));
    EXPECT_EQ(s8_out[p][0], -56);     // 200 wraps around in 8 bits
    EXPECT_EQ(s16_out[p][0], -5536);  // 60000 wraps around in 16 bits
  }
}

TEST_P(SizedLocationTest, InPlaceFormsReadEveryInputBeforeAnyIsOverwritten) {
  const int64_t n = this->n(), count = 6;
  TESSEL_SKIP_WITHOUT_DEVICES(n);
  auto communicator = NcclCommunicator::CreateSingleProcess(n, OptionsFor(location()));
  ASSERT_THAT(communicator.status(), IsOk());
  std::vector<std::vector<int32_t>> sums(n), shifted(n);
  auto statuses = RunOnPartitions(n, [&](int64_t p) -> absl::Status {
    sums[p] = InputOf(p, count);
    TESSEL_RETURN_IF_ERROR(On(p, Out(sums[p]), Out(sums[p]), [&](ConstBuffer, Buffer buffer) {
      return (*communicator)->AllReduceInPlace(p, Iota(n), ReductionKind::kMax, buffer);
    }));
    shifted[p] = InputOf(p, count);
    // A cycle: every member's input is some other member's source (its own, alone).
    std::vector<SourceTarget> cycle;
    for (int64_t q = 0; q < n; ++q) cycle.push_back({q, (q + 1) % n});
    return On(p, Out(shifted[p]), Out(shifted[p]), [&](ConstBuffer, Buffer buffer) {
      return (*communicator)->CollectivePermuteInPlace(p, Iota(n), cycle, buffer);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  EXPECT_THAT(sums, Each(ElementsAreArray(InputOf(n - 1, count))));
  for (int64_t p = 0; p < n; ++p) {
    EXPECT_THAT(shifted[p], ElementsAreArray(InputOf((p + n - 1) % n, count)));
  }
}

TEST_P(LocationTest, EightPartitionsAsTwoGroupsOfFour) {
  TESSEL_SKIP_WITHOUT_DEVICES(8);
  auto communicator = NcclCommunicator::CreateSingleProcess(8, OptionsFor(GetParam()));
  ASSERT_THAT(communicator.status(), IsOk());
  std::vector<std::vector<int32_t>> sums(8, std::vector<int32_t>(1)),
      gathered(8, std::vector<int32_t>(4));
  auto statuses = RunOnPartitions(8, [&](int64_t p) -> absl::Status {
    std::vector<int64_t> group =
        p < 4 ? std::vector<int64_t>{0, 1, 2, 3} : std::vector<int64_t>{4, 5, 6, 7};
    std::vector<int32_t> input = {static_cast<int32_t>(p)};
    TESSEL_RETURN_IF_ERROR(On(p, In(input), Out(sums[p]), [&](ConstBuffer in, Buffer out) {
      return (*communicator)->AllReduce(p, group, ReductionKind::kSum, in, out);
    }));
    return On(p, In(input), Out(gathered[p]), [&](ConstBuffer in, Buffer out) {
      return (*communicator)->AllGather(p, group, in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < 8; ++p) {
    EXPECT_THAT(sums[p], ElementsAre(p < 4 ? 0 + 1 + 2 + 3 : 4 + 5 + 6 + 7));
    EXPECT_THAT(gathered[p], p < 4 ? ElementsAre(0, 1, 2, 3) : ElementsAre(4, 5, 6, 7));
  }
}

TEST_P(LocationTest, StridedGroupsListedHighIdFirst) {
  TESSEL_SKIP_WITHOUT_DEVICES(4);
  auto communicator = NcclCommunicator::CreateSingleProcess(4, OptionsFor(GetParam()));
  ASSERT_THAT(communicator.status(), IsOk());
  std::vector<std::vector<int32_t>> gathered(4, std::vector<int32_t>(2)),
      scattered(4, std::vector<int32_t>(1));
  auto statuses = RunOnPartitions(4, [&](int64_t p) -> absl::Status {
    std::vector<int64_t> group = {p % 2 + 2, p % 2};  // {2, 0} and {3, 1}
    std::vector<int32_t> input = {static_cast<int32_t>(p)};
    TESSEL_RETURN_IF_ERROR(On(p, In(input), Out(gathered[p]), [&](ConstBuffer in, Buffer out) {
      return (*communicator)->AllGather(p, group, in, out);
    }));
    std::vector<int32_t> pieces = {static_cast<int32_t>(10 * p), static_cast<int32_t>(p)};
    return On(p, In(pieces), Out(scattered[p]), [&](ConstBuffer in, Buffer out) {
      return (*communicator)->ReduceScatter(p, group, ReductionKind::kSum, in, out);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
  for (int64_t p = 0; p < 4; ++p) {
    int32_t low = static_cast<int32_t>(p % 2), high = low + 2;
    EXPECT_THAT(gathered[p], ElementsAre(high, low));
    EXPECT_THAT(scattered[p], ElementsAre(p >= 2 ? 10 * (low + high) : low + high));
  }
}

TEST_P(LocationTest, ManyCallsOverOverlappingGroupsMeetInOrder) {
  constexpr int64_t n = 4, rounds = 50;
  TESSEL_SKIP_WITHOUT_DEVICES(n);
  auto communicator = NcclCommunicator::CreateSingleProcess(n, OptionsFor(GetParam()));
  ASSERT_THAT(communicator.status(), IsOk());
  auto statuses = RunOnPartitions(n, [&](int64_t p) -> absl::Status {
    for (int64_t round = 0; round < rounds; ++round) {
      std::vector<int64_t> group =
          round % 2 == 0 ? Iota(n) : std::vector<int64_t>{p / 2 * 2, p / 2 * 2 + 1};
      std::vector<int32_t> input = {static_cast<int32_t>(round + p)}, output(1);
      TESSEL_RETURN_IF_ERROR(On(p, In(input), Out(output), [&](ConstBuffer in, Buffer out) {
        return (*communicator)->AllReduce(p, group, ReductionKind::kSum, in, out);
      }));
      int32_t expected = 0;
      for (int64_t member : group) expected += static_cast<int32_t>(round + member);
      if (output[0] != expected) return absl::InternalError(absl::StrCat("round ", round));
    }
    return absl::OkStatus();
  });
  EXPECT_THAT(statuses, Each(IsOk()));
}

TEST_P(SizedLocationTest, EmptyBuffersAreFine) {
  const int64_t n = this->n();
  TESSEL_SKIP_WITHOUT_DEVICES(n);
  auto communicator = NcclCommunicator::CreateSingleProcess(n, OptionsFor(location()));
  ASSERT_THAT(communicator.status(), IsOk());
  auto statuses = RunOnPartitions(n, [&](int64_t p) -> absl::Status {
    std::vector<float> empty, out;
    TESSEL_RETURN_IF_ERROR(On(p, In(empty), Out(out), [&](ConstBuffer in, Buffer o) {
      return (*communicator)->AllReduce(p, Iota(n), ReductionKind::kSum, in, o);
    }));
    TESSEL_RETURN_IF_ERROR(On(p, In(empty), Out(out), [&](ConstBuffer in, Buffer o) {
      return (*communicator)->AllGather(p, Iota(n), in, o);
    }));
    return On(p, In(empty), Out(out), [&](ConstBuffer in, Buffer o) {
      return (*communicator)->CollectivePermute(p, Iota(n), {{0, n - 1}}, in, o);
    });
  });
  EXPECT_THAT(statuses, Each(IsOk()));
}

TEST_P(SizedLocationTest, MovesEveryDataTypeAsBytes) {
  const int64_t n = this->n();
  TESSEL_SKIP_WITHOUT_DEVICES(n);
  auto communicator = NcclCommunicator::CreateSingleProcess(n, OptionsFor(location()));
  ASSERT_THAT(communicator.status(), IsOk());
  for (DataType type : kAllDataTypes) {
    SCOPED_TRACE(DataTypeName(type));
    const int64_t count = 3, bytes = count * DataTypeSize(type);
    std::vector<std::vector<unsigned char>> inputs(n, std::vector<unsigned char>(bytes)),
        outputs(n, std::vector<unsigned char>(n * bytes));
    // Every byte value once per partition, so a dropped or misplaced byte shows.
    for (int64_t p = 0; p < n; ++p) {
      for (int64_t i = 0; i < bytes; ++i) {
        inputs[p][i] = static_cast<unsigned char>(37 * p + 11 * i + 1);
      }
    }
    auto statuses = RunOnPartitions(n, [&](int64_t p) {
      return On(p, ConstBuffer{type, inputs[p].data(), count},
                Buffer{type, outputs[p].data(), n * count}, [&](ConstBuffer in, Buffer out) {
                  return (*communicator)->AllGather(p, Iota(n), in, out);
                });
    });
    EXPECT_THAT(statuses, Each(IsOk()));
    std::vector<unsigned char> expected;
    for (int64_t p = 0; p < n; ++p) expected.insert(expected.end(), inputs[p].begin(), inputs[p].end());
    EXPECT_THAT(outputs, Each(ElementsAreArray(expected)));
  }
}

}  // namespace
}  // namespace tessel::collectives
