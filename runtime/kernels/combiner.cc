// Element-by-element application of reducer regions, natively for single binary ops.
#include "runtime/kernels/combiner.h"

#include <cmath>
#include <optional>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using BinaryKind = Combiner::Kind;

// The binary op a region consists of, if its body is exactly `op(arg0, arg1)` or
// `op(arg1, arg0)` followed by a return of that op's result. Swapped operands are accepted
// because every kind here is commutative (for floats too: a + b and b + a are the same
// IEEE result).
std::optional<BinaryKind> MatchSingleBinaryOp(mlir::Region& region) {
  if (!region.hasOneBlock()) return std::nullopt;
  mlir::Block& block = region.front();
  if (block.getNumArguments() != 2 || block.getOperations().size() != 2) {
    return std::nullopt;
  }
  mlir::Operation& op = block.front();
  mlir::Operation* terminator = block.getTerminator();
  if (op.getNumOperands() != 2 || op.getNumResults() != 1 ||
      terminator->getNumOperands() != 1 || terminator->getOperand(0) != op.getResult(0)) {
    return std::nullopt;
  }
  mlir::Value a = block.getArgument(0), b = block.getArgument(1);
  mlir::Value x = op.getOperand(0), y = op.getOperand(1);
  if (!((x == a && y == b) || (x == b && y == a))) return std::nullopt;
  if (llvm::isa<hlo::AddOp>(op)) return BinaryKind::kAdd;
  if (llvm::isa<hlo::MulOp>(op)) return BinaryKind::kMul;
  if (llvm::isa<hlo::MaxOp>(op)) return BinaryKind::kMax;
  if (llvm::isa<hlo::MinOp>(op)) return BinaryKind::kMin;
  if (llvm::isa<hlo::AndOp>(op)) return BinaryKind::kAnd;
  if (llvm::isa<hlo::OrOp>(op)) return BinaryKind::kOr;
  return std::nullopt;
}

// XLA's semantics of each kind on one element type: the functors of the elementwise kernels.
template <BinaryKind K, typename T>
T Apply(T a, T b) {
  if constexpr (K == BinaryKind::kAdd) return AddFn()(a, b);
  if constexpr (K == BinaryKind::kMul) return MulFn()(a, b);
  if constexpr (K == BinaryKind::kMax) return MaxFn()(a, b);
  if constexpr (K == BinaryKind::kMin) return MinFn()(a, b);
  if constexpr (K == BinaryKind::kAnd) return AndFn()(a, b);
  if constexpr (K == BinaryKind::kOr) return OrFn()(a, b);
}

template <BinaryKind K, typename T>
void CombineNative(Tensor& acc, int64_t acc_index, const Tensor& elem, int64_t elem_index) {
  T& slot = acc.data<T>()[acc_index];
  slot = Apply<K, T>(slot, elem.data<T>()[elem_index]);
}

template <BinaryKind K>
auto NativeFor(ElementType type) {
  using Fn = void (*)(Tensor&, int64_t, const Tensor&, int64_t);
  return DispatchElementType(type, [](auto tag) -> Fn {
    using T = typename decltype(tag)::type;
    // Bitwise ops exist only for pred and integers (the verifier rejects them on floats),
    // max and min not for complex numbers: no native loop, so the interpreted region
    // reports the error.
    if constexpr ((K == BinaryKind::kAnd || K == BinaryKind::kOr) && !std::is_integral_v<T>) {
      return nullptr;
    } else if constexpr ((K == BinaryKind::kMax || K == BinaryKind::kMin) && kIsComplex<T>) {
      return nullptr;
    } else {
      return &CombineNative<K, T>;
    }
  });
}

}  // namespace

