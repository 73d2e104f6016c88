// The tests behind the hlo dialect's type constraints (hlo_base.td): each element type an
// HLO tensor may hold, and a static shape. ODS would test each allowed width through its
// own out-of-line call, and reach a tensor's shape and element type through a ShapedType
// interface lookup, for every operand and result the verifier sees; these are inline.
#ifndef TESSEL_IR_HLO_HLO_TYPE_PREDICATES_H_
#define TESSEL_IR_HLO_HLO_TYPE_PREDICATES_H_

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Casting.h"
#include "mlir/IR/BuiltinTypes.h"

namespace tessel::hlo {

// The integer widths of XLA's s8..s64 and u8..u64.
inline bool isHloIntWidth(unsigned width) {
  return width == 8 || width == 16 || width == 32 || width == 64;
}

// pred: i1.
inline bool isHloPredType(mlir::Type type) {
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  return integer && integer.isSignless() && integer.getWidth() == 1;
}

// s8..s64: signless i8..i64.
inline bool isHloSignedIntType(mlir::Type type) {
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  return integer && integer.isSignless() && isHloIntWidth(integer.getWidth());
}

// u8..u64: ui8..ui64.
inline bool isHloUnsignedIntType(mlir::Type type) {
  auto integer = llvm::dyn_cast<mlir::IntegerType>(type);
  return integer && integer.isUnsigned() && isHloIntWidth(integer.getWidth());
}

// f16, bf16, f32, f64.
inline bool isHloFloatType(mlir::Type type) {
  return llvm::isa<mlir::Float16Type, mlir::BFloat16Type, mlir::Float32Type,
                   mlir::Float64Type>(type);
}

// c64 and c128: complex<f32>, complex<f64>.
inline bool isHloComplexType(mlir::Type type) {
  auto complex = llvm::dyn_cast<mlir::ComplexType>(type);
  return complex && llvm::isa<mlir::Float32Type, mlir::Float64Type>(complex.getElementType());
}

// A ranked tensor with no dynamic dimension; its element type is tested on its own.
inline bool isStaticRankedTensor(mlir::Type type) {
  auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
  return tensor && llvm::none_of(tensor.getShape(), mlir::ShapedType::isDynamic);
}

// The element type of a type isStaticRankedTensor accepted.
inline mlir::Type staticTensorElementType(mlir::Type type) {
  return llvm::cast<mlir::RankedTensorType>(type).getElementType();
}

}  // namespace tessel::hlo

#endif  // TESSEL_IR_HLO_HLO_TYPE_PREDICATES_H_
