// The per-op propagation step over an OpShardingRule (see factor_propagation.h).
#include "partitioner/propagation/factor_propagation.h"

#include <algorithm>
#include <utility>

#include "llvm/ADT/DenseSet.h"

namespace tessel::propagation {
namespace {

// Where a factor sits in one tensor.
struct FactorPlace {
  int64_t dim = -1;
  int64_t position = -1;  // 0 = major-most factor of the dimension
};

// The projection of one tensor's sharding onto the rule's factors. Every step of every op
// projects each of its tensors: the inline sizes fit rules of up to four factors on
// tensors of up to four dimensions without allocating.
struct ProjectedTensor {
  llvm::SmallVector<AxisList, 4> factorAxes;    // per rule factor (empty when absent)
  llvm::SmallVector<FactorPlace, 4> places;     // per rule factor (dim -1 when absent)
  llvm::SmallVector<bool, 4> dimHasOverflow;    // per dimension
  AxisList reserved;  // axes this tensor uses outside its visible factors
};

// The projections of an op's tensors, built in place (a ProjectedTensor is large to move).
using ProjectedTensors = llvm::SmallVector<ProjectedTensor, 3>;

// Fills `projected`, which is freshly constructed.
void project(const rules::OpShardingRule& rule, const StepTensor& tensor, MeshAttr mesh,
             int64_t level, ProjectedTensor& projected) {
  int64_t numFactors = rule.getNumFactors();
  projected.factorAxes.resize(numFactors);
  projected.places.resize(numFactors);
  const TensorState& state = *tensor.state;
  projected.dimHasOverflow.assign(state.dims.size(), false);
  projected.reserved.append(state.replicated.begin(), state.replicated.end());
  projected.reserved.append(state.unreduced.begin(), state.unreduced.end());
  for (auto [dim, dimFactors] : llvm::enumerate(*tensor.factors)) {
    for (auto [position, factor] : llvm::enumerate(dimFactors)) {
      projected.places[factor] = {static_cast<int64_t>(dim), static_cast<int64_t>(position)};
    }
    const DimState& dimState = state.dims[dim];
    if (state.isMasked(dim, level)) {
      projected.reserved.append(dimState.axes.begin(), dimState.axes.end());
      continue;
    }
    if (dimState.axes.empty()) continue;  // most dimensions: nothing to project
    llvm::SmallVector<int64_t> sizes;
    for (int64_t factor : dimFactors) sizes.push_back(rule.getFactor(factor).size);
    DimProjection dimProjection = projectOntoFactors(dimState.axes, sizes, mesh);
    for (auto [position, factor] : llvm::enumerate(dimFactors)) {
      projected.factorAxes[factor] = dimProjection.factorAxes[position];
    }
    if (!dimProjection.overflow.empty()) {
      projected.dimHasOverflow[dim] = true;
      projected.reserved.append(dimProjection.overflow.begin(), dimProjection.overflow.end());
    }
  }
}

// Whether `axis` and `other` cannot both shard one tensor: they overlap, or they are
// sub-axes of one axis that no single split of it holds both of (`"x":(1)2` and `"x":(3)2`
// of "x"=6: the later must start at a multiple of where the earlier ends), which the
// sharding verifier rejects.
bool clashes(AxisRefAttr axis, AxisRefAttr other) {
  if (axis.overlaps(other)) return true;
  if (axis.getName() != other.getName()) return false;
  // Both are sub-axes here: a whole axis overlaps every part of itself.
  auto [first, second] = axis.getPreSize() < other.getPreSize() ? std::make_pair(axis, other)
                                                                : std::make_pair(other, axis);
  return second.getPreSize() % (first.getPreSize() * first.getSubSize()) != 0;
}

bool clashesWithAny(AxisRefAttr axis, llvm::ArrayRef<AxisRefAttr> axes) {
  return llvm::any_of(axes, [&](AxisRefAttr other) { return clashes(axis, other); });
}

// Whether `axis` may be added to factor `factor` of `tensor`: it clashes with no axis of the
// tensor's other factors and none of its reserved axes.
bool isFree(const ProjectedTensor& tensor, int64_t factor, AxisRefAttr axis) {
  if (clashesWithAny(axis, tensor.reserved)) return false;
  for (auto [other, axes] : llvm::enumerate(tensor.factorAxes)) {
    if (static_cast<int64_t>(other) != factor && clashesWithAny(axis, axes)) return false;
  }
  return true;
}

// Records the first pair of tensors whose closed dimensions give `factor` different axes.
void findClosedConflicts(const rules::OpShardingRule& rule,
                         llvm::ArrayRef<StepTensor> tensors,
                         llvm::ArrayRef<ProjectedTensor> projected, int64_t factor,
                         int64_t level, llvm::SmallVectorImpl<FactorConflict>& conflicts) {
  int64_t first = -1;
  for (int64_t t = 0; t < static_cast<int64_t>(tensors.size()); ++t) {
    if (!tensors[t].state || projected[t].places[factor].dim < 0) continue;
    int64_t dim = projected[t].places[factor].dim;
    if (!tensors[t].state->dims[dim].closed || tensors[t].state->isMasked(dim, level)) continue;
    if (first < 0) {
      first = t;
    } else if (projected[t].factorAxes[factor] != projected[first].factorAxes[factor]) {
      conflicts.push_back({factor, first, t, projected[first].factorAxes[factor],
                           projected[t].factorAxes[factor]});
      return;
    }
  }
}

}  // namespace

std::vector<FactorDisagreement> findDisagreements(const rules::OpShardingRule& rule,
                                                        llvm::ArrayRef<StepTensor> tensors,
                                                        MeshAttr mesh, int64_t level) {
  ProjectedTensors projected(tensors.size());
  for (auto [t, tensor] : llvm::enumerate(tensors)) {
    if (tensor.state) project(rule, tensor, mesh, level, projected[t]);
  }
  std::vector<FactorDisagreement> disagreements;
  for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor) {
    FactorDisagreement disagreement{factor, {}, {}};
    llvm::SmallVector<AxisList, 4> lists;
    bool differ = false;
    for (auto [t, tensor] : llvm::enumerate(tensors)) {
      if (!tensor.state || projected[t].places[factor].dim < 0) continue;
      const AxisList& axes = projected[t].factorAxes[factor];
      if (!lists.empty() && axes != lists.front()) differ = true;
      lists.push_back(axes);
      disagreement.members.push_back(
          {static_cast<int64_t>(t), projected[t].places[factor].dim, axes});
    }
    if (!differ) continue;
    disagreement.agreed = compatibleMajorAxes(lists, mesh);
    disagreements.push_back(std::move(disagreement));
  }
  return disagreements;
}

