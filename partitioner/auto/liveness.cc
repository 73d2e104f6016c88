// Live ranges over the entry function's ops (a loop's body ops in line), turned into the
// ILP's memory points.
#include "partitioner/auto/liveness.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>

#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "partitioner/auto/memory_rows.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/loop_invariant_hoisting.h"

namespace tessel::auto_sharding {
namespace {

mlir::RankedTensorType staticTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() ? tensor : nullptr;
}

// Per dimension, how many leading axes `from` and `to` share.
llvm::SmallVector<size_t, 4> keptPrefix(const Layout& from, const Layout& to) {
  llvm::SmallVector<size_t, 4> kept;
  for (size_t d = 0; d < from.dims.size(); ++d) {
    size_t k = 0;
    while (k < from.dims[d].size() && k < to.dims[d].size() &&
           from.dims[d][k] == to.dims[d][k]) {
      ++k;
    }
    kept.push_back(k);
  }
  return kept;
}

// Marks the ops every branch of `caseOp` computes alike from values outside it, which the
// partitioner computes once before the case (loop_invariant_hoisting.cc), in every branch.
void markCommonCode(hlo::CaseOp caseOp,
                    llvm::DenseMap<mlir::Operation*, mlir::Operation*>& hoistedBefore) {
  auto branches = caseOp->getRegions();
  if (branches.size() < 2) return;
  for (mlir::Operation& op : branches.front().front().without_terminator()) {
    if (op.getNumRegions() != 0 || !mlir::isPure(&op)) continue;
    const bool outside = llvm::all_of(op.getOperands(), [&](mlir::Value value) {
      return !caseOp->isAncestor(value.getParentBlock()->getParentOp());
    });
    if (!outside) continue;
    llvm::SmallVector<mlir::Operation*, 4> twins = {&op};
    for (mlir::Region& branch : branches.drop_front()) {
      for (mlir::Operation& candidate : branch.front().without_terminator()) {
        if (mlir::OperationEquivalence::isEquivalentTo(
                &op, &candidate, mlir::OperationEquivalence::IgnoreLocations)) {
          twins.push_back(&candidate);
          break;
        }
      }
    }
    if (twins.size() != branches.size()) continue;
    for (mlir::Operation* twin : twins) hoistedBefore[twin] = caseOp.getOperation();
  }
}

}  // namespace

double reshardBufferBytes(const Layout& from, const Layout& to, mlir::ShapedType type,
                          ir::MeshAttr mesh) {
  if (from == to || from.dims.size() != to.dims.size()) return 0;
  llvm::SmallVector<size_t, 4> kept = keptPrefix(from, to);
  // The planner's steps (reshard_cost.h): an all_to_all per axis that changes dimension,
  // one all_gather for the axes that leave, one local slice for the axes that arrive.
  int moves = 0;
  bool gathers = false, slices = false;
  // A slice into an uneven dimension pads the source first (to a multiple of the shards),
  // and the padded copy lives beside the piece cut from it.
  double slicePadding = 1.0;
  Layout common;
  for (size_t d = 0; d < from.dims.size(); ++d) {
    common.dims.emplace_back(from.dims[d].begin(), from.dims[d].begin() + kept[d]);
    for (size_t i = kept[d]; i < from.dims[d].size(); ++i) {
      const int axis = from.dims[d][i];
      bool moved = false;
      for (size_t e = 0; e < to.dims.size(); ++e) {
        moved |= e != d && llvm::is_contained(to.dims[e], axis);
      }
      if (moved) {
        ++moves;
      } else {
        gathers = true;
      }
    }
    bool slicedHere = false;
    for (size_t i = kept[d]; i < to.dims[d].size(); ++i) {
      bool moved = false;
      for (size_t e = 0; e < from.dims.size(); ++e) {
        moved |= e != d && llvm::is_contained(from.dims[e], to.dims[d][i]);
      }
      slices |= !moved;
      slicedHere |= !moved;
    }
    const int64_t size = type.getDimSize(d);
    const int64_t shards = to.shards(static_cast<int64_t>(d), mesh);
    if (slicedHere && size > 0 && size % shards != 0) {
      slicePadding *= static_cast<double>((size + shards - 1) / shards * shards) /
                      static_cast<double>(size);
    }
  }
  // An uneven dimension that loses axes is gathered padded, then sliced: two values.
  bool uneven = false;
  for (size_t d = 0; d < from.dims.size(); ++d) {
    uneven |= kept[d] < from.dims[d].size() && type.getDimSize(d) % from.shards(d, mesh) != 0;
  }
  const int steps = moves + (gathers ? 1 : 0) + (slices ? 1 : 0) + (uneven ? 1 : 0);
  if (steps <= 1) {
    if (slices && slicePadding > 1.0) {
      return static_cast<double>(from.localBytes(type, mesh)) * slicePadding +
             static_cast<double>(to.localBytes(type, mesh));
    }
    return static_cast<double>(to.localBytes(type, mesh));
  }
  // The padded whole of what leaves: the local piece times the shards that go.
  const double padded = static_cast<double>(from.localBytes(type, mesh)) *
                        static_cast<double>(from.totalShards(mesh) / common.totalShards(mesh));
  return 2.0 * std::max(padded, static_cast<double>(common.localBytes(type, mesh)));
}

