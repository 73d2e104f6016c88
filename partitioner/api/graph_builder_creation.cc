// GraphBuilder's creation ops: constants from host tensors or scalars, iota, and random bits.
#include "absl/strings/str_cat.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/element_type_conversion.h"
#include "partitioner/api/host_tensor_access.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/attr_conversion.h"

namespace tessel {

Value GraphBuilder::Constant(const HostTensor& tensor, CallSite site) {
  if (!ok()) return Value();
  auto at = state_->At(site);
  return state_->Constant(HostTensorAccess::Runtime(tensor));
}

Value GraphBuilder::ScalarConstant(ElementType type, double value, CallSite site) {
  if (!ok()) return Value();
  auto at = state_->At(site);
  runtime::Tensor scalar = runtime::DispatchElementType(ToRuntime(type), [value](auto tag) {
    using T = typename decltype(tag)::type;
    return runtime::Tensor::Scalar<T>(static_cast<T>(value));
  });
  return state_->Constant(scalar);
}

Value GraphBuilder::Iota(const TensorType& type, int64_t dimension, CallSite site) {
  constexpr absl::string_view kOp = "iota";
  if (!ok()) return Value();
  auto at = state_->At(site);
  if (!state_->CheckElementClass(kOp, type, api_internal::ElementClass::kIntOrFloat, "result")) {
    return Value();
  }
  if (dimension < 0 || dimension >= type.rank()) {
    state_->Fail(kOp, absl::StrCat("dimension ", dimension, " is out of range [0, ", type.rank(),
                                   ") of ", type.ToString()));
    return Value();
  }
  if (!state_->CheckDimensions(kOp, type.dimensions(), type.ToString())) return Value();
  return state_->Result(kOp,
                        state_->CreateWithTypes<hlo::IotaOp>(
                            kOp, {api_internal::ToMlirType(type, state_->context())}, dimension));
}

std::vector<Value> GraphBuilder::RngBitGenerator(Value state, const TensorType& output_type,
                                                 RngAlgorithm algorithm, CallSite site) {
  constexpr absl::string_view kOp = "rng_bit_generator";
  std::vector<Value> failed(2);
  if (!ok()) return failed;
  auto at = state_->At(site);
  std::optional<mlir::Value> seed = state_->Unwrap(kOp, state, "state");
  if (!seed ||
      !state_->CheckElementClass(kOp, output_type, api_internal::ElementClass::kInt,
                                 "output type") ||
      !state_->CheckDimensions(kOp, output_type.dimensions(), output_type.ToString())) {
    return failed;
  }
  hlo::RngAlgorithm generator = hlo::RngAlgorithm::DEFAULT;
  if (algorithm == RngAlgorithm::kThreeFry) generator = hlo::RngAlgorithm::THREE_FRY;
  if (algorithm == RngAlgorithm::kPhilox) generator = hlo::RngAlgorithm::PHILOX;
  mlir::Type types[] = {seed->getType(), api_internal::ToMlirType(output_type, state_->context())};
  return state_->Results(
      kOp,
      state_->CreateWithTypes<hlo::RngBitGeneratorOp>(
          kOp, types, *seed, mlir::ValueRange{},
          hlo::RngAlgorithmAttr::get(state_->context(), generator), mlir::DenseI64ArrayAttr()),
      2);
}

}  // namespace tessel
