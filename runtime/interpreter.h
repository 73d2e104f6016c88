// The reference executor: runs a func.func of hlo (and tessel) ops on host tensors, op by
// op, with XLA's semantics. It is the project's correctness oracle — a partitioned program
// run on N partitions must give what the single-device program gives here — and the
// embedded default runtime.
//
//   mlir::OwningOpRef<mlir::ModuleOp> module = ...;
//   Interpreter interpreter;
//   absl::StatusOr<std::vector<Tensor>> results =
//       interpreter.RunFunction(module->lookupSymbol<mlir::func::FuncOp>("main"), inputs);
//
// In an SPMD run each partition has its own Interpreter, constructed with its
// PartitionContext: `tessel.partition_id` reads the id and collective ops call the
// communicator.
//
// RunLimits (run_limits.h) bound a run: a StopSignal polled before every op and at every
// while iteration (a timeout, or another partition's failure), and a cap on while
// iterations. A tensor that cannot be allocated (beyond the memory limit of tensor.h) fails
// the op that asked for it with ResourceExhausted: no exception leaves the interpreter.
#ifndef TESSEL_RUNTIME_INTERPRETER_H_
#define TESSEL_RUNTIME_INTERPRETER_H_

#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "runtime/kernel_registry.h"
#include "runtime/run_limits.h"
#include "runtime/tensor.h"
#include "runtime/value_lifetimes.h"

namespace tessel::collectives {
class Communicator;
}  // namespace tessel::collectives

namespace tessel::runtime {

// Who this interpreter runs as in an SPMD program.
struct PartitionContext {
  int64_t partition_id = 0;
  int64_t num_partitions = 1;
  // The collectives backend; null when the program has no collectives.
  collectives::Communicator* communicator = nullptr;
};

class Interpreter {
 public:
  // Runs single-device programs with every registered kernel.
  Interpreter();
  Interpreter(const KernelRegistry& registry, PartitionContext partition,
              RunLimits limits = RunLimits());

  // Runs `function` on `args` and returns its results.
  // Fails with InvalidArgument if the arguments' count, element types or shapes differ
  // from the function's signature, and with the kernel's error (prefixed by the op's name
  // and location) if an op fails or has no kernel. Ops that cannot allocate their tensors
  // fail with ResourceExhausted; a stopped run fails with the stop's reason (code and
  // message), and a while loop past the limit with ResourceExhausted, each after the op
  // that was running.
  absl::StatusOr<std::vector<Tensor>> RunFunction(mlir::func::FuncOp function,
                                                  absl::Span<const Tensor> args);

  // Runs the single block of `region` with its block arguments bound to `args` and
  // returns the operands of its terminator. Values defined above the region are visible,
  // so a case branch may read the values it captures.
  absl::StatusOr<std::vector<Tensor>> RunRegion(mlir::Region& region,
                                                absl::Span<const Tensor* const> args);

  // The same, with the region owning its arguments: each is freed after its last read, and
  // the op that reads it last may write over it. A while loop hands its state to the body
  // this way, so that an update like `w - lr * g` needs no new buffer.
  absl::StatusOr<std::vector<Tensor>> RunRegionOwning(mlir::Region& region,
                                                      std::vector<Tensor> args);

  const PartitionContext& partition() const { return partition_; }
  const RunLimits& limits() const { return limits_; }

  // Whether the run has been told to stop; kernels that loop on their own poll it.
  bool stopped() const { return limits_.stop != nullptr && limits_.stop->stopped(); }

  // What a while loop calls before its iteration `iteration` (from 1): an error once the
  // run is stopped or the iteration is past max_while_iterations. The loop's kernel
  // returns it, so OpError names the loop.
  absl::Status CheckWhileIteration(int64_t iteration) const;

 private:
  // One level of value bindings; regions push a scope over their parent's. Block arguments
  // are borrowed: the caller's tensors outlive the region's run, so binding them costs no
  // copy. Op results are owned by the scope.
  struct Scope {
    llvm::DenseMap<mlir::Value, Tensor> owned;
    llvm::DenseMap<mlir::Value, const Tensor*> borrowed;
  };

  // Binds the region's block arguments to `borrowed`, or, when it is null, moves `owned`
  // into the region's scope.
  absl::StatusOr<std::vector<Tensor>> RunRegionUnguarded(
      mlir::Region& region, absl::Span<const Tensor* const> borrowed,
      std::vector<Tensor>* owned = nullptr);
  absl::StatusOr<std::vector<Tensor>> RunBlock(mlir::Block& block);
  absl::Status RunOp(mlir::Operation& op, llvm::ArrayRef<unsigned> overwritable);
  absl::Status RunOpUnguarded(mlir::Operation& op, llvm::ArrayRef<unsigned> overwritable);
  const Tensor* Lookup(mlir::Value value) const;
  const BlockLifetimes& LifetimesOf(mlir::Block& block);
  // Counts the calls of RunFunction and RunRegion in progress; the last one out forgets
  // the lifetimes, which hold pointers into the program.
  void Enter() { ++entered_; }
  void Leave() {
    if (--entered_ == 0) lifetimes_.clear();
  }

  const KernelRegistry& registry_;
  PartitionContext partition_;
  RunLimits limits_;
  // A deque, so that pushing a region's scope never moves the values of the enclosing
  // scopes: kernels hold pointers to their operands while they run regions.
  std::deque<Scope> scopes_;
  // The functions being run, outermost first: a call to one of them would recurse without
  // end (programs have no recursion), so it is an error instead of a stack overflow.
  llvm::SmallVector<mlir::Operation*, 8> activeFunctions_;
  // The lifetimes of each block run so far in this run: a loop body or a reducer runs its
  // block many times.
  llvm::DenseMap<mlir::Block*, std::unique_ptr<BlockLifetimes>> lifetimes_;
  int entered_ = 0;
};

// An error status for `op`: "<op name> at <location>: <message>", with the code of
// `status`. Kernels use it so that a failure names the op the user wrote.
absl::Status OpError(mlir::Operation* op, const absl::Status& status);
absl::Status OpError(mlir::Operation* op, absl::string_view message);

// Checks that `tensor` matches `type` (a ranked tensor type): element type and shape.
absl::Status CheckTensorMatchesType(const Tensor& tensor, mlir::Type type,
                                    absl::string_view what);

}  // namespace tessel::runtime

#endif  // TESSEL_RUNTIME_INTERPRETER_H_
