// Finding a fuzz target's committed inputs in a test's runfiles and feeding them to it, for
// the regression tests that replay seed corpora and past findings in the ordinary suite.
#ifndef TESSEL_TESTS_FUZZ_REPLAY_H_
#define TESSEL_TESTS_FUZZ_REPLAY_H_

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace tessel::fuzz {

// Every regular file directly under the runfiles directories `dirs` (workspace-relative),
// README.md and BUILD files left out, sorted. A directory that does not exist adds nothing.
std::vector<std::filesystem::path> InputsUnder(const std::vector<std::string>& dirs);

// The bytes of `path` (a gtest failure, and "", if it cannot be read).
std::string ReadInput(const std::filesystem::path& path);

// Calls `entry` on the bytes of `path` (a gtest failure if it cannot be read); returns what
// `entry` returned.
int ReplayFile(const std::filesystem::path& path, int (*entry)(const uint8_t*, size_t));

}  // namespace tessel::fuzz

#endif  // TESSEL_TESTS_FUZZ_REPLAY_H_
