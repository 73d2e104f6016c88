// Helpers shared by the per-family rule files: external-model templates that turn a rule
// function into a ShardingRuleOpInterface implementation, common rules, and the per-family
// registration functions that registerShardingRuleModels calls.
#ifndef TESSEL_PARTITIONER_RULES_RULE_MODELS_H_
#define TESSEL_PARTITIONER_RULES_RULE_MODELS_H_

#include <optional>
#include <string>

#include "llvm/Support/Casting.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "partitioner/rules/op_sharding_rule_builder.h"
#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::rules {

// A model for one op class whose rule is `RuleFn(OpT, const ShardingRuleOptions&)`.
// With a `KeyFn(OpT, key)`, RuleFn reads nothing of the op but its name, its operand and
// result types and the attributes KeyFn appends (appendRuleKey).
template <typename OpT, auto RuleFn, auto KeyFn = nullptr>
struct OpRuleModel
    : public ShardingRuleOpInterface::ExternalModel<OpRuleModel<OpT, RuleFn, KeyFn>, OpT> {
  ShardingRuleOrNone getShardingRule(mlir::Operation* op,
                                     const ShardingRuleOptions& options) const {
    return RuleFn(llvm::cast<OpT>(op), options);
  }
  bool appendRuleKey(mlir::Operation* op, llvm::SmallVectorImpl<const void*>& key) const {
    if constexpr (KeyFn == nullptr) {
      return false;
    } else {
      KeyFn(llvm::cast<OpT>(op), key);
      return true;
    }
  }
};

// A model for any op whose rule is `RuleFn(Operation*, const ShardingRuleOptions&)`; a
// fallback model, so it may be attached to ops by name as well as by class. With
// `kTypesAlone`, RuleFn reads nothing of the op but its name and its operand and result
// types (appendRuleKey, with nothing to append).
template <auto RuleFn, bool kTypesAlone = false>
struct GenericRuleModel
    : public ShardingRuleOpInterface::FallbackModel<GenericRuleModel<RuleFn, kTypesAlone>> {
  ShardingRuleOrNone getShardingRule(mlir::Operation* op,
                                     const ShardingRuleOptions& options) const {
    return RuleFn(op, options);
  }
  bool appendRuleKey(mlir::Operation*, llvm::SmallVectorImpl<const void*>&) const {
    return kTypesAlone;
  }
};

// Attaches `RuleFn`, which takes the concrete op, to op class OpT; see OpRuleModel for
// `KeyFn`.
template <typename OpT, auto RuleFn, auto KeyFn = nullptr>
void attachRule(mlir::MLIRContext* context) {
  OpT::template attachInterface<OpRuleModel<OpT, RuleFn, KeyFn>>(*context);
}

// A KeyFn for rules that read the op's types alone.
template <typename OpT>
void keyByTypesAlone(OpT, llvm::SmallVectorImpl<const void*>&) {}

// Attaches `RuleFn`, which takes an Operation*, to every op class in Ops.
template <auto RuleFn, typename... Ops>
void attachGenericRule(mlir::MLIRContext* context) {
  (Ops::template attachInterface<GenericRuleModel<RuleFn>>(*context), ...);
}

// attachGenericRule for a RuleFn that reads only the op's name and types.
template <auto RuleFn, typename... Ops>
void attachRuleOfTypesAlone(mlir::MLIRContext* context) {
  (Ops::template attachInterface<GenericRuleModel<RuleFn, /*kTypesAlone=*/true>>(*context), ...);
}

// One pass-through factor per dimension of the first result, shared by every operand and
// result of that rank; an opaque NoShardingRule when a shape is dynamic.
ShardingRuleOrNone pointwiseRule(mlir::Operation* op, const ShardingRuleOptions& options);

// The opaque answer for an op whose operands or results have dynamic shapes, or nullopt
// when every shape is static.
std::optional<NoShardingRule> rejectDynamicShapes(mlir::Operation* op);

// Registration of each family of models; registerShardingRuleModels calls them when the
// dialect they serve is loaded.
void registerHloElementwiseRules(mlir::MLIRContext* context);
void registerHloShapeRules(mlir::MLIRContext* context);
void registerHloReshapeRules(mlir::MLIRContext* context);
void registerHloReductionRules(mlir::MLIRContext* context);
void registerHloLinalgRules(mlir::MLIRContext* context);
void registerHloIndexingRules(mlir::MLIRContext* context);
void registerHloControlRules(mlir::MLIRContext* context);
void registerTesselRules(mlir::MLIRContext* context);
// Every op of `dialect` with the Elementwise trait (arith, math).
void registerElementwiseTraitRules(mlir::MLIRContext* context, mlir::Dialect* dialect);
void registerLinalgStructuredRules(mlir::MLIRContext* context);

}  // namespace tessel::rules

#endif  // TESSEL_PARTITIONER_RULES_RULE_MODELS_H_
