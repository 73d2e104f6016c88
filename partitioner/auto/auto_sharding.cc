// The auto-sharding driver: graph, ILP, and the chosen layouts written back as shardings.
#include "partitioner/auto/auto_sharding.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/auto/cost_graph.h"
#include "partitioner/auto/ilp.h"
#include "partitioner/auto/layers.h"
#include "partitioner/auto/liveness.h"
#include "partitioner/ir/auto_chosen.h"
#include "partitioner/ir/inline_calls.h"
#include "partitioner/ir/location.h"

namespace tessel::auto_sharding {
namespace {

absl::StatusOr<mlir::func::FuncOp> findFunction(mlir::ModuleOp module,
                                                const std::string& name) {
  if (!name.empty() || module.lookupSymbol<mlir::func::FuncOp>("main")) {
    const std::string wanted = name.empty() ? "main" : name;
    if (auto func = module.lookupSymbol<mlir::func::FuncOp>(wanted)) {
      if (!func.isDeclaration()) return func;
    }
    return absl::FailedPreconditionError(
        absl::StrCat("auto-sharding: the program has no function @", wanted));
  }
  mlir::func::FuncOp only;
  int count = 0;
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    if (func.isDeclaration()) continue;
    only = func;
    ++count;
  }
  if (count != 1) {
    return absl::FailedPreconditionError(
        "auto-sharding: the program has no @main and not exactly one function");
  }
  return only;
}

// Writes the chosen layout of every value the user left open: parameters as argument
// attributes, op results as the op's sharding (all results of an op at once). Each is
// marked as the solver's (auto_chosen.h).
void writeBack(const CostGraph& graph, const std::vector<int>& choice, mlir::func::FuncOp func) {
  mlir::MLIRContext* context = func.getContext();
  llvm::DenseMap<mlir::Operation*, llvm::SmallVector<ir::ShardingAttr, 1>> perOp;
  for (const GraphValue& value : graph.values) {
    const GraphNode& node = graph.nodes[value.node];
    if (value.annotated || node.opaque) continue;
    ir::ShardingAttr sharding =
        value.layouts[choice[value.node]].toSharding(graph.meshName, graph.mesh);
    if (auto argument = llvm::dyn_cast<mlir::BlockArgument>(value.value)) {
      // A loop's region arguments take the layout the loop's result is given.
      if (argument.getOwner() != &func.getBody().front()) continue;
      func.setArgAttr(argument.getArgNumber(), ir::TesselDialect::kShardingAttrName, sharding);
      ir::markAutoChosen(func, argument.getArgNumber());
      continue;
    }
    mlir::Operation* op = value.value.getDefiningOp();
    auto& shardings = perOp[op];
    shardings.resize(op->getNumResults());
    shardings[llvm::cast<mlir::OpResult>(value.value).getResultNumber()] = sharding;
  }
  for (auto& [op, shardings] : perOp) {
    // An op with a result the graph does not describe (not a static tensor) keeps none.
    if (llvm::is_contained(shardings, ir::ShardingAttr())) continue;
    op->setAttr(ir::TesselDialect::kShardingAttrName,
                ir::ShardingPerValueAttr::get(context, shardings));
    ir::markAutoChosen(op);
  }
}

// Where memory is tightest when no plan fits: "; the tightest point is OP (file:line:col),
// where every plan holds at least N bytes", for the point whose smallest total is largest.
std::string tightestPoint(const IlpProblem& problem, const std::vector<mlir::Operation*>& ops) {
  double most = -1;
  int at = -1;
  for (size_t p = 0; p < problem.memoryPoints.size() && p < ops.size(); ++p) {
    const double bytes = fewestBytes(problem.memoryPoints[p]);
    if (bytes > most) {
      most = bytes;
      at = static_cast<int>(p);
    }
  }
  if (at < 0) return "";
  return absl::StrCat("; the tightest point is ", ops[at]->getName().getStringRef().str(),
                      " (", FormatLocation(ops[at]->getLoc()),
                      "), where every plan holds at least ", static_cast<int64_t>(most),
                      " bytes");
}

}  // namespace

