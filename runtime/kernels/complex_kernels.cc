// Kernels of hlo.complex, hlo.real and hlo.imag: complex numbers from their parts and back.
#include <complex>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"

namespace tessel::runtime {
namespace {

// re + i * im elementwise. REQUIRES: re and im have one type (f32 or f64) and one shape.
absl::StatusOr<Tensor> MakeComplex(const Tensor& re, const Tensor& im) {
  if (re.type() != im.type() || re.shape() != im.shape()) {
    return absl::InvalidArgumentError(
        absl::StrCat("parts ", re.ShapeString(), " and ", im.ShapeString(), " differ"));
  }
  auto build = [&](auto tag) -> Tensor {
    using Part = typename decltype(tag)::type;
    using C = std::complex<Part>;
    Tensor result = Tensor::Uninitialized(ElementTypeOf<C>(), re.shape());
    absl::Span<const Part> r = re.data<Part>(), i = im.data<Part>();
    absl::Span<C> out = result.data<C>();
    for (size_t k = 0; k < out.size(); ++k) out[k] = C(r[k], i[k]);
    return result;
  };
  if (re.type() == ElementType::kF32) return build(TypeTag<float>{});
  if (re.type() == ElementType::kF64) return build(TypeTag<double>{});
  return UnsupportedElementType(re.type());
}

// The real (`imaginary` false) or imaginary part of every element of a complex tensor.
absl::StatusOr<Tensor> Part(const Tensor& z, bool imaginary) {
  auto split = [&](auto tag) -> Tensor {
    using C = typename decltype(tag)::type;
    using P = typename C::value_type;
    Tensor result = Tensor::Uninitialized(ElementTypeOf<P>(), z.shape());
    absl::Span<const C> in = z.data<C>();
    absl::Span<P> out = result.data<P>();
    for (size_t k = 0; k < out.size(); ++k) out[k] = imaginary ? in[k].imag() : in[k].real();
    return result;
  };
  if (z.type() == ElementType::kC64) return split(TypeTag<c64>{});
  if (z.type() == ElementType::kC128) return split(TypeTag<c128>{});
  return UnsupportedElementType(z.type());
}

}  // namespace

void RegisterComplexKernels(KernelRegistry& registry) {
  registry.Register<hlo::ComplexOp>(
      [](hlo::ComplexOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(MakeComplex(*args.operands[0], *args.operands[1]));
      });
  registry.Register<hlo::RealOp>(
      [](hlo::RealOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Part(*args.operands[0], /*imaginary=*/false));
      });
  registry.Register<hlo::ImagOp>(
      [](hlo::ImagOp, KernelArgs args) -> absl::StatusOr<std::vector<Tensor>> {
        return OneResult(Part(*args.operands[0], /*imaginary=*/true));
      });
}

}  // namespace tessel::runtime
