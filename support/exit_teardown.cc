// See exit_teardown.h.
#include "support/exit_teardown.h"

#include <atomic>

namespace tessel {
namespace {

std::atomic<bool> skipTeardown{false};

}  // namespace

void SkipTeardownAtExit() { skipTeardown = true; }

bool TeardownSkippedAtExit() { return skipTeardown; }

}  // namespace tessel
