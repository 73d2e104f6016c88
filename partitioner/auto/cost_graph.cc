// Building the cost graph: nodes from parameters and ops, followers merged into the node of
// the operand they follow, and reshard edges priced by reshard_cost.h.
#include "partitioner/auto/cost_graph.h"

#include <algorithm>
#include <optional>
#include <variant>

#include "absl/strings/str_cat.h"
#include "cost_model/op_cost.h"
#include "cost_model/tensor_bytes.h"
#include "mlir/IR/BuiltinOps.h"
#include "partitioner/auto/reshard_cost.h"
#include "partitioner/auto/strategies.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/trip_count.h"
#include "partitioner/ir/location.h"
#include "partitioner/rules/sharding_rule_interface.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::auto_sharding {
namespace {

mlir::RankedTensorType staticTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() ? tensor : nullptr;
}

// Seconds of `op` on whole tensors as the cost report counts them: a counted loop's body
// times its trips (its condition once more), a conditional's costliest branch.
double wholeSeconds(mlir::Operation* op, const cost_model::HardwareSpec& spec) {
  double seconds = cost_model::OpSeconds(cost_model::EstimateOpCost(op), spec);
  auto regionSeconds = [&spec](mlir::Region& region) {
    double total = 0;
    for (mlir::Block& block : region) {
      for (mlir::Operation& inner : block) total += wholeSeconds(&inner, spec);
    }
    return total;
  };
  if (auto loop = llvm::dyn_cast<hlo::WhileOp>(op)) {
    const std::optional<int64_t> trips = hlo::staticTripCount(loop);
    seconds += regionSeconds(loop.getCond()) * static_cast<double>(trips ? *trips + 1 : 1) +
               regionSeconds(loop.getBody()) * static_cast<double>(trips ? *trips : 1);
  } else if (llvm::isa<hlo::CaseOp>(op)) {
    double costliest = 0;
    for (mlir::Region& region : op->getRegions()) {
      costliest = std::max(costliest, regionSeconds(region));
    }
    seconds += costliest;
  }
  return seconds;
}

// Whether `rule` is elementwise: one pass-through factor per result dimension, and every
// operand of the result's rank mapped dimension for dimension onto the same factors.
bool isElementwise(const rules::OpShardingRule& rule, mlir::Operation* op) {
  if (op->getNumResults() != 1 || rule.getNumResults() != 1) return false;
  auto type = staticTensor(op->getResult(0).getType());
  if (!type || type.getRank() == 0) return false;
  const int64_t rank = type.getRank();
  if (rule.getNumFactors() != rank) return false;
  auto identity = [&](const rules::TensorFactors& tensor) {
    for (int64_t d = 0; d < rank; ++d) {
      if (tensor[d].size() != 1 || tensor[d][0] != d) return false;
    }
    return true;
  };
  if (!identity(rule.getResult(0))) return false;
  for (int64_t f = 0; f < rank; ++f) {
    if (rule.getFactor(f).kind != rules::FactorKind::kPassThrough) return false;
  }
  for (int64_t i = 0; i < rule.getNumOperands(); ++i) {
    const rules::TensorFactors& operand = rule.getOperand(i);
    if (operand.empty()) continue;  // a scalar operand (a clamp bound)
    if (static_cast<int64_t>(operand.size()) != rank || !identity(operand)) return false;
  }
  return true;
}

// Whether `s` splits only factors the devices do not divide, on a reshape that only adds or
// drops unit dimensions (every dimension of both sides one factor): reshape_partition.cc
// declines it, and the rule's partitioning (rule_partition.cc) keeps the padded pieces as
// they are.
bool unevenOnUnitReshape(const rules::OpShardingRule& rule, const OpStrategy& s,
                         ir::MeshAttr mesh) {
  auto singleFactors = [](const rules::TensorFactors& tensor) {
    return llvm::all_of(tensor, [](const rules::DimFactors& dim) { return dim.size() == 1; });
  };
  if (!singleFactors(rule.getOperand(0)) || !singleFactors(rule.getResult(0))) return false;
  bool any = false;
  for (int64_t f = 0; f < static_cast<int64_t>(s.factorAxes.size()); ++f) {
    if (s.factorAxes[f].empty()) continue;
    if (rule.getFactor(f).size % factorShards(s, f, mesh) == 0) return false;
    any = true;
  }
  return any;
}

