// GraphBuilder's creation ops: constants from host tensors or scalars, and iota.
#include "absl/strings/str_cat.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/attr_conversion.h"

namespace tessel {

Value GraphBuilder::Constant(const Tensor& tensor) {
  constexpr absl::string_view kOp = "constant";
  if (!ok()) return Value();
  mlir::DenseElementsAttr value = runtime::TensorToElementsAttr(tensor, state_->context());
  return state_->Result(kOp, state_->CreateInferred<hlo::ConstantOp>(kOp, value));
}

Value GraphBuilder::ScalarConstant(ElementType type, double value) {
  Tensor scalar = runtime::DispatchElementType(type, [value](auto tag) {
    using T = typename decltype(tag)::type;
    return Tensor::Scalar<T>(static_cast<T>(value));
  });
  return Constant(scalar);
}

Value GraphBuilder::Iota(const TensorType& type, int64_t dimension) {
  constexpr absl::string_view kOp = "iota";
  if (!ok()) return Value();
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

}  // namespace tessel
