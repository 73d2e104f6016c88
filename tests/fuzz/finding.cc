// How a fuzz target reports a broken promise.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/fuzz_targets.h"

namespace tessel::fuzz {

void Finding(const char* target, const char* what) {
  std::fprintf(stderr, "fuzz finding in %s: %s\n", target, what);
  std::fflush(stderr);
  std::abort();
}

}  // namespace tessel::fuzz
