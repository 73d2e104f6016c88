// Scalar evaluation of comparator regions (scalar_region.h).
#include "runtime/kernels/scalar_region.h"

#include <cstring>
#include <type_traits>

#include "llvm/ADT/DenseMap.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"

namespace tessel::runtime {
namespace {

using hlo::ComparisonDirection;
using hlo::ComparisonType;

template <typename Key>
bool Holds(ComparisonDirection direction, Key x, Key y) {
  switch (direction) {
    case ComparisonDirection::EQ: return x == y;
    case ComparisonDirection::NE: return x != y;
    case ComparisonDirection::GE: return x >= y;
    case ComparisonDirection::GT: return x > y;
    case ComparisonDirection::LE: return x <= y;
    case ComparisonDirection::LT: return x < y;
  }
  return false;
}

// The compare kernel's semantics (elementwise_kernels.cc) on two scalars of one type.
bool CompareScalars(Scalar a, Scalar b, ComparisonDirection direction, ComparisonType type) {
  return DispatchElementType(a.type, [&](auto tag) -> bool {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) {
      return false;  // unreachable: Compile refuses complex values, which do not fit in bits
    } else {
      const T x = ScalarAs<T>(a.bits), y = ScalarAs<T>(b.bits);
      if constexpr (kIsFloat<T>) {
        if (type == ComparisonType::TOTALORDER) {
          return Holds(direction, TotalOrderKey(x), TotalOrderKey(y));
        }
        return Holds(direction, static_cast<ComputeType<T>>(x), static_cast<ComputeType<T>>(y));
      } else if constexpr (kIsPred<T>) {
        return Holds(direction, x, y);
      } else if (type == ComparisonType::SIGNED) {
        return Holds(direction, static_cast<std::make_signed_t<T>>(x),
                     static_cast<std::make_signed_t<T>>(y));
      } else {
        return Holds(direction, static_cast<std::make_unsigned_t<T>>(x),
                     static_cast<std::make_unsigned_t<T>>(y));
      }
    }
  });
}

// The elementwise kernel's functor `Fn` on scalars of one type, or on one for unary ones.
// Compile only admits types the functor accepts, so the fallback is never taken.
template <typename Fn>
Scalar ApplyBinary(Scalar a, Scalar b) {
  return DispatchElementType(a.type, [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T> || !Fn::template kAccepts<T>) {
      return a;
    } else {
      const T result = Fn()(ScalarAs<T>(a.bits), ScalarAs<T>(b.bits));
      return Scalar{a.type, BitsOf(result)};
    }
  });
}

Scalar Negate(Scalar a) {
  return DispatchElementType(a.type, [&](auto tag) -> Scalar {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T> || kIsPred<T>) {
      return a;
    } else if constexpr (kIsInt<T>) {
      using U = std::make_unsigned_t<T>;
      return Scalar{a.type, BitsOf(static_cast<T>(U{0} - static_cast<U>(ScalarAs<T>(a.bits))))};
    } else {
      return Scalar{a.type, BitsOf(static_cast<T>(-ScalarAs<T>(a.bits)))};
    }
  });
}

// Whether `Fn` is defined on `type` (the verifier admits some ops on types the kernels
// refuse, e.g. subtract of pred): such a region stays with the interpreter, which reports it.
template <typename Fn>
bool Accepts(ElementType type) {
  return DispatchElementType(type, [](auto tag) {
    using T = typename decltype(tag)::type;
    return !kIsComplex<T> && Fn::template kAccepts<T>;
  });
}

std::optional<Scalar> ScalarConstant(mlir::Attribute value) {
  auto dense = llvm::dyn_cast<mlir::DenseElementsAttr>(value);
  if (!dense || dense.getNumElements() != 1) return std::nullopt;
  absl::StatusOr<ElementType> type = ElementTypeFromMlir(dense.getElementType());
  if (!type.ok() || IsComplex(*type)) return std::nullopt;
  llvm::APInt bits = llvm::isa<mlir::FloatType>(dense.getElementType())
                         ? (*dense.value_begin<llvm::APFloat>()).bitcastToAPInt()
                         : *dense.value_begin<llvm::APInt>();
  return Scalar{*type, bits.getZExtValue()};
}

}  // namespace