namespace {

// The point's constant plus each term's entry that `pick` selects (std::min_element or
// std::max_element over the term's values).
template <typename Pick>
double boundBytes(const IlpMemoryPoint& point, Pick pick) {
  double bytes = point.constantBytes;
  for (const auto& [node, perStrategy] : point.nodeBytes) {
    if (!perStrategy.empty()) bytes += *pick(perStrategy.begin(), perStrategy.end());
  }
  for (const IlpEdge& edge : point.edgeBytes) {
    if (!edge.cost.empty()) bytes += *pick(edge.cost.begin(), edge.cost.end());
  }
  return bytes;
}

}  // namespace

double fewestBytes(const IlpMemoryPoint& point) {
  return boundBytes(point, [](auto first, auto last) { return std::min_element(first, last); });
}

double mostBytes(const IlpMemoryPoint& point) {
  return boundBytes(point, [](auto first, auto last) { return std::max_element(first, last); });
}

LivenessModel::LivenessModel(const CostGraph& graph, mlir::func::FuncOp func) : graph_(&graph) {
  mlir::Block& block = func.getBody().front();
  // The points: the function's ops in program order, where each while loop's condition and
  // body ops and each case's branch ops (terminators included) come just before the op's
  // own point, as the cost graph opens them. An op's span runs from its first inner point
  // to its own.
  llvm::DenseMap<mlir::Operation*, int64_t> position;
  std::vector<int64_t> spanFirst;
  // Ops the partitioner moves before their loop or case (loop_invariant_hoisting.cc), by the
  // op they leave: their values are live over all of it, not only between def and use.
  llvm::DenseMap<mlir::Operation*, mlir::Operation*> hoistedBefore;
  std::function<void(mlir::Block&)> flatten = [&](mlir::Block& inner) {
    for (mlir::Operation& op : inner) {
      const int64_t first = static_cast<int64_t>(ops_.size());
      if (auto loop = llvm::dyn_cast<hlo::WhileOp>(op)) {
        for (mlir::Operation* hoisted : spmd::loopInvariantOps(loop)) {
          hoistedBefore[hoisted] = loop.getOperation();
        }
        flatten(loop.getCond().front());
        flatten(loop.getBody().front());
      } else if (auto branches = llvm::dyn_cast<hlo::CaseOp>(op)) {
        markCommonCode(branches, hoistedBefore);
        for (mlir::Region& branch : branches.getBranches()) flatten(branch.front());
      }
      position[&op] = static_cast<int64_t>(ops_.size());
      spanFirst.push_back(first);
      ops_.push_back(&op);
    }
  };
  flatten(block);
  const int64_t numPoints = static_cast<int64_t>(ops_.size());
  if (numPoints == 0) return;
  // The point of the nearest op around `op` that has one (a reducer's ops count at the
  // reduce).
  auto pointOf = [&](mlir::Operation* op) -> int64_t {
    while (op != nullptr) {
      auto it = position.find(op);
      if (it != position.end()) return it->second;
      op = op->getParentOp();
    }
    return -1;
  };
  // A value defined by the op at point `at` is live over the op's span and up to the point
  // of its last user's ancestor in the op's block (a use inside a region counts at the op
  // holding it, as the cost report counts it).
  auto rangeOf = [&](mlir::Value value, int64_t at) {
    LivenessModel::Range range{spanFirst[at], at};
    auto hoisted = hoistedBefore.find(ops_[at]);
    if (hoisted != hoistedBefore.end()) {
      const int64_t loop = position[hoisted->second];
      range = LivenessModel::Range{spanFirst[loop], loop};
    }
    mlir::Block* owner = value.getParentBlock();
    for (mlir::Operation* user : value.getUsers()) {
      if (mlir::Operation* ancestor = owner->findAncestorOpInBlock(*user)) {
        range.last = std::max(range.last, position[ancestor]);
      }
    }
    return range;
  };

  // Live ranges of the graph's values, and of the values it does not describe (counted
  // whole) as a running total over the points. A loop's region arguments are its state,
  // held as the loop's inputs and results are (the cost report counts them so too).
  valueRanges_.assign(graph.values.size(), LivenessModel::Range{0, -1});
  valueBytes_.resize(graph.values.size());
  for (size_t v = 0; v < graph.values.size(); ++v) {
    auto type = staticTensor(graph.values[v].value.getType());
    if (!type) continue;
    for (const Layout& layout : graph.values[v].layouts) {
      valueBytes_[v].push_back(static_cast<double>(layout.localBytes(type, graph.mesh)));
    }
  }
  std::vector<int64_t> starts(numPoints, 0), ends(numPoints, 0);
  std::vector<double> otherDelta(numPoints + 1, 0.0);
  auto addItem = [&](mlir::Value value, LivenessModel::Range range) {
    ++starts[range.first];
    ++ends[range.last];
    auto it = graph.valueIndex.find(value);
    if (it != graph.valueIndex.end()) {
      valueRanges_[it->second] = range;
      return;
    }
    const double bytes = static_cast<double>(cost_model::TensorBytes(value.getType()));
    otherDelta[range.first] += bytes;
    otherDelta[range.last + 1] -= bytes;
  };
  for (mlir::BlockArgument argument : block.getArguments()) {
    addItem(argument, LivenessModel::Range{0, numPoints - 1});
  }
  for (int64_t i = 0; i < numPoints; ++i) {
    for (mlir::Value value : ops_[i]->getResults()) addItem(value, rangeOf(value, i));
  }

  // What each point adds of its own: values inside the regions of an op other than a loop
  // (whole, all at once: more than any one moment holds), reshard buffers of its operands,
  // partial results.
  own_.resize(numPoints);
  std::vector<bool> hasOwn(numPoints, false);
  double others = 0;
  for (int64_t i = 0; i < numPoints; ++i) {
    double nested = 0;
    if (!llvm::isa<hlo::WhileOp, hlo::CaseOp>(ops_[i])) {
      for (mlir::Region& region : ops_[i]->getRegions()) {
        region.walk([&](mlir::Operation* inner) {
          for (mlir::Value value : inner->getResults()) {
            nested += static_cast<double>(cost_model::TensorBytes(value.getType()));
          }
        });
      }
    }
    others += otherDelta[i];
    // The live values the graph does not describe belong to the point's constant too.
    own_[i].constantBytes = nested + others;
    hasOwn[i] = nested > 0;
  }
  for (const OperandUse& use : graph.uses) {
    const int64_t i = pointOf(use.user);
    auto valueIt = graph.valueIndex.find(use.value);
    auto type = staticTensor(use.value.getType());
    if (i < 0 || valueIt == graph.valueIndex.end() || !type) continue;
    const GraphValue& produced = graph.values[valueIt->second];
    const size_t rows = produced.layouts.size();
    const size_t cols = use.required.size();
    IlpEdge table{produced.node, use.consumer, std::vector<double>(rows * cols, 0.0)};
    bool any = false;
    for (size_t s = 0; s < rows; ++s) {
      for (size_t t = 0; t < cols; ++t) {
        if (produced.node == use.consumer && s != t) continue;  // one node, one strategy
        const double bytes =
            reshardBufferBytes(produced.layouts[s], use.required[t], type, graph.mesh);
        table.cost[s * cols + t] = bytes;
        any |= bytes != 0;
      }
    }
    if (!any) continue;
    own_[i].edgeBytes.push_back(std::move(table));
    hasOwn[i] = true;
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const GraphNode& node = graph.nodes[n];
    const int64_t i = node.op ? pointOf(node.op) : -1;
    if (i < 0) continue;
    // The only communication inside an op is the all-reduce of its partial result, which
    // the partitioner keeps beside the reduced one while the collective runs; it is
    // added below to the masks, if any.
    std::vector<double> partial(node.numStrategies(), 0.0);
    bool any = false;
    // Masks of an uneven split's padding are made at the op too.
    if (node.maskBytes.size() == node.numStrategies()) {
      for (size_t s = 0; s < node.numStrategies(); ++s) {
        partial[s] += node.maskBytes[s];
        any |= partial[s] != 0;
      }
    }
    for (size_t s = 0; s < node.numStrategies(); ++s) {
      if (node.communicationSeconds[s] <= 0) continue;
      for (mlir::Value value : node.op->getResults()) {
        auto it = graph.valueIndex.find(value);
        auto type = staticTensor(value.getType());
        if (it == graph.valueIndex.end() || !type) continue;
        partial[s] += static_cast<double>(
            graph.values[it->second].layouts[s].localBytes(type, graph.mesh));
      }
      any |= partial[s] != 0;
    }
    if (!any) continue;
    own_[i].nodeBytes.emplace_back(static_cast<int>(n), std::move(partial));
    hasOwn[i] = true;
  }

  // Point i cannot be the peak when a neighbour holds all it holds: a strict superset, or
  // the same set for the later of two equal neighbours (so one of them stays). Points with
  // buffers of their own always stay. What i holds beyond i - 1 starts at i; what i - 1
  // holds beyond i ended there (and likewise towards i + 1).
  kept_.assign(numPoints, true);
  for (int64_t i = 0; i < numPoints; ++i) {
    if (hasOwn[i]) continue;
    bool dominated = false;
    // Within i - 1's set, equal or not: i - 1 stays for both.
    if (i > 0 && starts[i] == 0) dominated = true;
    if (i + 1 < numPoints && ends[i] == 0) {
      const bool equal = starts[i + 1] == 0;
      dominated |= !equal || hasOwn[i + 1];
    }
    kept_[i] = !dominated;
  }
}

