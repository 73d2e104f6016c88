// ir::verifyTree against mlir::verify: the same verdict and the same first diagnostic, on
// valid programs and on programs broken at each level the verifier looks at.
#include "partitioner/ir/verify_tree.h"

#include <string>

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {
namespace {

struct Verdict {
  bool ok;
  std::string diagnostics;
};

// Parses `text` without verifying it, then verifies it with `verifier`.
template <typename Verifier>
Verdict verifyWith(const std::string& text, Verifier verifier) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::func::FuncDialect, hlo::HloDialect, TesselDialect>();
  context.printOpOnDiagnostic(false);
  Verdict verdict;
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& diagnostic) {
    verdict.diagnostics += diagnostic.str() + "\n";
    return mlir::success();
  });
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  mlir::OwningOpRef<mlir::ModuleOp> module = mlir::parseSourceString<mlir::ModuleOp>(text, config);
  EXPECT_TRUE(module) << "does not parse: " << verdict.diagnostics;
  if (!module) return {false, verdict.diagnostics};
  verdict.ok = mlir::succeeded(verifier(module->getOperation()));
  return verdict;
}

void expectSameAsMlir(const std::string& text, bool valid) {
  Verdict mlirVerdict = verifyWith(text, [](mlir::Operation* op) { return mlir::verify(op); });
  Verdict ours = verifyWith(text, [](mlir::Operation* op) { return verifyTree(op); });
  EXPECT_EQ(mlirVerdict.ok, valid) << mlirVerdict.diagnostics;
  EXPECT_EQ(ours.ok, mlirVerdict.ok);
  EXPECT_EQ(ours.diagnostics, mlirVerdict.diagnostics);
}

// A function whose result comes from a loop with `body` as its do-region; `after` goes
// between the loop and the return.
std::string loopProgram(const std::string& body, const std::string& after = "") {
  return R"(
    func.func @main(%a: tensor<8x4xf32>, %init: tensor<i32>) -> tensor<8x4xf32> {
      %r:2 = hlo.while(%i = %init, %v = %a) : tensor<i32>, tensor<8x4xf32>
      cond {
        %t = hlo.constant dense<true> : tensor<i1>
        hlo.return %t : tensor<i1>
      } do {
)" + body + R"(
      }
)" + after + R"(
      return %r#1 : tensor<8x4xf32>
    })";
}

TEST(VerifyTreeTest, AcceptsValidProgramsWithNestedRegions) {
  expectSameAsMlir(loopProgram(R"(
        %e = hlo.exp %v : tensor<8x4xf32>
        hlo.return %i, %e : tensor<i32>, tensor<8x4xf32>)"),
                   true);
}

TEST(VerifyTreeTest, ReportsAnOpsInvariants) {
  expectSameAsMlir(R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
      %0 = hlo.transpose %x, permutation = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    })",
                   false);
}

TEST(VerifyTreeTest, ReportsAnOpInsideALoopBody) {
  expectSameAsMlir(loopProgram(R"(
        %e = hlo.transpose %v, permutation = [0, 0] : (tensor<8x4xf32>) -> tensor<8x4xf32>
        hlo.return %i, %e : tensor<i32>, tensor<8x4xf32>)"),
                   false);
}

TEST(VerifyTreeTest, ReportsAUseBeforeItsDefinition) {
  expectSameAsMlir(R"(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = hlo.add %1, %1 : tensor<4xf32>
      %1 = hlo.exp %x : tensor<4xf32>
      return %0 : tensor<4xf32>
    })",
                   false);
}

TEST(VerifyTreeTest, ReportsALoopBodyUsingAValueDefinedAfterTheLoop) {
  expectSameAsMlir(loopProgram(R"(
        hlo.return %i, %late : tensor<i32>, tensor<8x4xf32>)",
                               "      %late = hlo.exp %a : tensor<8x4xf32>"),
                   false);
}

TEST(VerifyTreeTest, ReportsABlockWithoutTerminator) {
  expectSameAsMlir(R"(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = hlo.exp %x : tensor<4xf32>
    })",
                   false);
}

TEST(VerifyTreeTest, ReportsAFunctionReturningTheWrongType) {
  expectSameAsMlir(R"(
    func.func @main(%x: tensor<4xf32>) -> tensor<8xf32> {
      return %x : tensor<4xf32>
    })",
                   false);
}

TEST(VerifyTreeTest, ReportsABadDialectAttributeOnAnOp) {
  expectSameAsMlir(R"(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = hlo.exp %x {tessel.sharding = 5 : i64} : tensor<4xf32>
      return %0 : tensor<4xf32>
    })",
                   false);
}

TEST(VerifyTreeTest, ReportsAnErrorInASecondFunction) {
  expectSameAsMlir(R"(
    func.func @ok(%x: tensor<4xf32>) -> tensor<4xf32> {
      return %x : tensor<4xf32>
    }
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
      %0 = hlo.transpose %x, permutation = [1, 1] : (tensor<2x3xf32>) -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    })",
                   false);
}

}  // namespace
}  // namespace tessel::ir
