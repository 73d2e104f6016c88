// The ways auto-sharding considers to split one op: assignments of mesh axes to the factors
// of the op's sharding rule. Each assignment fixes the layout of every operand and result
// and, for axes on reduction factors, the partial sums that must be all-reduced.
//
// For `C[i,j] = sum_k A[i,k] B[k,j]` on a mesh ["data"=4, "model"=2], giving "data" to i and
// "model" to k is one strategy: A is split [{"data"}, {"model"}], B [{"model"}, {}], and C
// [{"data"}, {}] after an all-reduce over "model". Every mesh axis goes to at most one
// factor (or to none), so a mesh of k axes and a rule of f factors give at most (f+1)^k
// strategies before pruning.
#ifndef TESSEL_PARTITIONER_AUTO_STRATEGIES_H_
#define TESSEL_PARTITIONER_AUTO_STRATEGIES_H_

#include <cstdint>
#include <vector>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "partitioner/auto/layout.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/rules/op_sharding_rule.h"

namespace tessel::auto_sharding {

struct OpStrategy {
  // Per factor of the rule, the mesh axes (indices) that split it, major to minor.
  llvm::SmallVector<llvm::SmallVector<int, 2>, 4> factorAxes;
  llvm::SmallVector<Layout, 2> operands;
  llvm::SmallVector<Layout, 1> results;
  // Axes on reduction factors: each device computes a partial result that is summed over
  // them (the partitioner all-reduces, or reduce-scatters into what users want).
  llvm::SmallVector<int, 2> reductionAxes;
  // How many devices share out the op's work: the product of the sizes of every assigned
  // axis. The rest of the mesh repeats the same work.
  int64_t workShards = 1;
};

struct EnumerationOptions {
  // A factor may be split unevenly when the padding this adds is at most this fraction of
  // its size (16 over 3 devices pads to 18: 12.5%). More padding is kept only where no split
  // over fewer of the mesh's devices gives pieces as small (8 over 6 on a 2x3 mesh: pieces
  // of 2, where 3 or 2 devices leave 3 or 4); otherwise it is wasted work.
  double maxPaddingFraction = 0.125;
};

// Every strategy of `rule` on `mesh` that survives pruning, the unsplit one first. Pruned:
// factors the rule does not let split (need-replication, permutation, blocked, size 1),
// splits with more pieces than the factor has elements, uneven splits beyond
// maxPaddingFraction whose pieces a split over fewer devices matches, and uneven splits of
// a factor that shares a dimension with another (a reshape's merged dimension), whose pieces
// would not line up.
std::vector<OpStrategy> enumerateStrategies(const rules::OpShardingRule& rule, ir::MeshAttr mesh,
                                            const EnumerationOptions& options = {});

// How many pieces `strategy` cuts factor `factor` into: the product of its axes' sizes.
int64_t factorShards(const OpStrategy& strategy, int64_t factor, ir::MeshAttr mesh);

// Whether every factor `strategy` splits is a multiple of the devices splitting it.
bool splitsEvenly(const rules::OpShardingRule& rule, const OpStrategy& strategy,
                  ir::MeshAttr mesh);

// The rule of a lone tensor of `shape` (one pass-through factor per dimension, as one
// operand and one result): its strategies are the layouts a parameter or constant may have.
rules::OpShardingRule tensorRule(llvm::ArrayRef<int64_t> shape);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_STRATEGIES_H_
