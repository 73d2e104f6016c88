// Tests of the axis-list algebra used by propagation.
#include "partitioner/propagation/axis_list.h"

#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::propagation {
namespace {

class AxisListTest : public ::testing::Test {
 protected:
  AxisListTest() {
    context_.loadDialect<ir::TesselDialect>();
    // x=4, y=2, z=6
    mesh_ = MeshAttr::get(&context_,
                          {ir::MeshAxisAttr::get(&context_, "x", 4),
                           ir::MeshAxisAttr::get(&context_, "y", 2),
                           ir::MeshAxisAttr::get(&context_, "z", 6)},
                          {});
  }

  AxisRefAttr Axis(llvm::StringRef name) { return AxisRefAttr::get(&context_, name); }
  AxisRefAttr Sub(llvm::StringRef name, int64_t pre, int64_t size) {
    return AxisRefAttr::get(&context_, name, pre, size);
  }

  mlir::MLIRContext context_;
  MeshAttr mesh_;
};

TEST_F(AxisListTest, SizesMultiply) {
  EXPECT_EQ(getAxesSize({}, mesh_), 1);
  EXPECT_EQ(getAxesSize({Axis("x"), Sub("z", 2, 3)}, mesh_), 12);
}

TEST_F(AxisListTest, SplitsAnAxisIntoMajorAndMinorParts) {
  auto [major, minor] = splitAxis(Axis("x"), 2, mesh_);
  EXPECT_EQ(major, Sub("x", 1, 2));
  EXPECT_EQ(minor, Sub("x", 2, 2));
  // z (6) split at 3: the major part has 3 devices, the rest starts after them.
  auto [zMajor, zMinor] = splitAxis(Axis("z"), 3, mesh_);
  EXPECT_EQ(zMajor, Sub("z", 1, 3));
  EXPECT_EQ(zMinor, Sub("z", 3, 2));
}

TEST_F(AxisListTest, MergesConsecutivePartsBackIntoAxes) {
  EXPECT_EQ(mergeAdjacent({Sub("x", 1, 2), Sub("x", 2, 2), Axis("y")}, mesh_),
            (AxisList{Axis("x"), Axis("y")}));
  // z:(1)2 and z:(2)3 together are all of z.
  EXPECT_EQ(mergeAdjacent({Sub("z", 1, 2), Sub("z", 2, 3)}, mesh_), (AxisList{Axis("z")}));
  // Not consecutive: x:(2)2 does not continue x:(1)... of another axis.
  EXPECT_EQ(mergeAdjacent({Sub("x", 2, 2), Axis("y")}, mesh_),
            (AxisList{Sub("x", 2, 2), Axis("y")}));
}

TEST_F(AxisListTest, MajorPartsAndPrefixes) {
  EXPECT_TRUE(isMajorPartOf(Sub("x", 1, 2), Axis("x"), mesh_));
  EXPECT_FALSE(isMajorPartOf(Sub("x", 2, 2), Axis("x"), mesh_));
  EXPECT_FALSE(isMajorPartOf(Axis("x"), Sub("x", 1, 2), mesh_));
  EXPECT_TRUE(isPrefixOf({}, {Axis("x")}, mesh_));
  EXPECT_TRUE(isPrefixOf({Sub("x", 1, 2)}, {Axis("x"), Axis("y")}, mesh_));
  EXPECT_FALSE(isPrefixOf({Sub("x", 1, 2), Axis("y")}, {Axis("x"), Axis("y")}, mesh_));
  EXPECT_FALSE(isPrefixOf({Axis("y")}, {Axis("x"), Axis("y")}, mesh_));
}

TEST_F(AxisListTest, ProjectionSplitsAnAxisAcrossTwoFactors) {
  // A reshape 8 -> 2x4 has factors i=2, j=4 on the operand dim: x (4) gives its major half
  // to i and its minor half, then y, to j.
  DimProjection projection = projectOntoFactors({Axis("x"), Axis("y")}, {2, 4}, mesh_);
  ASSERT_EQ(projection.factorAxes.size(), 2u);
  EXPECT_EQ(projection.factorAxes[0], (AxisList{Sub("x", 1, 2)}));
  EXPECT_EQ(projection.factorAxes[1], (AxisList{Sub("x", 2, 2), Axis("y")}));
  EXPECT_TRUE(projection.overflow.empty());
}

TEST_F(AxisListTest, ProjectionOverflowsWhenAFactorSharesNothingWithTheAxis) {
  DimProjection projection = projectOntoFactors({Axis("x")}, {3, 5}, mesh_);
  EXPECT_TRUE(projection.factorAxes[0].empty());
  EXPECT_TRUE(projection.factorAxes[1].empty());
  EXPECT_EQ(projection.overflow, (AxisList{Axis("x")}));
}

TEST_F(AxisListTest, MinorMostFactorTakesUnevenSplits) {
  // 6 split 4 ways is uneven (shards of 2, the last padded): allowed on the minor-most factor.
  DimProjection projection = projectOntoFactors({Axis("x")}, {6}, mesh_);
  EXPECT_EQ(projection.factorAxes[0], (AxisList{Axis("x")}));
  // A size-1 major factor takes nothing and passes the axes on.
  projection = projectOntoFactors({Axis("y")}, {1, 4}, mesh_);
  EXPECT_TRUE(projection.factorAxes[0].empty());
  EXPECT_EQ(projection.factorAxes[1], (AxisList{Axis("y")}));
}

TEST_F(AxisListTest, CompatibleMajorAxesGrowShorterLists) {
  EXPECT_EQ(compatibleMajorAxes({{Axis("x")}, {Axis("x"), Axis("y")}}, mesh_),
            (AxisList{Axis("x"), Axis("y")}));
  EXPECT_EQ(compatibleMajorAxes({{Axis("x"), Axis("y")}, {Axis("x"), Axis("z")}}, mesh_),
            (AxisList{Axis("x")}));
  EXPECT_EQ(compatibleMajorAxes({{Sub("x", 1, 2)}, {Axis("x")}}, mesh_), (AxisList{Axis("x")}));
  // x:(1)2 followed by y cannot become x: the agreement ends at the common part.
  EXPECT_EQ(compatibleMajorAxes({{Sub("x", 1, 2), Axis("y")}, {Axis("x")}}, mesh_),
            (AxisList{Sub("x", 1, 2)}));
  EXPECT_EQ(compatibleMajorAxes({{Axis("y")}, {Axis("x")}}, mesh_), AxisList{});
  EXPECT_EQ(compatibleMajorAxes({{}, {}}, mesh_), AxisList{});
}

}  // namespace
}  // namespace tessel::propagation
