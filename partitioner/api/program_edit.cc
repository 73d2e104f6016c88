// Program: the parameters' source names, a copy with new boundary shardings, and export to
// XLA HLO text.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/api/program.h"
#include "partitioner/api/program_mlir.h"
#include "partitioner/hlo_text/hlo_export.h"
#include "partitioner/ir/parse_module.h"
#include "support/status_macros.h"

namespace tessel {
namespace {

mlir::func::FuncOp EntryOf(const Program& program) {
  return GetMlirModule(program).lookupSymbol<mlir::func::FuncOp>(
      api_internal::ToStringRef(program.entry_function()));
}

// Declares `mesh` in `module` unless it is there; fails if a mesh of that name differs.
absl::Status DeclareMesh(mlir::ModuleOp module, const Mesh& mesh) {
  mlir::MLIRContext* context = module.getContext();
  ir::MeshAttr wanted = api_internal::ToMeshAttr(mesh, context);
  if (auto declared =
          module.lookupSymbol<ir::MeshOp>(api_internal::ToStringRef(mesh.name()))) {
    if (declared.getMesh() == wanted) return absl::OkStatus();
    absl::StatusOr<Mesh> existing = api_internal::FromMeshAttr(mesh.name(), declared.getMesh());
    return absl::InvalidArgumentError(absl::StrCat(
        "the program declares ", existing.ok() ? existing->ToString() : mesh.name(),
        " and the shardings use ", mesh.ToString(),
        ": give the mesh another name"));
  }
  mlir::OpBuilder builder(context);
  auto op = builder.create<ir::MeshOp>(module.getLoc(), mesh.name(), wanted);
  mlir::SymbolTable(module).insert(op, module.getBody()->begin());
  return absl::OkStatus();
}

// Checks each given sharding against `types` and declares its mesh.
absl::Status CheckShardings(mlir::ModuleOp module,
                            const std::vector<std::optional<Sharding>>& shardings,
                            const std::vector<TensorType>& types, absl::string_view what) {
  if (shardings.size() > types.size()) {
    return absl::InvalidArgumentError(absl::StrCat(shardings.size(), " ", what,
                                                   " shardings for ", types.size(), " ", what,
                                                   "s"));
  }
  for (size_t i = 0; i < shardings.size(); ++i) {
    if (!shardings[i]) continue;
    if (absl::Status fits = shardings[i]->CheckFits(types[i]); !fits.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(what, " ", i, ": ", fits.message()));
    }
    TESSEL_RETURN_IF_ERROR(DeclareMesh(module, shardings[i]->mesh()));
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> Program::parameter_names() const {
  std::vector<std::string> names;
  for (mlir::BlockArgument arg : EntryOf(*this).getArguments()) {
    auto name = arg.getLoc()->findInstanceOf<mlir::NameLoc>();
    names.push_back(name ? name.getName().str() : "");
  }
  return names;
}

absl::StatusOr<Program> Program::WithShardings(
    const std::vector<std::optional<Sharding>>& parameters,
    const std::vector<std::optional<Sharding>>& results) const {
  if (is_partitioned()) {
    return absl::FailedPreconditionError("the program is partitioned already");
  }
  // A Program owns its context: the copy is printed with its locations and parsed again.
  std::string text;
  llvm::raw_string_ostream os(text);
  GetMlirModule(*this)->print(os, mlir::OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  auto context = std::make_unique<mlir::MLIRContext>();
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          ParseModule(os.str(), "program.mlir", *context));
  TESSEL_RETURN_IF_ERROR(CheckShardings(*module, parameters, parameter_types(), "parameter"));
  TESSEL_RETURN_IF_ERROR(CheckShardings(*module, results, result_types(), "result"));
  auto entry = module->lookupSymbol<mlir::func::FuncOp>(api_internal::ToStringRef(entry_function()));
  auto key = ir::TesselDialect::kShardingAttrName;
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (parameters[i]) {
      entry.setArgAttr(i, key, api_internal::ToShardingAttr(*parameters[i], context.get()));
    }
  }
  for (size_t i = 0; i < results.size(); ++i) {
    if (results[i]) {
      entry.setResultAttr(i, key, api_internal::ToShardingAttr(*results[i], context.get()));
    }
  }
  return ProgramFromMlir(std::move(context), std::move(module));
}

absl::StatusOr<std::string> Program::ToHloText() const {
  return hlo_text::ExportHloTextToString(GetMlirModule(*this));
}

}  // namespace tessel