template <typename Visit>
void LivenessModel::forEachLiveValue(int64_t point, Visit visit) const {
  for (size_t v = 0; v < valueRanges_.size(); ++v) {
    if (valueRanges_[v].first <= point && point <= valueRanges_[v].last && !valueBytes_[v].empty()) {
      visit(v);
    }
  }
}

LivenessPoints LivenessModel::rowsOver(double limit, const std::vector<int>* leader) const {
  LivenessPoints result;
  auto lead = [leader](int node) { return leader ? (*leader)[node] : node; };
  // Terms per (leading) node and per pair of them, added up: a node's values, and the tied
  // copies of a weight, take one strategy together. Rows alike but for their constants
  // (the copies of a tied layer give many) are kept once.
  MemoryRows rows;
  const int64_t numPoints = static_cast<int64_t>(ops_.size());
  // The most each point can hold, each term at its largest: a running total of the live
  // values' largest layouts plus the point's own terms.
  std::vector<double> delta(numPoints + 1, 0.0);
  for (size_t v = 0; v < valueRanges_.size(); ++v) {
    if (valueBytes_[v].empty() || valueRanges_[v].last < valueRanges_[v].first) continue;
    const double most = *std::max_element(valueBytes_[v].begin(), valueBytes_[v].end());
    delta[valueRanges_[v].first] += most;
    delta[valueRanges_[v].last + 1] -= most;
  }
  double live = 0;
  for (int64_t i = 0; i < numPoints; ++i) {
    live += delta[i];
    if (!kept_[i] || live + mostBytes(own_[i]) <= limit) continue;
    for (const auto& [node, bytes] : own_[i].nodeBytes) rows.addNodeTerm(lead(node), bytes);
    for (const IlpEdge& edge : own_[i].edgeBytes) {
      rows.addEdgeTerm(lead(edge.from), lead(edge.to), edge.cost);
    }
    forEachLiveValue(
        i, [&](size_t v) { rows.addNodeTerm(lead(graph_->values[v].node), valueBytes_[v]); });
    auto [row, kept] = rows.finishRow(own_[i].constantBytes);
    if (row == result.ops.size()) {
      result.ops.push_back(ops_[i]);
    } else if (kept) {
      result.ops[row] = ops_[i];
    }
  }
  result.points = std::move(rows).take();
  return result;
}

