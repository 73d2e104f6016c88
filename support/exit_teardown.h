// Lets a command-line tool skip freeing what its one command built (an MLIR context with
// its modules: millions of small blocks for a large program) when the process ends right
// after: the operating system takes the memory back at once, and at 1M instructions the
// frees took about 3% of `tessel partition`'s CPU time (docs/benchmarks.md).
//
// Only the tool's main() turns this on, before it runs the command; code that runs
// commands in-process (tests, the API) keeps destroying everything. A command that skips
// hands its objects to llvm::BuryPointer, which keeps them reachable so that leak checkers
// do not report them.
#ifndef TESSEL_SUPPORT_EXIT_TEARDOWN_H_
#define TESSEL_SUPPORT_EXIT_TEARDOWN_H_

namespace tessel {

// Called by main(): the process exits once the running command returns.
void SkipTeardownAtExit();

// Whether SkipTeardownAtExit was called.
bool TeardownSkippedAtExit();

}  // namespace tessel

#endif  // TESSEL_SUPPORT_EXIT_TEARDOWN_H_
