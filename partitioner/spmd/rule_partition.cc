// Rule-driven partitioning: ops whose sharding rule has only pass-through, reduction and
// need-replication factors (elementwise ops, convert, compare, select, clamp,
// broadcast_in_dim, transpose, reduce, dot_general, sort, concatenate). Need-replication
// factors (a sort's sorted dimension, a concatenated dimension) are kept whole in every
// tensor while the other dimensions stay split, so sorting along an unsplit dimension with
// the others split is purely local. Each factor gets the axes of the result dimension it appears in
// (pass-through) or of an operand dimension (reduction factors of dot_general only); the
// operands are resharded to what those factor axes imply, the op runs on local types, and
// the result — a partial sum over the axes of split reduction factors — is resharded to its
// annotated layout, which all-reduces those axes (or reduce-scatters them onto the dimension
// the layout splits).
//
// Which factor takes which axes is a choice where reduction factors can be split
// (dot_general): the result's axes first (operands resharded to match the result), the
// operands' axes first (each operand kept as it is, a partial result reduce-scattered or
// all-reduced onto the layout its users want), or the reduction factors first. Each choice is
// emitted into a trial block and priced by the cost model (strategy_choice.h); the fastest is
// emitted, except that one computing redundantly (on fewer devices than the result-first
// choice) must also send no more bytes than it.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/spmd/partition_state.h"
#include "partitioner/spmd/strategy_choice.h"

