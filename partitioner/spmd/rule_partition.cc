// Rule-driven partitioning: ops whose sharding rule has only pass-through and reduction
// factors (elementwise ops, convert, compare, select, clamp, broadcast_in_dim, transpose,
// reduce, dot_general). Each factor gets the axes of the result dimension it appears in
// (pass-through) or of an operand dimension (reduction factors of dot_general only); the
// operands are resharded to what those factor axes imply, the op runs on local types, and
// the result — a partial sum over the axes of split reduction factors — is resharded to its
// annotated layout, which all-reduces those axes.
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/IRMapping.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/spmd/partition_state.h"

namespace tessel::spmd {
namespace {

bool isStaticTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && tensor.hasStaticShape();
}

// Whether the generic path applies: only pass-through and reduction factors, each dimension
// one factor of exactly its size, every operand and result a static tensor.
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
  for (auto [index, factor] : llvm::enumerate(rule.getFactors())) {
    if (factor.kind != rules::FactorKind::kPassThrough &&
        factor.kind != rules::FactorKind::kReduction) {
      return false;
    }
    // A pass-through factor on one side only (a reshape's rule has nothing shared) means
    // the result is not computed shard by shard — except a broadcast's new dimensions, whose
    // values do not depend on the position, and the size-1 dims a broadcast expands.
    if (factor.kind != rules::FactorKind::kPassThrough || factor.size == 1) continue;
    bool inOperands = false;
    for (const rules::FactorUse& use : rule.getUses(index)) inOperands |= !use.isResult;
    if (!inOperands && !llvm::isa<hlo::BroadcastInDimOp>(op)) return false;
    if (!rule.isInResults(index)) return false;
  }
  auto fits = [&](llvm::ArrayRef<llvm::SmallVector<int64_t, 4>> shapes,
                  llvm::ArrayRef<rules::TensorFactors> tensors) {
    if (shapes.size() != tensors.size()) return false;
    for (auto [shape, factors] : llvm::zip(shapes, tensors)) {
      if (factors.size() != shape.size()) return false;
      for (auto [dimFactors, size] : llvm::zip(factors, shape)) {
        if (dimFactors.size() != 1 || rule.getFactor(dimFactors[0]).size != size) return false;
      }
    }
    return true;
  };
  llvm::SmallVector<llvm::SmallVector<int64_t, 4>> operandShapes, resultShapes;
  for (mlir::Value operand : op->getOperands()) operandShapes.push_back(state.local(operand).shape);
  for (mlir::Type type : op->getResultTypes()) {
    if (!isStaticTensor(type)) return false;
    resultShapes.push_back(llvm::to_vector<4>(shapeOf(type)));
  }
  return fits(operandShapes, rule.getOperands()) && fits(resultShapes, rule.getResults());
}

}  // namespace

mlir::FailureOr<bool> partitionByRule(mlir::Operation* op, const rules::OpShardingRule& rule,
                                      PartitionState& state) {
  if (!ruleFits(op, rule, state) || op->getNumResults() == 0) return false;
  const bool splitReductions = llvm::isa<hlo::DotGeneralOp>(op);

  // The mesh comes from the results' annotations; without one, nothing is split.
  Layout first = state.annotatedLayout(op->getResult(0));
  for (mlir::OpResult result : op->getResults()) {
    if (state.annotatedLayout(result).meshName != first.meshName) return false;
  }

  llvm::SmallVector<AxisList> factorAxes(rule.getNumFactors());
  AxisList used;
  auto claim = [&](int64_t factor, llvm::ArrayRef<ir::AxisRefAttr> axes) {
    if (axes.empty() || !factorAxes[factor].empty() || anyOverlap(axes, used)) return;
    if (rule.getFactor(factor).size == 1) return;
    factorAxes[factor].assign(axes.begin(), axes.end());
    used.append(axes.begin(), axes.end());
  };
  if (first.mesh) {
    for (auto [index, result] : llvm::enumerate(op->getResults())) {
      Layout layout = state.annotatedLayout(result);
      for (auto [dim, factors] : llvm::enumerate(rule.getResult(index))) {
        claim(factors[0], layout.dims[dim]);
      }
    }
    if (splitReductions) {
      for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
        const LocalValue& local = state.local(operand);
        if (local.layout.meshName != first.meshName) continue;
        for (auto [dim, factors] : llvm::enumerate(rule.getOperand(index))) {
          if (rule.getFactor(factors[0]).kind == rules::FactorKind::kReduction) {
            claim(factors[0], local.layout.dims[dim]);
          }
        }
      }
    }
  }

  auto layoutFor = [&](const rules::TensorFactors& tensor) {
    Layout layout = Layout::replicated(first.mesh, first.meshName, tensor.size());
    for (auto [dim, factors] : llvm::enumerate(tensor)) layout.dims[dim] = factorAxes[factors[0]];
    return layout;
  };

  mlir::OpBuilder& builder = state.spmd().builder();
  mlir::IRMapping mapping;
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    Layout target = layoutFor(rule.getOperand(index));
    mlir::FailureOr<mlir::Value> local = state.localAs(operand, target, op->getLoc());
    if (mlir::failed(local)) return mlir::failure();
    mlir::Value value = *local;
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
    mapping.map(operand, value);
  }

  mlir::Operation* local = builder.clone(*op, mapping);
  local->walk([](mlir::Operation* nested) {
    nested->removeAttr(ir::TesselDialect::kShardingAttrName);
  });
  AxisList partial;
  for (auto [factor, axes] : llvm::enumerate(factorAxes)) {
    if (rule.getFactor(factor).kind == rules::FactorKind::kReduction) {
      partial.append(axes.begin(), axes.end());
    }
  }
  for (auto [index, result] : llvm::enumerate(op->getResults())) {
    Layout computed = layoutFor(rule.getResult(index));
    computed.unreduced = partial;
    auto type = llvm::cast<mlir::RankedTensorType>(result.getType());
    local->getResult(index).setType(mlir::RankedTensorType::get(
        computed.localShape(type.getShape()), type.getElementType()));
    mlir::FailureOr<mlir::Value> resharded =
        state.spmd().reshard(local->getResult(index), computed,
                             state.annotatedLayout(result), type.getShape(), op->getLoc());
    if (mlir::failed(resharded)) return mlir::failure();
    state.define(result, *resharded, state.annotatedLayout(result), type.getShape());
  }
  return true;
}

}  // namespace tessel::spmd
