// Tests of the hardware spec: the built-in default, text loading and its checks, and the
// link chosen for a group of axes.
#include "cost_model/hardware_spec.h"

#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel::cost_model {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

constexpr char kTwoLevelSpec[] = R"pb(
  name: "two nodes"
  flops_per_second: 1e15
  memory_bandwidth_bytes_per_second: 2e12
  memory_capacity_bytes: 1000
  default_link { bandwidth_bytes_per_second: 4e11 latency_seconds: 1e-6 }
  axis_links {
    axis: "data"
    link { bandwidth_bytes_per_second: 5e10 latency_seconds: 1e-5 }
  }
)pb";

TEST(HardwareSpecTest, DefaultIsAValidSpec) {
  const HardwareSpec& spec = DefaultHardwareSpec();
  EXPECT_DOUBLE_EQ(spec.flops_per_second(), 989e12);
  EXPECT_DOUBLE_EQ(spec.memory_bandwidth_bytes_per_second(), 3.35e12);
  EXPECT_EQ(spec.memory_capacity_bytes(), 80000000000);
  EXPECT_DOUBLE_EQ(spec.default_link().bandwidth_bytes_per_second(), 450e9);
  EXPECT_DOUBLE_EQ(spec.default_link().latency_seconds(), 2e-6);
  // The default's own text passes the checks a loaded file must pass, and says exactly
  // what the built-in spec holds (which is built field by field, without parsing).
  absl::StatusOr<HardwareSpec> parsed = ParseHardwareSpec(DefaultHardwareSpecText(), "default");
  ASSERT_THAT(parsed, IsOk());
  EXPECT_EQ(parsed->SerializeAsString(), spec.SerializeAsString());
}

TEST(HardwareSpecTest, ParsesAxisLinks) {
  absl::StatusOr<HardwareSpec> spec = ParseHardwareSpec(kTwoLevelSpec, "two.textproto");
  ASSERT_THAT(spec, IsOk());
  EXPECT_EQ(spec->name(), "two nodes");
  ASSERT_EQ(spec->axis_links_size(), 1);
  EXPECT_EQ(spec->axis_links(0).axis(), "data");
}

TEST(HardwareSpecTest, LoadsAFile) {
  std::string path = std::string(getenv("TEST_TMPDIR")) + "/spec.textproto";
  std::ofstream(path) << kTwoLevelSpec;
  absl::StatusOr<HardwareSpec> spec = LoadHardwareSpec(path);
  ASSERT_THAT(spec, IsOk());
  EXPECT_DOUBLE_EQ(spec->flops_per_second(), 1e15);
}

TEST(HardwareSpecTest, MissingFileIsNotFound) {
  EXPECT_THAT(LoadHardwareSpec("/nonexistent/spec.textproto"),
              StatusIs(absl::StatusCode::kNotFound, "/nonexistent/spec.textproto"));
}

TEST(HardwareSpecTest, SyntaxErrorIsLocated) {
  // An unknown field on line 2 (the parser points after its name).
  EXPECT_THAT(ParseHardwareSpec("name: \"x\"\nflops: 3\n", "bad.textproto"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "bad.textproto:2:6: Message type \"tessel.cost_model.HardwareSpec\" "
                       "has no field named \"flops\""));
}

TEST(HardwareSpecTest, RejectsMissingOrNonPositiveNumbers) {
  EXPECT_THAT(ParseHardwareSpec("", "empty"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "empty: flops_per_second must be positive and finite, got 0"));
  std::string no_link = R"pb(flops_per_second: 1 memory_bandwidth_bytes_per_second: 1
                             memory_capacity_bytes: 1)pb";
  EXPECT_THAT(ParseHardwareSpec(no_link, "s"),
              StatusIs(absl::StatusCode::kInvalidArgument, "s: default_link is missing"));
  EXPECT_THAT(ParseHardwareSpec(no_link + " default_link { latency_seconds: 1 }", "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: default_link: bandwidth_bytes_per_second must be positive"));
  EXPECT_THAT(ParseHardwareSpec(no_link + R"pb( default_link {
                                  bandwidth_bytes_per_second: 1 latency_seconds: -1 })pb",
                                "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: default_link: latency_seconds must be finite and not negative, got -1"));
  EXPECT_THAT(ParseHardwareSpec(R"pb(flops_per_second: 1 memory_bandwidth_bytes_per_second: 1
                                   memory_capacity_bytes: -5)pb",
                                "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: memory_capacity_bytes must be positive and finite, got -5"));
}