class Builder {
 public:
  Builder(mlir::func::FuncOp func, const cost_model::HardwareSpec& spec)
      : func_(func), spec_(spec) {}

  absl::StatusOr<CostGraph> build() {
    auto module = func_->getParentOfType<mlir::ModuleOp>();
    // The rules come from external models, attached to the context on first use.
    rules::ensureShardingRuleModels(module.getContext());
    int meshes = 0;
    for (auto mesh : module.getOps<ir::MeshOp>()) {
      if (meshes++ == 0) {
        graph_.meshName = mlir::FlatSymbolRefAttr::get(mesh.getSymNameAttr());
        graph_.mesh = mesh.getMesh();
      }
    }
    if (meshes != 1) {
      return absl::FailedPreconditionError(
          meshes == 0 ? "auto-sharding needs a mesh: declare one with tessel.mesh (or --mesh)"
                      : absl::StrCat("auto-sharding works on one mesh; the program declares ",
                                     meshes));
    }
    for (mlir::BlockArgument argument : func_.getArguments()) {
      absl::Status added = addParameter(argument);
      if (!added.ok()) return added;
    }
    for (mlir::Operation& op : func_.getBody().front()) {
      absl::Status added = addOp(&op);
      if (!added.ok()) return added;
    }
    return std::move(graph_);
  }

 private:
  ir::MeshAttr mesh() const { return graph_.mesh; }

  // A user sharding as a layout, or Unimplemented naming `what` at `loc`.
  absl::StatusOr<Layout> userLayout(ir::ShardingAttr sharding, const std::string& what,
                                    mlir::Location loc) {
    if (sharding.getMeshName() == graph_.meshName) {
      if (std::optional<Layout> layout = layoutOf(sharding, mesh())) return *layout;
    }
    return absl::UnimplementedError(absl::StrCat(
        FormatLocation(loc), ": auto-sharding cannot take the sharding of ", what,
        " yet: it uses sub-axes, unreduced axes or another mesh"));
  }

  int addNode(GraphNode node) {
    graph_.nodes.push_back(std::move(node));
    return static_cast<int>(graph_.nodes.size()) - 1;
  }

  void addValue(mlir::Value value, int node, std::vector<Layout> layouts, bool annotated) {
    graph_.valueIndex[value] = static_cast<int>(graph_.values.size());
    graph_.values.push_back(GraphValue{value, node, std::move(layouts), annotated});
  }

  // Adds an edge that prices moving `value` from its producer's layouts to `required(t)`
  // for each strategy t of `consumer`. Values outside the graph (non-tensors) cost nothing.
  // The use is recorded in the graph's `uses` by `user`.
  template <typename Required>
  void addEdge(mlir::Operation* user, mlir::Value value, int consumer, Required required) {
    auto it = graph_.valueIndex.find(value);
    if (it == graph_.valueIndex.end()) return;
    const GraphValue& produced = graph_.values[it->second];
    auto type = staticTensor(value.getType());
    if (!type) return;
    const size_t rows = graph_.nodes[produced.node].numStrategies();
    const size_t cols = graph_.nodes[consumer].numStrategies();
    OperandUse use{user, value, consumer, {}};
    for (size_t t = 0; t < cols; ++t) use.required.push_back(required(t));
    graph_.uses.push_back(std::move(use));
    IlpEdge edge{produced.node, consumer, std::vector<double>(rows * cols, 0.0)};
    bool any = false;
    for (size_t s = 0; s < rows; ++s) {
      for (size_t t = 0; t < cols; ++t) {
        if (produced.node == consumer && s != t) continue;  // one node takes one strategy
        const double seconds =
            scale_ * reshardSeconds(produced.layouts[s], required(t), type, mesh(), spec_);
        edge.cost[s * cols + t] = seconds;
        any |= seconds != 0;
      }
    }
    if (any) graph_.edges.push_back(std::move(edge));
  }

