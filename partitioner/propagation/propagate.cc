// The propagation driver: worklist to a fixed point per user priority level and op stage,
// then writing the shardings back (propagate.h).
#include "partitioner/propagation/propagate.h"

#include <algorithm>
#include <deque>

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/auto_chosen.h"
#include "partitioner/ir/function_attrs.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/propagation/factor_propagation.h"
#include "partitioner/propagation/propagation_graph.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::propagation {
namespace {

// The mesh of a node: that of its first value with a state. Null if none has one yet.
const TensorState* meshSource(const PropagationGraph& graph, const Node& node) {
  for (int32_t slot : node.slots) {
    if (graph.states[slot].meshName) return &graph.states[slot];
  }
  return nullptr;
}

// The latest link of `state` for an axis overlapping `axis`, or null.
const AxisLink* findAxisLink(llvm::ArrayRef<AxisLink> links, AxisRefAttr axis) {
  for (auto it = links.rbegin(); it != links.rend(); ++it) {
    if (it->axis.overlaps(axis)) return &*it;
  }
  return nullptr;
}

// Records where each axis `change` gave its tensor came from: the link of the tensor it was
// taken from (or, for a common part of several tensors' axes, of any that has it).
void recordAxisLinks(const PropagationGraph& graph, const Node& node,
                     llvm::ArrayRef<StepTensor> tensors, const StepChange& change) {
  TensorState& state = *tensors[change.tensor].state;
  for (const AxisGain& gain : change.gains) {
    int64_t source = gain.source;
    const AxisLink* link =
        source >= 0 ? findAxisLink(tensors[source].state->axisLinks, gain.axis) : nullptr;
    for (int64_t t = 0; !link && t < static_cast<int64_t>(tensors.size()); ++t) {
      if (t == change.tensor || !tensors[t].state) continue;
      link = findAxisLink(tensors[t].state->axisLinks, gain.axis);
      source = t;
    }
    if (!link) continue;
    AxisLink added{gain.dim, gain.axis, link->origin, graph.values[node.slots[source]], node.op};
    state.axisLinks.push_back(std::move(added));
  }
}

// Runs one node's step; returns the slots it changed. With `conflicts`, writes nothing
// and only reports where closed dimensions disagree.
llvm::SmallVector<int32_t> runNode(PropagationGraph& graph, const Node& node, int64_t level,
                                   llvm::SmallVectorImpl<FactorConflict>* conflicts = nullptr) {
  const TensorState* source = meshSource(graph, node);
  if (!source) return {};
  mlir::FlatSymbolRefAttr meshName = source->meshName;
  MeshAttr mesh = source->mesh;
  const size_t numOperands = node.rule->getOperands().size();
  auto factorsOf = [&](size_t index) {
    return index < numOperands ? &node.rule->getOperands()[index]
                               : &node.rule->getResults()[index - numOperands];
  };
  llvm::SmallVector<StepTensor, 4> tensors;
  for (auto [index, slot] : llvm::enumerate(node.slots)) {
    TensorState& state = graph.states[slot];
    const PropagationGraph::Shape& shape = graph.shapes[slot];
    if (shape.rank >= 0 && !state.meshName) state = openState(meshName, mesh, shape.rank);
    StepTensor tensor;
    if (state.meshName == meshName) tensor.state = &state;
    tensor.factors = factorsOf(index);
    tensor.numElements = shape.numElements;
    tensor.mayGrow = conflicts == nullptr;
    tensors.push_back(tensor);
  }
  llvm::SmallVector<int32_t> changed;
  for (const StepChange& change :
       propagateThroughRule(*node.rule, tensors, mesh, level, conflicts)) {
    TensorState& state = *tensors[change.tensor].state;
    const TensorState& from = *tensors[change.source].state;
    if (!state.provenance.origin && from.provenance.origin) {
      state.provenance.origin = from.provenance.origin;
      state.provenance.from = graph.values[node.slots[change.source]];
      state.provenance.via = node.op;
    }
    if (graph.recordAxisOrigins) recordAxisLinks(graph, node, tensors, change);
    changed.push_back(node.slots[change.tensor]);
  }
  return changed;
}

// `{"x", "y":(1)2}` for a list of axes, as shardings spell a dimension.
std::string printAxes(llvm::ArrayRef<AxisRefAttr> axes) {
  std::string text = "{";
  for (auto [i, axis] : llvm::enumerate(axes)) {
    text += (i ? ", " : "") + ir::axisRefToString(axis);
  }
  return text + "}";
}

// Whether two of the node's tensors have a closed dimension: only those can conflict. Most
// values are open at the end (propagation gave them their axes), so most nodes need no
// second step.
bool mayHaveClosedConflict(const PropagationGraph& graph, const Node& node) {
  int withClosed = 0;
  for (int32_t slot : node.slots) {
    const TensorState& state = graph.states[slot];
    if (llvm::any_of(state.dims, [](const DimState& dim) { return dim.closed; }) &&
        ++withClosed == 2) {
      return true;
    }
  }
  return false;
}

// Warns at each op where two dimensions pinned by the user (closed) disagree on a factor:
// propagation cannot reconcile them, and the partitioner will reshard between them.
// A conflict that involves a sharding auto-sharding wrote is a reshard its plan priced and
// chose: those are counted in one remark instead (the plan's explanation lists them).
void reportConflicts(PropagationGraph& graph, int64_t level) {
  int64_t chosen = 0;
  mlir::Operation* first = nullptr;
  for (const Node& node : graph.nodes) {
    if (!mayHaveClosedConflict(graph, node)) continue;
    llvm::SmallVector<FactorConflict> conflicts;
    runNode(graph, node, level, &conflicts);
    for (const FactorConflict& conflict : conflicts) {
      if (ir::isAutoChosen(graph.values[node.slots[conflict.first]]) ||
          ir::isAutoChosen(graph.values[node.slots[conflict.second]])) {
        if (chosen++ == 0) first = node.op;
        continue;
      }
      int64_t numOperands = node.rule->getNumOperands();
      auto describe = [&](int64_t t) {
        return t < numOperands ? "operand " + std::to_string(t)
                               : "result " + std::to_string(t - numOperands);
      };
      node.op->emitWarning() << describe(conflict.first) << " is pinned to "
                             << printAxes(conflict.firstAxes) << " and "
                             << describe(conflict.second) << " to "
                             << printAxes(conflict.secondAxes)
                             << " on a dimension they share; the partitioner will reshard";
    }
  }
  if (chosen > 0) {
    first->emitRemark() << chosen << " pinned "
                        << (chosen == 1 ? "disagreement comes" : "disagreements come")
                        << " from the auto-sharding plan, which priced "
                        << (chosen == 1 ? "its reshard" : "their reshards")
                        << " (not warned one by one)";
  }
}

// The factors on which each op's tensors still disagree at the fixed point (see OpConflict).
std::vector<OpConflict> collectDisagreements(PropagationGraph& graph, int64_t level) {
  std::vector<OpConflict> conflicts;
  for (const Node& node : graph.nodes) {
    const TensorState* source = meshSource(graph, node);
    if (!source) continue;
    const size_t numOperands = node.rule->getOperands().size();
    llvm::SmallVector<StepTensor, 4> tensors;
    for (auto [index, slot] : llvm::enumerate(node.slots)) {
      StepTensor tensor;
      TensorState& state = graph.states[slot];
      if (state.meshName == source->meshName) tensor.state = &state;
      tensor.factors = index < numOperands ? &node.rule->getOperands()[index]
                                           : &node.rule->getResults()[index - numOperands];
      tensor.mayGrow = false;
      tensors.push_back(tensor);
    }
    // Edges (while, case, call) relate one value seen from several places; only ops
    // have operands and results to name.
    const bool isEdge = node.op->getNumOperands() + node.op->getNumResults() !=
                        static_cast<unsigned>(node.slots.size());
    for (FactorDisagreement& disagreement :
         findDisagreements(*node.rule, tensors, source->mesh, level)) {
      OpConflict conflict;
      conflict.op = node.op;
      conflict.agreed = std::move(disagreement.agreed);
      for (FactorDisagreement::Member& member : disagreement.members) {
        OpConflict::Member named;
        named.value = graph.values[node.slots[member.tensor]];
        if (!isEdge) {
          if (member.tensor < static_cast<int64_t>(numOperands)) {
            named.operand = member.tensor;
          } else {
            named.result = member.tensor - numOperands;
          }
        }
        named.dim = member.dim;
        named.axes = std::move(member.axes);
        conflict.members.push_back(std::move(named));
      }
      conflicts.push_back(std::move(conflict));
    }
  }
  return conflicts;
}

// Runs the nodes enabled at `stage` to a fixed point. `dirty` marks the nodes whose values
// changed since they last ran at this level (all of them when the level starts): a node
// that ran and whose tensors have not changed since would change nothing, so it is passed
// over. The order stays that of running every node: where shardings conflict, the first
// step to reach a tensor decides, so skipping must not reorder the others.
void runToFixedPoint(PropagationGraph& graph, int64_t level, int stage,
                     std::vector<bool>& dirty) {
  std::deque<int64_t> worklist;
  std::vector<bool> queued(graph.nodes.size(), false);
  auto enabled = [&](int64_t node) { return static_cast<int>(graph.nodes[node].stage) <= stage; };
  for (int64_t node = 0; node < static_cast<int64_t>(graph.nodes.size()); ++node) {
    if (enabled(node)) {
      worklist.push_back(node);
      queued[node] = true;
    }
  }
  while (!worklist.empty()) {
    int64_t node = worklist.front();
    worklist.pop_front();
    queued[node] = false;
    if (!dirty[node]) continue;
    dirty[node] = false;
    for (int32_t slot : runNode(graph, graph.nodes[node], level)) {
      for (int64_t user : graph.users[slot]) {
        dirty[user] = true;
        if (!queued[user] && enabled(user)) {
          worklist.push_back(user);
          queued[user] = true;
        }
      }
    }
  }
}

// The sharding written for `value`: its state, or replicated over the default mesh.
ir::ShardingAttr finalSharding(const PropagationGraph& graph, mlir::Value value,
                               ShardingAttrWriter& writer) {
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType());
  if (!type) return {};
  if (const TensorState* state = graph.stateOf(value)) {
    return writer.write(*state, /*closeOpenDims=*/true);
  }
  TensorState replicated = openState(graph.defaultMeshName, graph.defaultMesh, type.getRank());
  return writer.write(replicated, /*closeOpenDims=*/true);
}

