// GraphBuilder's shape ops: broadcast_in_dim, reshape, transpose, slice, dynamic_slice,
// dynamic_update_slice, pad, concatenate, reverse. Where the hlo op infers its result type
// the builder asks it (and reports its complaint); broadcast_in_dim and reshape take the
// result shape from the caller.
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel {
namespace {

// `values`, or `rank` copies of `fill` when `values` is empty (the default of an option).
std::vector<int64_t> OrFill(std::vector<int64_t> values, int64_t rank, int64_t fill) {
  if (values.empty()) values.assign(rank, fill);
  return values;
}

}  // namespace

Value GraphBuilder::BroadcastInDim(Value operand, std::vector<int64_t> result_dimensions,
                                   std::vector<int64_t> broadcast_dimensions, CallSite site) {
  constexpr absl::string_view kOp = "broadcast_in_dim";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  if (!input || !state_->CheckDimensions(kOp, result_dimensions, "result")) return Value();
  TensorType result(operand.type().element_type(), std::move(result_dimensions));
  return state_->Result(kOp, state_->CreateWithTypes<hlo::BroadcastInDimOp>(
                                 kOp, {api_internal::ToMlirType(result, state_->context())}, *input,
                                 llvm::ArrayRef<int64_t>(broadcast_dimensions)));
}

Value GraphBuilder::Reshape(Value operand, std::vector<int64_t> dimensions, CallSite site) {
  constexpr absl::string_view kOp = "reshape";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  if (!input || !state_->CheckDimensions(kOp, dimensions, "result")) return Value();
  TensorType result(operand.type().element_type(), std::move(dimensions));
  if (result.num_elements() != operand.type().num_elements()) {
    state_->Fail(kOp, absl::StrCat("cannot reshape ", operand.type().ToString(), " (",
                                   operand.type().num_elements(), " elements) to ",
                                   result.ToString(), " (", result.num_elements(), " elements)"));
    return Value();
  }
  return state_->Result(kOp,
                        state_->CreateWithTypes<hlo::ReshapeOp>(
                            kOp, {api_internal::ToMlirType(result, state_->context())}, *input));
}

Value GraphBuilder::Transpose(Value operand, std::vector<int64_t> permutation, CallSite site) {
  constexpr absl::string_view kOp = "transpose";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  if (!input) return Value();
  return state_->Result(kOp, state_->CreateInferred<hlo::TransposeOp>(
                                 kOp, *input, llvm::ArrayRef<int64_t>(permutation)));
}

Value GraphBuilder::Slice(Value operand, std::vector<int64_t> start_indices,
                          std::vector<int64_t> limit_indices, std::vector<int64_t> strides,
                          CallSite site) {
  constexpr absl::string_view kOp = "slice";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  if (!input) return Value();
  strides = OrFill(std::move(strides), operand.type().rank(), 1);
  return state_->Result(
      kOp, state_->CreateInferred<hlo::SliceOp>(kOp, *input, llvm::ArrayRef<int64_t>(start_indices),
                                                llvm::ArrayRef<int64_t>(limit_indices),
                                                llvm::ArrayRef<int64_t>(strides)));
}

Value GraphBuilder::DynamicSlice(Value operand, absl::Span<const Value> start_indices,
                                 std::vector<int64_t> slice_sizes, CallSite site) {
  constexpr absl::string_view kOp = "dynamic_slice";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  llvm::SmallVector<mlir::Value> starts;
  if (!input || !state_->UnwrapAll(kOp, start_indices, "start index", starts)) return Value();
  return state_->Result(kOp, state_->CreateInferred<hlo::DynamicSliceOp>(
                                 kOp, *input, starts, llvm::ArrayRef<int64_t>(slice_sizes)));
}

Value GraphBuilder::DynamicUpdateSlice(Value operand, Value update,
                                       absl::Span<const Value> start_indices, CallSite site) {
  constexpr absl::string_view kOp = "dynamic_update_slice";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  std::optional<mlir::Value> piece = input ? state_->Unwrap(kOp, update, "update") : std::nullopt;
  llvm::SmallVector<mlir::Value> starts;
  if (!piece || !state_->UnwrapAll(kOp, start_indices, "start index", starts)) return Value();
  return state_->Result(
      kOp, state_->CreateInferred<hlo::DynamicUpdateSliceOp>(kOp, *input, *piece, starts));
}

Value GraphBuilder::Pad(Value operand, Value padding_value, std::vector<int64_t> low,
                        std::vector<int64_t> high, std::vector<int64_t> interior, CallSite site) {
  constexpr absl::string_view kOp = "pad";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  std::optional<mlir::Value> fill =
      input ? state_->Unwrap(kOp, padding_value, "padding value") : std::nullopt;
  if (!fill) return Value();
  if (padding_value.type() != TensorType(operand.type().element_type(), {})) {
    state_->Fail(kOp, absl::StrCat("padding value ", padding_value.type().ToString(),
                                   " must be a rank-0 tensor of the operand's element type (",
                                   operand.type().ToString(), ")"));
    return Value();
  }
  interior = OrFill(std::move(interior), operand.type().rank(), 0);
  return state_->Result(kOp, state_->CreateInferred<hlo::PadOp>(
                                 kOp, *input, *fill, llvm::ArrayRef<int64_t>(low),
                                 llvm::ArrayRef<int64_t>(high), llvm::ArrayRef<int64_t>(interior)));
}

Value GraphBuilder::Concatenate(absl::Span<const Value> inputs, int64_t dimension, CallSite site) {
  constexpr absl::string_view kOp = "concatenate";
  if (!ok()) return Value();
  auto at = state_->At(site);
  if (inputs.empty()) {
    state_->Fail(kOp, "needs at least one input");
    return Value();
  }
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, inputs, "input", operands)) return Value();
  return state_->Result(kOp, state_->CreateInferred<hlo::ConcatenateOp>(kOp, operands, dimension));
}

Value GraphBuilder::Reverse(Value operand, std::vector<int64_t> dimensions, CallSite site) {
  constexpr absl::string_view kOp = "reverse";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  if (!input) return Value();
  return state_->Result(kOp, state_->CreateInferred<hlo::ReverseOp>(
                                 kOp, *input, llvm::ArrayRef<int64_t>(dimensions)));
}

}  // namespace tessel
