// Conversion between MLIR elements attributes (hlo.constant's value) and host tensors.
#ifndef TESSEL_RUNTIME_ATTR_CONVERSION_H_
#define TESSEL_RUNTIME_ATTR_CONVERSION_H_

#include "absl/status/statusor.h"
#include "mlir/IR/BuiltinAttributeInterfaces.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

// The tensor an elements attribute denotes (dense or splat). Fails with InvalidArgument for
// element types the runtime does not have and for non-dense attributes.
absl::StatusOr<Tensor> TensorFromElementsAttr(mlir::ElementsAttr attr);

// The dense attribute holding `tensor`'s elements, of type tensor<shape x type>.
mlir::DenseElementsAttr TensorToElementsAttr(const Tensor& tensor, mlir::MLIRContext* context);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_ATTR_CONVERSION_H_
