// Tests of the conversions between sharding values and tessel attributes.
#include "partitioner/sharding/mlir_conversion.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/AsmParser/AsmParser.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

class MlirConversionTest : public ::testing::Test {
 protected:
  MlirConversionTest() { context_.loadDialect<ir::TesselDialect>(); }

  std::string Print(mlir::Attribute attr) {
    std::string text;
    llvm::raw_string_ostream os(text);
    attr.print(os);
    return text;
  }

  mlir::MLIRContext context_;
};

TEST_F(MlirConversionTest, MeshRoundTripsThroughTheAttribute) {
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  absl::StatusOr<ir::MeshAttr> attr = MeshToAttr(&context_, mesh);
  ASSERT_THAT(attr, IsOk());
  EXPECT_EQ(Print(*attr), "#tessel.mesh<[\"x\"=2, \"y\"=2], device_ids=[3, 2, 1, 0]>");
  EXPECT_EQ(MeshFromAttr(*attr), mesh);
}

TEST_F(MlirConversionTest, ShardingRoundTripsThroughTheAttribute) {
  TensorSharding sharding("mesh",
                          {DimSharding({AxisRef("x")}), DimSharding({AxisRef("y", 2, 2)}, false, 1),
                           DimSharding({}, false)},
                          {AxisRef("y", 1, 2)}, {AxisRef("z")});
  absl::StatusOr<ir::ShardingAttr> attr = TensorShardingToAttr(&context_, sharding);
  ASSERT_THAT(attr, IsOk());
  // The dialect prints the same text as TensorSharding::ToString.
  EXPECT_EQ(Print(*attr), "#tessel.sharding" + sharding.ToString());
  EXPECT_EQ(TensorShardingFromAttr(*attr), sharding);
}

TEST_F(MlirConversionTest, ReadsParsedAttributes) {
  mlir::Attribute parsed = mlir::parseAttribute(
      "#tessel.sharding<@m, [{\"a\", ?}p0, {}], unreduced={\"b\":(2)2}>", &context_);
  ASSERT_TRUE(parsed);
  TensorSharding sharding = TensorShardingFromAttr(mlir::cast<ir::ShardingAttr>(parsed));
  EXPECT_EQ(sharding, TensorSharding("m", {DimSharding({AxisRef("a")}, false, 0), DimSharding()},
                                     {}, {AxisRef("b", 2, 2)}));
}

TEST_F(MlirConversionTest, RejectsWhatTheAttributesWouldReject) {
  constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
  EXPECT_THAT(MeshToAttr(&context_, Mesh{{{"x", 0}}, {}}), StatusIs(kInvalid, "has size 0"));
  EXPECT_THAT(TensorShardingToAttr(&context_, TensorSharding("", {})),
              StatusIs(kInvalid, "mesh name must not be empty"));
  EXPECT_THAT(TensorShardingToAttr(&context_, TensorSharding("m", {DimSharding({AxisRef("")})})),
              StatusIs(kInvalid, "axis name must not be empty"));
  EXPECT_THAT(
      TensorShardingToAttr(&context_, TensorSharding("m", {DimSharding({AxisRef("x", 1, 1)})})),
      StatusIs(kInvalid, "sub-axis \"x\":(1)1 needs"));
  EXPECT_THAT(TensorShardingToAttr(&context_, TensorSharding("m", {}, {AxisRef("x", 2, 0)})),
              StatusIs(kInvalid, "has a pre-size but no sub-axis size"));
  EXPECT_THAT(TensorShardingToAttr(&context_, TensorSharding("m", {DimSharding({}, true, -2)})),
              StatusIs(kInvalid, "priority must not be negative"));
}

}  // namespace
}  // namespace tessel::sharding
