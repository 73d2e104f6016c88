// Inlining calls (inline_calls.h).
#include "partitioner/ir/inline_calls.h"

#include <optional>
#include <string>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/InliningUtils.h"

namespace tessel::ir {
namespace {

// Clones the one block of `callee` in front of `call` and replaces the call's results with
// the cloned return's operands. MLIR's inliner would split the caller's block at every
// call, moving the rest of the block each time: quadratic in a program of many calls.
void cloneInPlace(mlir::func::CallOp call, mlir::func::FuncOp callee) {
  mlir::Block& body = callee.getBody().front();
  mlir::IRMapping mapping;
  mapping.map(body.getArguments(), call.getOperands());
  mlir::OpBuilder builder(call);
  for (mlir::Operation& op : body.without_terminator()) builder.clone(op, mapping);
  for (auto [result, returned] : llvm::zip(call.getResults(), body.getTerminator()->getOperands())) {
    result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
  }
}

void ensureFuncInliner(mlir::MLIRContext* context) {
  // func's own inliner interface (for func.return) is a dialect extension; register it once.
  auto* funcDialect = context->getOrLoadDialect<mlir::func::FuncDialect>();
  if (funcDialect->hasPromisedInterface(funcDialect->getTypeID(),
                                        mlir::DialectInlinerInterface::getInterfaceID())) {
    mlir::DialectRegistry registry;
    mlir::func::registerInlinerExtension(registry);
    context->appendDialectRegistry(registry);
  }
}

// The functions with bodies, each after every function it calls (callees first), in
// `order`. Fails, with an error on a call of the cycle naming its functions, when a
// function reaches itself through calls: inlining would never end.
mlir::LogicalResult orderCallees(mlir::ModuleOp module, mlir::SymbolTable& symbols,
                                 llvm::SmallVectorImpl<mlir::func::FuncOp>& order) {
  enum class State { kUnseen, kOnPath, kDone };
  llvm::DenseMap<mlir::Operation*, State> state;
  // Depth-first over calls, with an explicit stack so that long call chains cannot
  // overflow the native one: each frame is a function and the calls left to follow.
  struct Frame {
    mlir::func::FuncOp func;
    llvm::SmallVector<mlir::func::CallOp> calls;
    size_t next = 0;
  };
  auto callsOf = [&](mlir::func::FuncOp func) {
    llvm::SmallVector<mlir::func::CallOp> calls;
    func.walk([&](mlir::func::CallOp call) { calls.push_back(call); });
    return calls;
  };
  for (auto root : module.getOps<mlir::func::FuncOp>()) {
    if (root.isDeclaration() || state[root] != State::kUnseen) continue;
    llvm::SmallVector<Frame> stack;
    stack.push_back({root, callsOf(root)});
    state[root] = State::kOnPath;
    while (!stack.empty()) {
      Frame& frame = stack.back();
      if (frame.next == frame.calls.size()) {
        state[frame.func] = State::kDone;
        order.push_back(frame.func);
        stack.pop_back();
        continue;
      }
      mlir::func::CallOp call = frame.calls[frame.next++];
      auto callee = symbols.lookup<mlir::func::FuncOp>(call.getCallee());
      if (!callee || callee.isDeclaration()) continue;
      State& seen = state[callee];
      if (seen == State::kOnPath) {
        std::string cycle;
        bool inCycle = false;
        for (Frame& on : stack) {
          inCycle |= on.func == callee;
          if (inCycle) cycle += "@" + on.func.getSymName().str() + " -> ";
        }
        return call.emitError() << "recursive call (" << cycle << "@" << callee.getSymName()
                                << "): a recursive function cannot be inlined for partitioning";
      }
      if (seen == State::kDone) continue;
      seen = State::kOnPath;
      stack.push_back({callee, callsOf(callee)});
    }
  }
  return mlir::success();
}

}  // namespace

mlir::LogicalResult inlineCalls(mlir::ModuleOp module) {
  mlir::SymbolTable symbols(module);
  llvm::SmallVector<mlir::func::FuncOp> order;
  if (mlir::failed(orderCallees(module, symbols, order))) return mlir::failure();
  bool anyCall = false;
  // Callees first: when a call is inlined its callee holds no call any more, so one pass
  // does it all, in time proportional to what is cloned (a chain of calls is linear).
  for (mlir::func::FuncOp func : order) {
    llvm::SmallVector<mlir::func::CallOp> calls;
    func.walk([&](mlir::func::CallOp call) { calls.push_back(call); });
    for (mlir::func::CallOp call : calls) {
      auto callee = symbols.lookup<mlir::func::FuncOp>(call.getCallee());
      if (!callee || callee.isDeclaration()) continue;
      anyCall = true;
      if (callee.getBody().hasOneBlock() &&
          llvm::isa<mlir::func::ReturnOp>(callee.getBody().front().getTerminator())) {
        cloneInPlace(call, callee);
      } else {
        ensureFuncInliner(module.getContext());
        mlir::InlinerInterface interface(module.getContext());
        if (mlir::failed(mlir::inlineCall(interface, call, callee, &callee.getBody(),
                                          /*shouldCloneInlinedRegion=*/true))) {
          return call.emitError() << "cannot inline the call to @" << callee.getSymName();
        }
      }
      call.erase();
    }
  }
  if (!anyCall) return mlir::success();
  // Private functions nothing names any more go; one walk finds every name still used
  // (asking for each function would walk the module once per function).
  llvm::DenseSet<mlir::StringAttr> used;
  if (std::optional<mlir::SymbolTable::UseRange> uses = mlir::SymbolTable::getSymbolUses(module)) {
    for (const mlir::SymbolTable::SymbolUse& use : *uses) {
      used.insert(use.getSymbolRef().getRootReference());
    }
  } else {
    return mlir::success();  // a use that cannot be read: keep every function
  }
  for (auto func : llvm::to_vector(module.getOps<mlir::func::FuncOp>())) {
    if (func.isPrivate() && !used.contains(func.getSymNameAttr())) func.erase();
  }
  return mlir::success();
}

}  // namespace tessel::ir
