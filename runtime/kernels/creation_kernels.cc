// Kernels of the ops that create tensors: hlo.constant, hlo.iota, hlo.replica_id.
#include <vector>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/attr_conversion.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

// Every element is its index along `dim`, converted like hlo.convert converts an s64: narrow
// integers wrap, floats round to nearest even (so a large f16 iota saturates to inf).
absl::StatusOr<Tensor> Iota(ElementType type, const Shape& shape, int64_t dim) {
  if (dim < 0 || dim >= static_cast<int64_t>(shape.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("iota dimension ", dim, " is out of range for rank ", shape.size()));
  }
  Tensor result = Tensor::Zeros(type, shape);
  // Row-major: the index along `dim` advances every `inner` elements and wraps at size.
  int64_t inner = RowMajorStrides(shape)[dim];
  int64_t size = shape[dim];
  return DispatchElementType(type, [&](auto tag) -> absl::StatusOr<Tensor> {
    using T = typename decltype(tag)::type;
    if constexpr (kIsPred<T> || kIsComplex<T>) {
      return UnsupportedElementType(type);
    } else {
      absl::Span<T> out = result.data<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        out[i] = ConvertElement<T>(static_cast<int64_t>(i) / inner % size);
      }
      return std::move(result);
    }
  });
}

}  // namespace

void RegisterCreationKernels(KernelRegistry& registry) {
  registry.Register<hlo::ConstantOp>(
      [](hlo::ConstantOp op, KernelArgs) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(TensorFromElementsAttr(op.getValue()));
      });
  registry.Register<hlo::IotaOp>(
      [](hlo::IotaOp op, KernelArgs) -> absl::StatusOr<std::vector<Tensor>> {
        TESSEL_ASSIGN_OR_RETURN(ElementType type,
                                ElementTypeFromMlir(op.getOutput().getType().getElementType()));
        return OneResult(Iota(type, ResultShape(op), op.getIotaDimension()));
      });
  // Programs run as one replica of their partitions.
  registry.Register<hlo::ReplicaIdOp>(
      [](hlo::ReplicaIdOp, KernelArgs) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Tensor::Scalar<uint32_t>(0));
      });
}

}  // namespace tessel::runtime
