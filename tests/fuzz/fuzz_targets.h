// The bodies of Tessel's fuzz targets besides the HLO text parser's (which lives beside its
// parser, partitioner/hlo_text/fuzz/). Each takes the bytes libFuzzer hands it, returns 0,
// and stops the process (Finding) when a promise is broken: rejected input is fine, a crash,
// a hang, a sanitizer report or a wrong answer is not. The same functions run in the libFuzzer
// binaries (--config=fuzz) and in fuzz_regression_test, which replays every committed seed
// and every input that once failed, in the ordinary test suite.
#ifndef TESSEL_TESTS_FUZZ_FUZZ_TARGETS_H_
#define TESSEL_TESTS_FUZZ_FUZZ_TARGETS_H_

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessel::fuzz {

// Sharding text in every form Tessel reads: GSPMD's `{devices=[2,2]<=[4]}` (must print and
// parse back to itself, and convert to a mesh sharding and back to the same placement),
// Shardy's `#sdy.sharding<...>` / `#sdy.sharding_per_value<...>` (and through them the
// tessel dialect's sharding attribute parser), and `xla.sdy.meshes` dictionaries.
int FuzzShardingText(const uint8_t* data, size_t size);

// A .npy file: one that reads must write back and read to the same tensor.
int FuzzNpy(const uint8_t* data, size_t size);

// A hardware spec in protobuf text: one that is accepted must give every collective a
// non-negative time that is not NaN.
int FuzzHardwareSpec(const uint8_t* data, size_t size);

// A small program in MLIR text (an `// options:` line as the differential regression cases
// write it is honoured) through parse, propagation, partitioning and both runs: once the
// single-device run succeeds, the partitioned program must verify, run, and give the same
// results. Programs beyond a few thousand elements per value, 16 devices or 64 loop
// iterations are skipped, so that every input runs in milliseconds.
int FuzzPipeline(const uint8_t* data, size_t size);

// What FuzzPipeline made of one program (a broken promise never returns): skipped (not a
// small program, or not parsed), rejected (the single-device run or the partitioner
// refused it with an error), or passed (both runs agree).
enum class PipelineVerdict { kSkipped, kRejected, kPassed };
PipelineVerdict CheckPipeline(const std::string& text);

// Reports a broken promise on stderr and aborts, so that libFuzzer keeps the input and the
// regression test fails on it.
[[noreturn]] void Finding(const char* target, const char* what);

}  // namespace tessel::fuzz

#endif  // TESSEL_TESTS_FUZZ_FUZZ_TARGETS_H_
