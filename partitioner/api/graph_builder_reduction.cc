// GraphBuilder's reductions: reduce, reduce_window and select_and_scatter, each with a
// built-in reducer (ReduceKind) or reducer regions built by callbacks.
#include "absl/strings/str_cat.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel {

using api_internal::BuilderState;

namespace {

// Rank-0 tensor types with the element types of `values`, listed `copies` times over:
// the arguments of a reducer over N inputs are the N accumulators, then the N elements.
llvm::SmallVector<mlir::Type> ScalarTypes(llvm::ArrayRef<mlir::Value> values, int copies) {
  llvm::SmallVector<mlir::Type> types;
  for (int copy = 0; copy < copies; ++copy) {
    for (mlir::Value value : values) {
      types.push_back(mlir::RankedTensorType::get(
          {}, mlir::cast<mlir::ShapedType>(value.getType()).getElementType()));
    }
  }
  return types;
}

// The optional window attributes: null when the list is empty, so the op takes its default.
mlir::DenseI64ArrayAttr OptionalList(mlir::OpBuilder& builder, const std::vector<int64_t>& values) {
  return values.empty() ? mlir::DenseI64ArrayAttr() : builder.getDenseI64ArrayAttr(values);
}

mlir::DenseIntElementsAttr OptionalPadding(
    mlir::OpBuilder& builder, const std::vector<std::pair<int64_t, int64_t>>& padding) {
  if (padding.empty()) return mlir::DenseIntElementsAttr();
  std::vector<int64_t> flat;
  for (const auto& [low, high] : padding) {
    flat.push_back(low);
    flat.push_back(high);
  }
  auto type =
      mlir::RankedTensorType::get({static_cast<int64_t>(padding.size()), 2}, builder.getI64Type());
  return mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef<int64_t>(flat));
}

// Unwraps inputs and init values of reduce and reduce_window.
bool UnwrapInputsAndInits(BuilderState& state, absl::string_view op, absl::Span<const Value> inputs,
                          absl::Span<const Value> init_values,
                          llvm::SmallVectorImpl<mlir::Value>& input_values,
                          llvm::SmallVectorImpl<mlir::Value>& init_mlir_values) {
  return state.UnwrapAll(op, inputs, "input", input_values) &&
         state.UnwrapAll(op, init_values, "init value", init_mlir_values);
}

// The single result of a built-in reduction, or an invalid Value.
Value First(const std::vector<Value>& results) {
  return results.empty() ? Value() : results.front();
}

}  // namespace

Value GraphBuilder::Reduce(Value input, ReduceKind kind, std::vector<int64_t> dimensions,
                           CallSite site) {
  if (!ok()) return Value();
  auto at = state_->At(site);
  Value init = state_->Identity("reduce", kind, input.type().element_type());
  return First(
      Reduce({input}, {init}, std::move(dimensions), BuilderState::Reducer(kind, site), site));
}

std::vector<Value> GraphBuilder::Reduce(absl::Span<const Value> inputs,
                                        absl::Span<const Value> init_values,
                                        std::vector<int64_t> dimensions, const Computation& reducer,
                                        CallSite site) {
  constexpr absl::string_view kOp = "reduce";
  std::vector<Value> failed(inputs.size());
  if (!ok()) return failed;
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands, inits;
  if (!UnwrapInputsAndInits(*state_, kOp, inputs, init_values, operands, inits)) return failed;
  auto state =
      state_->NewState<hlo::ReduceOp>(operands, inits, llvm::ArrayRef<int64_t>(dimensions));
  if (!state_->BuildRegion(kOp, "reducer", *state->regions[0], ScalarTypes(operands, 2), reducer) ||
      !state_->InferTypes<hlo::ReduceOp>(kOp, *state)) {
    return failed;
  }
  return state_->Results(kOp, state_->Finish(kOp, *state), inputs.size());
}

Value GraphBuilder::ReduceWindow(Value input, ReduceKind kind,
                                 std::vector<int64_t> window_dimensions, const Window& window,
                                 CallSite site) {
  if (!ok()) return Value();
  auto at = state_->At(site);
  Value init = state_->Identity("reduce_window", kind, input.type().element_type());
  return First(ReduceWindow({input}, {init}, std::move(window_dimensions), window,
                            BuilderState::Reducer(kind, site), site));
}

std::vector<Value> GraphBuilder::ReduceWindow(absl::Span<const Value> inputs,
                                              absl::Span<const Value> init_values,
                                              std::vector<int64_t> window_dimensions,
                                              const Window& window, const Computation& reducer,
                                              CallSite site) {
  constexpr absl::string_view kOp = "reduce_window";
  std::vector<Value> failed(inputs.size());
  if (!ok()) return failed;
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands, inits;
  if (!UnwrapInputsAndInits(*state_, kOp, inputs, init_values, operands, inits)) return failed;
  mlir::OpBuilder& b = state_->builder();
  auto state = state_->NewState<hlo::ReduceWindowOp>(
      operands, inits, b.getDenseI64ArrayAttr(window_dimensions), OptionalList(b, window.strides),
      OptionalList(b, window.base_dilations), OptionalList(b, window.window_dilations),
      OptionalPadding(b, window.padding));
  if (!state_->BuildRegion(kOp, "reducer", *state->regions[0], ScalarTypes(operands, 2), reducer) ||
      !state_->InferTypes<hlo::ReduceWindowOp>(kOp, *state)) {
    return failed;
  }
  return state_->Results(kOp, state_->Finish(kOp, *state), inputs.size());
}

Value GraphBuilder::SelectAndScatter(Value operand, Value source, Value init_value,
                                     std::vector<int64_t> window_dimensions, const Window& window,
                                     const Computation& select, const Computation& scatter,
                                     CallSite site) {
  constexpr absl::string_view kOp = "select_and_scatter";
  if (!ok()) return Value();
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, {operand, source, init_value}, "operand", operands)) return Value();
  if (!window.base_dilations.empty() || !window.window_dilations.empty()) {
    state_->Fail(kOp, "the window of select_and_scatter takes no dilations");
    return Value();
  }
  mlir::OpBuilder& b = state_->builder();
  auto state = state_->NewState<hlo::SelectAndScatterOp>(
      operands[0], operands[1], operands[2], b.getDenseI64ArrayAttr(window_dimensions),
      OptionalList(b, window.strides), OptionalPadding(b, window.padding));
  // Both regions work on elements of the operand: select compares two, scatter combines two.
  llvm::SmallVector<mlir::Type> pair = ScalarTypes({operands[0]}, 2);
  if (!state_->BuildRegion(kOp, "select", *state->regions[0], pair, select) ||
      !state_->BuildRegion(kOp, "scatter", *state->regions[1], pair, scatter) ||
      !state_->InferTypes<hlo::SelectAndScatterOp>(kOp, *state)) {
    return Value();
  }
  return state_->Result(kOp, state_->Finish(kOp, *state));
}

Value GraphBuilder::SelectAndScatter(Value operand, Value source, Value init_value,
                                     std::vector<int64_t> window_dimensions, const Window& window,
                                     ComparisonDirection select, ReduceKind scatter,
                                     CallSite site) {
  Computation compare = [select, site](GraphBuilder& b, absl::Span<const Value> args) {
    return std::vector<Value>{b.Compare(args[0], args[1], select, std::nullopt, site)};
  };
  return SelectAndScatter(operand, source, init_value, std::move(window_dimensions), window,
                          compare, BuilderState::Reducer(scatter, site), site);
}

}  // namespace tessel
