// Tessel's errors as Python exceptions: every failed absl::Status raises `tessel.Error` (a
// ValueError) with Tessel's message, locations included ("program.mlir:3:5: error: ...").
#ifndef TESSEL_PYTHON_EXT_ERRORS_H_
#define TESSEL_PYTHON_EXT_ERRORS_H_

#include <stdexcept>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pybind11/pybind11.h"

namespace tessel::python {

// Thrown by the bindings; pybind11 turns it into tessel.Error (RegisterErrors).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Throws Error with the status's message. REQUIRES: !status.ok().
[[noreturn]] inline void Raise(const absl::Status& status) {
  throw Error(std::string(status.message()));
}

inline void Check(const absl::Status& status) {
  if (!status.ok()) Raise(status);
}

template <typename T>
T Unwrap(absl::StatusOr<T> value) {
  if (!value.ok()) Raise(value.status());
  return *std::move(value);
}

// Adds `Error` to `module`.
void RegisterErrors(pybind11::module_& module);

}  // namespace tessel::python

#endif  // TESSEL_PYTHON_EXT_ERRORS_H_
