// The shortest common factorization of two shapes with the same number of elements: the
// finest split both can be built from by merging neighbours. Iota tile assignments are
// transposed with it, and GSPMD shardings find their mesh axes with it (ALGORITHMS.md §1.3).
//
//   CommonFactorization({4, 8}, {8, 4});  // factors {4, 2, 4}
//   CommonFactorization({2, 3}, {3, 2});  // nullopt: 2 and 3 cannot be split to match
#ifndef TESSEL_PARTITIONER_SHARDING_FACTORIZATION_H_
#define TESSEL_PARTITIONER_SHARDING_FACTORIZATION_H_

#include <cstdint>
#include <optional>
#include <vector>

namespace tessel::sharding {

struct Factorization {
  // The factors, all > 1, in row-major order of both shapes.
  std::vector<int64_t> factors;
  // For each factor, the dimension of the first (`a_dim`) and second (`b_dim`) shape it is
  // part of. Each dimension's factors are consecutive; dimensions of size 1 have none.
  std::vector<int> a_dim;
  std::vector<int> b_dim;
};

// Walks both shapes from the major end, each time emitting the smaller of the two pending
// sizes as a factor; fails (nullopt) when that size does not divide the larger one, which
// means no common refinement exists.
// REQUIRES: all sizes >= 1 and the products of `a` and `b` are equal.
std::optional<Factorization> CommonFactorization(const std::vector<int64_t>& a,
                                                 const std::vector<int64_t>& b);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_FACTORIZATION_H_
