// GraphBuilder's linear algebra: dot_general (and MatMul on top of it) and convolution.
// Neither hlo op infers its result, so the builder computes it: after checking the
// dimension numbers it needs to index with, it derives the shape the way the hlo verifier
// expects it, and the verifier checks the rest as the op is made.
#include <numeric>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mlir/IR/Diagnostics.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel {

using api_internal::BuilderState;
using api_internal::DiagnosticCollector;

namespace {

// Checks that `dims` (the attribute `what` of an operand of `rank`) are in range and unique.
bool CheckDims(BuilderState& state, absl::string_view op, const std::vector<int64_t>& dims,
               int64_t rank, absl::string_view what) {
  std::vector<bool> seen(rank, false);
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank) {
      state.Fail(op, absl::StrCat(what, ": dimension ", dim, " is out of range [0, ", rank, ")"));
      return false;
    }
    if (seen[dim]) {
      state.Fail(op, absl::StrCat(what, ": dimension ", dim, " appears twice"));
      return false;
    }
    seen[dim] = true;
  }
  return true;
}

// The sizes of the dimensions of `type` in neither `a` nor `b`, in order.
void AppendFreeDims(const TensorType& type, const std::vector<int64_t>& a,
                    const std::vector<int64_t>& b, std::vector<int64_t>& out) {
  for (int64_t d = 0; d < type.rank(); ++d) {
    if (std::find(a.begin(), a.end(), d) == a.end() &&
        std::find(b.begin(), b.end(), d) == b.end()) {
      out.push_back(type.dimension(d));
    }
  }
}

std::optional<llvm::ArrayRef<int64_t>> OptionalRef(const std::vector<int64_t>& values) {
  if (values.empty()) return std::nullopt;
  return llvm::ArrayRef<int64_t>(values);
}

}  // namespace

Value GraphBuilder::DotGeneral(Value lhs, Value rhs, const DotDimensions& dimensions,
                               std::optional<ElementType> result_element_type, CallSite site) {
  constexpr absl::string_view kOp = "dot_general";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> a = state_->Unwrap(kOp, lhs, "lhs");
  std::optional<mlir::Value> b = a ? state_->Unwrap(kOp, rhs, "rhs") : std::nullopt;
  if (!b) return Value();
  const TensorType& lt = lhs.type();
  const TensorType& rt = rhs.type();
  if (!CheckDims(*state_, kOp, dimensions.lhs_batch, lt.rank(), "lhs_batch") ||
      !CheckDims(*state_, kOp, dimensions.rhs_batch, rt.rank(), "rhs_batch") ||
      !CheckDims(*state_, kOp, dimensions.lhs_contracting, lt.rank(), "lhs_contracting") ||
      !CheckDims(*state_, kOp, dimensions.rhs_contracting, rt.rank(), "rhs_contracting")) {
    return Value();
  }
  if (dimensions.lhs_batch.size() != dimensions.rhs_batch.size() ||
      dimensions.lhs_contracting.size() != dimensions.rhs_contracting.size()) {
    state_->Fail(kOp,
                 "lhs and rhs must have as many batch dimensions as each other, and as "
                 "many contracting dimensions");
    return Value();
  }
  for (size_t i = 0; i < dimensions.lhs_contracting.size(); ++i) {
    int64_t l = dimensions.lhs_contracting[i], r = dimensions.rhs_contracting[i];
    if (lt.dimension(l) != rt.dimension(r)) {
      state_->Fail(
          kOp, absl::StrCat("contracting dimension ", l, " of lhs ", lt.ToString(),
                            " and dimension ", r, " of rhs ", rt.ToString(), " differ in size"));
      return Value();
    }
  }
  std::vector<int64_t> shape;
  for (int64_t d : dimensions.lhs_batch) shape.push_back(lt.dimension(d));
  AppendFreeDims(lt, dimensions.lhs_batch, dimensions.lhs_contracting, shape);
  AppendFreeDims(rt, dimensions.rhs_batch, dimensions.rhs_contracting, shape);
  TensorType result(result_element_type.value_or(lt.element_type()), std::move(shape));
  auto attr = hlo::DotDimensionNumbersAttr::get(
      state_->context(), llvm::ArrayRef<int64_t>(dimensions.lhs_batch),
      llvm::ArrayRef<int64_t>(dimensions.rhs_batch),
      llvm::ArrayRef<int64_t>(dimensions.lhs_contracting),
      llvm::ArrayRef<int64_t>(dimensions.rhs_contracting));
  return state_->Result(
      kOp, state_->CreateWithTypes<hlo::DotGeneralOp>(
               kOp, {api_internal::ToMlirType(result, state_->context())}, *a, *b, attr));
}

