// Sizes of tensors in memory, shared by every estimate: an element takes its bit width
// rounded up to whole bytes (pred, i1, takes one byte, as XLA stores it).
#ifndef TESSEL_COST_MODEL_TENSOR_BYTES_H_
#define TESSEL_COST_MODEL_TENSOR_BYTES_H_

#include <cstdint>

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"
#include "mlir/IR/ValueRange.h"

namespace tessel::cost_model {

// Bytes of one element of an integer or float type; 0 for any other type.
int64_t ElementBytes(mlir::Type element_type);

// Elements of a statically shaped ranked tensor; 0 for any other type.
int64_t ElementCount(mlir::Type type);

// ElementCount * ElementBytes; 0 for anything but a statically shaped ranked tensor.
int64_t TensorBytes(mlir::Type type);

// The sum of TensorBytes over `values`.
int64_t TotalBytes(mlir::ValueRange values);

}  // namespace tessel::cost_model

#endif  // TESSEL_COST_MODEL_TENSOR_BYTES_H_
