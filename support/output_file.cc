// Checked output: a streambuf that remembers why a write failed, and files written under a
// temporary name and renamed into place. See output_file.h.
#include "support/output_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"

namespace tessel {

std::string CannotWriteMessage(absl::string_view what, int error) {
  return absl::StrCat("cannot write ", what, ": ", std::strerror(error));
}

FdStreambuf::FdStreambuf(int fd) : fd_(fd) { setp(buffer_, buffer_ + sizeof(buffer_)); }

FdStreambuf::~FdStreambuf() { Flush(); }

bool FdStreambuf::WriteAll(const char* data, size_t size) {
  // After one failure nothing more is written: the output is already incomplete.
  if (error_ != 0) return false;
  while (size > 0) {
    ssize_t written = ::write(fd_, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      error_ = errno;
      return false;
    }
    if (written == 0) {  // not expected of write(2); treat as no space rather than spin
      error_ = ENOSPC;
      return false;
    }
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

int FdStreambuf::Flush() {
  const size_t pending = static_cast<size_t>(pptr() - pbase());
  if (pending > 0) WriteAll(pbase(), pending);
  setp(buffer_, buffer_ + sizeof(buffer_));
  return error_;
}

FdStreambuf::int_type FdStreambuf::overflow(int_type c) {
  if (Flush() != 0) return traits_type::eof();
  if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
  *pptr() = traits_type::to_char_type(c);
  pbump(1);
  return c;
}

std::streamsize FdStreambuf::xsputn(const char* data, std::streamsize size) {
  if (size <= epptr() - pptr()) {
    std::memcpy(pptr(), data, static_cast<size_t>(size));
    pbump(static_cast<int>(size));
    return size;
  }
  // Larger than what is left of the buffer: write the buffer, then the data itself.
  if (Flush() != 0) return 0;
  if (size < static_cast<std::streamsize>(sizeof(buffer_))) {
    std::memcpy(pptr(), data, static_cast<size_t>(size));
    pbump(static_cast<int>(size));
    return size;
  }
  return WriteAll(data, static_cast<size_t>(size)) ? size : 0;
}

int FdStreambuf::sync() { return Flush() == 0 ? 0 : -1; }

absl::Status CheckedStream::Finish(absl::string_view what) {
  stream_.flush();
  int error = buffer_.Flush();
  if (error == 0 && !stream_) error = EIO;  // a failure the buffer did not see
  if (error != 0) return absl::UnavailableError(CannotWriteMessage(what, error));
  return absl::OkStatus();
}

OutputFile::OutputFile(std::string path, std::string temporary, int fd)
    : path_(std::move(path)),
      temporary_(std::move(temporary)),
      fd_(fd),
      buffer_(fd),
      stream_(&buffer_) {}

absl::StatusOr<std::unique_ptr<OutputFile>> OutputFile::Open(absl::string_view path_view) {
  std::string path(path_view);
  auto failure = [&](int error) {
    return absl::UnavailableError(CannotWriteMessage(path, error));
  };
  struct stat info;
  // lstat: a symbolic link (/dev/stdout among them) is written through, not replaced.
  const bool exists = ::lstat(path.c_str(), &info) == 0;
  if (exists && S_ISDIR(info.st_mode)) return failure(EISDIR);
  if (exists && !S_ISREG(info.st_mode)) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0) return failure(errno);
    return std::unique_ptr<OutputFile>(new OutputFile(path, "", fd));
  }
  // A temporary name in the same directory, so that the final rename stays on one file system.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string pattern = absl::StrCat(dir, ".", base, ".tmp.XXXXXX");
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  int fd = ::mkstemp(name.data());
  if (fd < 0) return failure(errno);
  // mkstemp makes the file 0600; give it the mode a plain create would (an existing file's
  // own mode when one is replaced).
  mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, exists ? (info.st_mode & 07777) : (0666 & ~mask));
  return std::unique_ptr<OutputFile>(new OutputFile(path, std::string(name.data()), fd));
}

OutputFile::~OutputFile() {
  if (committed_) return;
  if (fd_ >= 0) ::close(fd_);
  if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

absl::Status OutputFile::Commit() {
  stream_.flush();
  int error = buffer_.Flush();
  if (error == 0 && !stream_) error = EIO;
  // close() can report a failed write too (on NFS, for one).
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 && error == 0) error = errno;
  if (error == 0 && !temporary_.empty() && ::rename(temporary_.c_str(), path_.c_str()) != 0) {
    error = errno;
  }
  if (error != 0) {
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
    committed_ = true;  // nothing left for the destructor to do
    return absl::UnavailableError(CannotWriteMessage(path_, error));
  }
  committed_ = true;
  return absl::OkStatus();
}

absl::Status WriteOutputFile(absl::string_view path, absl::string_view contents) {
  absl::StatusOr<std::unique_ptr<OutputFile>> file = OutputFile::Open(path);
  if (!file.ok()) return file.status();
  (*file)->stream().write(contents.data(), static_cast<std::streamsize>(contents.size()));
  return (*file)->Commit();
}

}  // namespace tessel