// The origin and path of `value`, rebuilt by following the links back to its annotation.
// Each link was made from one set earlier, so the walk ends; the bound only guards it.
std::optional<Provenance> expandLinks(
    mlir::Value value, llvm::function_ref<const ProvenanceLink*(mlir::Value)> linkOf,
    size_t bound) {
  const ProvenanceLink* link = linkOf(value);
  if (!link || !link->origin) return std::nullopt;
  Provenance provenance;
  provenance.origin = *link->origin;
  while (link && link->via && provenance.path.size() < bound) {
    provenance.path.push_back(link->via);
    link = linkOf(link->from);
  }
  std::reverse(provenance.path.begin(), provenance.path.end());
  return provenance;
}

std::optional<Provenance> expandProvenance(
    const llvm::DenseMap<mlir::Value, ProvenanceLink>& links, mlir::Value value) {
  return expandLinks(
      value,
      [&](mlir::Value v) -> const ProvenanceLink* {
        auto it = links.find(v);
        return it == links.end() ? nullptr : &it->second;
      },
      links.size());
}

std::optional<Provenance> expandProvenance(const PropagationGraph& graph, mlir::Value value) {
  return expandLinks(
      value,
      [&](mlir::Value v) -> const ProvenanceLink* {
        const TensorState* state = graph.stateOf(v);
        return state ? &state->provenance : nullptr;
      },
      graph.states.size());
}

