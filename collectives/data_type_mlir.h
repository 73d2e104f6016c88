// The MLIR type of each data type (pred → i1, sN → iN, uN → uiN, f16, bf16, f32, f64,
// c64 → complex<f32>, c128 → complex<f64>): shared by the runtime, whose tensors hold these
// types, and the HLO text frontend, which reads them by their XLA names.
#ifndef TESSEL_COLLECTIVES_DATA_TYPE_MLIR_H_
#define TESSEL_COLLECTIVES_DATA_TYPE_MLIR_H_

#include "collectives/data_type.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Types.h"

namespace tessel::collectives {

mlir::Type DataTypeToMlir(DataType type, mlir::MLIRContext* context);

}  // namespace tessel::collectives

#endif  // TESSEL_COLLECTIVES_DATA_TYPE_MLIR_H_
