// Tests of the protobuf forms: serialize → parse round trips, and bytes written by hand from
// XLA's field numbers that must parse to the expected sharding.
#include "partitioner/sharding/proto_conversion.h"

#include <string>

#include "gmock/gmock.h"
#include "google/protobuf/unknown_field_set.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::sharding {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

// Serializes to bytes, parses them back and converts.
absl::StatusOr<HloSharding> ThroughBytes(const HloSharding& sharding) {
  std::string bytes;
  if (!HloShardingToProto(sharding).SerializeToString(&bytes)) {
    return absl::InternalError("serialization failed");
  }
  OpSharding parsed;
  if (!parsed.ParseFromString(bytes)) return absl::InternalError("parse failed");
  return HloShardingFromProto(parsed);
}

class OpShardingRoundTripTest : public ::testing::TestWithParam<const char*> {};

TEST_P(OpShardingRoundTripTest, SerializedShardingParsesBackEqual) {
  HloSharding sharding = *HloSharding::Parse(GetParam());
  absl::StatusOr<HloSharding> back = ThroughBytes(sharding);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(back->ToString(), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    AllForms, OpShardingRoundTripTest,
    ::testing::Values("{replicated}", "{manual}", "{unreduced}", "{maximal device=3}",
                      "{devices=[2,4]0,1,2,3,4,5,6,7}", "{devices=[4,2]<=[2,4]T(1,0)}",
                      "{devices=[8]<=[8]}", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}",
                      "{devices=[2,1,4,2]<=[16] last_tile_dims={manual, replicated}}",
                      "{devices=[2,2,2]<=[8] last_tile_dims={manual, unreduced}}",
                      "{{replicated}, {devices=[2]0,1}}", "{}"));

// Hex digits to bytes, ignoring spaces.
std::string Bytes(const std::string& hex) {
  std::string bytes;
  std::string digits;
  for (char c : hex) {
    if (c != ' ') digits += c;
  }
  for (size_t i = 0; i + 1 < digits.size(); i += 2) {
    bytes += static_cast<char>(std::stoi(digits.substr(i, 2), nullptr, 16));
  }
  return bytes;
}

TEST(OpShardingWireTest, HandWrittenIotaBytesParse) {
  // {devices=[4,2]<=[2,4]T(1,0)} as XLA writes it. A tag is (field << 3) | wire type; repeated
  // int fields are packed (wire type 2: tag, byte length, values).
  //   08 03        type (field 1, varint) = OTHER (3)
  //   1A 02 04 02  tile_assignment_dimensions (field 3) = [4, 2]
  //   4A 02 02 04  iota_reshape_dims (field 9) = [2, 4]
  //   52 02 01 00  iota_transpose_perm (field 10) = [1, 0]
  OpSharding proto;
  ASSERT_TRUE(proto.ParseFromString(Bytes("08 03  1A 02 04 02  4A 02 02 04  52 02 01 00")));
  absl::StatusOr<HloSharding> sharding = HloShardingFromProto(proto);
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(sharding->ToString(), "{devices=[4,2]<=[2,4]T(1,0)}");
}

