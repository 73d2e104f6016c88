// The progress line of long `tessel` commands (progress.h).
#include "tools/tessel/progress.h"

#include <unistd.h>

#include <cstdlib>

#include "absl/flags/flag.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/clock.h"
#include "tools/tessel/common_flags.h"

namespace tessel::cli {
namespace {

// Written straight to the descriptor: the ticker thread must not share the std::ostream the
// command prints its messages to.
void WriteToTerminal(const std::string& text) {
  size_t written = 0;
  while (written < text.size()) {
    ssize_t n = ::write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (n <= 0) return;  // a closed terminal: the progress line is not worth an error
    written += static_cast<size_t>(n);
  }
}

constexpr char kClearLine[] = "\r\033[K";

}  // namespace

ProgressDisplay ProgressMode() {
  if (absl::GetFlag(FLAGS_quiet)) return ProgressDisplay::kOff;
  const char* term = std::getenv("TERM");
  if (::isatty(STDERR_FILENO) && !(term != nullptr && std::string(term) == "dumb")) {
    return ProgressDisplay::kLine;
  }
  const char* forced = std::getenv("TESSEL_PROGRESS");
  if (forced != nullptr && std::string(forced) == "1") return ProgressDisplay::kStages;
  return ProgressDisplay::kOff;
}

Progress::Progress(std::string command, ProgressDisplay display, std::ostream& err)
    : command_(std::move(command)), display_(display), err_(err) {
  if (display_ != ProgressDisplay::kLine) return;
  ticker_ = std::thread([this] {
    while (!done_.WaitForNotificationWithTimeout(absl::Milliseconds(500))) Tick();
  });
}

Progress::~Progress() {
  if (display_ != ProgressDisplay::kLine) return;
  done_.Notify();
  ticker_.join();
  WriteToTerminal(kClearLine);
}

void Progress::Stage(const std::string& name, int64_t partitions) {
  if (display_ == ProgressDisplay::kOff) return;
  counters_.ops.store(0, std::memory_order_relaxed);
  counters_.partitions_done.store(0, std::memory_order_relaxed);
  absl::MutexLock lock(&mu_);
  stage_ = name;
  partitions_ = partitions;
  stage_start_ = absl::Now();
  if (display_ == ProgressDisplay::kStages) {
    err_ << command_ << ": " << name
         << (partitions > 0 ? absl::StrCat(" (", partitions, " partitions)") : "") << "\n";
    err_.flush();
  }
}

void Progress::Done() {
  if (display_ != ProgressDisplay::kLine) return;
  absl::MutexLock lock(&mu_);
  stage_.clear();
  WriteToTerminal(kClearLine);
}

std::string Progress::Line() const {
  std::string line = absl::StrCat(command_, ": ", stage_);
  if (partitions_ > 0) {
    absl::StrAppend(&line, ": ", counters_.partitions_done.load(std::memory_order_relaxed), "/",
                    partitions_, " partitions,");
  }
  const int64_t ops = counters_.ops.load(std::memory_order_relaxed);
  if (ops > 0) absl::StrAppend(&line, partitions_ > 0 ? " " : ": ", ops, " ops,");
  absl::StrAppend(&line, absl::StrFormat(" %.1f s", absl::ToDoubleSeconds(absl::Now() -
                                                                             stage_start_)));
  return line;
}

void Progress::Tick() {
  std::string line;
  {
    absl::MutexLock lock(&mu_);
    if (stage_.empty()) return;
    line = Line();
  }
  WriteToTerminal(absl::StrCat(kClearLine, line));
}

}  // namespace tessel::cli
