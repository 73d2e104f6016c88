// gtest matchers for absl::Status and absl::StatusOr: IsOk() and StatusIs(code, substring).
//
//   EXPECT_THAT(LoadNpy("missing.npy"), StatusIs(absl::StatusCode::kNotFound, "missing.npy"));
//   ASSERT_THAT(result, IsOk());
#ifndef TESSEL_SUPPORT_STATUS_MATCHERS_H_
#define TESSEL_SUPPORT_STATUS_MATCHERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace tessel::testing {

inline const absl::Status& GetStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

MATCHER(IsOk, "is OK") {
  const absl::Status& status = GetStatus(arg);
  if (!status.ok()) *result_listener << "status is " << status.ToString();
  return status.ok();
}

MATCHER_P2(StatusIs, code, message_substring,
           "has code " + absl::StatusCodeToString(code) + " and a message containing \"" +
               std::string(message_substring) + "\"") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status is " << status.ToString();
  return status.code() == code &&
         status.message().find(message_substring) != absl::string_view::npos;
}

}  // namespace tessel::testing

#endif  // TESSEL_SUPPORT_STATUS_MATCHERS_H_
