// The allocator the tessel command links (third_party/system_libs.BUILD, :mimalloc): linked
// the same way here, malloc, free and operator new must resolve to mimalloc's, not glibc's
// or libstdc++'s. Link order decides that, so a BUILD change that loses it fails here.
#include <dlfcn.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace {

// The file name of the shared object that defines the function at `address`.
std::string DefiningObject(const void* address) {
  Dl_info info{};
  if (dladdr(address, &info) == 0 || info.dli_fname == nullptr) return "";
  return info.dli_fname;
}

TEST(AllocatorTest, MallocFreeAndNewComeFromMimalloc) {
  void* (*malloc_fn)(size_t) = &std::malloc;
  EXPECT_NE(DefiningObject(reinterpret_cast<const void*>(malloc_fn)).find("libmimalloc"),
            std::string::npos);
  void (*free_fn)(void*) = &std::free;
  EXPECT_NE(DefiningObject(reinterpret_cast<const void*>(free_fn)).find("libmimalloc"),
            std::string::npos);
  void* (*new_fn)(size_t) = &::operator new;
  EXPECT_NE(DefiningObject(reinterpret_cast<const void*>(new_fn)).find("libmimalloc"),
            std::string::npos);
}

TEST(AllocatorTest, SmallAndLargeBlocksRoundTrip) {
  std::vector<std::unique_ptr<int[]>> small;
  for (int i = 0; i < 10000; ++i) {
    small.emplace_back(new int[i % 64 + 1]);
    small.back()[0] = i;
  }
  for (int i = 0; i < 10000; ++i) EXPECT_EQ(small[i][0], i);
  // Larger than mimalloc's pages for small sizes: blocks taken from the OS one by one.
  std::vector<char> large(64 << 20, 'x');
  EXPECT_EQ(large[(64 << 20) - 1], 'x');
}

}  // namespace
