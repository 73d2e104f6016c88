// Tests of tile assignments: iota evaluation, canonicalization, transposes, validation.
#include "partitioner/sharding/tile_assignment.h"

#include <algorithm>
#include <numeric>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::StatusIs;
using ::testing::ElementsAre;

constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;

TEST(TileAssignmentTest, TransposedIotaListsDevicesColumnMajor) {
  // ALGORITHMS.md §1.1: [[0,1,2,3],[4,5,6,7]] transposed is [[0,4],[1,5],[2,6],[3,7]].
  TileAssignment tiles = *TileAssignment::CreateIota({4, 2}, {2, 4}, {1, 0});
  EXPECT_THAT(tiles.Devices(), ElementsAre(0, 4, 1, 5, 2, 6, 3, 7));
  // Tile (r, c) is on device 4c + r: tile (1, 1) on device 5.
  EXPECT_EQ(tiles.At(Ravel({1, 1}, tiles.dims())), 5);
  EXPECT_EQ(tiles.ToString(), "devices=[4,2]<=[2,4]T(1,0)");
}

TEST(TileAssignmentTest, MergesReshapeDimsThatStayAdjacent) {
  // An identity transpose is plain arange.
  EXPECT_EQ(TileAssignment::CreateIota({2, 4}, {2, 4}, {0, 1})->ToString(), "devices=[2,4]<=[8]");
  // ALGORITHMS.md §1.3: reshape [2,2,2] with perm (2,0,1): dims 0 and 1 stay adjacent and
  // merge, giving <=[4,2]T(1,0).
  TileAssignment tiles = *TileAssignment::CreateIota({2, 2, 2}, {2, 2, 2}, {2, 0, 1});
  EXPECT_EQ(tiles.ToString(), "devices=[2,2,2]<=[4,2]T(1,0)");
  EXPECT_THAT(tiles.reshape_dims(), ElementsAre(4, 2));
}

TEST(TileAssignmentTest, DropsReshapeDimsOfSizeOne) {
  TileAssignment tiles = *TileAssignment::CreateIota({4, 2}, {1, 2, 1, 4}, {3, 2, 1, 0});
  EXPECT_EQ(tiles.ToString(), "devices=[4,2]<=[2,4]T(1,0)");
}

TEST(TileAssignmentTest, CanonicalizationKeepsTheDevices) {
  TileAssignment raw = *TileAssignment::CreateIota({2, 3, 4}, {2, 3, 2, 2}, {3, 1, 0, 2});
  std::vector<int64_t> expected;
  // arange(24).reshape(2,3,2,2).transpose(3,1,0,2), computed by hand in row-major order.
  for (int64_t a = 0; a < 2; ++a)        // reshape dim 3
    for (int64_t b = 0; b < 3; ++b)      // reshape dim 1
      for (int64_t c = 0; c < 2; ++c)    // reshape dim 0
        for (int64_t d = 0; d < 2; ++d)  // reshape dim 2
          expected.push_back(c * 12 + b * 4 + d * 2 + a);
  EXPECT_EQ(raw.Devices(), expected);
}

TEST(TileAssignmentTest, TransposeOfIotaStaysIota) {
  TileAssignment tiles = TileAssignment::Iota({2, 4});
  TileAssignment transposed = tiles.Transpose({1, 0});
  EXPECT_TRUE(transposed.IsIota());
  EXPECT_EQ(transposed.ToString(), "devices=[4,2]<=[2,4]T(1,0)");
  // Transposing back restores arange.
  EXPECT_EQ(transposed.Transpose({1, 0}).ToString(), "devices=[2,4]<=[8]");
}

TEST(TileAssignmentTest, TransposeWithoutFactorizationBecomesExplicit) {
  // [3,2]<=[2,3]T(1,0) is [[0,3],[1,4],[2,5]]; its dims [3,2] and transposed reshape [3,2]
  // factor, but after reshaping to [2,3] they do not.
  TileAssignment tiles = TileAssignment::CreateIota({3, 2}, {2, 3}, {1, 0})->Reshape({2, 3});
  TileAssignment transposed = tiles.Transpose({1, 0});
  EXPECT_FALSE(transposed.IsIota());
  EXPECT_THAT(transposed.Devices(), ElementsAre(0, 4, 3, 2, 1, 5));
}

TEST(TileAssignmentTest, ExplicitTransposeMovesDevices) {
  TileAssignment tiles = *TileAssignment::CreateExplicit({2, 2}, {3, 1, 0, 2});
  EXPECT_THAT(tiles.Transpose({1, 0}).Devices(), ElementsAre(3, 0, 1, 2));
  EXPECT_EQ(tiles.ToString(), "devices=[2,2]3,1,0,2");
  EXPECT_FALSE(tiles.IsArange());
}

