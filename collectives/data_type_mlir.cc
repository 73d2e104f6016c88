// DataTypeToMlir (see data_type_mlir.h).
#include "collectives/data_type_mlir.h"

#include "mlir/IR/BuiltinTypes.h"

namespace tessel::collectives {

mlir::Type DataTypeToMlir(DataType type, mlir::MLIRContext* context) {
  using mlir::IntegerType;
  switch (type) {
    case DataType::kPred: return IntegerType::get(context, 1);
    case DataType::kS8: return IntegerType::get(context, 8);
    case DataType::kS16: return IntegerType::get(context, 16);
    case DataType::kS32: return IntegerType::get(context, 32);
    case DataType::kS64: return IntegerType::get(context, 64);
    case DataType::kU8: return IntegerType::get(context, 8, IntegerType::Unsigned);
    case DataType::kU16: return IntegerType::get(context, 16, IntegerType::Unsigned);
    case DataType::kU32: return IntegerType::get(context, 32, IntegerType::Unsigned);
    case DataType::kU64: return IntegerType::get(context, 64, IntegerType::Unsigned);
    case DataType::kF16: return mlir::Float16Type::get(context);
    case DataType::kBF16: return mlir::BFloat16Type::get(context);
    case DataType::kF32: return mlir::Float32Type::get(context);
    case DataType::kF64: return mlir::Float64Type::get(context);
    case DataType::kC64: return mlir::ComplexType::get(mlir::Float32Type::get(context));
    case DataType::kC128: return mlir::ComplexType::get(mlir::Float64Type::get(context));
  }
  return {};
}

}  // namespace tessel::collectives
