// Early-return helpers for absl::Status and absl::StatusOr, and gtest matchers for them.
// The installed Abseil predates its own status macros, so Tessel defines them once, here.
//
//   absl::StatusOr<Tensor> Load(const std::string& path) {
//     TESSEL_ASSIGN_OR_RETURN(std::string bytes, ReadFile(path));
//     TESSEL_RETURN_IF_ERROR(CheckHeader(bytes));
//     return Parse(bytes);
//   }
#ifndef TESSEL_SUPPORT_STATUS_MACROS_H_
#define TESSEL_SUPPORT_STATUS_MACROS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"

// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define TESSEL_RETURN_IF_ERROR(expr)                  \
  do {                                                \
    ::absl::Status tessel_status_ = (expr);           \
    if (!tessel_status_.ok()) return tessel_status_;  \
  } while (0)

#define TESSEL_STATUS_CONCAT_INNER(a, b) a##b
#define TESSEL_STATUS_CONCAT(a, b) TESSEL_STATUS_CONCAT_INNER(a, b)

// Evaluates `rexpr` (an absl::StatusOr<T>); on error returns its status, otherwise moves the
// value into `lhs`, which may declare a variable: TESSEL_ASSIGN_OR_RETURN(auto x, F());
#define TESSEL_ASSIGN_OR_RETURN(lhs, rexpr) \
  TESSEL_ASSIGN_OR_RETURN_IMPL(TESSEL_STATUS_CONCAT(tessel_statusor_, __LINE__), lhs, rexpr)

#define TESSEL_ASSIGN_OR_RETURN_IMPL(statusor, lhs, rexpr) \
  auto statusor = (rexpr);                                 \
  if (!statusor.ok()) return std::move(statusor).status(); \
  lhs = std::move(statusor).value()

#endif  // TESSEL_SUPPORT_STATUS_MACROS_H_
