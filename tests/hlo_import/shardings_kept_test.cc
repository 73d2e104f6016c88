// Every sharding written in an HLO file under tests/ takes effect or is refused with an
// error: the importer carries each one onto an argument, a result, an op or a constraint at
// the instruction's line, and the sharding import then turns every carried string into a
// Tessel sharding. A sharding that vanished on the way (as one on a get-tuple-element once
// did) shows up here as a line missing from the output.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "partitioner/hlo_text/hlo_parser.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::hlo_text {
namespace {

namespace fs = std::filesystem;

constexpr llvm::StringLiteral kHloSharding = "tessel.hlo_sharding";

std::vector<fs::path> HloFilesUnder(const std::vector<std::string>& dirs) {
  const char* srcdir = std::getenv("TEST_SRCDIR");
  const char* workspace = std::getenv("TEST_WORKSPACE");
  const fs::path root = fs::path(srcdir ? srcdir : ".") / (workspace ? workspace : "tessel");
  std::vector<fs::path> files;
  for (const std::string& dir : dirs) {
    if (!fs::exists(root / dir)) continue;
    for (const auto& entry : fs::directory_iterator(root / dir)) {
      if (entry.path().extension() == ".hlo") files.push_back(entry.path());
    }
  }
  return files;
}

std::string ReadFile(const fs::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

// A shape that holds at least one array: a sharding on a token alone has nothing to split.
bool HasArray(const Shape& shape) { return shape.numLeaves() > 0; }

// The lines of the instructions that carry `sharding=` in computations the entry reaches
// (a computation nothing calls is not imported, as in XLA).
std::set<unsigned> ShardedLines(const ParsedModule& module) {
  std::set<std::string> reached;
  std::vector<const Computation*> stack;
  auto find = [&](llvm::StringRef name) -> const Computation* {
    for (const Computation& comp : module.computations) {
      if (comp.name == name) return &comp;
    }
    return nullptr;
  };
  stack.push_back(&module.computations[module.entryIndex]);
  reached.insert(stack.back()->name);
  while (!stack.empty()) {
    const Computation* comp = stack.back();
    stack.pop_back();
    for (const Instruction& inst : comp->instructions) {
      // A collective's reducer is read for its kind only (add, max, ...), never imported.
      const bool collective = llvm::StringRef(inst.opcode).starts_with("all-reduce") ||
                              llvm::StringRef(inst.opcode).starts_with("reduce-scatter");
      for (const AttrText& attr : inst.attrs) {
        if (collective && attr.name == "to_apply") continue;
        // Computation names appear as `to_apply=%add`, `calls=f`, `body=b`,
        // `branch_computations={a, b}`: take every identifier of the value that names one.
        llvm::StringRef value = attr.value;
        while (!value.empty()) {
          value = value.ltrim("{}, %");
          const size_t end = value.find_first_of("{}, %");
          llvm::StringRef word = value.take_front(end);
          value = value.drop_front(word.size());
          if (const Computation* callee = find(word)) {
            if (reached.insert(callee->name).second) stack.push_back(callee);
          }
          if (word.empty() && !value.empty()) value = value.drop_front();
        }
      }
    }
  }
  std::set<unsigned> lines;
  for (const Computation& comp : module.computations) {
    if (!reached.count(comp.name)) continue;
    for (const Instruction& inst : comp.instructions) {
      if (inst.peekAttr("sharding") && HasArray(inst.shape)) lines.insert(inst.pos.line);
    }
  }
  return lines;
}

unsigned LineOf(mlir::Location loc) {
  if (auto fileLoc = llvm::dyn_cast<mlir::FileLineColLoc>(loc)) return fileLoc.getLine();
  return 0;
}

// The lines whose sharding the imported module carries, and the number of carried strings.
std::set<unsigned> CarriedLines(mlir::ModuleOp module, int& strings) {
  std::set<unsigned> lines;
  strings = 0;
  module.walk([&](mlir::Operation* op) {
    if (op->getDiscardableAttr(kHloSharding)) {
      lines.insert(LineOf(op->getLoc()));
      ++strings;
    }
    auto function = llvm::dyn_cast<mlir::func::FuncOp>(op);
    if (!function || function.isExternal()) return;
    for (unsigned i = 0; i < function.getNumArguments(); ++i) {
      if (function.getArgAttr(i, kHloSharding)) {
        lines.insert(LineOf(function.getArgument(i).getLoc()));
        ++strings;
      }
    }
    mlir::Operation* terminator = function.getBody().back().getTerminator();
    for (unsigned i = 0; i < function.getNumResults(); ++i) {
      if (function.getResultAttr(i, kHloSharding)) {
        lines.insert(LineOf(terminator->getLoc()));
        ++strings;
      }
    }
  });
  return lines;
}

int CountLeftStrings(mlir::ModuleOp module) {
  int strings = 0;
  CarriedLines(module, strings);
  return strings;
}

std::string Join(const std::set<unsigned>& lines) {
  std::string text;
  for (unsigned line : lines) text += (text.empty() ? "" : ", ") + std::to_string(line);
  return text;
}

TEST(ShardingsKeptTest, EveryShardingInTheTestFilesTakesEffectOrIsRefused) {
  const std::vector<fs::path> files = HloFilesUnder(
      {"tests/corpus", "tests/lit/tools", "tests/lit/hlo_text", "tests/bad_inputs"});
  // The corpus alone has 150 files; finding few means the data deps broke.
  ASSERT_GE(files.size(), 200u);
  int filesWithShardings = 0, shardingsIn = 0, carried = 0, converted = 0, refused = 0;
  for (const fs::path& path : files) {
    SCOPED_TRACE(path.filename().string());
    const std::string text = ReadFile(path);
    mlir::MLIRContext context;
    // Refusals must be errors that say where: the file name and a line.
    std::string errors;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& diag) {
      if (diag.getSeverity() == mlir::DiagnosticSeverity::Error) {
        errors += LineOf(diag.getLocation()) > 0 ? "located: " : "unlocated: ";
        errors += diag.str() + "\n";
      }
      return mlir::success();
    });
    ParsedModule parsed;
    if (mlir::failed(ParseHloText(text, path.filename().string(), &context, parsed))) {
      EXPECT_NE(errors, "") << "parse failed without a message";
      continue;
    }
    const std::set<unsigned> in = ShardedLines(parsed);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        ImportHloText(text, path.filename().string(), &context);
    if (!module) {
      // Refused: a located error, never a silent failure.
      EXPECT_NE(errors, "");
      EXPECT_EQ(errors.find("unlocated"), std::string::npos) << errors;
      ++refused;
      continue;
    }
    if (in.empty()) continue;
    ++filesWithShardings;
    shardingsIn += static_cast<int>(in.size());
    int strings = 0;
    const std::set<unsigned> out = CarriedLines(*module, strings);
    carried += strings;
    std::set<unsigned> dropped, invented;
    for (unsigned line : in) {
      if (!out.count(line)) dropped.insert(line);
    }
    for (unsigned line : out) {
      if (!in.count(line)) invented.insert(line);
    }
    EXPECT_TRUE(dropped.empty()) << "shardings dropped at lines " << Join(dropped);
    EXPECT_TRUE(invented.empty()) << "shardings at lines without one: " << Join(invented);

    mlir::PassManager passes(&context);
    passes.addPass(sharding::createImportShardingGroupsPass());
    passes.addPass(sharding::createImportGspmdManualComputationsPass());
    passes.addPass(sharding::createImportHloShardingsPass());
    passes.addPass(sharding::createImportShardyManualComputationsPass());
    if (mlir::failed(passes.run(*module))) {
      EXPECT_NE(errors, "");
      ++refused;
      continue;
    }
    EXPECT_EQ(CountLeftStrings(*module), 0) << "sharding strings left unconverted";
    converted += strings;
  }
  // What the files hold, for the log: every carried string was converted or its file refused.
  std::cout << files.size() << " files, " << filesWithShardings << " with shardings: "
            << shardingsIn << " sharded instructions in, " << carried
            << " sharding strings carried, " << converted << " converted; " << refused
            << " files refused with an error\n";
  EXPECT_GE(shardingsIn, 500);
}

}  // namespace
}  // namespace tessel::hlo_text
