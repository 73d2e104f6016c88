// GraphBuilder's control flow and opaque calls: sort, while, case and custom_call.
#include "absl/strings/str_cat.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/element_type_conversion.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel {

std::vector<Value> GraphBuilder::Sort(absl::Span<const Value> inputs, int64_t dimension,
                                      const Computation& comparator, bool is_stable,
                                      CallSite site) {
  constexpr absl::string_view kOp = "sort";
  std::vector<Value> failed(inputs.size());
  if (!ok()) return failed;
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, inputs, "input", operands)) return failed;
  auto state = state_->NewState<hlo::SortOp>(operands, dimension, is_stable);
  // The comparator sees the two elements being ordered of each input: a_0, b_0, a_1, b_1, ...
  llvm::SmallVector<mlir::Type> arguments;
  for (mlir::Value input : operands) {
    auto scalar = mlir::RankedTensorType::get(
        {}, mlir::cast<mlir::ShapedType>(input.getType()).getElementType());
    arguments.append({scalar, scalar});
  }
  if (!state_->BuildRegion(kOp, "comparator", *state->regions[0], arguments, comparator) ||
      !state_->InferTypes<hlo::SortOp>(kOp, *state)) {
    return failed;
  }
  return state_->Results(kOp, state_->Finish(kOp, *state), inputs.size());
}

Value GraphBuilder::Sort(Value input, int64_t dimension, ComparisonDirection direction,
                         bool is_stable, CallSite site) {
  // Floats compare by IEEE totalOrder, a strict weak order even with NaNs (they go to the
  // ends); the element type decides for the others.
  bool is_float = runtime::IsFloat(ToRuntime(input.type().element_type()));
  Computation comparator = [direction, is_float, site](GraphBuilder& b,
                                                       absl::Span<const Value> args) {
    std::optional<ComparisonType> type;
    if (is_float) type = ComparisonType::kTotalOrder;
    return std::vector<Value>{b.Compare(args[0], args[1], direction, type, site)};
  };
  std::vector<Value> sorted = Sort({input}, dimension, comparator, is_stable, site);
  return sorted.front();
}

std::vector<Value> GraphBuilder::While(absl::Span<const Value> initial_state,
                                       const Computation& cond, const Computation& body,
                                       CallSite site) {
  constexpr absl::string_view kOp = "while";
  std::vector<Value> failed(initial_state.size());
  if (!ok()) return failed;
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> inputs;
  if (!state_->UnwrapAll(kOp, initial_state, "initial state", inputs)) return failed;
  auto state = state_->NewState<hlo::WhileOp>(inputs);
  mlir::TypeRange types = mlir::ValueRange(inputs).getTypes();
  llvm::SmallVector<mlir::Type> state_types(types.begin(), types.end());
  if (!state_->BuildRegion(kOp, "cond", *state->regions[0], state_types, cond) ||
      !state_->BuildRegion(kOp, "body", *state->regions[1], state_types, body) ||
      !state_->InferTypes<hlo::WhileOp>(kOp, *state)) {
    return failed;
  }
  return state_->Results(kOp, state_->Finish(kOp, *state), inputs.size());
}

std::vector<Value> GraphBuilder::Case(Value index, const std::vector<Branch>& branches,
                                      CallSite site) {
  constexpr absl::string_view kOp = "case";
  if (!ok()) {
    // Still tell the caller how many results to expect: the first branch, run against the
    // failed builder (where every call is a no-op), returns that many invalid Values.
    if (branches.empty() || !branches.front()) return {};
    return branches.front()(*this);
  }
  auto at = state_->At(site);
  if (branches.empty()) {
    state_->Fail(kOp, "needs at least one branch");
    return {};
  }
  std::optional<mlir::Value> selector = state_->Unwrap(kOp, index, "index");
  if (!selector) return {};
  if (index.type() != TensorType(ElementType::kS32, {})) {
    state_->Fail(kOp, absl::StrCat("index must be s32[], got ", index.type().ToString()));
    return {};
  }
  auto state = state_->NewState<hlo::CaseOp>(*selector, static_cast<unsigned>(branches.size()));
  size_t count = 0;
  for (size_t i = 0; i < branches.size(); ++i) {
    const Branch& branch = branches[i];
    Computation region;
    if (branch) {
      region = [&branch, &count](GraphBuilder& b, absl::Span<const Value>) {
        std::vector<Value> results = branch(b);
        count = results.size();
        return results;
      };
    }
    if (!state_->BuildRegion(kOp, absl::StrCat("branch ", i), *state->regions[i], {}, region)) {
      return std::vector<Value>(count);
    }
  }
  // The results have the types the first branch returns; the verifier holds the other
  // branches to them.
  mlir::TypeRange types = state->regions[0]->front().getTerminator()->getOperandTypes();
  state->types.assign(types.begin(), types.end());
  return state_->Results(kOp, state_->Finish(kOp, *state), count);
}

std::vector<Value> GraphBuilder::CustomCall(absl::string_view target,
                                            absl::Span<const Value> inputs,
                                            absl::Span<const TensorType> result_types,
                                            const CustomCallOptions& options, CallSite site) {
  constexpr absl::string_view kOp = "custom_call";
  std::vector<Value> failed(result_types.size());
  if (!ok()) return failed;
  auto at = state_->At(site);
  if (target.empty()) {
    state_->Fail(kOp, "the call target name is empty");
    return failed;
  }
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, inputs, "input", operands)) return failed;
  llvm::SmallVector<mlir::Type> types;
  for (size_t i = 0; i < result_types.size(); ++i) {
    if (!state_->CheckDimensions(kOp, result_types[i].dimensions(), absl::StrCat("result ", i))) {
      return failed;
    }
    types.push_back(api_internal::ToMlirType(result_types[i], state_->context()));
  }
  mlir::OpBuilder& b = state_->builder();
  return state_->Results(
      kOp,
      state_->CreateWithTypes<hlo::CustomCallOp>(
          kOp, types, operands, b.getStringAttr(api_internal::ToStringRef(target)),
          options.backend_config ? b.getStringAttr(*options.backend_config) : mlir::StringAttr(),
          // Left unset when false, so the printed op omits the default.
          options.has_side_effect ? b.getBoolAttr(true) : mlir::BoolAttr()),
      result_types.size());
}

}  // namespace tessel
