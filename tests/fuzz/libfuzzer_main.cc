// The libFuzzer entry point of one fuzz target; BUILD compiles this file once per target with
// TESSEL_FUZZ_ENTRY naming its function (fuzz_targets.h). Built with --config=fuzz only.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tessel::fuzz::TESSEL_FUZZ_ENTRY(data, size);
}
