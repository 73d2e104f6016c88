// GraphBuilder's gather and scatter. Both hlo ops infer their results and check every
// rule of their dimension numbers; the builder passes their complaints on.
#include "absl/strings/str_cat.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel {

Value GraphBuilder::Gather(Value operand, Value start_indices, const GatherDimensions& dimensions,
                           std::vector<int64_t> slice_sizes, const IndexingOptions& options,
                           CallSite site) {
  constexpr absl::string_view kOp = "gather";
  if (!ok()) return Value();
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, {operand, start_indices}, "operand", operands)) return Value();
  if (!state_->CheckElementClass(kOp, start_indices.type(), api_internal::ElementClass::kInt,
                                 "start indices")) {
    return Value();
  }
  if (options.unique_indices) {
    state_->Fail(kOp, "unique_indices is a promise only scatter takes");
    return Value();
  }
  auto attr = hlo::GatherDimensionNumbersAttr::get(
      state_->context(), llvm::ArrayRef<int64_t>(dimensions.offset_dims),
      llvm::ArrayRef<int64_t>(dimensions.collapsed_slice_dims),
      llvm::ArrayRef<int64_t>(dimensions.operand_batching_dims),
      llvm::ArrayRef<int64_t>(dimensions.start_indices_batching_dims),
      llvm::ArrayRef<int64_t>(dimensions.start_index_map), dimensions.index_vector_dim);
  mlir::OpBuilder& b = state_->builder();
  return state_->Result(
      kOp, state_->CreateInferred<hlo::GatherOp>(
               kOp, operands[0], operands[1], attr, b.getDenseI64ArrayAttr(slice_sizes),
               options.indices_are_sorted ? b.getUnitAttr() : mlir::UnitAttr()));
}

std::vector<Value> GraphBuilder::Scatter(absl::Span<const Value> inputs, Value scatter_indices,
                                         absl::Span<const Value> updates,
                                         const ScatterDimensions& dimensions,
                                         const Computation& update, const IndexingOptions& options,
                                         CallSite site) {
  constexpr absl::string_view kOp = "scatter";
  std::vector<Value> failed(inputs.size());
  if (!ok()) return failed;
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> input_values, update_values;
  std::optional<mlir::Value> indices;
  if (!state_->UnwrapAll(kOp, inputs, "input", input_values) ||
      !(indices = state_->Unwrap(kOp, scatter_indices, "scatter indices")) ||
      !state_->UnwrapAll(kOp, updates, "update", update_values)) {
    return failed;
  }
  if (!state_->CheckElementClass(kOp, scatter_indices.type(), api_internal::ElementClass::kInt,
                                 "scatter indices")) {
    return failed;
  }
  auto attr = hlo::ScatterDimensionNumbersAttr::get(
      state_->context(), llvm::ArrayRef<int64_t>(dimensions.update_window_dims),
      llvm::ArrayRef<int64_t>(dimensions.inserted_window_dims),
      llvm::ArrayRef<int64_t>(dimensions.input_batching_dims),
      llvm::ArrayRef<int64_t>(dimensions.scatter_indices_batching_dims),
      llvm::ArrayRef<int64_t>(dimensions.scatter_dims_to_operand_dims),
      dimensions.index_vector_dim);
  mlir::OpBuilder& b = state_->builder();
  auto state = state_->NewState<hlo::ScatterOp>(
      input_values, *indices, update_values, attr,
      options.indices_are_sorted ? b.getUnitAttr() : mlir::UnitAttr(),
      options.unique_indices ? b.getUnitAttr() : mlir::UnitAttr());
  // The update region gets the N current values, then the N update values.
  llvm::SmallVector<mlir::Type> arguments;
  for (int copy = 0; copy < 2; ++copy) {
    for (mlir::Value input : input_values) {
      arguments.push_back(mlir::RankedTensorType::get(
          {}, mlir::cast<mlir::ShapedType>(input.getType()).getElementType()));
    }
  }
  if (!state_->BuildRegion(kOp, "update", *state->regions[0], arguments, update) ||
      !state_->InferTypes<hlo::ScatterOp>(kOp, *state)) {
    return failed;
  }
  return state_->Results(kOp, state_->Finish(kOp, *state), inputs.size());
}

}  // namespace tessel
