// What auto-sharding can say about its plan: each choice with its place and whether the
// user fixed it, the objective split into compute, communication inside ops and reshards on
// edges (the costliest edges listed with what moves), the memory model's peak, and the
// runner-up plan (the ILP solved again with the chosen plan cut off) with what it changes.
//
//   PlanExplanation why = explainPlan(graph, problem, spec, solution.choice, memory, nameOf);
//   why.reshards[0]   // the costliest reshard: producer, consumer, layouts, seconds
#ifndef TESSEL_PARTITIONER_AUTO_EXPLAIN_H_
#define TESSEL_PARTITIONER_AUTO_EXPLAIN_H_

#include <cstdint>
#include <string>
#include <vector>

#include "cost_model/hardware_spec.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"
#include "partitioner/auto/liveness.h"
#include "partitioner/ir/location.h"

namespace tessel::auto_sharding {

struct ChoiceExplanation {
  std::string node;      // "parameter 0", "hlo.dot_general"
  std::string name;      // the value's source name ("%h", "w1"), or ""
  std::string location;  // "file:line:col", or "" for a parameter without one
  std::string strategy;  // a layout or a factor assignment ("data->i, model->k")
  bool annotated = false;  // fixed by the user's sharding rather than chosen
  int strategies = 0;      // how many the solver had to choose from
  double computeSeconds = 0;
  double communicationSeconds = 0;  // inside the op: the all-reduce of a partial result
};

// A value the plan moves between its producer's layout and what a consumer needs.
struct ReshardExplanation {
  std::string name;  // the value's source name, or ""
  std::string type;  // "tensor<64x256xf32>"
  std::string producer, producerAt;
  std::string consumer, consumerAt;
  std::string from, to;  // layouts, as shardings spell their dimensions
  double seconds = 0;
};

struct NextBestPlan {
  // False when no other plan exists or fits; `why` then says which.
  bool found = false;
  std::string why;
  double objectiveSeconds = 0;
  // Per node that changes: "hlo.dot_general %h (f.mlir:3:8): model->j instead of data->i".
  std::vector<std::string> changes;
};

struct PlanExplanation {
  std::vector<ChoiceExplanation> choices;  // program order
  double computeSeconds = 0;
  double opCommunicationSeconds = 0;
  double reshardSeconds = 0;
  // Every reshard with a cost, the costliest first (those that cost nothing left out).
  std::vector<ReshardExplanation> reshards;
  // The memory model's peak (liveness.h) and the op where it is reached (0 and "" without
  // a memory model).
  double peakBytes = 0;
  std::string peakAt;
};

// Explains `choice`, a plan for `graph` whose ILP is `problem`, priced on `spec`. `nameOf` (may be null)
// names values by their source names; `memory` gives the plan's peak.
PlanExplanation explainPlan(const CostGraph& graph, const IlpProblem& problem,
                            const cost_model::HardwareSpec& spec, const std::vector<int>& choice,
                            const LivenessModel& memory, const PlaceNamer& nameOf);

// Solves `problem` again without `choice` and says how the best other plan differs.
// With nodes tied by `leader` (layers.h; each node its own leader when none are), the
// runner-up is the best other plan among tied ones, as the chosen plan was.
NextBestPlan nextBestPlan(const CostGraph& graph, IlpProblem problem,
                          const std::vector<int>& leader, const std::vector<int>& choice,
                          const PlaceNamer& nameOf);

}  // namespace tessel::auto_sharding

#endif  // TESSEL_PARTITIONER_AUTO_EXPLAIN_H_