  // The node that chooses one tensor's layout: the user's, when given (the node is then
  // fixed), else each lone-tensor strategy. No compute; each layout's bytes are held for
  // the whole step (`persistent`, a parameter) or while the value lives.
  int addTensorNode(std::string name, mlir::Operation* op, mlir::RankedTensorType type,
                    const std::optional<Layout>& given, bool persistent,
                    std::vector<Layout>& layouts) {
    GraphNode node;
    node.name = std::move(name);
    node.op = op;
    node.fixed = given.has_value();
    if (given) {
      layouts.push_back(*given);
    } else {
      for (OpStrategy& strategy : enumerateStrategies(tensorRule(type.getShape()), mesh())) {
        layouts.push_back(std::move(strategy.results[0]));
      }
    }
    for (const Layout& layout : layouts) {
      const double bytes = static_cast<double>(layout.localBytes(type, mesh()));
      node.computeSeconds.push_back(0);
      node.communicationSeconds.push_back(0);
      node.persistentBytes.push_back(persistent ? bytes : 0);
      node.transientBytes.push_back(persistent ? 0 : bytes);
      node.descriptions.push_back(layout.toString(mesh()));
    }
    return addNode(std::move(node));
  }

  absl::Status addParameter(mlir::BlockArgument argument) {
    auto type = staticTensor(argument.getType());
    if (!type) return absl::OkStatus();
    const std::string name = absl::StrCat("parameter ", argument.getArgNumber());
    std::optional<Layout> given;
    if (auto sharding = func_.getArgAttrOfType<ir::ShardingAttr>(
            argument.getArgNumber(), ir::TesselDialect::kShardingAttrName)) {
      absl::StatusOr<Layout> layout = userLayout(sharding, name, argument.getLoc());
      if (!layout.ok()) return layout.status();
      given = *layout;
    }
    std::vector<Layout> layouts;
    const int id = addTensorNode(name, nullptr, type, given, /*persistent=*/true, layouts);
    addValue(argument, id, std::move(layouts), given.has_value());
    return absl::OkStatus();
  }

  // Roofline seconds of `op` on one device when its work is split `workShards` ways and its
  // tensors' bytes shrink from `globalBytes` to `localBytes`.
  double computeSeconds(const cost_model::OpCost& cost, int64_t workShards, double globalBytes,
                        double localBytes) const {
    const double bytes = globalBytes > 0 ? cost.bytes * (localBytes / globalBytes) : cost.bytes;
    return std::max(cost.flops / workShards / spec_.flops_per_second(),
                    bytes / spec_.memory_bandwidth_bytes_per_second());
  }