llvm::SmallVector<StepChange> propagateThroughRule(
    const rules::OpShardingRule& rule, llvm::MutableArrayRef<StepTensor> tensors, MeshAttr mesh,
    int64_t level, llvm::SmallVectorImpl<FactorConflict>* conflicts) {
  int64_t numTensors = tensors.size();
  ProjectedTensors projected(numTensors);
  for (int64_t t = 0; t < numTensors; ++t) {
    if (tensors[t].state) project(rule, tensors[t], mesh, level, projected[t]);
  }
  auto hasFactor = [&](int64_t t, int64_t factor) {
    return tensors[t].state && projected[t].places[factor].dim >= 0;
  };

  // Largest sharded tensor first, then factor order. The index breaks ties, so the
  // unstable sort gives the stable order without std::stable_sort's temporary buffer (one
  // heap allocation per step).
  llvm::SmallVector<int64_t, 8> order;
  llvm::SmallVector<int64_t, 8> weight(rule.getNumFactors(), 0);
  for (int64_t factor = 0; factor < rule.getNumFactors(); ++factor) {
    order.push_back(factor);
    for (int64_t t = 0; t < numTensors; ++t) {
      if (hasFactor(t, factor) && !projected[t].factorAxes[factor].empty()) {
        weight[factor] = std::max(weight[factor], tensors[t].numElements);
      }
    }
  }
  std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
    return weight[a] != weight[b] ? weight[a] > weight[b] : a < b;
  });

  llvm::SmallVector<llvm::SmallVector<AxisGain, 2>, 4> gainsOf(numTensors);
  llvm::SmallVector<AxisList, 4> lists;  // reused across factors
  for (int64_t factor : order) {
    const rules::Factor& info = rule.getFactor(factor);
    if (info.blocked || (info.kind == rules::FactorKind::kNeedReplication && !info.movable)) {
      continue;
    }
    // Most factors are unsplit in every tensor: they agree on nothing and nothing conflicts.
    bool anySplit = false;
    for (int64_t t = 0; t < numTensors && !anySplit; ++t) {
      anySplit = hasFactor(t, factor) && !projected[t].factorAxes[factor].empty();
    }
    if (!anySplit) continue;
    lists.clear();
    for (int64_t t = 0; t < numTensors; ++t) {
      if (hasFactor(t, factor)) lists.push_back(projected[t].factorAxes[factor]);
    }
    if (conflicts) findClosedConflicts(rule, tensors, projected, factor, level, *conflicts);
    AxisList agreed = compatibleMajorAxes(lists, mesh);
    if (agreed.empty()) continue;
    // The tensor the agreed axes come from: the first that has them all.
    int64_t source = -1;
    for (int64_t t = 0; t < numTensors && source < 0; ++t) {
      if (hasFactor(t, factor) && projected[t].factorAxes[factor] == agreed) source = t;
    }

    for (int64_t t = 0; t < numTensors; ++t) {
      if (!hasFactor(t, factor) || !tensors[t].mayGrow) continue;
      ProjectedTensor& tensor = projected[t];
      AxisList& current = tensor.factorAxes[factor];
      if (current.size() > agreed.size() || !isPrefixOf(current, agreed, mesh) ||
          current == agreed) {
        continue;
      }
      FactorPlace place = tensor.places[factor];
      const DimState& dimState = tensors[t].state->dims[place.dim];
      if (dimState.closed || tensors[t].state->isMasked(place.dim, level) ||
          tensor.dimHasOverflow[place.dim]) {
        continue;
      }
      const rules::DimFactors& dimFactors = (*tensors[t].factors)[place.dim];
      bool majorFactorsFull = true;
      for (int64_t p = 0; p < place.position; ++p) {
        int64_t major = dimFactors[p];
        if (getAxesSize(tensor.factorAxes[major], mesh) != rule.getFactor(major).size) {
          majorFactorsFull = false;
        }
      }
      if (!majorFactorsFull) continue;
      bool minorMost = place.position + 1 == static_cast<int64_t>(dimFactors.size());

      // Grow element by element; the element where `current` ends may be replaced by the
      // larger axis it is a major part of.
      AxisList grown(current.begin(), current.end());
      size_t start = current.empty() ? 0 : current.size() - 1;
      if (!current.empty() && current.back() == agreed[start]) ++start;
      for (size_t k = start; k < agreed.size(); ++k) {
        AxisList candidate(grown.begin(), grown.begin() + std::min(grown.size(), k));
        candidate.push_back(agreed[k]);
        // The new axis must not clash with the tensor's other factors or reserved axes.
        if (!isFree(tensor, factor, agreed[k])) break;
        if (!minorMost && info.size % getAxesSize(candidate, mesh) != 0) break;
        grown = std::move(candidate);
      }
      if (grown == current) continue;
      for (size_t k = 0; k < grown.size(); ++k) {
        if (k >= current.size() || grown[k] != current[k]) {
          gainsOf[t].push_back({place.dim, grown[k], source});
        }
      }
      current = grown;
    }
  }

  // Write the grown factors back into the dimensions of the tensors that changed.
  llvm::SmallVector<StepChange> changes;
  for (int64_t t = 0; t < numTensors; ++t) {
    // A tensor counts as changed when a factor grew from a tensor that had all the agreed
    // axes; growth to axes no single tensor has (a common part of two) waits for that.
    auto known = llvm::find_if(gainsOf[t], [](const AxisGain& gain) { return gain.source >= 0; });
    if (known == gainsOf[t].end()) continue;
    TensorState& state = *tensors[t].state;
    for (auto [dim, dimFactors] : llvm::enumerate(*tensors[t].factors)) {
      if (state.dims[dim].closed || state.isMasked(dim, level) ||
          projected[t].dimHasOverflow[dim]) {
        continue;
      }
      AxisList axes;
      for (int64_t factor : dimFactors) {
        const AxisList& factorAxes = projected[t].factorAxes[factor];
        axes.append(factorAxes.begin(), factorAxes.end());
      }
      state.dims[dim].axes = mergeAdjacent(axes, mesh);
    }
    int64_t source = known->source;
    changes.push_back({t, source, std::move(gainsOf[t])});
  }
  return changes;
}

}  // namespace tessel::propagation
