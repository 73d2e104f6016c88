// A program whose tensors could not exist: a static shape whose size in bytes does not fit in
// 63 bits (`f32[99999999999,99999999999]`, or dimensions whose product wraps to zero). The
// cost model, the partitioner and the executor all compute sizes in int64_t; such a shape
// would turn into negative or zero sizes there, so it is refused at load, with its location.
//
//   if (mlir::failed(ir::verifyTensorSizes(module))) ...  // diagnostics emitted
#ifndef TESSEL_PARTITIONER_IR_TENSOR_SIZES_H_
#define TESSEL_PARTITIONER_IR_TENSOR_SIZES_H_

#include "mlir/IR/Operation.h"
#include "mlir/Support/LogicalResult.h"

namespace tessel::ir {

// Emits an error at each op (or block argument's owner) with a tensor of more than 2^63 - 1
// bytes, and fails if there is one.
mlir::LogicalResult verifyTensorSizes(mlir::Operation* root);

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_TENSOR_SIZES_H_
