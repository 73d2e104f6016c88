// Recovering the SSA names of a program's text (see source_names.h): the text is parsed
// again with MLIR's parser state, which records where each op and each value was defined;
// and attaching them to a module as name locations.
#include "partitioner/api/source_names.h"

#include <algorithm>
#include <memory>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Block.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Operation.h"
#include "partitioner/hlo_text/hlo_parser.h"
#include "partitioner/ir/parse_module.h"

namespace tessel {
namespace {

std::string TextOf(llvm::SMRange range) {
  return std::string(range.Start.getPointer(), range.End.getPointer());
}

}  // namespace

std::optional<SourcePosition> PositionOf(mlir::Location loc) {
  auto file_loc = loc->findInstanceOf<mlir::FileLineColLoc>();
  if (!file_loc) return std::nullopt;
  return SourcePosition{file_loc.getLine(), file_loc.getColumn()};
}

SourceNames ReadSourceNames(absl::string_view text, absl::string_view buffer_name) {
  SourceNames names;
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  mlir::MLIRContext context(registry);
  // The program parsed once already; errors here would only repeat the loader's.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  llvm::SourceMgr source_mgr;
  source_mgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(llvm::StringRef(text.data(), text.size()),
                                           llvm::StringRef(buffer_name.data(), buffer_name.size())),
      llvm::SMLoc());
  mlir::Block block;
  mlir::AsmParserState state;
  mlir::ParserConfig config(&context, /*verifyAfterParse=*/false);
  if (mlir::failed(mlir::parseAsmSourceFile(source_mgr, &block, config, &state))) return names;

  for (const mlir::AsmParserState::OperationDefinition& def : state.getOpDefs()) {
    std::optional<SourcePosition> position = PositionOf(def.op->getLoc());
    if (!position) continue;
    const unsigned num_results = def.op->getNumResults();
    if (num_results > 0 && !def.resultGroups.empty()) {
      std::vector<std::string>& result_names = names.results[*position];
      for (size_t g = 0; g < def.resultGroups.size(); ++g) {
        const unsigned start = def.resultGroups[g].startIndex;
        const unsigned end =
            g + 1 < def.resultGroups.size() ? def.resultGroups[g + 1].startIndex : num_results;
        const std::string name = TextOf(def.resultGroups[g].definition.loc);
        for (unsigned k = start; k < end; ++k) {
          result_names.push_back(end - start == 1 ? name : absl::StrCat(name, "#", k - start));
        }
      }
    }
    if (def.op->getNumRegions() == 0 || def.op->getRegion(0).empty()) continue;
    const mlir::AsmParserState::BlockDefinition* entry =
        state.getBlockDef(&def.op->getRegion(0).front());
    if (entry == nullptr || entry->arguments.empty()) continue;
    std::vector<std::string>& argument_names = names.arguments[*position];
    for (const mlir::AsmParserState::SMDefinition& argument : entry->arguments) {
      argument_names.push_back(TextOf(argument.loc));
    }
  }
  return names;
}

SourceNames ReadHloSourceNames(absl::string_view text, absl::string_view buffer_name) {
  SourceNames names;
  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  hlo_text::ParsedModule parsed;
  if (mlir::failed(hlo_text::ParseHloText(llvm::StringRef(text.data(), text.size()),
                                          llvm::StringRef(buffer_name.data(), buffer_name.size()),
                                          &context, parsed))) {
    return names;
  }
  for (const hlo_text::Computation& computation : parsed.computations) {
    for (const hlo_text::Instruction& instruction : computation.instructions) {
      SourcePosition position{static_cast<unsigned>(instruction.pos.line),
                              static_cast<unsigned>(instruction.pos.col)};
      names.results[position] = {instruction.name};
    }
  }
  return names;
}

namespace {

// "%h" gives "h" and "%q#1" gives "q"; names MLIR makes up (%0, %arg2) give "".
std::string MeaningfulName(absl::string_view name) {
  absl::ConsumePrefix(&name, "%");
  name = name.substr(0, name.find('#'));
  absl::string_view rest = name;
  if (absl::ConsumePrefix(&rest, "arg") && !rest.empty() &&
      std::all_of(rest.begin(), rest.end(), absl::ascii_isdigit)) {
    return "";
  }
  if (std::all_of(name.begin(), name.end(), absl::ascii_isdigit)) return "";
  return std::string(name);
}

mlir::Location WithName(mlir::Location loc, const std::string& name) {
  if (name.empty() || loc->findInstanceOf<mlir::NameLoc>()) return loc;
  return mlir::NameLoc::get(mlir::StringAttr::get(loc.getContext(), name), loc);
}

const std::vector<std::string>* NamesAt(
    const std::map<SourcePosition, std::vector<std::string>>& names,
    std::optional<SourcePosition> position) {
  if (!position) return nullptr;
  auto found = names.find(*position);
  return found == names.end() || found->second.empty() ? nullptr : &found->second;
}

}  // namespace

void AttachSourceNames(mlir::ModuleOp module, const SourceNames& names) {
  module.walk([&](mlir::Operation* op) {
    if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
      if (function.isDeclaration()) return;
      const std::vector<std::string>* arguments =
          NamesAt(names.arguments, PositionOf(function.getLoc()));
      for (mlir::BlockArgument argument : function.getArguments()) {
        std::string name;
        if (arguments != nullptr && arguments->size() == function.getNumArguments()) {
          name = MeaningfulName((*arguments)[argument.getArgNumber()]);
        } else if (const std::vector<std::string>* parameter =
                       NamesAt(names.results, PositionOf(argument.getLoc()))) {
          // An XLA HLO parameter: the argument sits where its instruction does.
          name = MeaningfulName(parameter->front());
        }
        argument.setLoc(WithName(argument.getLoc(), name));
      }
      return;
    }
    if (op->getNumResults() == 0) return;
    if (const std::vector<std::string>* results = NamesAt(names.results, PositionOf(op->getLoc()))) {
      op->setLoc(WithName(op->getLoc(), MeaningfulName(results->front())));
    }
  });
}

}  // namespace tessel