namespace tessel::spmd {
namespace {

bool isStaticTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

// Whether need-replication factors may simply be kept whole while the op runs on local
// types. Not for ops whose attributes carry sizes of split dimensions (dynamic_slice, gather)
// or whose pass-through factors do not compute shard by shard (dynamic_update_slice writes
// an update that is whole into an operand that would stay split); those have handlers.
bool allowsWholeFactors(mlir::Operation* op) {
  return !llvm::isa<hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp, hlo::GatherOp,
                    hlo::ScatterOp>(op);
}

// Whether the generic path applies: only pass-through, reduction and need-replication
// factors (the last kept whole), each dimension one factor of exactly its size (any size
// for a need-replication dimension), every operand and result a static tensor.
bool ruleFits(mlir::Operation* op, const rules::OpShardingRule& rule,
              const PartitionState& state) {
  // These ops' attributes hold global positions and sizes (start and limit indices,
  // padding amounts, slice sizes, windows): a clone on local types would read them against
  // the shard, even where the factor sizes happen to match (a full-width slice, a pad that
  // removes as much as it adds).
  if (llvm::isa<hlo::SliceOp, hlo::PadOp, hlo::DynamicSliceOp, hlo::DynamicUpdateSliceOp,
                hlo::GatherOp, hlo::ScatterOp, hlo::ReduceWindowOp, hlo::SelectAndScatterOp,
                hlo::ConvolutionOp>(op)) {
    return false;
  }
  const llvm::SmallBitVector inOperands = rule.operandFactors();
  const llvm::SmallBitVector inResults = rule.resultFactors();
  for (auto [index, factor] : llvm::enumerate(rule.getFactors())) {
    if (factor.kind == rules::FactorKind::kNeedReplication) {
      if (!allowsWholeFactors(op)) return false;
      continue;
    }
    if (factor.kind != rules::FactorKind::kPassThrough &&
        factor.kind != rules::FactorKind::kReduction) {
      return false;
    }
    // A pass-through factor on one side only (a reshape's rule has nothing shared) means
    // the result is not computed shard by shard — except a broadcast's new dimensions, whose
    // values do not depend on the position, and the size-1 dims a broadcast expands.
    if (factor.kind != rules::FactorKind::kPassThrough || factor.size == 1) continue;
    if (!inOperands.test(index) && !llvm::isa<hlo::BroadcastInDimOp>(op)) return false;
    if (!inResults.test(index)) return false;
  }
  auto fits = [&](llvm::ArrayRef<llvm::SmallVector<int64_t, 4>> shapes,
                  llvm::ArrayRef<rules::TensorFactors> tensors) {
    if (shapes.size() != tensors.size()) return false;
    for (auto [shape, factors] : llvm::zip(shapes, tensors)) {
      if (factors.size() != shape.size()) return false;
      for (auto [dimFactors, size] : llvm::zip(factors, shape)) {
        if (dimFactors.size() != 1) return false;
        // A need-replication dimension stays whole, whatever the factor's extent.
        const rules::Factor& factor = rule.getFactor(dimFactors[0]);
        if (factor.kind != rules::FactorKind::kNeedReplication && factor.size != size) {
          return false;
        }
      }
    }
    return true;
  };
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>, 3> operandShapes, resultShapes;
  for (mlir::Value operand : op->getOperands()) operandShapes.push_back(state.local(operand).shape);
  for (mlir::Type type : op->getResultTypes()) {
    if (!isStaticTensor(type)) return false;
    resultShapes.push_back(llvm::to_vector<4>(shapeOf(type)));
  }
  return fits(operandShapes, rule.getOperands()) && fits(resultShapes, rule.getResults());
}

// Per rule factor; inline for the rules of elementwise, dot and reduce ops.
using FactorAxes = llvm::SmallVector<AxisList, 4>;

// Where factor axes are read from, in the order a strategy claims them.
enum class ClaimSource {
  kResults,             // every factor from the result dimensions' axes
  kOperandReductions,   // reduction factors from the operand dimensions' axes
  kOperand0,            // every factor from operand 0's dimensions
  kOperand1,            // every factor from operand 1's dimensions
};

// Each factor gets the axes of the first dimension, in `order`, that it appears in and whose
// axes are still free; size-1 and need-replication factors stay whole.
FactorAxes claimFactors(mlir::Operation* op, const rules::OpShardingRule& rule,
                        PartitionState& state, llvm::ArrayRef<Layout> annotated,
                        llvm::ArrayRef<ClaimSource> order) {
  const Layout& first = annotated.front();
  FactorAxes factorAxes(rule.getNumFactors());
  if (!first.mesh) return factorAxes;
  AxisList used;
  auto claim = [&](int64_t factor, llvm::ArrayRef<ir::AxisRefAttr> axes) {
    if (axes.empty() || !factorAxes[factor].empty() || anyOverlap(axes, used)) return;
    if (rule.getFactor(factor).size == 1) return;
    if (rule.getFactor(factor).kind == rules::FactorKind::kNeedReplication) return;
    factorAxes[factor].assign(axes.begin(), axes.end());
    used.append(axes.begin(), axes.end());
  };
  auto claimOperand = [&](unsigned index, bool reductionsOnly) {
    if (index >= op->getNumOperands()) return;
    const LocalValue& local = state.local(op->getOperand(index));
    if (local.layout.meshName != first.meshName) return;
    for (auto [dim, factors] : llvm::enumerate(rule.getOperand(index))) {
      if (reductionsOnly && rule.getFactor(factors[0]).kind != rules::FactorKind::kReduction) {
        continue;
      }
      claim(factors[0], local.layout.dims[dim]);
    }
  };
  for (ClaimSource source : order) {
    switch (source) {
      case ClaimSource::kResults:
        for (auto [index, layout] : llvm::enumerate(annotated)) {
          for (auto [dim, factors] : llvm::enumerate(rule.getResult(index))) {
            claim(factors[0], layout.dims[dim]);
          }
        }
        break;
      case ClaimSource::kOperandReductions:
        for (unsigned index = 0; index < op->getNumOperands(); ++index) claimOperand(index, true);
        break;
      case ClaimSource::kOperand0: claimOperand(0, false); break;
      case ClaimSource::kOperand1: claimOperand(1, false); break;
    }
  }
  return factorAxes;
}

// The operands that carry the unreduced axes `unreduced` of `op`'s result through to it
// when the op is linear in them: a sum or difference of partial sums is the partial sum
// of the sums (add, sub: every operand), and a linear map of a partial sum is a partial sum
// (neg, convert between floats, transpose, broadcast_in_dim: the operand; mul and div: the
// one operand that is a partial sum, the other whole). Empty where the op
// is none of these, no such operand is unreduced over exactly those axes now (nothing
// would be saved), or the factors split the op over them.
llvm::SmallVector<bool> linearOperands(mlir::Operation* op, PartitionState& state,
                                       llvm::ArrayRef<ir::AxisRefAttr> unreduced,
                                       const FactorAxes& factorAxes) {
  if (unreduced.empty() || op->getNumResults() != 1) return {};
  for (const AxisList& axes : factorAxes) {
    if (anyOverlap(axes, unreduced)) return {};
  }
  auto isPartial = [&](unsigned index) {
    return sameAxes(state.local(op->getOperand(index)).layout.unreduced, unreduced);
  };
  llvm::SmallVector<bool> linear(op->getNumOperands(), false);
  if (llvm::isa<hlo::AddOp, hlo::SubOp>(op)) {
    linear.assign(op->getNumOperands(), true);
  } else if (llvm::isa<hlo::NegOp, hlo::TransposeOp, hlo::BroadcastInDimOp>(op)) {
    linear[0] = true;
  } else if (llvm::isa<hlo::ConvertOp>(op)) {
    auto elementType = [](mlir::Type type) {
      return llvm::cast<mlir::ShapedType>(type).getElementType();
    };
    linear[0] = llvm::isa<mlir::FloatType>(elementType(op->getOperand(0).getType())) &&
                llvm::isa<mlir::FloatType>(elementType(op->getResult(0).getType()));
  } else if (llvm::isa<hlo::DivOp>(op)) {
    linear[0] = isPartial(0) && !isPartial(1);
  } else if (llvm::isa<hlo::MulOp>(op)) {
    if (isPartial(0) != isPartial(1)) linear[isPartial(0) ? 0 : 1] = true;
  }
  bool anyPartial = false;
  for (unsigned index = 0; index < op->getNumOperands(); ++index) {
    anyPartial |= linear[index] && isPartial(index);
  }
  if (!anyPartial) return {};
  return linear;
}

// The local results of `op` partitioned with `factorAxes`, resharded to their annotated
// layouts `annotated`: operands resharded to what the factors imply (padding of split
// reduction dimensions zeroed), the op cloned on local types, its partial sums reduced.
mlir::FailureOr<llvm::SmallVector<mlir::Value>> emitWithFactors(
    mlir::Operation* op, const rules::OpShardingRule& rule, PartitionState& state,
    llvm::ArrayRef<Layout> annotated, const FactorAxes& factorAxes) {
  const Layout& first = annotated.front();
  auto layoutFor = [&](const rules::TensorFactors& tensor) {
    Layout layout = Layout::replicated(first.mesh, first.meshName, tensor.size());
    for (auto [dim, factors] : llvm::enumerate(tensor)) layout.dims[dim] = factorAxes[factors[0]];
    return layout;
  };

  // Unreduced axes the result is asked to keep, passed through from operands the op is
  // linear in: those stay partial sums, and so does the result.
  llvm::SmallVector<bool> linear =
      linearOperands(op, state, first.unreduced, factorAxes);
  mlir::OpBuilder& builder = state.spmd().builder();
  // Operand by operand, not value by value: one value used twice (a dot of x with itself)
  // may need a different layout on each side.
  // Operands that are the same value wanting the same layout share one reshard.
  llvm::SmallVector<mlir::Value> localOperands;
  llvm::SmallVector<std::pair<Layout, mlir::Value>, 3> resharded;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    Layout target = layoutFor(rule.getOperand(index));
    if (!linear.empty() && linear[index]) target.unreduced = first.unreduced;
    mlir::Value value;
    for (unsigned earlier = 0; earlier < index && !value; ++earlier) {
      if (op->getOperand(earlier) == operand && resharded[earlier].first == target) {
        value = resharded[earlier].second;
      }
    }
    if (!value) {
      mlir::FailureOr<mlir::Value> local = state.localAs(operand, target, op->getLoc());
      if (mlir::failed(local)) return mlir::failure();
      value = *local;
    }
    resharded.push_back({target, value});
    // Padding along a split reduction dimension would be summed: zero it (in every operand,
    // so that padding holding inf or NaN cannot turn 0 * x into NaN).
    llvm::SmallVector<int64_t> reductionDims;
    for (auto [dim, factors] : llvm::enumerate(rule.getOperand(index))) {
      if (rule.getFactor(factors[0]).kind == rules::FactorKind::kReduction &&
          !factorAxes[factors[0]].empty()) {
        reductionDims.push_back(dim);
      }
    }
    if (!reductionDims.empty()) {
      auto elementType = llvm::cast<mlir::RankedTensorType>(value.getType()).getElementType();
      value = state.spmd().maskPadding(value, target, state.local(operand).shape, reductionDims,
                                       state.spmd().zeroScalar(elementType, op->getLoc()),
                                       op->getLoc());
    }
    localOperands.push_back(value);
  }

