// OpShardingRuleBuilder: appends factors to the dimensions they map to.
#include "partitioner/rules/op_sharding_rule_builder.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "llvm/ADT/STLExtras.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tessel::rules {
namespace {

// Ranked tensors, nearly every type here, are tested for first: a cast to ShapedType looks
// the interface up in the type's table, where this compares one TypeID.
OpShardingRuleBuilder::Shape shapeOf(mlir::Type type) {
  if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) {
    assert(tensor.hasStaticShape() && "sharding rules need static shapes");
    return OpShardingRuleBuilder::Shape(tensor.getShape());
  }
  auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
  if (!shaped || !shaped.hasRank()) return {};
  assert(shaped.hasStaticShape() && "sharding rules need static shapes");
  return OpShardingRuleBuilder::Shape(shaped.getShape());
}

}  // namespace

bool hasStaticShapes(mlir::Operation* op) {
  auto isStatic = [](mlir::Type type) {
    if (auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type)) return tensor.hasStaticShape();
    auto shaped = llvm::dyn_cast<mlir::ShapedType>(type);
    return !shaped || !shaped.hasRank() || shaped.hasStaticShape();
  };
  return llvm::all_of(op->getOperandTypes(), isStatic) &&
         llvm::all_of(op->getResultTypes(), isStatic);
}

OpShardingRuleBuilder::OpShardingRuleBuilder(llvm::ArrayRef<Shape> operandShapes,
                                             llvm::ArrayRef<Shape> resultShapes)
    : operandShapes_(operandShapes.begin(), operandShapes.end()),
      resultShapes_(resultShapes.begin(), resultShapes.end()) {
  addTensors();
}

// A rule is built for every op, twice in a run: the shapes go straight into place.
OpShardingRuleBuilder::OpShardingRuleBuilder(mlir::Operation* op) {
  operandShapes_.reserve(op->getNumOperands());
  for (mlir::Type type : op->getOperandTypes()) operandShapes_.push_back(shapeOf(type));
  resultShapes_.reserve(op->getNumResults());
  for (mlir::Type type : op->getResultTypes()) resultShapes_.push_back(shapeOf(type));
  addTensors();
}

void OpShardingRuleBuilder::addTensors() {
  // Most rules have a factor per dimension of their largest tensor and few more: reserving
  // that many saves the list's regrowth as factors are added.
  size_t maxRank = 0;
  for (const Shape& shape : llvm::concat<const Shape>(operandShapes_, resultShapes_)) {
    maxRank = std::max(maxRank, shape.size());
  }
  factors_.reserve(maxRank + 1);
  tensors_.reserve(operandShapes_.size() + resultShapes_.size());
  for (const Shape& shape : llvm::concat<const Shape>(operandShapes_, resultShapes_)) {
    tensors_.emplace_back(shape.size());
  }
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addFactor(llvm::ArrayRef<int64_t> operandDims,
                                                        llvm::ArrayRef<int64_t> resultDims,
                                                        int64_t size, FactorKind kind,
                                                        bool blocked) {
  llvm::MutableArrayRef<TensorFactors> operands =
      llvm::MutableArrayRef(tensors_).take_front(operandShapes_.size());
  llvm::MutableArrayRef<TensorFactors> results =
      llvm::MutableArrayRef(tensors_).drop_front(operandShapes_.size());
  assert(operandDims.size() <= operands.size() && resultDims.size() <= results.size());
  int64_t factor = factors_.size();
  factors_.push_back({size, kind, blocked});
  auto append = [&](llvm::MutableArrayRef<TensorFactors> tensors,
                    llvm::ArrayRef<int64_t> dims) {
    for (auto [dim, tensor] : llvm::zip_first(dims, tensors)) {
      if (dim == kNoDim) continue;
      assert(dim >= 0 && dim < static_cast<int64_t>(tensor.size()) && "dimension out of range");
      tensor[dim].push_back(factor);
    }
  };
  append(operands, operandDims);
  append(results, resultDims);
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::markLastFactorMovable() {
  factors_.back().movable = true;
  return *this;
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addOperandFactor(int64_t operand, int64_t dim,
                                                               int64_t size, FactorKind kind,
                                                               bool blocked) {
  llvm::SmallVector<int64_t> dims(operand + 1, kNoDim);
  dims[operand] = dim;
  return addFactor(dims, {}, size, kind, blocked);
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addResultFactor(int64_t result, int64_t dim,
                                                              int64_t size, FactorKind kind,
                                                              bool blocked) {
  llvm::SmallVector<int64_t> dims(result + 1, kNoDim);
  dims[result] = dim;
  return addFactor({}, dims, size, kind, blocked);
}

OpShardingRuleBuilder& OpShardingRuleBuilder::addPointwise(llvm::ArrayRef<int64_t> shape) {
  // addFactor's per-tensor dimension lists, written out: every elementwise op's rule is
  // built this way, twice per run, and building those lists for each dimension cost as
  // much as the rest of the rule.
  const size_t rank = shape.size();
  const size_t numOperands = operandShapes_.size();
  for (size_t dim = 0; dim < rank; ++dim) {
    const int64_t factor = factors_.size();
    factors_.push_back({shape[dim], FactorKind::kPassThrough, /*blocked=*/false});
    for (auto [index, tensor] : llvm::enumerate(tensors_)) {
      const Shape& tensorShape =
          index < numOperands ? operandShapes_[index] : resultShapes_[index - numOperands];
      if (tensorShape.size() == rank) tensor[dim].push_back(factor);
    }
  }
  return *this;
}

OpShardingRule OpShardingRuleBuilder::build() {
#ifndef NDEBUG
  for (const TensorFactors& tensor : tensors_) {
    for (const DimFactors& dim : tensor) {
      assert(!dim.empty() && "every dimension needs a factor");
    }
  }
#endif
  return OpShardingRule(OpShardingRule::TakeLists{}, std::move(factors_), std::move(tensors_),
                        operandShapes_.size());
}

}  // namespace tessel::rules
