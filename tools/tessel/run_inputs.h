// The arguments `tessel run` passes to a function: read from .npy files and checked against
// the function's signature, or drawn at random from a seed.
//
//   TESSEL_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> args,
//                           ReadInputs(main, {"x.npy", "w.npy"}));
//   TESSEL_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> args, RandomInputs(main, /*seed=*/7));
#ifndef TESSEL_TOOLS_TESSEL_RUN_INPUTS_H_
#define TESSEL_TOOLS_TESSEL_RUN_INPUTS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "runtime/tensor.h"

namespace tessel::cli {

// Reads one .npy file per argument of `function`, in order. Fails with InvalidArgument if
// the number of files differs from the number of arguments, or if a file's dtype or shape
// differs from its argument's type (the message names the file, the argument and both
// types); a file that cannot be read or parsed fails with ReadNpy's error, which names it.
// With `types` (one per argument), the files are checked against those instead: the global
// types of a partitioned program, whose function takes pieces.
absl::StatusOr<std::vector<runtime::Tensor>> ReadInputs(mlir::func::FuncOp function,
                                                        absl::Span<const std::string> paths,
                                                        llvm::ArrayRef<mlir::Type> types = {});

// One random tensor per argument of `function`: argument i is
// runtime::RandomTensor(type, shape, seed + i), so a run is reproducible from its seed.
// Fails with InvalidArgument if an argument is not a statically shaped tensor of an element
// type the executor holds.
// With `types`, the tensors are of those types instead (as for ReadInputs).
absl::StatusOr<std::vector<runtime::Tensor>> RandomInputs(mlir::func::FuncOp function,
                                                          uint64_t seed,
                                                          llvm::ArrayRef<mlir::Type> types = {});

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_RUN_INPUTS_H_
