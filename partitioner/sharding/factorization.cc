// Shortest common factorization of two shapes (see factorization.h).
#include "partitioner/sharding/factorization.h"

#include <algorithm>

namespace tessel::sharding {

std::optional<Factorization> CommonFactorization(const std::vector<int64_t>& a,
                                                 const std::vector<int64_t>& b) {
  Factorization result;
  const int a_rank = static_cast<int>(a.size());
  const int b_rank = static_cast<int>(b.size());
  int i = 0, j = 0;
  int64_t pending_a = i < a_rank ? a[i] : 1;
  int64_t pending_b = j < b_rank ? b[j] : 1;
  // Moves to the next dimension whose size is still to be matched, skipping size-1 ones.
  auto advance = [](const std::vector<int64_t>& shape, int& index, int64_t& pending) {
    while (pending == 1 && index < static_cast<int>(shape.size())) {
      ++index;
      pending = index < static_cast<int>(shape.size()) ? shape[index] : 1;
    }
  };
  advance(a, i, pending_a);
  advance(b, j, pending_b);
  while (i < a_rank && j < b_rank) {
    const int64_t factor = std::min(pending_a, pending_b);
    if (std::max(pending_a, pending_b) % factor != 0) return std::nullopt;
    result.factors.push_back(factor);
    result.a_dim.push_back(i);
    result.b_dim.push_back(j);
    pending_a /= factor;
    pending_b /= factor;
    advance(a, i, pending_a);
    advance(b, j, pending_b);
  }
  // Equal products leave both sides exhausted together; anything else is a caller error.
  if (i < a_rank || j < b_rank) return std::nullopt;
  return result;
}

}  // namespace tessel::sharding
