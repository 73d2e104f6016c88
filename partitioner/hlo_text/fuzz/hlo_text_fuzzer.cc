// libFuzzer entry point of the HLO text parser's fuzz target; built with --config=fuzz
// (clang, -fsanitize=fuzzer,address). See docs/hlo.md for how to run it.
#include <cstddef>
#include <cstdint>

#include "partitioner/hlo_text/fuzz/fuzz_entry.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return tessel::hlo_text::FuzzHloText(data, size);
}