Scalar ReadScalar(const Tensor& tensor, int64_t index) {
  const int64_t size = collectives::DataTypeSize(tensor.type());
  uint64_t bits = 0;
  std::memcpy(&bits, tensor.bytes().data() + index * size, size);  // little-endian hosts
  if (tensor.type() == ElementType::kPred) bits = bits != 0;
  return Scalar{tensor.type(), bits};
}

void WriteScalar(Tensor& tensor, int64_t index, Scalar value) {
  const int64_t size = collectives::DataTypeSize(tensor.type());
  std::memcpy(tensor.bytes().data() + index * size, &value.bits, size);
}

std::optional<ScalarRegion> ScalarRegion::Compile(mlir::Region& region) {
  return Compile(region, mlir::Value());
}

std::optional<ScalarRegion> ScalarRegion::Compile(mlir::Region& region, mlir::Value value) {
  if (!region.hasOneBlock()) return std::nullopt;
  mlir::Block& block = region.front();
  ScalarRegion compiled;
  llvm::DenseMap<mlir::Value, int> slots;
  for (mlir::BlockArgument arg : block.getArguments()) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(arg.getType());
    // A complex element needs 16 bytes, more than a Scalar holds: the interpreter runs it.
    if (!type || type.getRank() != 0 || llvm::isa<mlir::ComplexType>(type.getElementType())) {
      return std::nullopt;
    }
    slots[arg] = compiled.numArgs_++;
  }
  int next = compiled.numArgs_;
  auto slotOf = [&](mlir::Value value) -> std::optional<int> {
    auto it = slots.find(value);
    if (it == slots.end()) return std::nullopt;  // a value from outside the region
    return it->second;
  };
  for (mlir::Operation& op : block) {
    if (auto ret = llvm::dyn_cast<hlo::ReturnOp>(op)) {
      if (ret->getNumOperands() < 1) return std::nullopt;
      std::optional<int> result = slotOf(value ? value : ret->getOperand(0));
      if (!result) return std::nullopt;
      compiled.result_ = *result;
      for (mlir::Value returned : ret->getOperands()) {
        std::optional<int> slot = slotOf(returned);
        if (!slot) return std::nullopt;
        compiled.results_.push_back(*slot);
      }
      return compiled;
    }
    if (op.getNumResults() != 1) return std::nullopt;
    auto resultType = llvm::dyn_cast<mlir::RankedTensorType>(op.getResult(0).getType());
    if (!resultType || resultType.getRank() != 0) return std::nullopt;
    Step step;
    llvm::SmallVector<int, 3> operands;
    for (mlir::Value operand : op.getOperands()) {
      std::optional<int> slot = slotOf(operand);
      if (!slot) return std::nullopt;
      operands.push_back(*slot);
    }
    if (auto constant = llvm::dyn_cast<hlo::ConstantOp>(op)) {
      std::optional<Scalar> value = ScalarConstant(constant.getValue());
      if (!value) return std::nullopt;
      step.kind = Kind::kConstant;
      step.constant = *value;
    } else if (auto compare = llvm::dyn_cast<hlo::CompareOp>(op)) {
      absl::StatusOr<ElementType> type = ElementTypeFromMlir(
          llvm::cast<mlir::RankedTensorType>(compare.getLhs().getType()).getElementType());
      if (!type.ok()) return std::nullopt;
      step.kind = Kind::kCompare;
      step.direction = compare.getComparisonDirection();
      ComparisonType fallback = IsFloat(*type)       ? ComparisonType::FLOAT
                                : IsSignedInt(*type) ? ComparisonType::SIGNED
                                                     : ComparisonType::UNSIGNED;
      step.compareType = compare.getCompareType().value_or(fallback);
    } else if (llvm::isa<hlo::SelectOp>(op)) {
      step.kind = Kind::kSelect;
    } else if (llvm::isa<hlo::AndOp, hlo::OrOp, hlo::XorOp, hlo::NotOp>(op)) {
      if (!resultType.getElementType().isInteger(1)) return std::nullopt;
      step.kind = llvm::isa<hlo::AndOp>(op)   ? Kind::kAnd
                  : llvm::isa<hlo::OrOp>(op)  ? Kind::kOr
                  : llvm::isa<hlo::XorOp>(op) ? Kind::kXor
                                              : Kind::kNot;
    } else if (llvm::isa<hlo::AddOp, hlo::SubOp, hlo::MulOp, hlo::DivOp, hlo::MaxOp, hlo::MinOp,
                         hlo::NegOp>(op)) {
      absl::StatusOr<ElementType> type = ElementTypeFromMlir(resultType.getElementType());
      if (!type.ok()) return std::nullopt;
      // Every operand has the result's type (the ops' verifiers); the functor must take it.
      bool accepted = false;
      if (llvm::isa<hlo::AddOp>(op)) {
        step.kind = Kind::kAdd;
        accepted = Accepts<AddFn>(*type);
      } else if (llvm::isa<hlo::SubOp>(op)) {
        step.kind = Kind::kSub;
        accepted = Accepts<SubFn>(*type);
      } else if (llvm::isa<hlo::MulOp>(op)) {
        step.kind = Kind::kMul;
        accepted = Accepts<MulFn>(*type);
      } else if (llvm::isa<hlo::DivOp>(op)) {
        step.kind = Kind::kDiv;
        accepted = Accepts<DivFn>(*type);
      } else if (llvm::isa<hlo::MaxOp>(op)) {
        step.kind = Kind::kMax;
        accepted = Accepts<MaxFn>(*type);
      } else if (llvm::isa<hlo::MinOp>(op)) {
        step.kind = Kind::kMin;
        accepted = Accepts<MinFn>(*type);
      } else {
        step.kind = Kind::kNeg;
        accepted = *type != ElementType::kPred && !IsUnsignedInt(*type);
      }
      if (!accepted) return std::nullopt;
    } else {
      return std::nullopt;
    }
    if (!operands.empty()) step.a = operands[0];
    if (operands.size() > 1) step.b = operands[1];
    if (operands.size() > 2) step.c = operands[2];
    compiled.steps_.push_back(step);
    slots[op.getResult(0)] = next++;
  }
  return std::nullopt;  // no terminator
}

