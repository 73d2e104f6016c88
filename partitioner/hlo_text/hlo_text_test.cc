// Tests of the Status-returning entry points of HLO text import and export.
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "support/status_matchers.h"

namespace tessel::hlo_text {
namespace {

using ::tessel::testing::IsOk;
using ::tessel::testing::StatusIs;

constexpr char kProgram[] = R"(HloModule m
ENTRY main {
  x = f32[4]{0} parameter(0), sharding={replicated}
  ROOT y = f32[4]{0} negate(x)
}
)";

TEST(HloTextTest, ImportsExportsAndImportsAgainToTheSameModule) {
  mlir::MLIRContext context;
  auto module = ImportHloTextToModule(kProgram, "m.hlo", context);
  ASSERT_THAT(module.status(), IsOk());
  absl::StatusOr<std::string> text = ExportHloTextToString(**module);
  ASSERT_THAT(text.status(), IsOk());
  // The parameter's sharding is printed back verbatim.
  EXPECT_NE(text->find("parameter(0), sharding={replicated}"), std::string::npos) << *text;
  auto again = ImportHloTextToModule(*text, "again.hlo", context);
  ASSERT_THAT(again.status(), IsOk());
  std::string first, second;
  llvm::raw_string_ostream(first) << **module;
  llvm::raw_string_ostream(second) << **again;
  EXPECT_EQ(first, second);
}

TEST(HloTextTest, ImportErrorCarriesFileLineAndColumn) {
  mlir::MLIRContext context;
  auto module = ImportHloTextToModule("HloModule m\nENTRY main {\n  ROOT x = f32[] fft()\n}\n",
                                      "bad.hlo", context);
  EXPECT_THAT(module.status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                        "bad.hlo:3:18: error: opcode 'fft' is not supported"));
}

// docs/ops.md lists every XLA opcode, marked imported (✓) or not (—): the importer must
// read exactly the ones marked, and refuse the others with a located error naming them.
TEST(HloTextTest, OpcodeTableOfDocsMatchesTheImporter) {
  std::ifstream file("docs/ops.md");
  ASSERT_TRUE(file) << "docs/ops.md is not among the test's data";
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  const size_t section = doc.find("## XLA opcodes");
  ASSERT_NE(section, std::string::npos);
  std::set<std::string> marked, listed;
  const std::regex row(R"(\| `([a-z0-9-]+)` \| (✓|—) \|)");
  for (std::sregex_iterator it(doc.begin() + section, doc.end(), row), end; it != end; ++it) {
    listed.insert((*it)[1]);
    if ((*it)[2] == "✓") marked.insert((*it)[1]);
  }
  EXPECT_GT(listed.size(), 130u);
  const std::vector<std::string> imported = ImportedHloOpcodes();
  EXPECT_EQ(marked, std::set<std::string>(imported.begin(), imported.end()));
  for (const std::string& opcode : listed) {
    if (marked.count(opcode)) continue;
    mlir::MLIRContext context;
    auto module = ImportHloTextToModule(
        "HloModule m\nENTRY main {\n  x = f32[4] parameter(0)\n  ROOT y = f32[4] " + opcode +
            "(x)\n}\n",
        "unsupported.hlo", context);
    EXPECT_THAT(module.status(),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         "unsupported.hlo:4:19: error: opcode '" + opcode + "' is not supported"))
        << opcode;
  }
}

TEST(HloTextTest, EmptyInputIsAnError) {
  mlir::MLIRContext context;
  auto module = ImportHloTextToModule("", "empty.hlo", context);
  EXPECT_THAT(module.status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "expected 'HloModule' header"));
}

TEST(HloTextTest, ExportWithoutEntryFunctionFails) {
  mlir::MLIRContext context;
  auto module = ImportHloTextToModule(kProgram, "m.hlo", context);
  ASSERT_THAT(module.status(), IsOk());
  // A private function that is not @main is not an entry.
  (*module)->walk([](mlir::func::FuncOp func) {
    func.setSymName("helper");
    func.setPrivate();
  });
  EXPECT_THAT(ExportHloTextToString(**module).status(),
              StatusIs(absl::StatusCode::kInvalidArgument, "no entry function to export"));
}

}  // namespace
}  // namespace tessel::hlo_text