Combiner::Combiner(mlir::Region& region, std::vector<ElementType> types,
                   Interpreter& interpreter)
    : region_(region), types_(std::move(types)), interpreter_(interpreter) {
  std::optional<BinaryKind> kind;
  if (types_.size() == 1) kind = MatchSingleBinaryOp(region_);
  if (!kind) {
    CompileScalar();
    return;
  }
  // The native loop reads the buffers as types_[0]; the region must agree.
  for (mlir::Type type : region_.front().getArgumentTypes()) {
    auto tensorType = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensorType || tensorType.getRank() != 0) return;
    absl::StatusOr<ElementType> elementType = ElementTypeFromMlir(tensorType.getElementType());
    if (!elementType.ok() || *elementType != types_[0]) return;
  }
  kind_ = *kind;
  switch (*kind) {
    case BinaryKind::kAdd: native_ = NativeFor<BinaryKind::kAdd>(types_[0]); break;
    case BinaryKind::kMul: native_ = NativeFor<BinaryKind::kMul>(types_[0]); break;
    case BinaryKind::kMax: native_ = NativeFor<BinaryKind::kMax>(types_[0]); break;
    case BinaryKind::kMin: native_ = NativeFor<BinaryKind::kMin>(types_[0]); break;
    case BinaryKind::kAnd: native_ = NativeFor<BinaryKind::kAnd>(types_[0]); break;
    case BinaryKind::kOr: native_ = NativeFor<BinaryKind::kOr>(types_[0]); break;
  }
}

void Combiner::CompileScalar() {
  // The region must take (acc..., elem...) of the combined types and return one value of
  // each accumulator's type, as the interpreted path checks per call.
  mlir::Region& region = region_;
  if (!region.hasOneBlock() || region.front().getNumArguments() != 2 * types_.size()) return;
  for (size_t i = 0; i < region.front().getNumArguments(); ++i) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(region.front().getArgument(i).getType());
    if (!type || type.getRank() != 0) return;
    absl::StatusOr<ElementType> element = ElementTypeFromMlir(type.getElementType());
    if (!element.ok() || *element != types_[i % types_.size()]) return;
  }
  mlir::Operation* terminator = region.front().getTerminator();
  if (!terminator || terminator->getNumOperands() != types_.size()) return;
  for (size_t i = 0; i < types_.size(); ++i) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(terminator->getOperand(i).getType());
    if (!type || type.getRank() != 0) return;
    absl::StatusOr<ElementType> element = ElementTypeFromMlir(type.getElementType());
    if (!element.ok() || *element != types_[i]) return;
  }
  scalar_ = ScalarRegion::Compile(region);
}

absl::Status Combiner::Combine(absl::Span<Tensor* const> accs, int64_t acc_index,
                               absl::Span<const Tensor* const> elems, int64_t elem_index) {
  if (native_) {
    native_(*accs[0], acc_index, *elems[0], elem_index);
    return absl::OkStatus();
  }
  if (scalar_) {
    const size_t n = types_.size();
    llvm::SmallVector<Scalar, 8> args, results(n);
    for (size_t i = 0; i < n; ++i) args.push_back(ReadScalar(*accs[i], acc_index));
    for (size_t i = 0; i < n; ++i) args.push_back(ReadScalar(*elems[i], elem_index));
    scalar_->RunAll(args, absl::MakeSpan(results));
    for (size_t i = 0; i < n; ++i) WriteScalar(*accs[i], acc_index, results[i]);
    return absl::OkStatus();
  }
  size_t n = types_.size();
  std::vector<Tensor> scalars;
  scalars.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) scalars.push_back(ElementAsScalar(*accs[i], acc_index));
  for (size_t i = 0; i < n; ++i) scalars.push_back(ElementAsScalar(*elems[i], elem_index));
  std::vector<const Tensor*> pointers;
  for (const Tensor& scalar : scalars) pointers.push_back(&scalar);
  TESSEL_ASSIGN_OR_RETURN(std::vector<Tensor> results,
                          interpreter_.RunRegion(region_, pointers));
  if (results.size() != n) {
    return absl::InvalidArgumentError(
        absl::StrCat("region returned ", results.size(), " values, expected ", n));
  }
  for (size_t i = 0; i < n; ++i) {
    if (results[i].rank() != 0 || results[i].type() != types_[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("region result ", i, " is ", results[i].ShapeString(),
                       ", expected a rank-0 ", ElementTypeName(types_[i])));
    }
    CopyElement(results[i], 0, *accs[i], acc_index);
  }
  return absl::OkStatus();
}

}  // namespace tessel::runtime
