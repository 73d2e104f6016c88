// Programs imported from XLA HLO text: their GSPMD shardings become the program's, and
// they partition and verify like built ones; bad text and missing files are named.
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/verify.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

constexpr char kRowSplitDot[] = R"(HloModule row_split_dot, entry_computation_layout={(f32[8,4]{1,0}, f32[4,6]{1,0})->f32[8,6]{1,0}}

ENTRY main {
  x = f32[8,4]{1,0} parameter(0), sharding={devices=[2,1]<=[2]}
  w = f32[4,6]{1,0} parameter(1), sharding={replicated}
  ROOT d = f32[8,6]{1,0} dot(x, w), lhs_contracting_dims={1}, rhs_contracting_dims={0}
}
)";

TEST(HloProgramTest, ShardingsComeAlongAndThePartitionVerifies) {
  absl::StatusOr<Program> program = Program::FromHloText(kRowSplitDot);
  ASSERT_THAT(program, IsOk());
  ASSERT_EQ(program->meshes().size(), 1u);
  EXPECT_EQ(program->meshes()[0].num_devices(), 2);
  absl::StatusOr<std::vector<std::optional<Sharding>>> shardings =
      program->parameter_shardings();
  ASSERT_THAT(shardings, IsOk());
  ASSERT_EQ(shardings->size(), 2u);
  ASSERT_TRUE((*shardings)[0].has_value());
  EXPECT_THAT((*shardings)[0]->ToString(), ::testing::HasSubstr("[{\"axis_0\"}, {}]"));

  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, 2);
  // Rows split, the weight whole: each device multiplies its rows, nothing moves.
  EXPECT_EQ(partitioned->collectives.total_count(), 0) << partitioned->collectives;
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/4);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

// Values on one device live on one-device meshes beside the program's mesh; the program
// still runs on the program mesh's devices (the one-device meshes name theirs by id).
constexpr char kOneDeviceValues[] = R"(HloModule one_device_values, num_partitions=4

ENTRY main {
  x = f32[8,4]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}
  w = f32[8,4]{1,0} parameter(1), sharding={maximal device=3}
  s = f32[8,4]{1,0} add(x, w), sharding={maximal device=1}
  ROOT n = f32[8,4]{1,0} negate(s), sharding={devices=[4,1]<=[4]}
}
)";

TEST(HloProgramTest, ValuesOnOneDevicePartitionOnTheProgramsDevices) {
  absl::StatusOr<Program> program = Program::FromHloText(kOneDeviceValues);
  ASSERT_THAT(program, IsOk());
  EXPECT_EQ(program->meshes().size(), 3u);
  absl::StatusOr<PartitionResult> partitioned = Partition(*program);
  ASSERT_THAT(partitioned, IsOk());
  EXPECT_EQ(partitioned->num_partitions, 4);
  absl::StatusOr<VerifyReport> report = Verify(*program, *partitioned, /*seed=*/5);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << *report;
}

TEST(HloProgramTest, BadTextAndMissingFilesAreNamed) {
  EXPECT_THAT(Program::FromHloText("HloModule m\n\nENTRY main {\n"
                                   "  x = f32[2]{0} parameter(0)\n"
                                   "  ROOT y = f32[2]{0} frobnicate(x)\n}\n"),
              StatusIs(absl::StatusCode::kInvalidArgument, "program.hlo:5:"));
  EXPECT_THAT(Program::FromHloFile("no/such/model.hlo"),
              StatusIs(absl::StatusCode::kNotFound, "no/such/model.hlo"));
}

}  // namespace
}  // namespace tessel
