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

Scalar ScalarRegion::Run(absl::Span<const Scalar> args) const {
  // Comparators are a handful of ops: the slots live on the stack.
  llvm::SmallVector<Scalar, 32> slots(args.begin(), args.end());
  for (const Step& step : steps_) {
    Scalar out{ElementType::kPred, 0};
    switch (step.kind) {
      case Kind::kConstant: out = step.constant; break;
      case Kind::kCompare:
        out.bits = CompareScalars(slots[step.a], slots[step.b], step.direction, step.compareType);
        break;
      case Kind::kSelect: out = slots[step.a].bits != 0 ? slots[step.b] : slots[step.c]; break;
      case Kind::kAnd: out.bits = slots[step.a].bits & slots[step.b].bits; break;
      case Kind::kOr: out.bits = slots[step.a].bits | slots[step.b].bits; break;
      case Kind::kXor: out.bits = slots[step.a].bits ^ slots[step.b].bits; break;
      case Kind::kNot: out.bits = slots[step.a].bits ^ 1; break;
    }
    slots.push_back(out);
  }
  return slots[result_];
}

}  // namespace tessel::runtime