  // Global and local bytes of the op's tensors under `operands` and `results`.
  std::pair<double, double> tensorBytes(mlir::Operation* op, llvm::ArrayRef<Layout> operands,
                                        llvm::ArrayRef<Layout> results) const {
    double global = 0, local = 0;
    auto count = [&](mlir::Value value, const Layout* layout) {
      auto type = staticTensor(value.getType());
      if (!type) return;
      global += cost_model::TensorBytes(type);
      local += layout && layout->dims.size() == static_cast<size_t>(type.getRank())
                   ? layout->localBytes(type, mesh())
                   : cost_model::TensorBytes(type);
    };
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      count(operand, i < operands.size() ? &operands[i] : nullptr);
    }
    for (auto [i, result] : llvm::enumerate(op->getResults())) {
      count(result, i < results.size() ? &results[i] : nullptr);
    }
    return {global, local};
  }

  absl::Status addOp(mlir::Operation* op) {
    if (auto ret = llvm::dyn_cast<mlir::func::ReturnOp>(op)) return addReturn(ret);
    if (auto loop = llvm::dyn_cast<hlo::WhileOp>(op)) return addLoop(loop);
    if (auto branches = llvm::dyn_cast<hlo::CaseOp>(op)) return addCase(branches);
    if (auto constraint = llvm::dyn_cast<ir::ShardingConstraintOp>(op)) {
      return addConstraint(constraint);
    }
    if (op->getNumResults() == 0 && op->getNumOperands() == 0) return absl::OkStatus();
    rules::ShardingRuleOrNone answer = rules::getShardingRuleOf(op, rules::ShardingRuleOptions());
    auto annotation =
        op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
    if (const auto* rule = std::get_if<rules::OpShardingRule>(&answer)) {
      if (!annotation && isElementwise(*rule, op) && follow(op)) return absl::OkStatus();
      return addRuleOp(op, *rule, annotation);
    }
    if (std::get<rules::NoShardingRule>(answer).treatment == rules::NoRuleTreatment::kSourceOp &&
        op->getNumResults() == 1 && staticTensor(op->getResult(0).getType()) && !annotation) {
      return addSource(op);
    }
    return addOpaque(op);
  }

  // An elementwise op joins the node of its first operand of the result's type that the
  // graph has. Returns false when there is none.
  bool follow(mlir::Operation* op) {
    mlir::Value result = op->getResult(0);
    auto type = staticTensor(result.getType());
    const GraphValue* leader = nullptr;
    for (mlir::Value operand : op->getOperands()) {
      auto operandType = staticTensor(operand.getType());
      if (!operandType || operandType.getShape() != type.getShape()) continue;
      auto it = graph_.valueIndex.find(operand);
      if (it == graph_.valueIndex.end()) continue;
      leader = &graph_.values[it->second];
      break;
    }
    if (!leader) return false;
    const int node = leader->node;
    std::vector<Layout> layouts = leader->layouts;
    GraphNode& n = graph_.nodes[node];
    const cost_model::OpCost cost = cost_model::EstimateOpCost(op);
    for (size_t s = 0; s < n.numStrategies(); ++s) {
      llvm::SmallVector<Layout, 3> operands;
      for (mlir::Value operand : op->getOperands()) {
        auto t = staticTensor(operand.getType());
        operands.push_back(t && t.getRank() == type.getRank() ? layouts[s]
                                                              : Layout::replicated(0));
      }
      auto [global, local] = tensorBytes(op, operands, {layouts[s]});
      n.computeSeconds[s] +=
          scale_ * computeSeconds(cost, layouts[s].totalShards(mesh()), global, local);
      n.transientBytes[s] =
          std::max<double>(n.transientBytes[s], layouts[s].localBytes(type, mesh()));
    }
    n.followers.push_back(op);
    ++graph_.mergedOps;
    for (mlir::Value operand : op->getOperands()) {
      auto t = staticTensor(operand.getType());
      if (!t || t.getRank() != type.getRank()) continue;
      addEdge(op, operand, node, [&](size_t s) { return layouts[s]; });
    }
    addValue(result, node, std::move(layouts), false);
    return true;
  }

  // What masking takes under `s`: for each operand holding a summed factor that `s` splits
  // unevenly, the local piece's elements in an i32 iota, an i32 bound, a predicate, and
  // zeros and a masked copy of the operand's type.
  double maskBytes(mlir::Operation* op, const rules::OpShardingRule& rule,
                   const OpStrategy& s) const {
    double bytes = 0;
    for (int64_t i = 0; i < rule.getNumOperands() && i < op->getNumOperands(); ++i) {
      auto type = staticTensor(op->getOperand(i).getType());
      if (!type || static_cast<size_t>(i) >= s.operands.size()) continue;
      bool masked = false;
      for (const rules::DimFactors& dim : rule.getOperand(i)) {
        for (int64_t f : dim) {
          const rules::Factor& factor = rule.getFactor(f);
          if (factor.kind != rules::FactorKind::kReduction || s.factorAxes[f].empty()) continue;
          masked |= factor.size % factorShards(s, f, mesh()) != 0;
        }
      }
      if (!masked) continue;
      const double elements = static_cast<double>(s.operands[i].localElements(type, mesh()));
      bytes += elements * (4 + 4 + 1 + 2 * cost_model::ElementBytes(type.getElementType()));
    }
    return bytes;
  }

  absl::Status addRuleOp(mlir::Operation* op, const rules::OpShardingRule& rule,
                         ir::ShardingPerValueAttr annotation) {
    std::vector<OpStrategy> strategies = enumerateStrategies(rule, mesh());
    // The partitioner keeps a reshape's split only where the devices divide the factor
    // (reshape_partition.cc) and gathers an uneven one whole: a price the strategy would hide.
    // A reshape that only adds or drops unit dimensions keeps uneven splits, when all are.
    if (!annotation && llvm::isa<hlo::ReshapeOp>(op)) {
      llvm::erase_if(strategies, [&](const OpStrategy& s) {
        return !splitsEvenly(rule, s, mesh()) && !unevenOnUnitReshape(rule, s, mesh());
      });
    }
    GraphNode node;
    node.name = op->getName().getStringRef().str();
    node.op = op;
    if (annotation) {
      // The user's shardings of the results pick the strategies that give them.
      llvm::SmallVector<Layout, 1> wanted;
      for (auto [i, sharding] : llvm::enumerate(annotation.getShardings())) {
        absl::StatusOr<Layout> layout =
            userLayout(sharding, absl::StrCat("result ", i, " of ", node.name), op->getLoc());
        if (!layout.ok()) return layout.status();
        wanted.push_back(*layout);
      }
      llvm::erase_if(strategies, [&](const OpStrategy& s) { return s.results != wanted; });
      if (strategies.empty()) {
        return absl::UnimplementedError(absl::StrCat(
            FormatLocation(op->getLoc()), ": auto-sharding found no strategy of ", node.name,
            " that gives the sharding it is annotated with"));
      }
      node.fixed = true;
    }
    const cost_model::OpCost cost = cost_model::EstimateOpCost(op);
    for (const OpStrategy& s : strategies) {
      auto [global, local] = tensorBytes(op, s.operands, s.results);
      node.computeSeconds.push_back(scale_ * computeSeconds(cost, s.workShards, global, local));
      double communication = 0, transient = 0;
      for (auto [r, result] : llvm::enumerate(op->getResults())) {
        auto type = staticTensor(result.getType());
        if (!type) continue;
        communication += allReduceSeconds(s.results[r], s.reductionAxes, type, mesh(), spec_);
        transient = std::max<double>(transient, s.results[r].localBytes(type, mesh()));
      }
      node.communicationSeconds.push_back(scale_ * communication);
      node.persistentBytes.push_back(0);
      node.transientBytes.push_back(transient);
      node.maskBytes.push_back(maskBytes(op, rule, s));
      std::string description;
      for (auto [f, axes] : llvm::enumerate(s.factorAxes)) {
        for (int axis : axes) {
          absl::StrAppend(&description, description.empty() ? "" : ", ",
                          mesh().getAxes()[axis].getName().str(), "->",
                          rules::OpShardingRule::factorName(f));
        }
      }
      node.descriptions.push_back(description.empty() ? "unsplit" : description);
    }
    const int id = addNode(std::move(node));
    for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
      // A lambda may not capture a structured binding in C++17 (clang refuses it).
      const size_t index = i;
      addEdge(op, operand, id, [&](size_t t) { return strategies[t].operands[index]; });
    }
    for (auto [r, result] : llvm::enumerate(op->getResults())) {
      if (!staticTensor(result.getType())) continue;
      std::vector<Layout> layouts;
      for (const OpStrategy& s : strategies) layouts.push_back(s.results[r]);
      addValue(result, id, std::move(layouts), annotation != nullptr);
    }
    return absl::OkStatus();
  }

  // A constant or iota: free to produce in any layout (each device makes its own piece).
  absl::Status addSource(mlir::Operation* op) {
    auto type = staticTensor(op->getResult(0).getType());
    std::vector<Layout> layouts;
    const int id = addTensorNode(op->getName().getStringRef().str(), op, type, std::nullopt,
                                 /*persistent=*/false, layouts);
    addValue(op->getResult(0), id, std::move(layouts), false);
    return absl::OkStatus();
  }

  absl::Status addConstraint(ir::ShardingConstraintOp op) {
    absl::StatusOr<Layout> layout =
        userLayout(op.getSharding(), "a tessel.sharding_constraint", op.getLoc());
    if (!layout.ok()) return layout.status();
    GraphNode node;
    node.name = "tessel.sharding_constraint";
    node.op = op;
    node.fixed = true;
    node.computeSeconds = {0};
    node.communicationSeconds = {0};
    node.persistentBytes = {0};
    node.transientBytes = {0};
    node.descriptions = {layout->toString(mesh())};
    const int id = addNode(std::move(node));
    addEdge(op, op.getInput(), id, [&](size_t) { return *layout; });
    addValue(op.getResult(), id, {*layout}, true);
    return absl::OkStatus();
  }

  // Only an annotated result constrains the plan: a sink node holding its layout.
  absl::Status addReturn(mlir::func::ReturnOp op) {
    for (auto [i, operand] : llvm::enumerate(op.getOperands())) {
      auto sharding =
          func_.getResultAttrOfType<ir::ShardingAttr>(i, ir::TesselDialect::kShardingAttrName);
      if (!sharding) continue;
      absl::StatusOr<Layout> layout =
          userLayout(sharding, absl::StrCat("result ", i), op.getLoc());
      if (!layout.ok()) return layout.status();
      GraphNode node;
      node.name = absl::StrCat("result ", i);
      node.fixed = true;
      node.computeSeconds = {0};
      node.communicationSeconds = {0};
      node.persistentBytes = {0};
      node.transientBytes = {0};
      node.descriptions = {layout->toString(mesh())};
      const int id = addNode(std::move(node));
      addEdge(op, operand, id, [&](size_t) { return *layout; });
    }
    return absl::OkStatus();
  }

  // The layout the user's annotation of `op` gives its result `k`, if any.
  absl::StatusOr<std::optional<Layout>> resultLayout(ir::ShardingPerValueAttr annotation,
                                                     size_t k, mlir::Operation* op) {
    if (!annotation || k >= annotation.getShardings().size()) return std::nullopt;
    absl::StatusOr<Layout> layout =
        userLayout(annotation.getShardings()[k],
                   absl::StrCat("result ", k, " of ", op->getName().getStringRef().str()),
                   op->getLoc());
    if (!layout.ok()) return layout.status();
    return std::optional<Layout>(*layout);
  }

  // Adds the ops of `block` but its terminator.
  absl::Status addBlock(mlir::Block& block) {
    for (mlir::Operation& inner : block.without_terminator()) {
      absl::Status added = addOp(&inner);
      if (!added.ok()) return added;
    }
    return absl::OkStatus();
  }

  // Prices each operand k of `yield` into node `nodes[k]`'s layouts `layouts[k]` (skipped
  // where there is no node, -1).
  void addYieldEdges(mlir::Operation* yield, llvm::ArrayRef<int> nodes,
                     const std::vector<std::vector<Layout>>& layouts) {
    for (auto [k, yielded] : llvm::enumerate(yield->getOperands())) {
      if (k >= nodes.size() || nodes[k] < 0) continue;
      const std::vector<Layout>& into = layouts[k];
      addEdge(yield, yielded, nodes[k], [&](size_t t) { return into[t]; });
    }
  }

  // A while loop is opened: each carried value gets a node of its own whose layout is that
  // of the loop's input, the condition's and the body's argument, the body's yield and the
  // loop's result, which the partitioner keeps alike (control_flow_partition.cc); the ops
  // of the condition and the body join the graph like top-level ones, their compute and
  // their reshards counted once per trip (the condition once more).
  absl::Status addLoop(hlo::WhileOp loop) {
    mlir::Operation* op = loop.getOperation();
    auto annotation =
        op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
    mlir::Block& cond = loop.getCond().front();
    mlir::Block& body = loop.getBody().front();
    // Per carried value: its node (-1 when it is not a static tensor) and layouts.
    llvm::SmallVector<int, 4> carries(op->getNumOperands(), -1);
    std::vector<std::vector<Layout>> carried(op->getNumOperands());
    for (auto [k, input] : llvm::enumerate(loop.getInputs())) {
      auto type = staticTensor(input.getType());
      if (!type) continue;
      absl::StatusOr<std::optional<Layout>> given = resultLayout(annotation, k, op);
      if (!given.ok()) return given.status();
      std::vector<Layout>& layouts = carried[k];
      const bool fixed = given->has_value();
      const int id = addTensorNode(absl::StrCat("loop carry ", k, " of hlo.while"), op, type,
                                   *given, /*persistent=*/false, layouts);
      carries[k] = id;
      addEdge(op, input, id, [&](size_t t) { return layouts[t]; });
      addValue(cond.getArgument(k), id, layouts, fixed);
      addValue(body.getArgument(k), id, layouts, fixed);
      addValue(op->getResult(k), id, layouts, fixed);
    }
    const std::optional<int64_t> trips = hlo::staticTripCount(loop);
    const double outer = scale_;
    const double count = static_cast<double>(trips ? *trips : 1);
    scale_ = outer * (count + 1);
    absl::Status added = addBlock(cond);
    scale_ = outer * count;
    if (added.ok()) added = addBlock(body);
    if (added.ok()) addYieldEdges(body.getTerminator(), carries, carried);
    scale_ = outer;
    return added;
  }

  // A case is opened like a loop: each result is a node whose layout every branch yields
  // it in (the partitioner reshards each yield to the result's layout), and the branches'
  // ops are nodes. Only one branch runs, but each is priced in full: the sum bounds the
  // costliest branch, which the cost report counts, from above.
  absl::Status addCase(hlo::CaseOp caseOp) {
    mlir::Operation* op = caseOp.getOperation();
    auto annotation =
        op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
    llvm::SmallVector<int, 4> results(op->getNumResults(), -1);
    std::vector<std::vector<Layout>> layoutsOf(op->getNumResults());
    for (auto [k, result] : llvm::enumerate(op->getResults())) {
      auto type = staticTensor(result.getType());
      if (!type) continue;
      absl::StatusOr<std::optional<Layout>> given = resultLayout(annotation, k, op);
      if (!given.ok()) return given.status();
      results[k] = addTensorNode(absl::StrCat("case result ", k, " of hlo.case"), op, type,
                                 *given, /*persistent=*/false, layoutsOf[k]);
      addValue(result, results[k], layoutsOf[k], given->has_value());
    }
    for (mlir::Region& branch : caseOp.getBranches()) {
      absl::Status added = addBlock(branch.front());
      if (!added.ok()) return added;
      addYieldEdges(branch.front().getTerminator(), results, layoutsOf);
    }
    return absl::OkStatus();
  }

  absl::Status addOpaque(mlir::Operation* op) {
    GraphNode node;
    node.name = op->getName().getStringRef().str();
    node.op = op;
    node.opaque = true;
    node.computeSeconds = {scale_ * wholeSeconds(op, spec_)};
    node.communicationSeconds = {0};
    node.persistentBytes = {0};
    node.transientBytes = {0};
    node.descriptions = {"whole tensors"};
    const int id = addNode(std::move(node));
    for (mlir::Value operand : op->getOperands()) {
      auto type = staticTensor(operand.getType());
      if (!type) continue;
      addEdge(op, operand, id, [&](size_t) { return Layout::replicated(type.getRank()); });
    }
    for (mlir::Value result : op->getResults()) {
      auto type = staticTensor(result.getType());
      if (!type) continue;
      addValue(result, id, {Layout::replicated(type.getRank())}, false);
    }
    return absl::OkStatus();
  }

  mlir::func::FuncOp func_;
  const cost_model::HardwareSpec& spec_;
  CostGraph graph_;
  // How many times the ops being added run per step: the product of the trip counts of the
  // loops around them (1 at the top level).
  double scale_ = 1.0;
};

}  // namespace

IlpProblem CostGraph::problem(double memoryLimit, double timeLimitSeconds) const {
  IlpProblem problem;
  for (const GraphNode& node : nodes) {
    std::vector<double> costs;
    for (size_t s = 0; s < node.numStrategies(); ++s) {
      costs.push_back(node.computeSeconds[s] + node.communicationSeconds[s]);
    }
    problem.nodeCosts.push_back(std::move(costs));
    problem.persistentBytes.push_back(node.persistentBytes);
    problem.transientBytes.push_back(node.transientBytes);
  }
  problem.edges = edges;
  problem.memoryLimit = memoryLimit;
  problem.timeLimitSeconds = timeLimitSeconds;
  return problem;
}

absl::StatusOr<CostGraph> buildCostGraph(mlir::func::FuncOp func,
                                         const cost_model::HardwareSpec& spec) {
  return Builder(func, spec).build();
}

}  // namespace tessel::auto_sharding
