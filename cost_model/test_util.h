// Helpers for the cost model's tests: parse a program and find an op or function in it.
#ifndef TESSEL_COST_MODEL_TEST_UTIL_H_
#define TESSEL_COST_MODEL_TEST_UTIL_H_

#include <string>

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::cost_model::test {

// Parses `text`; fails the test (and returns null) if it does not parse.
inline mlir::OwningOpRef<mlir::ModuleOp> Parse(const std::string& text,
                                               mlir::MLIRContext& context) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(text, "test.mlir", context);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return nullptr;
  return std::move(*module);
}

// The first op named `name` ("hlo.dot_general") in `module`, or null.
inline mlir::Operation* FindOp(mlir::ModuleOp module, const std::string& name) {
  mlir::Operation* found = nullptr;
  module.walk([&](mlir::Operation* op) {
    if (op->getName().getStringRef() == name) {
      found = op;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

inline mlir::func::FuncOp FindFunc(mlir::ModuleOp module, const std::string& name) {
  return module.lookupSymbol<mlir::func::FuncOp>(name);
}

}  // namespace tessel::cost_model::test

#endif  // TESSEL_COST_MODEL_TEST_UTIL_H_
