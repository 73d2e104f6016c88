// Tests of the status macros and matchers.
#include "support/status_macros.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

absl::StatusOr<int> Half(int value) {
  if (value % 2 != 0) return absl::InvalidArgumentError("odd value");
  return value / 2;
}

absl::StatusOr<int> Quarter(int value) {
  TESSEL_ASSIGN_OR_RETURN(int half, Half(value));
  TESSEL_ASSIGN_OR_RETURN(int quarter, Half(half));
  return quarter;
}

absl::Status CheckEven(int value) {
  TESSEL_RETURN_IF_ERROR(Half(value).status());
  return absl::OkStatus();
}

TEST(StatusMacrosTest, AssignOrReturnPassesValuesThrough) {
  absl::StatusOr<int> quarter = Quarter(8);
  ASSERT_THAT(quarter, IsOk());
  EXPECT_EQ(*quarter, 2);
}

TEST(StatusMacrosTest, AssignOrReturnStopsAtTheFirstError) {
  // 6 halves to 3, which is odd: the second call fails.
  EXPECT_THAT(Quarter(6), StatusIs(absl::StatusCode::kInvalidArgument, "odd value"));
}

TEST(StatusMacrosTest, ReturnIfErrorPropagatesErrors) {
  EXPECT_THAT(CheckEven(4), IsOk());
  EXPECT_THAT(CheckEven(5), StatusIs(absl::StatusCode::kInvalidArgument, "odd"));
}

TEST(StatusMatchersTest, StatusIsRejectsWrongCodeOrMessage) {
  absl::Status status = absl::NotFoundError("no such file");
  EXPECT_THAT(status, ::testing::Not(StatusIs(absl::StatusCode::kInternal, "no such file")));
  EXPECT_THAT(status, ::testing::Not(StatusIs(absl::StatusCode::kNotFound, "other text")));
  EXPECT_THAT(status, ::testing::Not(IsOk()));
}

}  // namespace
}  // namespace tessel
