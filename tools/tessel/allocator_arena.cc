// Gives mimalloc, the tessel command's allocator, one arena of address space to take its
// memory from, mapped before main(): readable and writable from the start ("committed" in
// mimalloc's terms), though on Linux a page takes memory only when first touched. Without
// it, mimalloc maps each large block from the system and returns it when freed, so memory
// that one stage frees (the parsed HLO text's instructions, the propagation graph) is
// faulted in again, page by page, by the next: at 1M instructions that was 500k page
// faults for a 1.1 GiB peak, and 310k with the arena, 6% of the run (docs/benchmarks.md).
// Where the process may not map that much address space (ulimit -v), mimalloc works as
// before.
#include <mimalloc.h>

#include <cstddef>

namespace tessel::cli {
namespace {

// Enough for programs of several million instructions; address space is not memory.
constexpr size_t kArenaBytes = size_t{8} << 30;

const bool kArenaReserved = [] {
  return mi_reserve_os_memory(kArenaBytes, /*commit=*/true, /*allow_large=*/false) == 0;
}();

}  // namespace
}  // namespace tessel::cli