// Protobuf text reads "inf" and "nan" as doubles; an infinite latency times zero hops is
// NaN, which no comparison of plans survives.
TEST(HardwareSpecTest, RejectsInfiniteAndNanNumbers) {
  std::string base = R"pb(memory_bandwidth_bytes_per_second: 1 memory_capacity_bytes: 1)pb";
  EXPECT_THAT(ParseHardwareSpec(base + " flops_per_second: inf", "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: flops_per_second must be positive and finite, got inf"));
  EXPECT_THAT(ParseHardwareSpec(base + " flops_per_second: nan", "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: flops_per_second must be positive and finite, got nan"));
  std::string with_flops = base + " flops_per_second: 1";
  EXPECT_THAT(ParseHardwareSpec(with_flops + R"pb( default_link {
                                  bandwidth_bytes_per_second: 1 latency_seconds: inf })pb",
                                "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: default_link: latency_seconds must be finite and not negative, got inf"));
  EXPECT_THAT(ParseHardwareSpec(with_flops + R"pb( default_link {
                                  bandwidth_bytes_per_second: inf })pb",
                                "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "s: default_link: bandwidth_bytes_per_second must be positive and finite"));
}

TEST(HardwareSpecTest, RejectsBadAxisLinks) {
  std::string base = R"pb(flops_per_second: 1 memory_bandwidth_bytes_per_second: 1
                          memory_capacity_bytes: 1
                          default_link { bandwidth_bytes_per_second: 1 })pb";
  EXPECT_THAT(ParseHardwareSpec(base + R"pb( axis_links {
                                  link { bandwidth_bytes_per_second: 1 } })pb",
                                "s"),
              StatusIs(absl::StatusCode::kInvalidArgument, "an axis_links entry has no axis"));
  EXPECT_THAT(ParseHardwareSpec(base + " axis_links { axis: \"x\" }", "s"),
              StatusIs(absl::StatusCode::kInvalidArgument, "axis \"x\": link is missing"));
  std::string x = " axis_links { axis: \"x\" link { bandwidth_bytes_per_second: 1 } }";
  EXPECT_THAT(ParseHardwareSpec(base + x + x, "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "axis \"x\" is listed twice in axis_links"));
  EXPECT_THAT(ParseHardwareSpec(base + " axis_links { axis: \"x\" link { } }", "s"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "axis \"x\": bandwidth_bytes_per_second must be positive"));
}

TEST(HardwareSpecTest, UnnamedAxesUseTheDefaultLink) {
  HardwareSpec spec = *ParseHardwareSpec(kTwoLevelSpec, "two");
  EXPECT_DOUBLE_EQ(LinkForAxes(spec, {"model"}).bandwidth_bytes_per_second(), 4e11);
  EXPECT_DOUBLE_EQ(LinkForAxes(spec, {}).bandwidth_bytes_per_second(), 4e11);
  EXPECT_DOUBLE_EQ(LinkForAxes(spec, {"data"}).bandwidth_bytes_per_second(), 5e10);
}

TEST(HardwareSpecTest, GroupOverSeveralAxesUsesTheSlowestLink) {
  HardwareSpec spec = *ParseHardwareSpec(kTwoLevelSpec, "two");
  Link link = LinkForAxes(spec, {"model", "data"});
  EXPECT_DOUBLE_EQ(link.bandwidth_bytes_per_second(), 5e10);
  EXPECT_DOUBLE_EQ(link.latency_seconds(), 1e-5);
}

}  // namespace
}  // namespace tessel::cost_model
