// Unit tests of the tessel attribute helpers that passes and the runtime rely on: mesh
// geometry, axis-reference algebra, sharding queries and collective device groups.
// Each test builds its attributes in a fresh context owned by the fixture.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {
namespace {

using ::testing::ElementsAre;

class TesselAttrsTest : public ::testing::Test {
 protected:
  TesselAttrsTest() { context_.loadDialect<TesselDialect>(); }

  MeshAttr mesh(llvm::ArrayRef<std::pair<llvm::StringRef, int64_t>> axes,
                llvm::ArrayRef<int64_t> deviceIds = {}) {
    llvm::SmallVector<MeshAxisAttr> meshAxes;
    for (auto [name, size] : axes) meshAxes.push_back(MeshAxisAttr::get(&context_, name, size));
    return MeshAttr::get(&context_, meshAxes, deviceIds);
  }
  AxisRefAttr axis(llvm::StringRef name) { return AxisRefAttr::get(&context_, name); }
  AxisRefAttr subAxis(llvm::StringRef name, int64_t pre, int64_t size) {
    return AxisRefAttr::get(&context_, name, pre, size);
  }
  DimShardingAttr dim(llvm::ArrayRef<AxisRefAttr> axes, bool closed = true) {
    return DimShardingAttr::get(&context_, axes, closed, std::nullopt);
  }
  ShardingAttr sharding(llvm::ArrayRef<DimShardingAttr> dims,
                        llvm::ArrayRef<AxisRefAttr> unreduced = {}) {
    return ShardingAttr::get(&context_, mlir::FlatSymbolRefAttr::get(&context_, "mesh"), dims,
                             {}, unreduced);
  }
  // Runs `check` with an emit-error callback and returns the message it emitted, or "" if
  // it succeeded.
  template <typename Check>
  std::string errorOf(Check check) {
    std::string message;
    mlir::ScopedDiagnosticHandler handler(&context_, [&](mlir::Diagnostic& diag) {
      message = diag.str();
      return mlir::success();
    });
    auto emitError = [&]() { return mlir::emitError(mlir::UnknownLoc::get(&context_)); };
    if (mlir::succeeded(check(emitError))) return "";
    return message;
  }

