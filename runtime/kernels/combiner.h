// Applies a reducer region — (acc_0..acc_{N-1}, x_0..x_{N-1}) -> (acc'_0..acc'_{N-1}) on
// rank-0 tensors — element by element, as hlo.reduce, hlo.reduce_window, the scatter
// region of hlo.select_and_scatter and the update region of hlo.scatter need.
//
// A region whose body is a single hlo.add, mul, max, min, and or or of its two arguments
// (in either order) runs natively on the tensors' buffers; a region of the scalar ops
// ScalarRegion evaluates (an argmax's compare and select, a sum of maxima) runs on scalars
// read from and written to the buffers; any other region runs through
// Interpreter::RunRegion on rank-0 tensors. Every path folds in the same order with the
// kernels' arithmetic, so they give bitwise-equal results.
//
//   Combiner combiner(op.getBody(), {ElementType::kF32}, args.interpreter);
//   Tensor* accs[] = {&result};
//   const Tensor* elems[] = {&input};
//   TESSEL_RETURN_IF_ERROR(combiner.Combine(accs, out_index, elems, in_index));
#ifndef TESSEL_RUNTIME_KERNELS_COMBINER_H_
#define TESSEL_RUNTIME_KERNELS_COMBINER_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "mlir/IR/Region.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/scalar_region.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

class Combiner {
 public:
  // `region` takes 2N rank-0 tensors of `types` (twice) and returns N of them.
  Combiner(mlir::Region& region, std::vector<ElementType> types, Interpreter& interpreter);

  // The single binary op a native region consists of.
  enum class Kind { kAdd, kMul, kMax, kMin, kAnd, kOr };

  // True when the region was recognised as one native binary op.
  bool is_native() const { return native_ != nullptr; }

  // Which op, when is_native(): lets a kernel run whole rows through the op's functor
  // (elementwise_util.h) instead of calling Combine per element.
  Kind native_kind() const { return kind_; }

  // For each i: accs[i][acc_index] = region(accs[*][acc_index], elems[*][elem_index])[i].
  // Fails when the region fails or returns values of the wrong count, shape or type.
  // REQUIRES: N tensors in each span, of the types given at construction.
  absl::Status Combine(absl::Span<Tensor* const> accs, int64_t acc_index,
                       absl::Span<const Tensor* const> elems, int64_t elem_index);

 private:
  using NativeFn = void (*)(Tensor& acc, int64_t acc_index, const Tensor& elem,
                            int64_t elem_index);

  void CompileScalar();

  mlir::Region& region_;
  std::vector<ElementType> types_;
  Interpreter& interpreter_;
  NativeFn native_ = nullptr;
  Kind kind_ = Kind::kAdd;
  // The region on scalars, where it is not one native op but compiles (scalar_region.h).
  std::optional<ScalarRegion> scalar_;
};

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNELS_COMBINER_H_