void writeShardings(mlir::ModuleOp module, const PropagationGraph& graph, bool annotateOrigins,
                    PropagationReport* report,
                    const llvm::SmallPtrSetImpl<mlir::Operation*>& enteredManual) {
  mlir::MLIRContext* context = module.getContext();
  mlir::Builder builder(context);
  // A dialect attribute, by identifier: the name is hashed once, not for every op.
  mlir::StringAttr shardingName = builder.getStringAttr(ir::TesselDialect::kShardingAttrName);
  ShardingAttrWriter writer(context);
  // Ops of one result with no other discardable attribute are most ops, and their
  // dictionary then depends on the sharding alone: made once per distinct sharding, where
  // setting the attribute builds, sorts and uniques a dictionary for every op.
  llvm::DenseMap<ir::ShardingAttr, mlir::DictionaryAttr> aloneDictionaries;
  for (auto function : module.getOps<mlir::func::FuncOp>()) {
    if (function.isDeclaration()) continue;
    ir::FunctionAttrEditor attrs(function);
    for (auto [i, arg] : llvm::enumerate(function.getArguments())) {
      if (function.getArgAttr(i, ir::TesselDialect::kShardingAttrName)) continue;
      if (ir::ShardingAttr sharding = finalSharding(graph, arg, writer)) {
        attrs.setArg(i, ir::TesselDialect::kShardingAttrName, sharding);
      }
    }
    mlir::Operation* returnOp = function.getBody().front().getTerminator();
    for (auto [j, value] : llvm::enumerate(returnOp->getOperands())) {
      if (function.getResultAttr(j, ir::TesselDialect::kShardingAttrName)) continue;
      if (ir::ShardingAttr sharding = finalSharding(graph, value, writer)) {
        attrs.setResult(j, ir::TesselDialect::kShardingAttrName, sharding);
      }
    }
    attrs.commit();
    function.getBody().walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
      if (op->getNumResults() > 0 &&
          !op->getDiscardableAttr(shardingName) &&
          llvm::all_of(op->getResultTypes(),
                       [](mlir::Type type) { return llvm::isa<mlir::RankedTensorType>(type); })) {
        llvm::SmallVector<ir::ShardingAttr> shardings;
        for (mlir::Value result : op->getResults()) {
          shardings.push_back(finalSharding(graph, result, writer));
        }
        if (shardings.size() == 1 && op->getDiscardableAttrDictionary().empty()) {
          mlir::DictionaryAttr& alone = aloneDictionaries[shardings[0]];
          if (!alone) {
            alone = builder.getDictionaryAttr(builder.getNamedAttr(
                shardingName, ir::ShardingPerValueAttr::get(context, shardings)));
          }
          op->setDiscardableAttrs(alone);
        } else {
          op->setDiscardableAttr(shardingName, ir::ShardingPerValueAttr::get(context, shardings));
        }
        if (annotateOrigins) {
          llvm::SmallVector<mlir::Attribute> origins;
          for (mlir::Value result : op->getResults()) {
            std::optional<Provenance> provenance = expandProvenance(graph, result);
            origins.push_back(builder.getStringAttr(
                provenance ? describeProvenance(*provenance)
                           : "replicated: no sharding reached it"));
          }
          op->setAttr("tessel.sharding_origin", builder.getArrayAttr(origins));
        }
      }
      // Only while and case bodies hold tensor computations to shard, and the bodies of
      // manual computations whose automatic axes propagation carried in; other manual
      // bodies are per-device code on whole values, and reducer-like regions compute on
      // single elements.
      bool descend = op->getNumRegions() == 0 || llvm::isa<hlo::WhileOp, hlo::CaseOp>(op) ||
                     enteredManual.contains(op);
      return descend ? mlir::WalkResult::advance() : mlir::WalkResult::skip();
    });
  }
  if (report) {
    for (auto [slot, state] : llvm::enumerate(graph.states)) {
      if (state.provenance.origin) report->links[graph.values[slot]] = state.provenance;
      if (!state.axisLinks.empty()) report->axisLinks[graph.values[slot]] = state.axisLinks;
    }
  }
}

}  // namespace

