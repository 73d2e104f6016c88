// Rules for linalg.generic and linalg.matmul, derived from their indexing maps and iterator
// types: one factor per loop, pass-through for a parallel loop and reduction for a reduction
// loop, mapped to every tensor dimension indexed by that loop alone. A dimension indexed
// otherwise (d0 + d1 in a convolution, a constant, a loop already used by another dimension
// of the same tensor) gets a need-replication factor of its own: it cannot follow a loop's
// split, so it stays whole.
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/AffineExpr.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

ShardingRuleOrNone linalgStructuredRule(mlir::Operation* op, const ShardingRuleOptions&) {
  auto linalgOp = llvm::cast<mlir::linalg::LinalgOp>(op);
  if (!linalgOp.hasPureTensorSemantics()) {
    return NoShardingRule{NoRuleTreatment::kOpaque,
                          "buffer semantics: sharding rules describe tensor values"};
  }
  if (std::optional<NoShardingRule> none = rejectDynamicShapes(op)) return *none;
  // A verified structured op's loop sizes follow from its static operand shapes.
  llvm::SmallVector<int64_t, 4> loopSizes = linalgOp.getStaticLoopRanges();
  llvm::SmallVector<mlir::utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  int64_t numOperands = op->getNumOperands();
  int64_t numLoops = loopSizes.size();

  // For every operand (inputs, then inits) and every result (the value of init k), the
  // indexing map of its dimensions.
  llvm::SmallVector<mlir::AffineMap> operandMaps = linalgOp.getIndexingMapsArray();
  llvm::SmallVector<mlir::AffineMap> resultMaps;
  for (mlir::OpOperand& init : linalgOp.getDpsInitsMutable()) {
    resultMaps.push_back(linalgOp.getMatchingIndexingMap(&init));
  }
  // loopDims[l][t]: the dimension of tensor t (operands, then results) indexed by loop l
  // alone, or kNoDim.
  llvm::SmallVector<mlir::AffineMap> maps(operandMaps);
  llvm::append_range(maps, resultMaps);
  llvm::SmallVector<llvm::SmallVector<int64_t>> loopDims(
      numLoops, llvm::SmallVector<int64_t>(maps.size(), kNoDim));
  // unmapped[t]: dimensions of tensor t that follow no loop.
  llvm::SmallVector<llvm::SmallVector<int64_t>> unmapped(maps.size());
  for (auto [tensor, map] : llvm::enumerate(maps)) {
    for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
      auto loop = llvm::dyn_cast<mlir::AffineDimExpr>(expr);
      if (loop && loopDims[loop.getPosition()][tensor] == kNoDim) {
        loopDims[loop.getPosition()][tensor] = dim;
      } else {
        unmapped[tensor].push_back(dim);
      }
    }
  }

  OpShardingRuleBuilder builder(op);
  for (int64_t loop = 0; loop < numLoops; ++loop) {
    llvm::ArrayRef<int64_t> dims = loopDims[loop];
    FactorKind kind = FactorKind::kPassThrough;
    if (iterators[loop] == mlir::utils::IteratorType::reduction) {
      // A reduction loop that also indexes a result is not a plain reduction.
      bool inResults = llvm::any_of(dims.drop_front(numOperands),
                                    [](int64_t dim) { return dim != kNoDim; });
      kind = inResults ? FactorKind::kNeedReplication : FactorKind::kReduction;
    }
    builder.addFactor(dims.take_front(numOperands), dims.drop_front(numOperands),
                      loopSizes[loop], kind);
  }
  for (auto [tensor, dims] : llvm::enumerate(unmapped)) {
    int64_t t = tensor;
    for (int64_t dim : dims) {
      if (t < numOperands) {
        builder.addOperandFactor(t, dim, builder.getOperandShape(t)[dim],
                                 FactorKind::kNeedReplication);
      } else {
        builder.addResultFactor(t - numOperands, dim,
                                builder.getResultShape(t - numOperands)[dim],
                                FactorKind::kNeedReplication);
      }
    }
  }
  return builder.build();
}

}  // namespace

void registerLinalgStructuredRules(mlir::MLIRContext* context) {
  attachGenericRule<linalgStructuredRule, mlir::linalg::GenericOp, mlir::linalg::MatmulOp>(
      context);
}

}  // namespace tessel::rules
