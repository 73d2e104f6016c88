// The rule of hlo.reshape: a decomposition of both shapes into shared and unshared factors
// (see reshape_rules.h for the algorithm and examples).
#include "partitioner/rules/reshape_rules.h"

#include <cassert>
#include <numeric>

#include "llvm/ADT/STLExtras.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/rules/rule_models.h"

namespace tessel::rules {
namespace {

// Walks one side of the reshape: which dimension is current and how much of it is left.
class ReshapeSide {
 public:
  ReshapeSide(llvm::ArrayRef<int64_t> shape, bool isResult, OpShardingRuleBuilder& builder)
      : shape_(shape), isResult_(isResult), builder_(builder) {}

  // Gives every size-1 dimension at the current position its own factor and moves to the
  // next dimension that still has something left.
  void skipUnitDims() {
    while (remaining_ == 0 && dim_ < static_cast<int64_t>(shape_.size())) {
      if (shape_[dim_] == 1) {
        addOwnFactor(1);
        ++dim_;
      } else {
        remaining_ = shape_[dim_];
      }
    }
  }
  bool done() const { return dim_ == static_cast<int64_t>(shape_.size()); }
  int64_t dim() const { return dim_; }
  int64_t remaining() const { return remaining_; }
  int64_t product() const { return product_; }

  // Records that a factor of `size` was added to the current dimension.
  void take(int64_t size) {
    assert(remaining_ % size == 0);
    product_ *= size;
    remaining_ /= size;
    if (remaining_ == 1) {
      remaining_ = 0;
      ++dim_;
    }
  }
  // Adds a factor of `size` that only this side has.
  void addOwnFactor(int64_t size) {
    if (isResult_) {
      builder_.addResultFactor(0, dim_, size);
    } else {
      builder_.addOperandFactor(0, dim_, size);
    }
  }
  void takeOwn(int64_t size) {
    addOwnFactor(size);
    take(size);
  }

 private:
  llvm::ArrayRef<int64_t> shape_;
  bool isResult_;
  OpShardingRuleBuilder& builder_;
  int64_t dim_ = 0;
  int64_t remaining_ = 0;  // 0: the current dimension has not been started
  int64_t product_ = 1;
};

// The lagging side takes the largest factor that brings it toward lcm(its product, the
// other's), or its whole remainder if none does.
void catchUp(ReshapeSide& behind, const ReshapeSide& ahead) {
  int64_t target = std::lcm(behind.product(), ahead.product());
  int64_t step = std::gcd(target / behind.product(), behind.remaining());
  behind.takeOwn(step > 1 ? step : behind.remaining());
}

ShardingRuleOrNone reshapeRule(hlo::ReshapeOp op, const ShardingRuleOptions&) {
  return buildReshapeRule(op.getOperand().getType().getShape(),
                          op.getResult().getType().getShape());
}

}  // namespace

OpShardingRule buildReshapeRule(llvm::ArrayRef<int64_t> inShape,
                                llvm::ArrayRef<int64_t> outShape) {
  OpShardingRuleBuilder builder({OpShardingRuleBuilder::Shape(inShape)},
                                {OpShardingRuleBuilder::Shape(outShape)});
  if (llvm::is_contained(inShape, 0) || llvm::is_contained(outShape, 0)) {
    for (auto [dim, size] : llvm::enumerate(inShape)) builder.addOperandFactor(0, dim, size);
    for (auto [dim, size] : llvm::enumerate(outShape)) builder.addResultFactor(0, dim, size);
    return builder.build();
  }
  ReshapeSide in(inShape, /*isResult=*/false, builder);
  ReshapeSide out(outShape, /*isResult=*/true, builder);
  while (true) {
    in.skipUnitDims();
    out.skipUnitDims();
    if (in.done() && out.done()) break;
    // Equal element counts mean a side can only run out while the other is not behind it.
    assert(!in.done() || in.product() > out.product());
    assert(!out.done() || out.product() > in.product());
    if (in.product() < out.product()) {
      catchUp(in, out);
    } else if (out.product() < in.product()) {
      catchUp(out, in);
    } else if (int64_t common = std::gcd(in.remaining(), out.remaining()); common > 1) {
      builder.addFactor({in.dim()}, {out.dim()}, common);
      in.take(common);
      out.take(common);
    } else {
      in.takeOwn(in.remaining());
      out.takeOwn(out.remaining());
    }
  }
  return builder.build();
}

void registerHloReshapeRules(mlir::MLIRContext* context) {
  // reshapeRule reads the shapes alone.
  attachRule<hlo::ReshapeOp, reshapeRule, keyByTypesAlone<hlo::ReshapeOp>>(context);
}

}  // namespace tessel::rules
