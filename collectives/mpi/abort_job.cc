// AbortMpiJob (see abort_job.h).
#include "collectives/mpi/abort_job.h"

#include <mpi.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <thread>

namespace tessel::collectives {

void AbortMpiJob(const std::string& message) {
  static std::atomic<bool> aborting{false};
  std::fprintf(stderr, "%s; aborting the MPI job\n", message.c_str());
  std::fflush(stderr);
  if (!aborting.exchange(true)) MPI_Abort(MPI_COMM_WORLD, 1);
  // Another thread is ending the job; MPI_Abort kills this process too.
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

}  // namespace tessel::collectives
