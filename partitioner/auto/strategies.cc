// Strategy enumeration: a depth-first walk that hands each mesh axis to one factor or none.
#include "partitioner/auto/strategies.h"

#include <algorithm>
#include <functional>

namespace tessel::auto_sharding {
namespace {

Layout layoutFor(const rules::TensorFactors& tensor,
                 llvm::ArrayRef<llvm::SmallVector<int, 2>> factorAxes) {
  Layout layout;
  for (const rules::DimFactors& dim : tensor) {
    auto& axes = layout.dims.emplace_back();
    for (int64_t factor : dim) llvm::append_range(axes, factorAxes[factor]);
  }
  return layout;
}

// Whether `factor` shares some tensor dimension with another factor.
bool sharesADimension(const rules::OpShardingRule& rule, int64_t factor) {
  auto check = [&](llvm::ArrayRef<rules::TensorFactors> tensors) {
    for (const rules::TensorFactors& tensor : tensors) {
      for (const rules::DimFactors& dim : tensor) {
        if (dim.size() > 1 && llvm::is_contained(dim, factor)) return true;
      }
    }
    return false;
  };
  return check(rule.getOperands()) || check(rule.getResults());
}

bool splittable(const rules::Factor& factor) {
  return factor.size > 1 && !factor.blocked &&
         (factor.kind == rules::FactorKind::kPassThrough ||
          factor.kind == rules::FactorKind::kReduction);
}

// The device counts a factor can be split over on `mesh`: the products of the sizes of every
// subset of its axes, 1 (no axis) included.
llvm::SmallVector<int64_t> groupSizes(ir::MeshAttr mesh) {
  llvm::SmallVector<int64_t> sizes = {1};
  for (auto axis : mesh.getAxes()) {
    const size_t count = sizes.size();
    for (size_t i = 0; i < count; ++i) sizes.push_back(sizes[i] * axis.getSize());
  }
  return sizes;
}

// Whether splitting `size` over `n` devices is dominated: a split over fewer devices that the
// mesh offers gives pieces as small, so the extra devices would add only padding. 4 over 3
// (pieces of 2) is dominated on a mesh with an axis of 2; 8 over 6 (pieces of 2) is not
// on a 2x3 mesh, whose smaller splits leave pieces of 3 or 4.
bool dominated(int64_t size, int64_t n, llvm::ArrayRef<int64_t> groups) {
  const int64_t piece = (size + n - 1) / n;
  return llvm::any_of(groups, [&](int64_t m) { return m < n && (size + m - 1) / m <= piece; });
}

}  // namespace

std::vector<OpStrategy> enumerateStrategies(const rules::OpShardingRule& rule, ir::MeshAttr mesh,
                                            const EnumerationOptions& options) {
  const int64_t numFactors = rule.getNumFactors();
  const int64_t numAxes = mesh.getAxes().size();
  llvm::SmallVector<int64_t> candidates;
  llvm::SmallVector<bool> shared(numFactors, false);
  for (int64_t f = 0; f < numFactors; ++f) {
    if (splittable(rule.getFactor(f))) candidates.push_back(f);
    shared[f] = sharesADimension(rule, f);
  }
  // assignment[a]: the factor axis a splits, or -1.
  llvm::SmallVector<int64_t> assignment(numAxes, -1);
  const llvm::SmallVector<int64_t> groups = groupSizes(mesh);
  std::vector<OpStrategy> strategies;

  auto emit = [&] {
    OpStrategy strategy;
    strategy.factorAxes.resize(numFactors);
    for (int64_t a = 0; a < numAxes; ++a) {
      if (assignment[a] < 0) continue;
      strategy.factorAxes[assignment[a]].push_back(static_cast<int>(a));
      strategy.workShards *= mesh.getAxes()[a].getSize();
    }
    for (int64_t f = 0; f < numFactors; ++f) {
      if (strategy.factorAxes[f].empty()) continue;
      int64_t n = 1;
      for (int a : strategy.factorAxes[f]) n *= mesh.getAxes()[a].getSize();
      const int64_t size = rule.getFactor(f).size;
      if (n > size) return;
      if (size % n != 0) {
        if (shared[f]) return;
        const int64_t padded = (size + n - 1) / n * n;
        if (static_cast<double>(padded - size) > options.maxPaddingFraction * size &&
            dominated(size, n, groups)) {
          return;
        }
      }
      if (rule.getFactor(f).kind == rules::FactorKind::kReduction) {
        llvm::append_range(strategy.reductionAxes, strategy.factorAxes[f]);
      }
    }
    for (const rules::TensorFactors& operand : rule.getOperands()) {
      strategy.operands.push_back(layoutFor(operand, strategy.factorAxes));
    }
    for (const rules::TensorFactors& result : rule.getResults()) {
      strategy.results.push_back(layoutFor(result, strategy.factorAxes));
    }
    strategies.push_back(std::move(strategy));
  };

  // Axis by axis, in mesh order: none first, so the unsplit strategy comes first.
  std::function<void(int64_t)> visit = [&](int64_t axis) {
    if (axis == numAxes) {
      emit();
      return;
    }
    if (mesh.getAxes()[axis].getSize() > 1) {
      for (int64_t f : candidates) {
        assignment[axis] = f;
        visit(axis + 1);
      }
    }
    assignment[axis] = -1;
    visit(axis + 1);
  };
  // The walk above emits "none" last for each axis; collect, then move the unsplit one
  // (every axis unassigned: the last emitted) to the front.
  visit(0);
  if (!strategies.empty()) {
    std::rotate(strategies.begin(), strategies.end() - 1, strategies.end());
  }
  return strategies;
}

int64_t factorShards(const OpStrategy& strategy, int64_t factor, ir::MeshAttr mesh) {
  int64_t n = 1;
  for (int a : strategy.factorAxes[factor]) n *= mesh.getAxes()[a].getSize();
  return n;
}

bool splitsEvenly(const rules::OpShardingRule& rule, const OpStrategy& strategy,
                  ir::MeshAttr mesh) {
  for (int64_t f = 0; f < static_cast<int64_t>(strategy.factorAxes.size()); ++f) {
    if (rule.getFactor(f).size % factorShards(strategy, f, mesh) != 0) return false;
  }
  return true;
}

rules::OpShardingRule tensorRule(llvm::ArrayRef<int64_t> shape) {
  llvm::SmallVector<rules::Factor> factors;
  rules::TensorFactors tensor;
  for (size_t d = 0; d < shape.size(); ++d) {
    factors.push_back(rules::Factor{shape[d], rules::FactorKind::kPassThrough});
    tensor.push_back(rules::DimFactors{static_cast<int64_t>(d)});
  }
  return rules::OpShardingRule(factors, {tensor}, {tensor});
}

}  // namespace tessel::auto_sharding
