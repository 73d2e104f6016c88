// Output that fails loudly: every file and stream a tool writes goes through here, so that a
// full disk, a closed pipe or an unwritable path is an error ("cannot write PATH: REASON")
// rather than exit status 0 with a truncated result.
//
// OutputFile writes a named file under a temporary name in the same directory and renames it
// into place only once every byte has reached the file, so a failed write leaves no partial
// file behind (and an older file of that name stays as it was). Paths that are not regular
// files (/dev/stdout, /dev/full, a FIFO) cannot be renamed onto; they are written directly
// and still checked.
//
//   TESSEL_ASSIGN_OR_RETURN(std::unique_ptr<OutputFile> file, OutputFile::Open(path));
//   file->stream() << text;
//   TESSEL_RETURN_IF_ERROR(file->Commit());
#ifndef TESSEL_SUPPORT_OUTPUT_FILE_H_
#define TESSEL_SUPPORT_OUTPUT_FILE_H_

#include <memory>
#include <ostream>
#include <streambuf>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessel {

// A buffered streambuf over a POSIX file descriptor (not owned) that keeps the errno of the
// first failed write. iostreams only keep a "bad" bit, and by the time a caller looks, errno
// may describe something else; this keeps the reason for the message.
class FdStreambuf : public std::streambuf {
 public:
  explicit FdStreambuf(int fd);
  ~FdStreambuf() override;
  FdStreambuf(const FdStreambuf&) = delete;
  FdStreambuf& operator=(const FdStreambuf&) = delete;

  // Writes out what is buffered; returns the errno of the first failure so far, or 0.
  int Flush();
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override;
  std::streamsize xsputn(const char* data, std::streamsize size) override;
  int sync() override;

 private:
  bool WriteAll(const char* data, size_t size);

  int fd_;
  int error_ = 0;
  char buffer_[1 << 16];
};

// An ostream on file descriptor `fd` whose failures can be reported with their reason; main()
// uses one on descriptor 1 for standard output.
class CheckedStream {
 public:
  explicit CheckedStream(int fd) : buffer_(fd), stream_(&buffer_) {}
  std::ostream& stream() { return stream_; }
  // Flushes; fails with "cannot write <what>: <strerror>" if any write failed.
  absl::Status Finish(absl::string_view what);

 private:
  FdStreambuf buffer_;
  std::ostream stream_;
};

class OutputFile {
 public:
  // Opens `path` for writing (a temporary file beside it, if it is or will be a regular
  // file). Fails with "cannot write <path>: <strerror>".
  static absl::StatusOr<std::unique_ptr<OutputFile>> Open(absl::string_view path);
  // Removes the temporary file unless Commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  std::ostream& stream() { return stream_; }
  const std::string& path() const { return path_; }

  // Flushes and closes the file and renames it into place. On failure nothing is left under
  // either name, and the status says "cannot write <path>: <strerror>".
  absl::Status Commit();

 private:
  OutputFile(std::string path, std::string temporary, int fd);

  std::string path_;
  std::string temporary_;  // empty when writing `path_` directly
  int fd_;
  FdStreambuf buffer_;
  std::ostream stream_;
  bool committed_ = false;
};

// Writes `contents` to `path` through an OutputFile.
absl::Status WriteOutputFile(absl::string_view path, absl::string_view contents);

// The message every write failure uses: "cannot write <what>: <strerror(error)>".
std::string CannotWriteMessage(absl::string_view what, int error);

}  // namespace tessel

#endif  // TESSEL_SUPPORT_OUTPUT_FILE_H_
