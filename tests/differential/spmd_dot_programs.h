// The hand-written SPMD dot programs that tests run on local partitions
// (tests/differential/spmd_dot_test.cc) and on MPI ranks (tests/mpi/mpi_spmd_test.cc): the
// single-device dot, the contracting split with an all_reduce, and the row split with an
// all_gather, each a template instantiated for a shape, a partition count and a type.
//
//   std::string program = InstantiateSpmdDot(kContractingSplit, rows, k, cols, n, k / n, "f32");
#ifndef TESSEL_TESTS_DIFFERENTIAL_SPMD_DOT_PROGRAMS_H_
#define TESSEL_TESTS_DIFFERENTIAL_SPMD_DOT_PROGRAMS_H_

#include <string>

namespace tessel::testing {

// lhs [R, K] x rhs [K, C] -> [R, C] on one device.
extern const char kSingleDevice[];

// Contracting dimension split: partition p takes columns [p*S, (p+1)*S) of %a and the same
// rows of %b, with S = K / N, at an offset read from a table indexed by partition_id; an
// all_reduce sums the partial products.
extern const char kContractingSplit[];

// Row split: partition p computes rows [p*S, (p+1)*S) and an all_gather assembles them.
extern const char kRowSplit[];

// `program` with its placeholders filled: R rows, K contracted, C columns, N partitions,
// shards of S, element type `type` ("i32", "f32").
std::string InstantiateSpmdDot(const char* program, int rows, int k, int cols, int partitions,
                               int shard, const std::string& type);

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_SPMD_DOT_PROGRAMS_H_
