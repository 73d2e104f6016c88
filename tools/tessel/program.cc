// Reading, format detection and function lookup for the programs `tessel` runs.
#include "tools/tessel/program.h"

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/Support/MemoryBuffer.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tensor_sizes.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "mlir/Dialect/Mesh/IR/MeshDialect.h"
#include "mlir/Pass/PassManager.h"
#include "partitioner/sharding/transforms/passes.h"
#include "partitioner/stablehlo/import.h"
#include "tools/tessel/pipeline.h"
#include "support/status_macros.h"

namespace tessel::cli {
namespace {

// The file's text, mapped rather than copied where the system allows: a program of a
// million instructions is about 70 MB.
absl::StatusOr<std::unique_ptr<llvm::MemoryBuffer>> ReadProgramText(absl::string_view path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      path == "-" ? llvm::MemoryBuffer::getSTDIN()
                  : llvm::MemoryBuffer::getFile(llvm::StringRef(path.data(), path.size()),
                                                /*IsText=*/true);
  if (!buffer) {
    return absl::NotFoundError(
        absl::StrCat("cannot read '", path, "': ", buffer.getError().message()));
  }
  return std::move(*buffer);
}

// Diagnostics end with a newline; the CLI adds its own.
absl::Status TrimmedError(const absl::Status& status) {
  return absl::Status(status.code(), absl::StripTrailingAsciiWhitespace(status.message()));
}

// Runs --tessel-import-mesh on modules that use upstream's `mesh` dialect.
absl::Status ImportMeshAnnotations(mlir::ModuleOp module) {
  bool any = false;
  module.walk([&](mlir::Operation* op) {
    if (llvm::isa<mlir::mesh::MeshDialect>(op->getDialect())) any = true;
  });
  if (!any) return absl::OkStatus();
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(module.getContext(), [&](mlir::Diagnostic& diagnostic) {
    if (diagnostic.getSeverity() != mlir::DiagnosticSeverity::Error) return mlir::success();
    absl::StrAppend(&errors, errors.empty() ? "" : "\n", FormatLocation(diagnostic.getLocation()),
                    ": error: ", diagnostic.str());
    return mlir::success();
  });
  mlir::PassManager pm(module.getContext());
  pm.addPass(sharding::createImportMeshPass());
  if (mlir::failed(pm.run(module))) {
    return absl::InvalidArgumentError(errors.empty() ? "mesh import failed" : errors);
  }
  return absl::OkStatus();
}

}  // namespace

ProgramFormat DetectProgramFormat(absl::string_view path, absl::string_view text) {
  auto mlir = [&]() {
    return stablehlo::LooksLikeStablehlo(text) ? ProgramFormat::kStablehlo : ProgramFormat::kMlir;
  };
  if (absl::EndsWith(path, ".mlir")) return mlir();
  if (absl::EndsWith(path, ".hlo")) return ProgramFormat::kHlo;
  while (true) {
    text = absl::StripLeadingAsciiWhitespace(text);
    if (!absl::StartsWith(text, "//")) break;
    size_t newline = text.find('\n');
    text = newline == absl::string_view::npos ? absl::string_view() : text.substr(newline + 1);
  }
  // The keyword must be a whole word: "HloModuleFoo" is no HLO header.
  if (absl::StartsWith(text, "HloModule") &&
      (text.size() == 9 || absl::ascii_isspace(static_cast<unsigned char>(text[9])))) {
    return ProgramFormat::kHlo;
  }
  return mlir();
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> LoadProgram(absl::string_view path,
                                                              mlir::MLIRContext& context,
                                                              ProgramFormat* format) {
  TESSEL_ASSIGN_OR_RETURN(std::unique_ptr<llvm::MemoryBuffer> buffer, ReadProgramText(path));
  absl::string_view text(buffer->getBufferStart(), buffer->getBufferSize());
  absl::string_view name = path == "-" ? "<stdin>" : path;
  const ProgramFormat detected = DetectProgramFormat(path, text);
  if (format) *format = detected;
  return ParseProgramText(text, name, detected, context);
}

absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> ParseProgramText(absl::string_view text,
                                                                   absl::string_view name,
                                                                   ProgramFormat format,
                                                                   mlir::MLIRContext& context) {
  // Upstream MLIR's `mesh` annotations are read as Tessel's, as `tessel-opt
  // --tessel-import-mesh` does.
  mlir::DialectRegistry registry;
  registry.insert<mlir::mesh::MeshDialect>();
  context.appendDialectRegistry(registry);
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      format == ProgramFormat::kHlo         ? hlo_text::ImportHloTextToModule(text, name, context)
      : format == ProgramFormat::kStablehlo ? stablehlo::ParseStablehloModule(text, name, context)
                                            : ParseModule(text, name, context);
  if (!module.ok()) return TrimmedError(module.status());
  if (format != ProgramFormat::kHlo) {
    absl::Status imported = ImportMeshAnnotations(**module);
    if (!imported.ok()) return TrimmedError(imported);
  }
  {
    // Shapes too large to exist would wrap to negative or zero sizes in every later stage.
    std::string errors;
    mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic& diagnostic) {
      absl::StrAppend(&errors, errors.empty() ? "" : "\n", FormatLocation(diagnostic.getLocation()),
                      ": error: ", diagnostic.str());
      return mlir::success();
    });
    if (mlir::failed(ir::verifyTensorSizes(**module))) {
      return absl::InvalidArgumentError(errors);
    }
  }
  if (format != ProgramFormat::kMlir) {
    // HLO import keeps GSPMD sharding text verbatim (so export can print it back), and so
    // does StableHLO import with `mhlo.sharding`; the partitioner needs it as meshes and
    // tessel shardings.
    absl::Status imported = ImportHloShardings(**module, std::cerr);
    if (!imported.ok()) return TrimmedError(imported);
  }
  return module;
}

absl::StatusOr<mlir::func::FuncOp> FindFunction(mlir::ModuleOp module, absl::string_view name,
                                                absl::string_view path) {
  auto function =
      module.lookupSymbol<mlir::func::FuncOp>(llvm::StringRef(name.data(), name.size()));
  if (function && !function.isDeclaration()) return function;
  if (function) {
    return absl::NotFoundError(
        absl::StrCat(path, ": function @", name, " is a declaration without a body"));
  }
  std::vector<std::string> names;
  for (auto candidate : module.getOps<mlir::func::FuncOp>()) {
    if (!candidate.isDeclaration())
      names.push_back(absl::StrCat("@", candidate.getSymName().str()));
  }
  return absl::NotFoundError(
      absl::StrCat(path, ": no function @", name,
                   names.empty() ? std::string(" (the module defines no functions)")
                                 : absl::StrCat(" (functions: ", absl::StrJoin(names, ", "), ")")));
}

bool LooksPartitioned(mlir::ModuleOp module) {
  if (module->hasAttr(ir::TesselDialect::kPerDeviceAttrName)) return true;
  if (module->hasAttr(ir::kPartitionedAttrName)) return true;
  bool found = false;
  module.walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
    if (llvm::isa<ir::ManualComputationOp>(op)) return mlir::WalkResult::skip();
    if (llvm::isa<ir::PartitionIdOp, ir::AllReduceOp, ir::AllGatherOp, ir::ReduceScatterOp,
                  ir::AllToAllOp, ir::CollectivePermuteOp>(op)) {
      found = true;
      return mlir::WalkResult::interrupt();
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

}  // namespace tessel::cli
