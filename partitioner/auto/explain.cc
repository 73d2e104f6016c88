// The plan's choices, the parts of its objective, its costliest reshards, and the runner-up.
#include "partitioner/auto/explain.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "partitioner/auto/layers.h"
#include "partitioner/auto/reshard_cost.h"

namespace tessel::auto_sharding {
namespace {

std::string typeText(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return os.str();
}

// Where a node is and what its value is called: the op's place, or the parameter's.
struct Place {
  std::string location;
  std::string name;
};

std::vector<Place> placesOf(const CostGraph& graph, const PlaceNamer& nameOf) {
  std::vector<Place> places(graph.nodes.size());
  std::vector<bool> named(graph.nodes.size(), false);
  for (const GraphValue& value : graph.values) {
    if (named[value.node]) continue;
    const GraphNode& node = graph.nodes[value.node];
    // A node's own value: the parameter, or a result of its op (not a follower's).
    if (node.op && value.value.getDefiningOp() != node.op) continue;
    mlir::Location loc = value.value.getLoc();
    places[value.node] = Place{FormatLocation(loc), nameOf ? nameOf(loc) : ""};
    named[value.node] = true;
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    if (!named[n] && graph.nodes[n].op) {
      places[n].location = FormatLocation(graph.nodes[n].op->getLoc());
    }
  }
  return places;
}

// "hlo.dot_general %h (f.mlir:3:8)": a node as explanations name it.
std::string title(const GraphNode& node, const Place& place) {
  std::string text = node.name;
  if (!place.name.empty()) absl::StrAppend(&text, " ", place.name);
  if (!place.location.empty()) absl::StrAppend(&text, " (", place.location, ")");
  return text;
}

}  // namespace

PlanExplanation explainPlan(const CostGraph& graph, const IlpProblem& problem,
                            const cost_model::HardwareSpec& spec, const std::vector<int>& choice,
                            const LivenessModel& memory, const PlaceNamer& nameOf) {
  PlanExplanation plan;
  std::vector<Place> places = placesOf(graph, nameOf);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const GraphNode& node = graph.nodes[n];
    const int s = choice[n];
    ChoiceExplanation entry;
    entry.node = node.name;
    entry.name = places[n].name;
    entry.location = places[n].location;
    entry.strategy = node.descriptions[s];
    entry.annotated = node.fixed;
    entry.strategies = static_cast<int>(node.numStrategies());
    entry.computeSeconds = node.computeSeconds[s];
    entry.communicationSeconds = node.communicationSeconds[s];
    plan.computeSeconds += entry.computeSeconds;
    plan.opCommunicationSeconds += entry.communicationSeconds;
    plan.choices.push_back(std::move(entry));
  }
  // The edges' total as the objective counts it; the list below prices each use alone.
  for (const IlpEdge& edge : problem.edges) {
    const size_t width = problem.nodeCosts[edge.to].size();
    plan.reshardSeconds += edge.cost[choice[edge.from] * width + choice[edge.to]];
  }
  for (const OperandUse& use : graph.uses) {
    auto it = graph.valueIndex.find(use.value);
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(use.value.getType());
    if (it == graph.valueIndex.end() || !type) continue;
    const GraphValue& produced = graph.values[it->second];
    const Layout& from = produced.layouts[choice[produced.node]];
    const Layout& to = use.required[choice[use.consumer]];
    if (from == to) continue;
    const double seconds = reshardSeconds(from, to, type, graph.mesh, spec);
    if (seconds <= 0) continue;
    ReshardExplanation entry;
    mlir::Location loc = use.value.getLoc();
    entry.name = nameOf ? nameOf(loc) : "";
    entry.type = typeText(type);
    mlir::Operation* producer = use.value.getDefiningOp();
    entry.producer = producer ? producer->getName().getStringRef().str() : "parameter";
    entry.producerAt = FormatLocation(loc);
    entry.consumer = use.user->getName().getStringRef().str();
    entry.consumerAt = FormatLocation(use.user->getLoc());
    entry.from = from.toString(graph.mesh);
    entry.to = to.toString(graph.mesh);
    entry.seconds = seconds;
    plan.reshards.push_back(std::move(entry));
  }
  std::stable_sort(plan.reshards.begin(), plan.reshards.end(),
                   [](const ReshardExplanation& a, const ReshardExplanation& b) {
                     return a.seconds > b.seconds;
                   });
  auto [peak, op] = memory.peakOf(choice);
  plan.peakBytes = peak;
  if (op != nullptr) {
    plan.peakAt = absl::StrCat(op->getName().getStringRef().str(), " (",
                               FormatLocation(op->getLoc()), ")");
  }
  return plan;
}

NextBestPlan nextBestPlan(const CostGraph& graph, IlpProblem problem,
                          const std::vector<int>& leader, const std::vector<int>& choice,
                          const PlaceNamer& nameOf) {
  NextBestPlan next;
  const bool anyChoice = std::any_of(graph.nodes.begin(), graph.nodes.end(),
                                     [](const GraphNode& n) { return n.numStrategies() > 1; });
  if (!anyChoice) {
    next.why = "there is no other plan: every node has one strategy";
    return next;
  }
  problem.excluded.push_back(choice);
  bool tied = false;
  for (size_t n = 0; n < leader.size(); ++n) tied |= leader[n] != static_cast<int>(n);
  absl::StatusOr<IlpSolution> other = tied ? solveTied(problem, leader) : solveIlp(problem);
  if (!other.ok()) {
    next.why = std::string(other.status().message());
    return next;
  }
  next.found = true;
  next.objectiveSeconds = other->objective;
  std::vector<Place> places = placesOf(graph, nameOf);
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    if (other->choice[n] == choice[n]) continue;
    const GraphNode& node = graph.nodes[n];
    next.changes.push_back(absl::StrCat(title(node, places[n]), ": ",
                                        node.descriptions[other->choice[n]], " instead of ",
                                        node.descriptions[choice[n]]));
  }
  return next;
}

}  // namespace tessel::auto_sharding
