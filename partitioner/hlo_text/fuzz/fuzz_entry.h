// The body of the HLO text parser's fuzz target, shared by the libFuzzer binary and by the
// regression test that replays the seed corpus and every crash input ever found, so that a
// fixed bug stays fixed in the ordinary test suite.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_FUZZ_FUZZ_ENTRY_H_
#define TESSEL_PARTITIONER_HLO_TEXT_FUZZ_FUZZ_ENTRY_H_

#include <cstddef>
#include <cstdint>

namespace tessel::hlo_text {

// Imports `size` bytes as HLO text into a fresh context, verifies the module and, when it
// imported, exports it back to text. Rejected input is fine; only crashes, hangs and
// sanitizer reports are findings. Returns 0, as libFuzzer expects.
int FuzzHloText(const uint8_t* data, size_t size);

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_FUZZ_FUZZ_ENTRY_H_