  mlir::Operation* local;
  if (op->getNumRegions() == 0) {
    local = state.copyUnannotated(op, localOperands);
  } else {
    local = builder.clone(*op);
    local->setOperands(localOperands);
    const mlir::StringAttr shardingName = state.shardingAttrName();
    local->walk([&](mlir::Operation* nested) { nested->removeDiscardableAttr(shardingName); });
  }
  AxisList partial;
  for (auto [factor, axes] : llvm::enumerate(factorAxes)) {
    if (rule.getFactor(factor).kind == rules::FactorKind::kReduction) {
      partial.append(axes.begin(), axes.end());
    }
  }
  llvm::SmallVector<mlir::Value> results;
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    Layout computed = layoutFor(rule.getResult(index));
    computed.unreduced = partial;
    if (!linear.empty()) computed.unreduced.append(first.unreduced.begin(), first.unreduced.end());
    auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
    local->getResult(index).setType(mlir::RankedTensorType::get(
        computed.localShape(type.getShape()), type.getElementType()));
    mlir::FailureOr<mlir::Value> reduced =
        state.spmd().reshard(local->getResult(index), computed,
                             annotated[index], type.getShape(), op->getLoc());
    if (mlir::failed(reduced)) return mlir::failure();
    results.push_back(*reduced);
  }
  return results;
}

