// Live ranges over the entry function's top-level ops, turned into the ILP's memory points.
#include "partitioner/auto/liveness.h"

#include <algorithm>
#include <cstdint>

#include "cost_model/tensor_bytes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

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

// A live range: the first and last point (op index) a value is held at.
struct Range {
  int64_t first = 0;
  int64_t last = 0;
};

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

double fewestBytes(const IlpMemoryPoint& point) {
  double bytes = point.constantBytes;
  for (const auto& [node, perStrategy] : point.nodeBytes) {
    if (!perStrategy.empty()) bytes += *std::min_element(perStrategy.begin(), perStrategy.end());
  }
  for (const IlpEdge& edge : point.edgeBytes) {
    if (!edge.cost.empty()) bytes += *std::min_element(edge.cost.begin(), edge.cost.end());
  }
  return bytes;
}

LivenessPoints livenessPoints(const CostGraph& graph, mlir::func::FuncOp func) {
  LivenessPoints result;
  mlir::Block& block = func.getBody().front();
  std::vector<mlir::Operation*> ops;
  llvm::DenseMap<mlir::Operation*, int64_t> position;
  for (mlir::Operation& op : block) {
    position[&op] = static_cast<int64_t>(ops.size());
    ops.push_back(&op);
  }
  const int64_t numPoints = static_cast<int64_t>(ops.size());
  if (numPoints == 0) return result;
  auto rangeOf = [&](mlir::Value value, int64_t first) {
    Range range{first, first};
    for (mlir::Operation* user : value.getUsers()) {
      // A use inside a region counts at the top-level op that holds it (as the cost
      // report counts it).
      if (mlir::Operation* ancestor = block.findAncestorOpInBlock(*user)) {
        range.last = std::max(range.last, position[ancestor]);
      }
    }
    return range;
  };

  // Items live at each point: graph values by index, then values the graph does not
  // describe (whole bytes), numbered after them.
  const int64_t numGraphValues = static_cast<int64_t>(graph.values.size());
  std::vector<Range> ranges(graph.values.size());
  std::vector<double> otherBytes;
  std::vector<Range> otherRanges;
  for (mlir::BlockArgument argument : block.getArguments()) {
    auto it = graph.valueIndex.find(argument);
    if (it != graph.valueIndex.end()) {
      ranges[it->second] = Range{0, numPoints - 1};
    } else {
      otherBytes.push_back(static_cast<double>(cost_model::TensorBytes(argument.getType())));
      otherRanges.push_back(Range{0, numPoints - 1});
    }
  }
  for (int64_t i = 0; i < numPoints; ++i) {
    for (mlir::Value value : ops[i]->getResults()) {
      auto it = graph.valueIndex.find(value);
      if (it != graph.valueIndex.end()) {
        ranges[it->second] = rangeOf(value, i);
      } else {
        otherBytes.push_back(static_cast<double>(cost_model::TensorBytes(value.getType())));
        otherRanges.push_back(rangeOf(value, i));
      }
    }
  }

  // What each point adds of its own: values inside the op's regions (whole, all at once:
  // more than any one moment holds), reshard buffers of its operands, partial results.
  std::vector<IlpMemoryPoint> own(numPoints);
  std::vector<bool> hasOwn(numPoints, false);
  for (int64_t i = 0; i < numPoints; ++i) {
    double nested = 0;
    for (mlir::Region& region : ops[i]->getRegions()) {
      region.walk([&](mlir::Operation* inner) {
        for (mlir::Value value : inner->getResults()) {
          nested += static_cast<double>(cost_model::TensorBytes(value.getType()));
        }
      });
    }
    own[i].constantBytes = nested;
    hasOwn[i] = nested > 0;
  }
  for (const OperandUse& use : graph.uses) {
    mlir::Operation* at = block.findAncestorOpInBlock(*use.user);
    auto valueIt = graph.valueIndex.find(use.value);
    auto type = staticTensor(use.value.getType());
    if (!at || valueIt == graph.valueIndex.end() || !type) continue;
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
    const int64_t i = position[at];
    own[i].edgeBytes.push_back(std::move(table));
    hasOwn[i] = true;
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const GraphNode& node = graph.nodes[n];
    if (!node.op || node.op->getBlock() != &block) continue;
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
    const int64_t i = position[node.op];
    own[i].nodeBytes.emplace_back(static_cast<int>(n), std::move(partial));
    hasOwn[i] = true;
  }

  // The live items of each point, sorted.
  std::vector<std::vector<int64_t>> live(numPoints);
  for (int64_t v = 0; v < numGraphValues; ++v) {
    for (int64_t i = ranges[v].first; i <= ranges[v].last; ++i) live[i].push_back(v);
  }
  for (size_t o = 0; o < otherRanges.size(); ++o) {
    for (int64_t i = otherRanges[o].first; i <= otherRanges[o].last; ++i) {
      live[i].push_back(numGraphValues + static_cast<int64_t>(o));
    }
  }
  // Point i cannot be the peak when a neighbour holds all it holds: a strict superset, or
  // the same set for the later of two equal neighbours (so one of them stays). Points with
  // buffers of their own always stay.
  auto within = [&](int64_t i, int64_t j) {
    return j >= 0 && j < numPoints &&
           std::includes(live[j].begin(), live[j].end(), live[i].begin(), live[i].end());
  };
  for (int64_t i = 0; i < numPoints; ++i) {
    bool dominated = false;
    if (!hasOwn[i]) {
      for (int64_t j : {i - 1, i + 1}) {
        if (!within(i, j)) continue;
        const bool equal = live[i].size() == live[j].size();
        dominated |= !equal || (j == i - 1 && !hasOwn[j]) || hasOwn[j];
      }
    }
    if (dominated) continue;
    IlpMemoryPoint point = std::move(own[i]);
    for (int64_t item : live[i]) {
      if (item >= numGraphValues) {
        point.constantBytes += otherBytes[item - numGraphValues];
        continue;
      }
      const GraphValue& value = graph.values[item];
      auto type = staticTensor(value.value.getType());
      if (!type) continue;
      std::vector<double> bytes;
      for (const Layout& layout : value.layouts) {
        bytes.push_back(static_cast<double>(layout.localBytes(type, graph.mesh)));
      }
      point.nodeBytes.emplace_back(value.node, std::move(bytes));
    }
    result.points.push_back(std::move(point));
    result.ops.push_back(ops[i]);
  }
  return result;
}

}  // namespace tessel::auto_sharding