Value GraphBuilder::MatMul(Value lhs, Value rhs, CallSite site) {
  if (!ok()) return Value();
  auto at = state_->At(site);
  if (!state_->Unwrap("matmul", lhs, "lhs") || !state_->Unwrap("matmul", rhs, "rhs")) {
    return Value();
  }
  int64_t rank = lhs.type().rank();
  if (rank < 2 || rhs.type().rank() != rank) {
    state_->Fail("matmul", absl::StrCat("operands must have one rank of at least 2, got ",
                                        lhs.type().ToString(), " and ", rhs.type().ToString()));
    return Value();
  }
  DotDimensions dimensions;
  dimensions.lhs_batch.resize(rank - 2);
  std::iota(dimensions.lhs_batch.begin(), dimensions.lhs_batch.end(), 0);
  dimensions.rhs_batch = dimensions.lhs_batch;
  dimensions.lhs_contracting = {rank - 1};
  dimensions.rhs_contracting = {rank - 2};
  return DotGeneral(lhs, rhs, dimensions, std::nullopt, site);
}

Value GraphBuilder::Convolution(Value lhs, Value rhs, const ConvDimensions& dimensions,
                                const ConvolutionOptions& options, CallSite site) {
  constexpr absl::string_view kOp = "convolution";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> a = state_->Unwrap(kOp, lhs, "lhs");
  std::optional<mlir::Value> b = a ? state_->Unwrap(kOp, rhs, "rhs") : std::nullopt;
  if (!b) return Value();
  const TensorType& lt = lhs.type();
  const TensorType& rt = rhs.type();
  int64_t spatial = static_cast<int64_t>(dimensions.input_spatial.size());
  if (static_cast<int64_t>(dimensions.kernel_spatial.size()) != spatial ||
      static_cast<int64_t>(dimensions.output_spatial.size()) != spatial) {
    state_->Fail(kOp, absl::StrCat("input, kernel and output name ", spatial, ", ",
                                   dimensions.kernel_spatial.size(), " and ",
                                   dimensions.output_spatial.size(),
                                   " spatial dimensions; they must agree"));
    return Value();
  }
  if (lt.rank() != spatial + 2 || rt.rank() != spatial + 2) {
    state_->Fail(kOp, absl::StrCat("lhs ", lt.ToString(), " and rhs ", rt.ToString(),
                                   " must have rank ", spatial + 2, " (2 + spatial dimensions)"));
    return Value();
  }
  if (options.feature_group_count < 1 || options.batch_group_count < 1) {
    state_->Fail(kOp,
                 absl::StrCat("feature_group_count and batch_group_count must be at least "
                              "1, got ",
                              options.feature_group_count, " and ", options.batch_group_count));
    return Value();
  }
  mlir::MLIRContext* context = state_->context();
  DiagnosticCollector diagnostics(context);
  auto emitError = [&] { return mlir::emitError(state_->loc()); };
  // The attribute's own verifier checks that each tensor's dimensions are named once.
  auto attr = hlo::ConvDimensionNumbersAttr::getChecked(
      emitError, context, dimensions.input_batch, dimensions.input_feature,
      llvm::ArrayRef<int64_t>(dimensions.input_spatial), dimensions.kernel_input_feature,
      dimensions.kernel_output_feature, llvm::ArrayRef<int64_t>(dimensions.kernel_spatial),
      dimensions.output_batch, dimensions.output_feature,
      llvm::ArrayRef<int64_t>(dimensions.output_spatial));
  if (!attr) {
    state_->FailWithDiagnostics(kOp, diagnostics, "invalid dimension numbers");
    return Value();
  }
  llvm::SmallVector<int64_t> input_spatial, kernel_spatial;
  for (int64_t i = 0; i < spatial; ++i) {
    input_spatial.push_back(lt.dimension(dimensions.input_spatial[i]));
    kernel_spatial.push_back(rt.dimension(dimensions.kernel_spatial[i]));
  }
  mlir::OpBuilder& builder = state_->builder();
  mlir::DenseIntElementsAttr padding;
  if (!options.padding.empty()) {
    std::vector<int64_t> flat;
    for (const auto& [low, high] : options.padding) {
      flat.push_back(low);
      flat.push_back(high);
    }
    padding = mlir::DenseIntElementsAttr::get(
        mlir::RankedTensorType::get({static_cast<int64_t>(options.padding.size()), 2},
                                    builder.getI64Type()),
        llvm::ArrayRef<int64_t>(flat));
  }
  hlo::WindowAttrNames names;
  names.dimensions = "kernel spatial size";
  names.strides = "window_strides";
  names.baseDilations = "lhs_dilation";
  names.windowDilations = "rhs_dilation";
  mlir::FailureOr<hlo::WindowSpec> window = hlo::resolveWindow(
      emitError, spatial, kernel_spatial, OptionalRef(options.window_strides),
      OptionalRef(options.lhs_dilation), OptionalRef(options.rhs_dilation), padding,
      /*allowNegativePadding=*/true, names);
  mlir::FailureOr<llvm::SmallVector<int64_t>> output_spatial = mlir::failure();
  if (mlir::succeeded(window)) {
    output_spatial = hlo::inferWindowOutputShape(emitError, input_spatial, *window);
  }
  if (mlir::failed(output_spatial)) {
    state_->FailWithDiagnostics(kOp, diagnostics, "invalid window");
    return Value();
  }
  std::vector<int64_t> shape(spatial + 2);
  shape[dimensions.output_batch] = lt.dimension(dimensions.input_batch) / options.batch_group_count;
  shape[dimensions.output_feature] = rt.dimension(dimensions.kernel_output_feature);
  for (int64_t i = 0; i < spatial; ++i) shape[dimensions.output_spatial[i]] = (*output_spatial)[i];
  TensorType result(options.result_element_type.value_or(lt.element_type()), std::move(shape));

  auto list = [&](const std::vector<int64_t>& values) {
    return values.empty() ? mlir::DenseI64ArrayAttr() : builder.getDenseI64ArrayAttr(values);
  };
  return state_->Result(
      kOp, state_->CreateWithTypes<hlo::ConvolutionOp>(
               kOp, {api_internal::ToMlirType(result, context)}, *a, *b, attr,
               list(options.window_strides), padding, list(options.lhs_dilation),
               list(options.rhs_dilation), builder.getI64IntegerAttr(options.feature_group_count),
               builder.getI64IntegerAttr(options.batch_group_count)));
}

ConvDimensions ConvDimensions::ChannelsLast(int64_t num_spatial_dims) {
  ConvDimensions dims;
  dims.input_batch = dims.output_batch = 0;
  dims.input_feature = dims.output_feature = num_spatial_dims + 1;
  dims.kernel_input_feature = num_spatial_dims;
  dims.kernel_output_feature = num_spatial_dims + 1;
  for (int64_t i = 0; i < num_spatial_dims; ++i) {
    dims.input_spatial.push_back(i + 1);
    dims.output_spatial.push_back(i + 1);
    dims.kernel_spatial.push_back(i);
  }
  return dims;
}

}  // namespace tessel