absl::StatusOr<AutoShardingResult> autoShard(mlir::ModuleOp module,
                                             const cost_model::HardwareSpec& spec,
                                             const AutoShardingOptions& options) {
  // The plan is chosen op by op, and a call hides its callee's ops from the choice: left to
  // propagation, they split as their first annotated neighbour says and pay reshards the
  // plan never priced. The partitioner inlines every call anyway, so inline them first.
  if (mlir::failed(ir::inlineCalls(module))) {
    return absl::InvalidArgumentError("auto-sharding: the program's calls could not be inlined");
  }
  absl::StatusOr<mlir::func::FuncOp> func = findFunction(module, options.function);
  if (!func.ok()) return func.status();
  absl::StatusOr<CostGraph> graph = buildCostGraph(*func, spec);
  if (!graph.ok()) return graph.status();
  AutoShardingResult result;
  result.memoryLimitBytes =
      options.memoryLimitBytes > 0 ? options.memoryLimitBytes : spec.memory_capacity_bytes();
  IlpProblem problem =
      graph->problem(static_cast<double>(result.memoryLimitBytes), options.timeLimitSeconds);
  // Solve time counts from here: finding layers, the memory rows, setting up and solving.
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  // Layers first, so that the memory rows are made over the tied nodes: a row per point
  // and copy of a layer would hold every weight of every layer.
  const RepeatedLayers layers = findRepeatedLayers(*graph, problem);
  // The memory rows bound what is live at each point, not parameters plus one value.
  const LivenessModel memory(*graph, *func);
  LivenessPoints live =
      memory.rowsOver(static_cast<double>(result.memoryLimitBytes), &layers.leader);
  problem.memoryPoints = std::move(live.points);
  live.points.clear();
  if (problem.memoryPoints.empty()) {
    // No plan can exceed the limit anywhere: the ILP needs no memory constraint at all.
    problem.persistentBytes.clear();
    problem.transientBytes.clear();
  }
  // What is left of the limit; a tiny positive rest lets the solver return its first plan.
  absl::StatusOr<IlpSolution> solved = solveTied(
      problem, layers.leader, std::max(options.timeLimitSeconds - elapsed(), 1e-9));
  if (!solved.ok()) {
    std::string where;
    if (absl::IsResourceExhausted(solved.status())) where = tightestPoint(problem, live.ops);
    return absl::Status(solved.status().code(),
                        absl::StrCat("auto-sharding: ", solved.status().message(), where));
  }
  const IlpSolution* solution = &*solved;
  result.objectiveSeconds = solution->objective;
  result.optimal = solution->optimal;
  result.solveSeconds = elapsed();
  result.nodes = static_cast<int64_t>(graph->nodes.size());
  result.mergedOps = graph->mergedOps;
  result.repeatedLayers = layers.layers;
  result.repeatedLayerRuns = layers.runs;
  for (const GraphNode& node : graph->nodes) {
    if (!node.opaque || node.op == nullptr) continue;
    result.wholeOps.push_back(
        absl::StrCat(node.name, " (", FormatLocation(node.op->getLoc()), ")"));
  }
  result.plan = explainPlan(*graph, problem, spec, solution->choice, memory, options.nameOf);
  result.computeSeconds = result.plan.computeSeconds;
  result.reshardSeconds = result.plan.reshardSeconds;
  result.communicationSeconds = result.plan.opCommunicationSeconds + result.plan.reshardSeconds;
  result.estimatedPeakBytes = static_cast<int64_t>(result.plan.peakBytes);
  for (const ChoiceExplanation& choice : result.plan.choices) {
    result.choices.push_back(absl::StrCat(
        choice.node, choice.location.empty() || choice.node.rfind("parameter", 0) == 0
                         ? ""
                         : " (" + choice.location + ")",
        ": ", choice.strategy, choice.annotated ? " (annotated)" : ""));
  }
  if (options.nextBest) {
    result.nextBest =
        nextBestPlan(*graph, problem, layers.leader, solution->choice, options.nameOf);
  }
  writeBack(*graph, solution->choice, *func);
  return result;
}

}  // namespace tessel::auto_sharding
