// Fuzz target: the .npy reader (runtime/npy.h), checked by a write-and-read-back round trip.
#include <string>

#include "absl/strings/string_view.h"
#include "runtime/npy.h"
#include "tests/fuzz/fuzz_targets.h"

namespace tessel::fuzz {

int FuzzNpy(const uint8_t* data, size_t size) {
  absl::string_view bytes(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<runtime::Tensor> read = runtime::ParseNpy(bytes, "fuzz.npy");
  if (!read.ok()) return 0;
  const std::string written = runtime::SerializeNpy(*read);
  absl::StatusOr<runtime::Tensor> again = runtime::ParseNpy(written, "written.npy");
  if (!again.ok()) Finding("npy", "a tensor that was read does not read back once written");
  if (again->type() != read->type() || again->shape() != read->shape() ||
      !again->BitwiseEquals(*read)) {
    Finding("npy", "a tensor written and read back differs from the one read");
  }
  return 0;
}

}  // namespace tessel::fuzz
