// Tests for checked output: a write that fails is an error that names the file, and leaves
// no file behind; a write that succeeds replaces the file whole.
#include "support/output_file.h"

#include <fcntl.h>
#include <dirent.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel {
namespace {

using ::testing::HasSubstr;

std::string TempDir() {
  const char* dir = std::getenv("TEST_TMPDIR");
  return dir != nullptr ? dir : ".";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names in `dir` that start with `prefix`.
int CountStartingWith(const std::string& dir, const std::string& prefix) {
  int count = 0;
  DIR* handle = ::opendir(dir.c_str());
  if (handle == nullptr) return -1;
  while (struct dirent* entry = ::readdir(handle)) {
    if (std::string(entry->d_name).rfind(prefix, 0) == 0) ++count;
  }
  ::closedir(handle);
  return count;
}

bool Exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

TEST(OutputFileTest, WritesAndReplacesAFile) {
  const std::string path = TempDir() + "/replaced.txt";
  std::ofstream(path) << "old contents that are longer";
  ASSERT_TRUE(WriteOutputFile(path, "new").ok());
  EXPECT_EQ(ReadFile(path), "new");
}

TEST(OutputFileTest, LargeWritesArriveWhole) {
  const std::string path = TempDir() + "/large.txt";
  std::string text(1 << 20, 'x');
  text[12345] = 'y';
  ASSERT_TRUE(WriteOutputFile(path, text).ok());
  EXPECT_EQ(ReadFile(path), text);
}

TEST(OutputFileTest, UncommittedFileLeavesNothing) {
  const std::string path = TempDir() + "/abandoned.txt";
  {
    auto file = OutputFile::Open(path);
    ASSERT_TRUE(file.ok());
    (*file)->stream() << "partial";
  }
  EXPECT_FALSE(Exists(path));
  EXPECT_EQ(CountStartingWith(TempDir(), ".abandoned.txt.tmp"), 0);
}

TEST(OutputFileTest, FullDeviceIsAnError) {
  struct stat info;
  // Some containers have a plain file there.
  if (::stat("/dev/full", &info) != 0 || !S_ISCHR(info.st_mode)) {
    GTEST_SKIP() << "no /dev/full device here";
  }
  absl::Status status = WriteOutputFile("/dev/full", "text");
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("cannot write /dev/full: No space left on device"));
}

// A file size limit makes writes fail the way a full disk does (EFBIG for ENOSPC).
TEST(OutputFileTest, FailedWriteLeavesNoFile) {
  const std::string path = TempDir() + "/limited.txt";
  std::ofstream(path) << "previous";
  struct rlimit saved;
  ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &saved), 0);
  auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
  struct rlimit limit = saved;
  limit.rlim_cur = 4;
  ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &limit), 0);
  absl::Status status = WriteOutputFile(path, "more than four bytes");
  ::setrlimit(RLIMIT_FSIZE, &saved);
  std::signal(SIGXFSZ, previous_handler);
  EXPECT_THAT(std::string(status.message()),
              HasSubstr("cannot write " + path + ": File too large"));
  // The old file stays as it was, and no temporary file is left beside it.
  EXPECT_EQ(ReadFile(path), "previous");
  EXPECT_EQ(CountStartingWith(TempDir(), ".limited.txt.tmp"), 0);
}

TEST(OutputFileTest, MissingDirectoryIsAnError) {
  const std::string path = TempDir() + "/no/such/dir/out.txt";
  absl::Status status = WriteOutputFile(path, "text");
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("cannot write " + path + ": No such file"));
}

TEST(OutputFileTest, DirectoryIsAnError) {
  absl::Status status = WriteOutputFile(TempDir(), "text");
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(std::string(status.message()), HasSubstr("Is a directory"));
}

TEST(CheckedStreamTest, ReportsTheReason) {
  // A descriptor open for reading only: every write fails with EBADF.
  int fd = ::open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 0);
  {
    CheckedStream out(fd);
    out.stream() << "text";
    absl::Status status = out.Finish("standard output");
    EXPECT_THAT(std::string(status.message()),
                HasSubstr("cannot write standard output: Bad file descriptor"));
  }
  ::close(fd);
}

TEST(CheckedStreamTest, SucceedsOnAWritableDescriptor) {
  const std::string path = TempDir() + "/stream.txt";
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ASSERT_GE(fd, 0);
  {
    CheckedStream out(fd);
    out.stream() << "line " << 42 << "\n";
    EXPECT_TRUE(out.Finish("standard output").ok());
  }
  ::close(fd);
  EXPECT_EQ(ReadFile(path), "line 42\n");
}

}  // namespace
}  // namespace tessel
