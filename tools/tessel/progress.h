// Progress of long work on standard error, for people watching a terminal: the stage, and
// while a run goes on the ops run and the partitions finished, on one line rewritten in
// place twice a second. Nothing is shown when standard error is not a terminal or with
// --quiet; TESSEL_PROGRESS=1 shows each stage as a line of its own even then (for logs and
// tests).
//
//   Progress progress("tessel run", ProgressMode(), std::cerr);
//   progress.Stage("running the partitioned program", /*partitions=*/8);
//   runtime::RunLimits limits{...};
//   limits.counters = progress.counters();
//   ...  // the line reads "tessel run: running the partitioned program: 3/8 partitions,
//        //  120413 ops, 2.5 s"
#ifndef TESSEL_TOOLS_TESSEL_PROGRESS_H_
#define TESSEL_TOOLS_TESSEL_PROGRESS_H_

#include <cstdint>
#include <ostream>
#include <string>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "absl/time/time.h"
#include "runtime/run_limits.h"

namespace tessel::cli {

enum class ProgressDisplay {
  kOff,
  kLine,   // a terminal: one line, rewritten in place
  kStages  // TESSEL_PROGRESS=1 without a terminal: a line per stage
};

// What to show, from --quiet, the environment and whether standard error is a terminal.
ProgressDisplay ProgressMode();

class Progress {
 public:
  Progress(std::string command, ProgressDisplay display, std::ostream& err);
  // Clears the line (a terminal's) and stops the ticker.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // Starts a stage; `partitions` > 0 shows partitions finished out of that many. The
  // counters start again from zero.
  void Stage(const std::string& name, int64_t partitions = 0);
  // Ends the current stage: the line is cleared, before the command prints its results.
  void Done();
  // For RunLimits::counters: what the current stage's run counts into.
  runtime::RunCounters* counters() { return &counters_; }

 private:
  void Tick();
  std::string Line() const ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const std::string command_;
  const ProgressDisplay display_;
  std::ostream& err_;
  runtime::RunCounters counters_;
  mutable absl::Mutex mu_;
  std::string stage_ ABSL_GUARDED_BY(mu_);
  int64_t partitions_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Time stage_start_ ABSL_GUARDED_BY(mu_);
  absl::Notification done_;
  std::thread ticker_;
};

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_PROGRESS_H_
