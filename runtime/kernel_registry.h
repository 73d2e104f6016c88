// Kernels: the code that runs one op on host tensors, found by the op's name.
//
// Each op family registers its kernels from one function, so adding an op means adding a
// kernel next to its siblings, not editing a central switch:
//
//   void RegisterElementwiseKernels(KernelRegistry& registry) {
//     registry.Register<hlo::AddOp>([](hlo::AddOp op, KernelArgs args)
//                                       -> absl::StatusOr<std::vector<Tensor>> { ... });
//   }
#ifndef TESSEL_RUNTIME_KERNEL_REGISTRY_H_
#define TESSEL_RUNTIME_KERNEL_REGISTRY_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "mlir/IR/Operation.h"
#include "runtime/tensor.h"

namespace tessel::runtime {

class Interpreter;

// What a kernel gets besides its op: the operand values, in operand order, and the
// interpreter, which runs the op's regions and knows the partition it runs as.
struct KernelArgs {
  absl::Span<const Tensor* const> operands;
  Interpreter& interpreter;
  // Per operand, its tensor when nothing reads the operand after this op (the interpreter
  // frees it then), else null; empty when no operand is such. A kernel may write its result
  // into such a tensor's buffer and return the tensor, once it no longer needs the
  // operand's values: operands[i] points at the same tensor.
  absl::Span<Tensor* const> overwritable = {};

  Tensor* Overwritable(size_t index) const {
    return index < overwritable.size() ? overwritable[index] : nullptr;
  }
};

// Runs one op; returns one tensor per op result, in result order.
using Kernel =
    std::function<absl::StatusOr<std::vector<Tensor>>(mlir::Operation* op, KernelArgs args)>;

// Wraps a single tensor as a kernel's result list. It moves the tensor in; a braced list,
// `std::vector<Tensor>{std::move(t)}`, would copy it, since initializer lists are const.
inline absl::StatusOr<std::vector<Tensor>> OneResult(absl::StatusOr<Tensor> result) {
  if (!result.ok()) return result.status();
  std::vector<Tensor> results;
  results.push_back(*std::move(result));
  return results;
}

class KernelRegistry {
 public:
  // Registers `kernel` for ops named `op_name` ("hlo.add"), replacing any earlier one.
  void Register(std::string op_name, Kernel kernel);

  // Registers a kernel that takes the op as its typed class.
  template <typename OpT, typename Fn>
  void Register(Fn fn) {
    Register(OpT::getOperationName().str(),
             [fn = std::move(fn)](mlir::Operation* op, KernelArgs args) {
               return fn(llvm::cast<OpT>(op), args);
             });
  }

  // The kernel for ops named `op_name`, or null if there is none.
  const Kernel* Find(llvm::StringRef op_name) const;

  // Names of every op with a kernel, sorted.
  std::vector<std::string> RegisteredOps() const;

 private:
  absl::flat_hash_map<std::string, Kernel> kernels_;
};

// The registry with every kernel Tessel has (see kernels/register_all.cc).
const KernelRegistry& DefaultKernelRegistry();

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_KERNEL_REGISTRY_H_