std::pair<double, mlir::Operation*> LivenessModel::peakOf(const std::vector<int>& choice) const {
  const int64_t numPoints = static_cast<int64_t>(ops_.size());
  std::vector<double> delta(numPoints + 1, 0.0);
  for (size_t v = 0; v < valueRanges_.size(); ++v) {
    if (valueBytes_[v].empty() || valueRanges_[v].last < valueRanges_[v].first) continue;
    const double bytes = valueBytes_[v][choice[graph_->values[v].node]];
    delta[valueRanges_[v].first] += bytes;
    delta[valueRanges_[v].last + 1] -= bytes;
  }
  double live = 0, peak = 0;
  mlir::Operation* where = nullptr;
  for (int64_t i = 0; i < numPoints; ++i) {
    live += delta[i];
    if (!kept_[i]) continue;
    double bytes = live + own_[i].constantBytes;
    for (const auto& [node, perStrategy] : own_[i].nodeBytes) bytes += perStrategy[choice[node]];
    for (const IlpEdge& edge : own_[i].edgeBytes) {
      const size_t width = graph_->nodes[edge.to].numStrategies();
      bytes += edge.cost[choice[edge.from] * width + choice[edge.to]];
    }
    if (where == nullptr || bytes > peak) {
      peak = bytes;
      where = ops_[i];
    }
  }
  return {peak, where};
}

}  // namespace tessel::auto_sharding
