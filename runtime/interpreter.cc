// The op-by-op executor loop: binds values, dispatches kernels, runs regions and calls.
#include "runtime/interpreter.h"

#include <string>

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

Interpreter::Interpreter(const KernelRegistry& registry, PartitionContext partition)
    : registry_(registry), partition_(partition) {}

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
  activeFunctions_.push_back(function);
  absl::StatusOr<std::vector<Tensor>> results = RunRegion(function.getBody(), argPointers);
  activeFunctions_.pop_back();
  return results;
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunRegion(
    mlir::Region& region, absl::Span<const Tensor* const> args) {
  if (!region.hasOneBlock()) {
    return OpError(region.getParentOp(), "regions with several blocks cannot be executed");
  }
  mlir::Block& block = region.front();
  if (block.getNumArguments() != args.size()) {
    return OpError(region.getParentOp(),
                   absl::StrCat("region takes ", block.getNumArguments(), " arguments, got ",
                                args.size()));
  }
  scopes_.emplace_back();
  for (auto [arg, tensor] : llvm::zip(block.getArguments(), args)) {
    scopes_.back().borrowed[arg] = tensor;
  }
  absl::StatusOr<std::vector<Tensor>> results = RunBlock(block);
  scopes_.pop_back();
  return results;
}

absl::StatusOr<std::vector<Tensor>> Interpreter::RunBlock(mlir::Block& block) {
  for (mlir::Operation& op : block.without_terminator()) {
    TESSEL_RETURN_IF_ERROR(RunOp(op));
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
      results.push_back(*tensor);
    }
  }
  return results;
}

absl::Status Interpreter::RunOp(mlir::Operation& op) {
  std::vector<const Tensor*> operands;
  for (mlir::Value value : op.getOperands()) {
    const Tensor* tensor = Lookup(value);
    if (!tensor) return OpError(&op, "uses a value that was never computed");
    operands.push_back(tensor);
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
    absl::StatusOr<std::vector<Tensor>> callResults = RunRegion(callee.getBody(), operands);
    activeFunctions_.pop_back();
    scopes_ = std::move(callerScopes);
    if (!callResults.ok()) return callResults.status();
    results = *std::move(callResults);
  } else {
    const Kernel* kernel = registry_.Find(op.getName().getStringRef());
    if (!kernel) {
      return OpError(&op, absl::UnimplementedError("the executor has no kernel for this op"));
    }
    absl::StatusOr<std::vector<Tensor>> kernelResults =
        (*kernel)(&op, KernelArgs{operands, *this});
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