void ScalarRegion::Evaluate(llvm::SmallVectorImpl<Scalar>& slots) const {
  for (const Step& step : steps_) {
    Scalar out{ElementType::kPred, 0};
    // Read lazily: a constant step has no operand, and a region may have no arguments.
    auto a = [&]() -> const Scalar& { return slots[step.a]; };
    switch (step.kind) {
      case Kind::kConstant: out = step.constant; break;
      case Kind::kCompare:
        out.bits = CompareScalars(a(), slots[step.b], step.direction, step.compareType);
        break;
      case Kind::kSelect: out = a().bits != 0 ? slots[step.b] : slots[step.c]; break;
      case Kind::kAnd: out.bits = a().bits & slots[step.b].bits; break;
      case Kind::kOr: out.bits = a().bits | slots[step.b].bits; break;
      case Kind::kXor: out.bits = a().bits ^ slots[step.b].bits; break;
      case Kind::kNot: out.bits = a().bits ^ 1; break;
      case Kind::kAdd: out = ApplyBinary<AddFn>(a(), slots[step.b]); break;
      case Kind::kSub: out = ApplyBinary<SubFn>(a(), slots[step.b]); break;
      case Kind::kMul: out = ApplyBinary<MulFn>(a(), slots[step.b]); break;
      case Kind::kDiv: out = ApplyBinary<DivFn>(a(), slots[step.b]); break;
      case Kind::kMax: out = ApplyBinary<MaxFn>(a(), slots[step.b]); break;
      case Kind::kMin: out = ApplyBinary<MinFn>(a(), slots[step.b]); break;
      case Kind::kNeg: out = Negate(a()); break;
    }
    slots.push_back(out);
  }
}

Scalar ScalarRegion::Run(absl::Span<const Scalar> args) const {
  // Comparators and reducers are a handful of ops: the slots live on the stack.
  llvm::SmallVector<Scalar, 32> slots(args.begin(), args.end());
  Evaluate(slots);
  return slots[result_];
}

void ScalarRegion::RunAll(absl::Span<const Scalar> args, absl::Span<Scalar> results) const {
  llvm::SmallVector<Scalar, 32> slots(args.begin(), args.end());
  Evaluate(slots);
  for (size_t i = 0; i < results_.size(); ++i) results[i] = slots[results_[i]];
}

}  // namespace tessel::runtime
