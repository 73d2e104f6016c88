// The op-by-op executor loop: binds values, dispatches kernels, runs regions and calls.
#include "runtime/interpreter.h"

#include <new>
#include <string>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/location.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

std::string TypeString(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return os.str();
}

// The status of an allocation that failed: a TensorAllocationError names the tensor and
// the bytes; anything else the standard library threw (a vector a kernel grew) does not.
absl::Status AllocationFailure(const std::bad_alloc& error) {
  if (auto* tensor = dynamic_cast<const TensorAllocationError*>(&error)) {
    return absl::ResourceExhaustedError(tensor->what());
  }
  return absl::ResourceExhaustedError(absl::StrCat("out of memory (", error.what(), ")"));
}

}  // namespace

absl::Status OpError(mlir::Operation* op, absl::string_view message) {
  return OpError(op, absl::InvalidArgumentError(message));
}

absl::Status OpError(mlir::Operation* op, const absl::Status& status) {
  return absl::Status(status.code(),
                      absl::StrCat(op->getName().getStringRef().str(), " at ",
                                   FormatLocation(op->getLoc()), ": ", status.message()));
}

absl::Status CheckTensorMatchesType(const Tensor& tensor, mlir::Type type,
                                    absl::string_view what) {
  auto tensorType = llvm::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensorType) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": type ", TypeString(type), " is not a ranked tensor"));
  }
  TESSEL_ASSIGN_OR_RETURN(ElementType expected,
                          ElementTypeFromMlir(tensorType.getElementType()));
  Shape shape(tensorType.getShape().begin(), tensorType.getShape().end());
  if (tensor.type() != expected || tensor.shape() != shape) {
    return absl::InvalidArgumentError(absl::StrCat(what, ": expected ", TypeString(type),
                                                   ", got ", tensor.ShapeString()));
  }
  return absl::OkStatus();
}

Interpreter::Interpreter() : Interpreter(DefaultKernelRegistry(), PartitionContext{}) {}

Interpreter::Interpreter(const KernelRegistry& registry, PartitionContext partition,
                         RunLimits limits)
    : registry_(registry), partition_(partition), limits_(limits) {}