  mlir::MLIRContext context_;
};

TEST_F(TesselAttrsTest, MeshReportsAxisSizesAndTotal) {
  MeshAttr m = mesh({{"data", 4}, {"model", 2}});
  EXPECT_EQ(m.getAxisSize("data"), 4);
  EXPECT_EQ(m.getAxisSize("model"), 2);
  EXPECT_EQ(m.findAxisSize("missing"), std::nullopt);
  EXPECT_EQ(m.getTotalSize(), 8);
}

TEST_F(TesselAttrsTest, MeshWithoutAxesHasOneDevice) {
  EXPECT_EQ(mesh({}).getTotalSize(), 1);
  EXPECT_EQ(mesh({}).getDeviceId(0), 0);
  // A maximal mesh names its single device.
  EXPECT_EQ(mesh({}, {7}).getDeviceId(0), 7);
}

TEST_F(TesselAttrsTest, DeviceIdIsIdentityWithoutExplicitIds) {
  MeshAttr m = mesh({{"x", 2}, {"y", 2}});
  for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(m.getDeviceId(i), i);
  EXPECT_EQ(m.findLinearIndex(3), 3);
  EXPECT_EQ(m.findLinearIndex(4), std::nullopt);
}

TEST_F(TesselAttrsTest, DeviceIdFollowsExplicitIds) {
  MeshAttr m = mesh({{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  EXPECT_EQ(m.getDeviceId(0), 3);
  EXPECT_EQ(m.getDeviceId(3), 0);
  EXPECT_EQ(m.findLinearIndex(2), 1);
}

TEST_F(TesselAttrsTest, CoordinatesAreRowMajor) {
  MeshAttr m = mesh({{"x", 2}, {"y", 4}});
  // 6 = 1 * 4 + 2.
  EXPECT_THAT(m.getCoordinates(6), ElementsAre(1, 2));
}

TEST_F(TesselAttrsTest, MeshVerifierRejectsNonPermutationIds) {
  auto verify = [&](llvm::ArrayRef<int64_t> ids) {
    return errorOf([&](EmitErrorFn emitError) {
      return MeshAttr::verify(emitError, {MeshAxisAttr::get(&context_, "x", 2)}, ids);
    });
  };
  EXPECT_EQ(verify({1, 0}), "");
  EXPECT_EQ(verify({1, 1}), "device id 1 appears twice");
  EXPECT_EQ(verify({0}), "device_ids must have 2 entries (the mesh size), has 1");
}

// Device counts beyond any machine, and products that would overflow, are refused.
TEST_F(TesselAttrsTest, MeshVerifierRejectsTooManyDevices) {
  auto verify = [&](int64_t x, int64_t y) {
    return errorOf([&](EmitErrorFn emitError) {
      return MeshAttr::verify(
          emitError, {MeshAxisAttr::get(&context_, "x", x), MeshAxisAttr::get(&context_, "y", y)},
          {});
    });
  };
  EXPECT_EQ(verify(1024, 1024), "");
  EXPECT_EQ(verify(1024, 1025), "mesh has more than 1048576 devices (at axis \"y\" of size 1025)");
  EXPECT_EQ(verify(int64_t{1} << 32, int64_t{1} << 32),
            "mesh has more than 1048576 devices (at axis \"x\" of size 4294967296)");
}

TEST_F(TesselAttrsTest, AxisSizeOfFullAxisAndSubAxis) {
  MeshAttr m = mesh({{"x", 8}});
  EXPECT_EQ(axis("x").getSize(m), 8);
  EXPECT_EQ(subAxis("x", 2, 4).getSize(m), 4);
}

TEST_F(TesselAttrsTest, FullAxisOverlapsAndContainsItsSubAxes) {
  EXPECT_TRUE(axis("x").overlaps(subAxis("x", 2, 2)));
  EXPECT_TRUE(axis("x").contains(subAxis("x", 2, 2)));
  EXPECT_FALSE(subAxis("x", 2, 2).contains(axis("x")));
  EXPECT_FALSE(axis("x").overlaps(axis("y")));
  EXPECT_FALSE(axis("x").contains(axis("y")));
}

TEST_F(TesselAttrsTest, DisjointSubAxesDoNotOverlap) {
  // [1, 2) and [2, 4) of the axis split touch but share no factor.
  EXPECT_FALSE(subAxis("x", 1, 2).overlaps(subAxis("x", 2, 2)));
  EXPECT_TRUE(subAxis("x", 1, 4).overlaps(subAxis("x", 2, 4)));
}

TEST_F(TesselAttrsTest, SubAxisContainsNestedSubAxis) {
  // [1, 8) contains [2, 4); [2, 8) does not contain [1, 2).
  EXPECT_TRUE(subAxis("x", 1, 8).contains(subAxis("x", 2, 2)));
  EXPECT_FALSE(subAxis("x", 2, 4).contains(subAxis("x", 1, 2)));
  EXPECT_TRUE(subAxis("x", 2, 2).contains(subAxis("x", 2, 2)));
}

TEST_F(TesselAttrsTest, NumShardsIsProductOfAxisSizes) {
  MeshAttr m = mesh({{"x", 2}, {"y", 4}, {"z", 2}});
  ShardingAttr s = sharding({dim({axis("x")}), dim({axis("z"), subAxis("y", 1, 2)}), dim({})});
  EXPECT_EQ(s.getNumShards(0, m), 2);
  EXPECT_EQ(s.getNumShards(1, m), 4);
  EXPECT_EQ(s.getNumShards(2, m), 1);
}

TEST_F(TesselAttrsTest, LocalShapeRoundsUpUnevenSplits) {
  MeshAttr m = mesh({{"x", 2}, {"y", 4}, {"z", 2}});
  // The example of the design notes: f32[4, 8] with [{"x"}, {"z", "y"}] is f32[2, 1] locally.
  ShardingAttr s = sharding({dim({axis("x")}), dim({axis("z"), axis("y")})});
  EXPECT_THAT(s.getLocalShape({4, 8}, m), ElementsAre(2, 1));
  // 5 over 2 devices pads to 3 each; 3 over 8 pads to 1 each.
  EXPECT_THAT(s.getLocalShape({5, 3}, m), ElementsAre(3, 1));
  EXPECT_THAT(s.getLocalShape({mlir::ShapedType::kDynamic, 8}, m),
              ElementsAre(mlir::ShapedType::kDynamic, 1));
}

TEST_F(TesselAttrsTest, FullyReplicatedMeansNoSplitAndNothingUnreduced) {
  EXPECT_TRUE(sharding({dim({}), dim({}, /*closed=*/false)}).isFullyReplicated());
  EXPECT_FALSE(sharding({dim({axis("x")})}).isFullyReplicated());
  EXPECT_FALSE(sharding({dim({})}, {axis("x")}).isFullyReplicated());
}

TEST_F(TesselAttrsTest, ShardedAxesListDimensionsInOrder) {
  ShardingAttr s = sharding({dim({axis("y"), subAxis("x", 1, 2)}), dim({}), dim({axis("z")})});
  EXPECT_THAT(s.getShardedAxes(), ElementsAre(axis("y"), subAxis("x", 1, 2), axis("z")));
}

TEST_F(TesselAttrsTest, IsOpenFollowsDimSharding) {
  ShardingAttr s = sharding({dim({axis("x")}, /*closed=*/false), dim({})});
  EXPECT_TRUE(s.isOpen(0));
  EXPECT_FALSE(s.isOpen(1));
}

TEST_F(TesselAttrsTest, NegativePriorityIsRejected) {
  std::string message = errorOf([&](EmitErrorFn emitError) {
    return DimShardingAttr::verify(emitError, {}, true, -1);
  });
  EXPECT_EQ(message, "priority must not be negative, got -1");
}

TEST_F(TesselAttrsTest, AxisListsRejectOverlapsAndIncompatibleSplits) {
  MeshAttr m = mesh({{"x", 12}});
  auto check = [&](llvm::ArrayRef<AxisRefAttr> axes) {
    return errorOf(
        [&](EmitErrorFn emitError) { return verifyAxisRefs(emitError, axes, m); });
  };
  EXPECT_EQ(check({subAxis("x", 1, 2), subAxis("x", 2, 3)}), "");
  EXPECT_EQ(check({subAxis("x", 1, 2), subAxis("x", 6, 2)}), "");
  EXPECT_EQ(check({subAxis("x", 1, 2), subAxis("x", 3, 2)}),
            "sub-axes \"x\":(1)2 and \"x\":(3)2 do not split axis \"x\" compatibly");
  EXPECT_EQ(check({axis("x"), subAxis("x", 2, 2)}),
            "axis \"x\" overlaps axis \"x\":(2)2");
}

TEST_F(TesselAttrsTest, GroupOverMinorAxisIsIndexedByMajorAxis) {
  MeshAttr m = mesh({{"x", 2}, {"y", 4}});
  // Device 6 = (x=1, y=2): group x=1, position y=2.
  GroupPosition where = getGroupPosition(m, {axis("y")}, 6);
  EXPECT_EQ(where.groupIndex, 1);
  EXPECT_EQ(where.position, 2);
  EXPECT_EQ(getGroupSize(m, {axis("y")}), 4);
}

TEST_F(TesselAttrsTest, GroupPositionFollowsListedAxisOrder) {
  MeshAttr m = mesh({{"x", 2}, {"y", 4}});
  // Device 6 = (x=1, y=2); over ["y", "x"] the position is y * 2 + x = 5, one group.
  GroupPosition where = getGroupPosition(m, {axis("y"), axis("x")}, 6);
  EXPECT_EQ(where.groupIndex, 0);
  EXPECT_EQ(where.position, 5);
}

TEST_F(TesselAttrsTest, GroupOverSubAxisSplitsTheAxis) {
  MeshAttr m = mesh({{"x", 2}, {"y", 4}});
  // Device 7 = (x=1, y=3), y = 2 * y1 + y2 with y1 = 1, y2 = 1. Over "y":(2)2 the position
  // is y2 = 1 and the group is numbered by (x, y1): 1 * 2 + 1 = 3.
  GroupPosition where = getGroupPosition(m, {subAxis("y", 2, 2)}, 7);
  EXPECT_EQ(where.groupIndex, 3);
  EXPECT_EQ(where.position, 1);
}

TEST_F(TesselAttrsTest, DeviceGroupsUseExplicitDeviceIds) {
  MeshAttr m = mesh({{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  // Over "x": groups are the columns y=0 and y=1, ordered by x.
  EXPECT_THAT(getDeviceGroups(m, {axis("x")}),
              ElementsAre(ElementsAre(3, 1), ElementsAre(2, 0)));
  // Over "y": groups are the rows.
  EXPECT_THAT(getDeviceGroups(m, {axis("y")}),
              ElementsAre(ElementsAre(3, 2), ElementsAre(1, 0)));
}

TEST_F(TesselAttrsTest, DeviceGroupsOverTwoSubAxesOfOneAxis) {
  MeshAttr m = mesh({{"x", 8}});
  // x = 4 * a + 2 * b + c; over ["x":(4)2, "x":(1)2] the position is 2 * c + a and the
  // group is b.
  EXPECT_THAT(getDeviceGroups(m, {subAxis("x", 4, 2), subAxis("x", 1, 2)}),
              ElementsAre(ElementsAre(0, 4, 1, 5), ElementsAre(2, 6, 3, 7)));
}

}  // namespace
}  // namespace tessel::ir
