// Dropping dominated strategies before the ILP. A strategy is dominated when another
// strategy of the same node costs no more, holds no more bytes, and prices every edge
// entry no higher, whatever its neighbours choose: swapping it for the other never makes
// a plan worse, so some optimal plan avoids it. Fewer strategies mean quadratically fewer
// y variables on each edge, and CBC's time goes to the LP relaxations over those.
//
//   DominanceReduced reduced = dropDominatedStrategies(problem);
//   TESSEL_ASSIGN_OR_RETURN(IlpSolution solution, solveIlp(reduced.problem));
//   std::vector<int> choice = reduced.expand(solution.choice);
#ifndef TESSEL_PARTITIONER_AUTO_DOMINATED_H_
#define TESSEL_PARTITIONER_AUTO_DOMINATED_H_

#include <vector>

#include "partitioner/auto/ilp.h"

namespace tessel::auto_sharding {

struct DominanceReduced {
  IlpProblem problem;
  // Per node, the original index of each strategy kept, in order.
  std::vector<std::vector<int>> kept;
  int64_t dropped = 0;

  // A choice on the reduced problem as a choice on the original one.
  std::vector<int> expand(const std::vector<int>& choice) const;
};

// Of strategies that are equal in every respect, the first is kept. Comparisons are exact
// (no tolerance), so the reduced problem's optimum is the original's. Under per-point
// memory rows or with plans to exclude, nothing is dropped.
DominanceReduced dropDominatedStrategies(const IlpProblem& problem);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_DOMINATED_H_