absl::Status Interpreter::CheckWhileIteration(int64_t iteration) const {
  if (stopped()) {
    absl::Status reason = limits_.stop->reason();
    return absl::Status(reason.code(),
                        absl::StrCat("iteration ", iteration, ": ", reason.message()));
  }
  if (limits_.max_while_iterations > 0 && iteration > limits_.max_while_iterations) {
    return absl::ResourceExhaustedError(
        absl::StrCat("the loop did not end within max_while_iterations = ",
                     limits_.max_while_iterations, " iterations"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunFunction(mlir::func::FuncOp function,
                                                             absl::Span<const Tensor> args) {
  if (!function) return absl::InvalidArgumentError("no function to run");
  if (function.isDeclaration()) {
    return absl::InvalidArgumentError(
        absl::StrCat("function @", function.getSymName().str(), " has no body"));
  }
  mlir::FunctionType type = function.getFunctionType();
  if (args.size() != type.getNumInputs()) {
    return absl::InvalidArgumentError(
        absl::StrCat("function @", function.getSymName().str(), " takes ", type.getNumInputs(),
                     " arguments, got ", args.size()));
  }
  std::vector<const Tensor*> argPointers;
  for (size_t i = 0; i < args.size(); ++i) {
    TESSEL_RETURN_IF_ERROR(CheckTensorMatchesType(args[i], type.getInput(i),
                                                  absl::StrCat("argument ", i)));
    argPointers.push_back(&args[i]);
  }
  if (stopped()) return limits_.stop->reason();
  Enter();
  activeFunctions_.push_back(function);
  absl::Cleanup pop = [this] {
    activeFunctions_.pop_back();
    Leave();
  };
  try {
    return RunRegionUnguarded(function.getBody(), argPointers);
  } catch (const std::bad_alloc& error) {
    return AllocationFailure(error);
  }
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunRegion(
    mlir::Region& region, absl::Span<const Tensor* const> args) {
  // Kernels call this inside RunOp's guard; a manual computation's threads call it directly.
  Enter();
  absl::Cleanup leave = [this] { Leave(); };
  try {
    return RunRegionUnguarded(region, args);
  } catch (const std::bad_alloc& error) {
    return AllocationFailure(error);
  }
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunRegionOwning(mlir::Region& region,
                                                                  std::vector<Tensor> args) {
  Enter();
  absl::Cleanup leave = [this] { Leave(); };
  try {
    return RunRegionUnguarded(region, {}, &args);
  } catch (const std::bad_alloc& error) {
    return AllocationFailure(error);
  }
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunRegionUnguarded(
    mlir::Region& region, absl::Span<const Tensor* const> borrowed, std::vector<Tensor>* owned) {
  if (!region.hasOneBlock()) {
    return OpError(region.getParentOp(), "regions with several blocks cannot be executed");
  }
  mlir::Block& block = region.front();
  const size_t count = owned != nullptr ? owned->size() : borrowed.size();
  if (block.getNumArguments() != count) {
    return OpError(region.getParentOp(),
                   absl::StrCat("region takes ", block.getNumArguments(), " arguments, got ",
                                count));
  }
  scopes_.emplace_back();
  // Popped on every way out, an allocation failure's exception included, so that the
  // interpreter stays usable after a failed op.
  absl::Cleanup pop = [this] { scopes_.pop_back(); };
  for (unsigned i = 0; i < count; ++i) {
    mlir::BlockArgument arg = block.getArgument(i);
    if (owned != nullptr) {
      scopes_.back().owned[arg] = std::move((*owned)[i]);
    } else {
      scopes_.back().borrowed[arg] = borrowed[i];
    }
  }
  return RunBlock(block);
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunBlock(mlir::Block& block) {
  const BlockLifetimes& lifetimes = LifetimesOf(block);
  size_t index = 0;
  for (mlir::Operation& op : block.without_terminator()) {
    // Before each op (and, for long kernels, between blocks of their work: PollOpStop): a
    // stopped run names the op it would have run next, or the one it stopped in.
    if (stopped()) return OpError(&op, limits_.stop->reason());
    TESSEL_RETURN_IF_ERROR(RunOp(op, lifetimes.Overwritable(index)));
    if (limits_.counters) limits_.counters->ops.fetch_add(1, std::memory_order_relaxed);
    // Values nothing reads any more are freed now, not when the block's scope goes: a
    // program's peak is then what is live at once, not everything it computed.
    llvm::DenseMap<mlir::Value, Tensor>& owned = scopes_.back().owned;
    for (mlir::Value value : lifetimes.DiesAfter(index)) owned.erase(value);
    ++index;
  }
  // The terminator (func.return, hlo.return, tessel.return) yields the block's results.
  // A value this block computed is moved out at its last use in the terminator, since the
  // block's scope is dropped right after; arguments and captured values are copied.
  mlir::Operation* terminator = block.getTerminator();
  llvm::DenseMap<mlir::Value, Tensor>& owned = scopes_.back().owned;
  std::vector<Tensor> results;
  results.reserve(terminator->getNumOperands());
  for (mlir::OpOperand& operand : terminator->getOpOperands()) {
    mlir::Value value = operand.get();
    const Tensor* tensor = Lookup(value);
    if (!tensor) return OpError(terminator, "returns a value that was never computed");
    bool usedLater = false;
    for (unsigned i = operand.getOperandNumber() + 1; i < terminator->getNumOperands(); ++i) {
      usedLater = usedLater || terminator->getOperand(i) == value;
    }
    auto it = owned.find(value);
    if (!usedLater && it != owned.end()) {
      results.push_back(std::move(it->second));
    } else {
      try {
        results.push_back(*tensor);
      } catch (const std::bad_alloc& error) {
        return OpError(terminator, AllocationFailure(error));
      }
    }
  }
  return results;
}

const BlockLifetimes& Interpreter::LifetimesOf(mlir::Block& block) {
  std::unique_ptr<BlockLifetimes>& lifetimes = lifetimes_[&block];
  if (!lifetimes) lifetimes = std::make_unique<BlockLifetimes>(block);
  return *lifetimes;
}

absl::Status Interpreter::RunOp(mlir::Operation& op, llvm::ArrayRef<unsigned> overwritable) {
  // Kernels allocate their results (and scratch) as tensors, which throw when the memory
  // limit or the system refuses; here that becomes the op's error. Long kernels poll the
  // run's stop signal and throw when it has stopped.
  OpStopScope stopScope(limits_.stop);
  try {
    return RunOpUnguarded(op, overwritable);
  } catch (const std::bad_alloc& error) {
    return OpError(&op, AllocationFailure(error));
  } catch (const OpStopped&) {
    return OpError(&op, limits_.stop->reason());
  }
}

absl::Status Interpreter::RunOpUnguarded(mlir::Operation& op,
                                         llvm::ArrayRef<unsigned> overwritable) {
  std::vector<const Tensor*> operands;
  for (mlir::Value value : op.getOperands()) {
    const Tensor* tensor = Lookup(value);
    if (!tensor) return OpError(&op, "uses a value that was never computed");
    operands.push_back(tensor);
  }
  // The operands read last here are values of this block: its ops' results, and its
  // arguments when the region was handed them. Only those its scope owns may be written.
  llvm::SmallVector<Tensor*, 4> mutableOperands;
  if (!overwritable.empty()) {
    mutableOperands.assign(operands.size(), nullptr);
    llvm::DenseMap<mlir::Value, Tensor>& owned = scopes_.back().owned;
    for (unsigned index : overwritable) {
      auto it = owned.find(op.getOperand(index));
      if (it != owned.end()) mutableOperands[index] = &it->second;
    }
  }
  std::vector<Tensor> results;
  if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op)) {
    auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(
        &op, call.getCalleeAttr());
    if (!callee || callee.isDeclaration()) {
      return OpError(&op, absl::StrCat("callee @", call.getCallee().str(), " has no body"));
    }
    if (llvm::is_contained(activeFunctions_, callee.getOperation())) {
      return OpError(&op, absl::StrCat("calls @", call.getCallee().str(),
                                       ", which is running already: recursion is not supported"));
    }
    // The callee sees only its arguments, not the caller's values.
    std::deque<Scope> callerScopes = std::move(scopes_);
    scopes_.clear();
    activeFunctions_.push_back(callee);
    absl::StatusOr<std::vector<Tensor>> callResults;
    {
      absl::Cleanup restore = [&] {
        activeFunctions_.pop_back();
        scopes_ = std::move(callerScopes);
      };
      callResults = RunRegionUnguarded(callee.getBody(), operands);
    }
    if (!callResults.ok()) return callResults.status();
    results = *std::move(callResults);
  } else {
    const Kernel* kernel = registry_.Find(op.getName().getStringRef());
    if (!kernel) {
      return OpError(&op, absl::UnimplementedError("the executor has no kernel for this op"));
    }
    absl::StatusOr<std::vector<Tensor>> kernelResults =
        (*kernel)(&op, KernelArgs{operands, *this, mutableOperands});
    // A failure inside a region reads as a trace: "hlo.reduce at A: hlo.add at B: ...".
    if (!kernelResults.ok()) return OpError(&op, kernelResults.status());
    results = *std::move(kernelResults);
  }
  if (results.size() != op.getNumResults()) {
    return OpError(&op, absl::InternalError(absl::StrCat("kernel produced ", results.size(),
                                                         " results, the op has ",
                                                         op.getNumResults())));
  }
  for (auto [value, tensor] : llvm::zip(op.getResults(), results)) {
    scopes_.back().owned[value] = std::move(tensor);
  }
  return absl::OkStatus();
}

const Tensor* Interpreter::Lookup(mlir::Value value) const {
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    if (auto it = scope->owned.find(value); it != scope->owned.end()) return &it->second;
    if (auto it = scope->borrowed.find(value); it != scope->borrowed.end()) return it->second;
  }
  return nullptr;
}

}  // namespace tessel::runtime