std::optional<Provenance> PropagationReport::provenanceOf(mlir::Value value) const {
  return expandProvenance(links, value);
}

std::vector<AxisProvenance> PropagationReport::axisProvenanceOf(
    mlir::Value value, ir::ShardingAttr sharding) const {
  std::vector<AxisProvenance> result;
  if (!sharding) return result;
  auto linksOf = [&](mlir::Value v) -> llvm::ArrayRef<AxisLink> {
    auto it = axisLinks.find(v);
    return it == axisLinks.end() ? llvm::ArrayRef<AxisLink>() : llvm::ArrayRef(it->second);
  };
  for (auto [d, dim] : llvm::enumerate(sharding.getDimShardings())) {
    for (AxisRefAttr axis : dim.getAxes()) {
      AxisProvenance provenance;
      provenance.dim = d;
      provenance.axis = axis;
      mlir::Value at = value;
      AxisRefAttr wanted = axis;
      // Each link was made from one recorded earlier, so the walk ends; the bound guards it.
      for (size_t step = 0; step <= axisLinks.size(); ++step) {
        const AxisLink* link = findAxisLink(linksOf(at), wanted);
        if (!link) break;
        if (!link->from) {
          provenance.origin = *link->origin;
          provenance.annotated = at;
          break;
        }
        provenance.path.push_back(link->via);
        wanted = link->axis;
        at = link->from;
      }
      if (provenance.origin.empty()) provenance.path.clear();
      std::reverse(provenance.path.begin(), provenance.path.end());
      result.push_back(std::move(provenance));
    }
  }
  return result;
}

