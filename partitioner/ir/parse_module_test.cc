// Tests of parsing Tessel programs into modules with Status-reported diagnostics.
#include "partitioner/ir/parse_module.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

TEST(ParseModuleTest, ParsesAndVerifiesAProgram) {
  mlir::MLIRContext context;
  auto module = ParseModule(R"(
    func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
      %0 = hlo.add %x, %x : tensor<4xf32>
      return %0 : tensor<4xf32>
    })",
                            "add.mlir", context);
  ASSERT_THAT(module, IsOk());
  EXPECT_TRUE((*module)->lookupSymbol("main"));
}

TEST(ParseModuleTest, ReportsSyntaxErrorsWithTheirLocation) {
  mlir::MLIRContext context;
  auto module = ParseModule("func.func @main(%x: tensor<4xf32>) {\n  %0 = hlo.add %x,\n}",
                            "broken.mlir", context);
  EXPECT_THAT(module, StatusIs(absl::StatusCode::kInvalidArgument, "broken.mlir:2:19: error: expected SSA operand"));
}

TEST(ParseModuleTest, ReportsVerifierErrors) {
  mlir::MLIRContext context;
  // The permutation repeats dimension 0.
  auto module = ParseModule(R"(
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
      %0 = hlo.transpose %x, permutation = [0, 0] : (tensor<2x3xf32>) -> tensor<2x2xf32>
      return %0 : tensor<2x2xf32>
    })",
                            "verify.mlir", context);
  EXPECT_THAT(module, StatusIs(absl::StatusCode::kInvalidArgument, "appears twice"));
}

// Nesting deep enough to overflow the stack of MLIR's recursive parser is refused first.
TEST(ParseModuleTest, RefusesBracketsNestedTooDeeply) {
  mlir::MLIRContext context;
  const int levels = 30000;
  std::string type = "f32";
  for (int i = 0; i < levels; ++i) type = "tuple<" + type + ">";
  auto module = ParseModule("func.func @main(%x: " + type + ") {\n  return\n}\n", "deep.mlir",
                            context);
  // The '(' of @main( is the first level; the 256th "tuple<" ends at column 20 + 256 * 6.
  EXPECT_THAT(module, StatusIs(absl::StatusCode::kInvalidArgument,
                               "deep.mlir:1:1556: error: brackets nested deeper than 256 levels"));
}

// Brackets in strings and comments, and the '>' of "->", do not count.
TEST(ParseModuleTest, NestingIgnoresStringsCommentsAndArrows) {
  mlir::MLIRContext context;
  const std::string brackets(1000, '[');
  auto module = ParseModule("// " + brackets + "\nfunc.func @main(%x: tensor<4xf32>) -> tensor<4xf32>"
                            " attributes {note = \"" + brackets + "\"} {\n"
                            "  return %x : tensor<4xf32>\n}\n",
                            "strings.mlir", context);
  EXPECT_THAT(module, IsOk());
}

TEST(ParseModuleTest, MissingFileIsNotFound) {
  mlir::MLIRContext context;
  EXPECT_THAT(ParseModuleFile("/nonexistent/program.mlir", context),
              StatusIs(absl::StatusCode::kNotFound, "/nonexistent/program.mlir"));
}

}  // namespace
}  // namespace tessel