TEST(OpShardingWireTest, HandWrittenTupleBytesParseAndKeepUnknownFields) {
  // A tuple (type 2) of four leaves, each in tuple_shardings (field 5, tag 2A, length-prefixed):
  //   2A 00          {replicated}: every field at its default, so nothing is written
  //   2A 12 ...      18 bytes: 08 03 (OTHER), 12 02 10 0B (tile_shape, field 2: a ShapeProto
  //                  with element_type F32 = 11, which Tessel does not read),
  //                  1A 02 02 02 (dims [2,2]), 22 04 00 01 02 03 (devices, field 4),
  //                  30 01 (replicate_on_last_tile_dim, field 6)
  //   2A 11 ...      17 bytes: 08 03, 1A 03 02 02 02 (dims [2,2,2]),
  //                  42 02 04 00 (last_tile_dims, field 8 = [MANUAL, REPLICATED]),
  //                  4A 01 08 (iota_reshape_dims [8]), 52 01 00 (perm [0])
  //   2A 08 ...      8 bytes: 08 01 (MAXIMAL), 1A 01 01 (dims [1]), 22 01 03 (device 3)
  const std::string bytes = Bytes(
      "08 02"
      " 2A 00"
      " 2A 12 08 03 12 02 10 0B 1A 02 02 02 22 04 00 01 02 03 30 01"
      " 2A 11 08 03 1A 03 02 02 02 42 02 04 00 4A 01 08 52 01 00"
      " 2A 08 08 01 1A 01 01 22 01 03");
  OpSharding proto;
  ASSERT_TRUE(proto.ParseFromString(bytes));
  absl::StatusOr<HloSharding> sharding = HloShardingFromProto(proto);
  ASSERT_THAT(sharding, IsOk());
  EXPECT_EQ(sharding->ToString(),
            "{{replicated}, {devices=[2,2]0,1,2,3 last_tile_dim_replicate}, "
            "{devices=[2,2,2]<=[8] last_tile_dims={manual, replicated}}, {maximal device=3}}");
  // The tile shape Tessel does not read is kept as an unknown field and survives a
  // reserialization (protobuf writes unknown fields last, so the order of bytes changes).
  std::string again;
  ASSERT_TRUE(proto.SerializeToString(&again));
  OpSharding reparsed;
  ASSERT_TRUE(reparsed.ParseFromString(again));
  const OpSharding& leaf = reparsed.tuple_shardings(1);
  const google::protobuf::UnknownFieldSet& unknown = leaf.GetReflection()->GetUnknownFields(leaf);
  ASSERT_EQ(unknown.field_count(), 1);
  EXPECT_EQ(unknown.field(0).number(), 2);
  EXPECT_EQ(again.size(), bytes.size());
}

TEST(OpShardingWireTest, RejectsWhatTesselCannotRepresent) {
  OpSharding unknown;
  unknown.set_type(OpSharding::UNKNOWN);
  EXPECT_THAT(HloShardingFromProto(unknown), StatusIs(absl::StatusCode::kUnimplemented, "UNKNOWN"));
  OpSharding group;
  group.set_is_shard_group(true);
  group.set_shard_group_id(7);
  EXPECT_THAT(HloShardingFromProto(group),
              StatusIs(absl::StatusCode::kUnimplemented, "shard group 7"));
  // named_sharding (field 14, length-delimited: tag 72) with an empty message.
  OpSharding named;
  ASSERT_TRUE(named.ParseFromString(Bytes("72 00")));
  EXPECT_THAT(HloShardingFromProto(named), StatusIs(absl::StatusCode::kUnimplemented, "field 14"));
}

TEST(OpShardingWireTest, RejectsMalformedTileAssignments) {
  constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
  OpSharding both = HloShardingToProto(*HloSharding::Parse("{devices=[2]<=[2]}"));
  both.add_tile_assignment_devices(0);
  both.add_tile_assignment_devices(1);
  EXPECT_THAT(HloShardingFromProto(both), StatusIs(kInvalid, "exactly one of"));
  OpSharding maximal;
  maximal.set_type(OpSharding::MAXIMAL);
  EXPECT_THAT(HloShardingFromProto(maximal), StatusIs(kInvalid, "names one device, got 0"));
  OpSharding twice =
      HloShardingToProto(*HloSharding::Parse("{devices=[2,2]<=[4] last_tile_dim_replicate}"));
  twice.add_last_tile_dims(OpSharding::REPLICATED);
  EXPECT_THAT(HloShardingFromProto(twice), StatusIs(kInvalid, "set one"));
  OpSharding bad_type = HloShardingToProto(*HloSharding::Parse("{devices=[2,2]<=[4]}"));
  bad_type.add_last_tile_dims(OpSharding::MAXIMAL);
  EXPECT_THAT(HloShardingFromProto(bad_type), StatusIs(kInvalid, "MAXIMAL is not manual"));
  OpSharding bad_iota = HloShardingToProto(*HloSharding::Parse("{devices=[2,2]<=[4]}"));
  bad_iota.add_iota_transpose_perm(1);
  EXPECT_THAT(HloShardingFromProto(bad_iota), StatusIs(kInvalid, "must have 1 entries"));
  OpSharding tuple;
  tuple.set_type(OpSharding::TUPLE);
  *tuple.add_tuple_shardings() = maximal;
  EXPECT_THAT(HloShardingFromProto(tuple), StatusIs(kInvalid, "tuple element 0: a maximal"));
}