std::vector<const OpConflict*> PropagationReport::conflictsOf(mlir::Value value) const {
  std::vector<const OpConflict*> result;
  auto it = conflictsByValue.find(value);
  if (it == conflictsByValue.end()) return result;
  for (int32_t index : it->second) result.push_back(&conflicts[index]);
  return result;
}

std::string describeAxisProvenance(const AxisProvenance& provenance) {
  std::string text = ir::axisRefToString(provenance.axis);
  if (provenance.origin.empty()) return text + " (added after propagation)";
  Provenance whole{provenance.origin, provenance.path};
  return text + " from " + describeProvenance(whole);
}

std::string describeProvenance(const Provenance& provenance) {
  if (provenance.origin.empty()) return "replicated: no sharding reached it";
  std::string text = provenance.origin;
  llvm::raw_string_ostream os(text);
  for (auto [i, op] : llvm::enumerate(provenance.path)) {
    os << (i == 0 ? " via " : ", ") << op->getName();
    if (op->getLoc()->findInstanceOf<mlir::FileLineColLoc>()) {
      os << " (" << FormatLocation(op->getLoc()) << ")";
    }
  }
  return os.str();
}

namespace {

void runAllLevels(PropagationGraph& graph) {
  // Each priority level runs every stage; a level unmasks the dimensions of its priority.
  std::vector<bool> dirty;
  for (int64_t level : graph.levels) {
    dirty.assign(graph.nodes.size(), true);
    for (int stage = 0; stage < kNumStages; ++stage) runToFixedPoint(graph, level, stage, dirty);
  }
}

// Widens each open dimension of `sharding` with the whole axes `found` has on it that are
// not manual and not used by `sharding` already, after its own axes (manual axes stay
// major, as the body's local split needs). Returns null when nothing was added.
ir::ShardingAttr widenOpenDims(ir::ShardingAttr sharding, ir::ShardingAttr found,
                               mlir::ArrayAttr manualAxes) {
  if (!found || found.getMeshName() != sharding.getMeshName() ||
      found.getDimShardings().size() != sharding.getDimShardings().size()) {
    return {};
  }
  llvm::SmallVector<llvm::StringRef> used;
  auto note = [&](llvm::ArrayRef<ir::AxisRefAttr> axes) {
    for (ir::AxisRefAttr axis : axes) used.push_back(axis.getName());
  };
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) note(dim.getAxes());
  note(sharding.getReplicatedAxes());
  note(sharding.getUnreducedAxes());
  for (mlir::StringAttr axis : manualAxes.getAsRange<mlir::StringAttr>()) {
    used.push_back(axis.getValue());
  }
  mlir::MLIRContext* context = sharding.getContext();
  llvm::SmallVector<ir::DimShardingAttr> dims(sharding.getDimShardings());
  bool widened = false;
  for (auto [d, dim] : llvm::enumerate(dims)) {
    if (dim.getIsClosed()) continue;
    llvm::SmallVector<ir::AxisRefAttr> axes(dim.getAxes());
    for (ir::AxisRefAttr axis : found.getDimShardings()[d].getAxes()) {
      if (axis.isSubAxis() || llvm::is_contained(used, axis.getName())) continue;
      axes.push_back(axis);
      used.push_back(axis.getName());
      widened = true;
    }
    dim = ir::DimShardingAttr::get(context, axes, /*is_closed=*/false, dim.getPriority());
  }
  if (!widened) return {};
  return ir::ShardingAttr::get(context, sharding.getMeshName(), dims,
                               sharding.getReplicatedAxes(), sharding.getUnreducedAxes());
}

