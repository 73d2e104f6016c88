// Ending a whole MPI job from any thread of a rank: the first caller in the process prints
// its reason and calls MPI_Abort; later callers (other partitions of the same rank that
// failed too) print theirs and wait for MPI_Abort to end the process. OpenMPI does not
// survive two threads of one process calling MPI_Abort at once.
//
//   AbortMpiJob(absl::StrCat("tessel mpi: rank ", rank, ": ", status.ToString()));
#ifndef TESSEL_COLLECTIVES_MPI_ABORT_JOB_H_
#define TESSEL_COLLECTIVES_MPI_ABORT_JOB_H_

#include <string>

namespace tessel::collectives {

// Prints "`message`; aborting the MPI job" to standard error and ends the job with exit
// code 1. Does not return.
[[noreturn]] void AbortMpiJob(const std::string& message);

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_MPI_ABORT_JOB_H_