TEST(MeshProtoTest, RoundTripsAndValidates) {
  Mesh mesh = *Mesh::Create({{"x", 2}, {"y", 2}}, {3, 2, 1, 0});
  absl::StatusOr<Mesh> back = MeshFromProto(MeshToProto(mesh));
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, mesh);
  MeshProto bad = MeshToProto(mesh);
  bad.add_device_ids(4);
  EXPECT_THAT(MeshFromProto(bad),
              StatusIs(absl::StatusCode::kInvalidArgument, "must have 4 entries"));
}

TEST(TensorShardingProtoTest, RoundTripsEveryField) {
  TensorSharding sharding("mesh",
                          {DimSharding({AxisRef("x"), AxisRef("y", 2, 2)}, /*is_closed=*/false, 1),
                           DimSharding({}, /*is_closed=*/true)},
                          {AxisRef("y", 1, 2)}, {AxisRef("z")});
  EXPECT_EQ(TensorShardingFromProto(TensorShardingToProto(sharding)), sharding);
  // An absent priority stays absent; 0 is a priority.
  sharding.dims[0].priority = 0;
  sharding.dims[1].priority.reset();
  EXPECT_EQ(TensorShardingFromProto(TensorShardingToProto(sharding)), sharding);
}

TEST(DeviceAssignmentProtoTest, RoundTripsInXlaLayout) {
  DeviceAssignment assignment{2, 3, {0, 1, 2, 3, 4, 5}};
  DeviceAssignmentProto proto = DeviceAssignmentToProto(assignment);
  // XLA stores one list per computation, indexed by replica.
  ASSERT_EQ(proto.computation_devices_size(), 3);
  EXPECT_EQ(proto.computation_devices(1).replica_device_ids(1), 4);
  absl::StatusOr<DeviceAssignment> back = DeviceAssignmentFromProto(proto);
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(*back, assignment);
}

TEST(DeviceAssignmentProtoTest, RejectsInconsistentAssignments) {
  constexpr auto kInvalid = absl::StatusCode::kInvalidArgument;
  DeviceAssignmentProto proto = DeviceAssignmentToProto({1, 2, {0, 1}});
  proto.set_computation_count(3);
  EXPECT_THAT(DeviceAssignmentFromProto(proto), StatusIs(kInvalid, "3 computations but 2"));
  proto = DeviceAssignmentToProto({1, 2, {0, 1}});
  proto.mutable_computation_devices(0)->add_replica_device_ids(5);
  EXPECT_THAT(DeviceAssignmentFromProto(proto), StatusIs(kInvalid, "computation 0 lists 2"));
  EXPECT_THAT(DeviceAssignmentFromProto(DeviceAssignmentToProto({1, 2, {1, 1}})),
              StatusIs(kInvalid, "device id 1 is assigned twice"));
  EXPECT_THAT((DeviceAssignment{0, 1, {}}.Validate()), StatusIs(kInvalid, "at least one replica"));
  EXPECT_THAT((DeviceAssignment{1, 1, {-1}}.Validate()),
              StatusIs(kInvalid, "must not be negative"));
}

}  // namespace
}  // namespace tessel::sharding