// For every manual computation with automatic axes: the open dimensions of its in_shardings
// (with `in`) or out_shardings take the automatic axes its operands (or returned values)
// received. Returns whether any sharding changed; `widenedOps` collects the computations
// that did.
bool widenManualShardings(mlir::ModuleOp module, const PropagationGraph& graph, bool in,
                          llvm::SmallPtrSetImpl<mlir::Operation*>* widenedOps = nullptr) {
  bool changed = false;
  ShardingAttrWriter writer(module.getContext());
  module.walk([&](ir::ManualComputationOp manual) {
    mlir::ArrayAttr shardings = in ? manual.getInShardings() : manual.getOutShardings();
    mlir::ValueRange values = in ? mlir::ValueRange(manual.getOperands())
                                 : mlir::ValueRange(
                                       manual.getBody().front().getTerminator()->getOperands());
    llvm::SmallVector<mlir::Attribute> updated(shardings.begin(), shardings.end());
    bool any = false;
    for (auto [k, value] : llvm::enumerate(values)) {
      auto sharding = llvm::cast<ir::ShardingAttr>(updated[k]);
      if (ir::ShardingAttr wider = widenOpenDims(sharding, finalSharding(graph, value, writer),
                                                 manual.getManualAxes())) {
        updated[k] = wider;
        any = true;
      }
    }
    if (!any) return;
    mlir::ArrayAttr attr = mlir::ArrayAttr::get(module.getContext(), updated);
    if (in) {
      manual.setInShardingsAttr(attr);
    } else {
      manual.setOutShardingsAttr(attr);
    }
    if (widenedOps) widenedOps->insert(manual);
    changed = true;
  });
  return changed;
}

}  // namespace

mlir::LogicalResult propagateShardings(mlir::ModuleOp module, const PropagationOptions& options,
                                       PropagationReport* report) {
  rules::ensureShardingRuleModels(module.getContext());
  auto build = [&](bool enterManualBodies) {
    return buildPropagationGraph(module, options.conservative, enterManualBodies,
                                 options.recordAxisOrigins);
  };
  mlir::FailureOr<PropagationGraph> graph = build(/*enterManualBodies=*/false);
  if (mlir::failed(graph)) return mlir::failure();
  if (!graph->defaultMesh) return mlir::success();
  runAllLevels(*graph);
  // A partly manual computation leaves dimensions of its in_shardings open to the automatic
  // axes: they take those its operands received, and propagation runs again, this time
  // through the bodies, so that body values stay split over those axes instead of being
  // gathered on the way in; the out_shardings then take what the returned values received.
  // Each run starts again from the annotations, so a widened sharding is just one more.
  llvm::SmallPtrSet<mlir::Operation*, 4> entered;
  if (widenManualShardings(module, *graph, /*in=*/true, &entered)) {
    graph = build(/*enterManualBodies=*/true);
    if (mlir::failed(graph)) return mlir::failure();
    runAllLevels(*graph);
    // Results start from the out_shardings: where those widened, once more, so that the
    // values after the manual computation see it.
    if (widenManualShardings(module, *graph, /*in=*/false)) {
      graph = build(/*enterManualBodies=*/true);
      if (mlir::failed(graph)) return mlir::failure();
      runAllLevels(*graph);
    }
  }
  reportConflicts(*graph, graph->levels.back());
  if (report && options.recordAxisOrigins) {
    report->conflicts = collectDisagreements(*graph, graph->levels.back());
    for (auto [index, conflict] : llvm::enumerate(report->conflicts)) {
      for (const OpConflict::Member& member : conflict.members) {
        llvm::SmallVector<int32_t, 1>& indices = report->conflictsByValue[member.value];
        // An op may take a value twice (x * x): one entry per conflict.
        if (indices.empty() || indices.back() != static_cast<int32_t>(index)) {
          indices.push_back(static_cast<int32_t>(index));
        }
      }
    }
  }
  writeShardings(module, *graph, options.annotateOrigins, report, entered);
  ir::clearAutoChosen(module);
  return mlir::success();
}

}  // namespace tessel::propagation