TEST(TileAssignmentTest, ExplicitListOfAnIotaHasItsFactors) {
  // [4,2]0,1,4,5,2,3,6,7 is arange(8) over [2,2,2] with the two major dims swapped.
  TileAssignment tiles = *TileAssignment::CreateExplicit({4, 2}, {0, 1, 4, 5, 2, 3, 6, 7});
  std::optional<IotaFactors> factors = tiles.Factors();
  ASSERT_TRUE(factors.has_value());
  EXPECT_THAT(factors->reshape_dims, ElementsAre(2, 2, 2));
  EXPECT_THAT(factors->dim_factors, ElementsAre(ElementsAre(1, 0), ElementsAre(2)));
  // A permuted 16-device order as XLA's tests write it, with a replicated last dim.
  TileAssignment permuted = *TileAssignment::CreateExplicit(
      {2, 4, 2}, {0, 8, 2, 10, 4, 12, 6, 14, 1, 9, 3, 11, 5, 13, 7, 15});
  factors = permuted.Factors();
  ASSERT_TRUE(factors.has_value());
  EXPECT_EQ(TileAssignment::FromFactors({2, 4, 2}, *factors).Devices(), permuted.Devices());
}

TEST(TileAssignmentTest, ExplicitListsThatAreNoIotaHaveNoFactors) {
  EXPECT_FALSE(TileAssignment::CreateExplicit({2}, {1, 0})->Factors().has_value());
  EXPECT_FALSE(TileAssignment::CreateExplicit({2, 2}, {0, 3, 1, 2})->Factors().has_value());
  EXPECT_FALSE(TileAssignment::CreateExplicit({3}, {0, 2, 1})->Factors().has_value());
  EXPECT_FALSE(TileAssignment::CreateExplicit({6}, {0, 1, 3, 2, 4, 5})->Factors().has_value());
}

// Every iota array written out as a list gets factors that rebuild it exactly, and any
// list that gets factors is rebuilt by them: over all small shapes and transposes, and
// over random permutations.
TEST(TileAssignmentTest, FactorsOfListsRebuildTheList) {
  const std::vector<std::vector<int64_t>> shapes = {{2, 2, 2}, {2, 3, 2}, {4, 2}, {3, 4},
                                                    {2, 2, 3}, {6, 2}, {2, 4, 2}, {8}};
  for (const std::vector<int64_t>& reshape : shapes) {
    std::vector<int> perm(reshape.size());
    std::iota(perm.begin(), perm.end(), 0);
    do {
      TileAssignment iota = *TileAssignment::CreateIota(reshape, reshape, perm);
      std::vector<int64_t> dims(perm.size());
      for (size_t i = 0; i < perm.size(); ++i) dims[i] = reshape[perm[i]];
      TileAssignment list = *TileAssignment::CreateExplicit(dims, iota.Devices());
      std::optional<IotaFactors> factors = list.Factors();
      ASSERT_TRUE(factors.has_value()) << list.ToString();
      EXPECT_EQ(TileAssignment::FromFactors(dims, *factors).Devices(), list.Devices())
          << list.ToString();
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
  std::mt19937 random(7);
  for (int trial = 0; trial < 500; ++trial) {
    std::vector<int64_t> devices(12);
    std::iota(devices.begin(), devices.end(), 0);
    std::shuffle(devices.begin() + 1, devices.end(), random);
    TileAssignment list = *TileAssignment::CreateExplicit({2, 3, 2}, devices);
    if (std::optional<IotaFactors> factors = list.Factors()) {
      EXPECT_EQ(TileAssignment::FromFactors({2, 3, 2}, *factors).Devices(), devices)
          << list.ToString();
    }
  }
}

TEST(TileAssignmentTest, RejectsInvalidIotas) {
  EXPECT_THAT(TileAssignment::CreateIota({}, {1}, {0}), StatusIs(kInvalid, "must not be empty"));
  EXPECT_THAT(TileAssignment::CreateIota({0}, {1}, {0}), StatusIs(kInvalid, "size below 1"));
  EXPECT_THAT(TileAssignment::CreateIota({4}, {8}, {0}), StatusIs(kInvalid, "hold 4 devices"));
  EXPECT_THAT(TileAssignment::CreateIota({8}, {2, 4}, {0}),
              StatusIs(kInvalid, "must have 2 entries"));
  EXPECT_THAT(TileAssignment::CreateIota({8}, {2, 4}, {1, 1}),
              StatusIs(kInvalid, "is not a permutation"));
  // More devices than a mesh may have, and products that would overflow int64.
  EXPECT_THAT(TileAssignment::CreateIota({4294967296}, {4294967296}, {0}),
              StatusIs(kInvalid, "hold more than 1048576 devices"));
  EXPECT_THAT(TileAssignment::CreateIota({1 << 20, 2}, {1 << 21}, {0}),
              StatusIs(kInvalid, "hold more than 1048576 devices"));
  EXPECT_THAT(TileAssignment::CreateIota({4294967296, 4294967296}, {1}, {0}),
              StatusIs(kInvalid, "hold more than 1048576 devices"));
  EXPECT_TRUE(TileAssignment::CreateIota({1 << 10, 1 << 10}, {1 << 20}, {0}).ok());
}

TEST(TileAssignmentTest, RejectsInvalidDeviceLists) {
  EXPECT_THAT(TileAssignment::CreateExplicit({2}, {0}),
              StatusIs(kInvalid, "need 2 devices, got 1"));
  EXPECT_THAT(TileAssignment::CreateExplicit({2}, {0, 2}),
              StatusIs(kInvalid, "device 2 is out of range"));
  EXPECT_THAT(TileAssignment::CreateExplicit({2}, {1, 1}),
              StatusIs(kInvalid, "device 1 appears twice"));
}

}  // namespace
}  // namespace tessel::sharding
