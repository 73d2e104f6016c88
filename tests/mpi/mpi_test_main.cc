// gtest main for tests that run under mpirun: every rank runs every test, in the same
// order, so each test's collectives meet. Only rank 0 prints gtest's usual report; other
// ranks print their failures, prefixed with their rank. MPI runs with MPI_THREAD_MULTIPLE,
// for tests with several partitions (threads) per rank.
#include <mpi.h>

#include <cstdio>

#include "gtest/gtest.h"

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::fprintf(stderr, "rank %d: failure at %s:%d\n%s\n", rank_,
                 result.file_name() ? result.file_name() : "?", result.line_number(),
                 result.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  // Several partitions per rank call MPI from their own threads.
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) std::printf("running on %d MPI ranks\n", size);
  if (rank != 0) {
    ::testing::TestEventListeners& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int result = RUN_ALL_TESTS();
  MPI_Finalize();
  return result;
}