// "lhs [{}, {"model"}], rhs [{"model"}, {}]": the operand layouts a strategy computes on.
std::string describeOperands(mlir::Operation* op, const rules::OpShardingRule& rule,
                             const FactorAxes& factorAxes) {
  std::string text;
  for (unsigned index = 0; index < op->getNumOperands(); ++index) {
    std::string dims;
    for (auto [dim, factors] : llvm::enumerate(rule.getOperand(index))) {
      std::string axes;
      for (ir::AxisRefAttr axis : factorAxes[factors[0]]) {
        absl::StrAppend(&axes, axes.empty() ? "" : ", ", "\"", axis.getName().str(), "\"");
        if (axis.isSubAxis()) {
          absl::StrAppend(&axes, ":(", axis.getPreSize(), ")", axis.getSubSize());
        }
      }
      absl::StrAppend(&dims, dim == 0 ? "" : ", ", "{", axes, "}");
    }
    absl::StrAppend(&text, index == 0 ? "" : ", ", "operand ", index, " [", dims, "]");
  }
  return text;
}

// The axes that split a need-replication factor (a sort's sorted dimension) in an operand
// moved to a pass-through factor nobody splits, so the op runs on all devices (two
// all_to_alls, there and back) instead of gathering the whole dimension on each; nullopt
// where there is nothing to move or nowhere to put it.
std::optional<FactorAxes> moveWholeFactorAxes(mlir::Operation* op,
                                              const rules::OpShardingRule& rule,
                                              PartitionState& state, const Layout& first,
                                              const FactorAxes& factorAxes) {
  auto needsReplication = [](const rules::Factor& factor) {
    return factor.kind == rules::FactorKind::kNeedReplication;
  };
  // Most ops have no such factor: nothing to copy then.
  if (!first.mesh || llvm::none_of(rule.getFactors(), needsReplication)) return std::nullopt;
  FactorAxes moved = factorAxes;
  AxisList used;
  for (const AxisList& axes : factorAxes) used.append(axes.begin(), axes.end());
  bool any = false;
  for (auto [index, factor] : llvm::enumerate(rule.getFactors())) {
    if (factor.kind != rules::FactorKind::kNeedReplication) continue;
    AxisList axes;
    for (auto [operandIndex, operand] : llvm::enumerate(op->getOperands())) {
      const LocalValue& local = state.local(operand);
      if (local.layout.meshName != first.meshName) continue;
      for (auto [dim, factors] : llvm::enumerate(rule.getOperand(operandIndex))) {
        if (factors[0] == static_cast<int64_t>(index) && axes.empty()) {
          axes = local.layout.dims[dim];
        }
      }
    }
    if (axes.empty() || anyOverlap(axes, used)) continue;
    const int64_t group = ir::getGroupSize(first.mesh, axes);
    // The largest free pass-through factor the group divides, else the largest one at
    // least as large as the group (its split is uneven and padded).
    std::optional<int64_t> target;
    auto rank = [&](int64_t candidate) {
      const rules::Factor& f = rule.getFactor(candidate);
      return std::make_pair(f.size % group == 0, f.size);
    };
    for (auto [candidate, other] : llvm::enumerate(rule.getFactors())) {
      if (other.kind != rules::FactorKind::kPassThrough || other.size < group ||
          !moved[candidate].empty() || !rule.isInResults(candidate)) {
        continue;
      }
      if (!target || rank(candidate) > rank(*target)) target = candidate;
    }
    if (!target) continue;
    moved[*target] = axes;
    used.append(axes.begin(), axes.end());
    any = true;
  }
  if (!any) return std::nullopt;
  return moved;
}

}  // namespace

mlir::FailureOr<bool> partitionByRule(mlir::Operation* op, const rules::OpShardingRule& rule,
                                      PartitionState& state) {
  if (!ruleFits(op, rule, state) || op->getNumResults() == 0) return false;
  const bool splitReductions = llvm::isa<hlo::DotGeneralOp>(op);

  // The mesh comes from the results' annotations; without one, nothing is split. Each
  // strategy reads them, so they are read from the attributes once.
  llvm::SmallVector<Layout, 1> annotated;
  for (mlir::OpResult result : op->getResults()) {
    annotated.push_back(state.annotatedLayout(result));
    if (annotated.back().meshName != annotated.front().meshName) return false;
  }
  const Layout& first = annotated.front();

  using Order = llvm::SmallVector<ClaimSource, 3>;
  llvm::SmallVector<Order> orders = {{ClaimSource::kResults}};
  // dot_general can also split its contracting (reduction) factors.
  if (splitReductions) {
    orders = {{ClaimSource::kResults, ClaimSource::kOperandReductions},
              {ClaimSource::kOperandReductions, ClaimSource::kResults},
              {ClaimSource::kOperand0, ClaimSource::kOperand1, ClaimSource::kResults},
              {ClaimSource::kOperand1, ClaimSource::kOperand0, ClaimSource::kResults},
              {ClaimSource::kResults}};
  }
  llvm::SmallVector<FactorAxes, 2> strategies;
  auto add = [&](FactorAxes factorAxes) {
    bool seen = llvm::any_of(strategies, [&](const FactorAxes& s) {
      return llvm::all_of(llvm::zip(s, factorAxes),
                          [](auto pair) { return sameAxes(std::get<0>(pair), std::get<1>(pair)); });
    });
    if (!seen) strategies.push_back(std::move(factorAxes));
  };
  for (const Order& order : orders) {
    FactorAxes factorAxes = claimFactors(op, rule, state, annotated, order);
    std::optional<FactorAxes> moved = moveWholeFactorAxes(op, rule, state, first, factorAxes);
    add(std::move(factorAxes));
    if (moved) add(std::move(*moved));
  }
  auto devicesUsed = [&](const FactorAxes& factorAxes) {
    AxisList all;
    for (const AxisList& axes : factorAxes) all.append(axes.begin(), axes.end());
    return ir::getGroupSize(first.mesh, all);
  };
  mlir::FailureOr<std::optional<size_t>> choice = chooseStrategy(
      op, state, first.mesh, strategies.size(),
      [&](size_t index) -> mlir::FailureOr<std::optional<int64_t>> {
        if (mlir::failed(emitWithFactors(op, rule, state, annotated, strategies[index]))) {
          return mlir::failure();
        }
        return std::optional<int64_t>(devicesUsed(strategies[index]));
      },
      [&](size_t index) { return describeOperands(op, rule, strategies[index]); });
  if (mlir::failed(choice)) return mlir::failure();
  const size_t chosen = choice->value_or(0);

  mlir::FailureOr<llvm::SmallVector<mlir::Value>> results =
      emitWithFactors(op, rule, state, annotated, strategies[chosen]);
  if (mlir::failed(results)) return mlir::failure();
  for (auto [result, local, layout] : llvm::zip(op->getResults(), *results, annotated)) {
    auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
    state.define(result, local, std::move(layout), type.getShape());
  }
  return true;
}

}  // namespace tessel::spmd
