// Program: ownership of the MLIR context and module, loading (with the names the text gives
// values), printing and the signature.
#include "partitioner/api/program.h"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "partitioner/api/diagnostics.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/api/program_mlir.h"
#include "partitioner/api/source_names.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/verify_tree.h"
#include "partitioner/sharding/transforms/passes.h"
#include "partitioner/stablehlo/import.h"
#include "support/status_macros.h"

namespace tessel {

class Program::Impl {
 public:
  // The context is declared first so that it outlives the module.
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::string entry_function;
  std::vector<TensorType> parameter_types;
  std::vector<TensorType> result_types;
  std::vector<Mesh> meshes;
  // Read from kPartitionedAttrName; 0 when the program is not partitioned.
  int64_t num_partitions = 0;
  std::vector<TensorType> global_parameter_types;
  std::vector<TensorType> global_result_types;

  mlir::func::FuncOp Entry() const {
    mlir::ModuleOp owned = module.get();
    return owned.lookupSymbol<mlir::func::FuncOp>(entry_function);
  }

  // The sharding under `tessel.sharding` of `attrs` (an argument's or a result's), if any.
  absl::StatusOr<std::optional<Sharding>> ShardingOf(mlir::DictionaryAttr attrs) const {
    if (!attrs) return std::nullopt;
    auto attr = attrs.getAs<ir::ShardingAttr>(ir::TesselDialect::kShardingAttrName);
    if (!attr) return std::nullopt;
    for (const Mesh& mesh : meshes) {
      if (mesh.name() == attr.getMeshName().getValue()) {
        TESSEL_ASSIGN_OR_RETURN(Sharding sharding, api_internal::FromShardingAttr(attr, mesh));
        return sharding;
      }
    }
    // The verifier has checked that the mesh exists.
    return absl::InternalError(absl::StrCat("unknown mesh @", attr.getMeshName().getValue().str()));
  }
};

// Friend of Program: the seam through which program_mlir.h reaches the Impl.
class ProgramAccess {
 public:
  static mlir::ModuleOp Module(const Program& program) { return *program.impl_->module; }
  static absl::StatusOr<Program> FromMlir(std::unique_ptr<mlir::MLIRContext> context,
                                          mlir::OwningOpRef<mlir::ModuleOp> module);

 private:
  static absl::Status ReadPartitionedAttr(mlir::ModuleOp module, Program::Impl& impl);
};

namespace {

absl::StatusOr<mlir::func::FuncOp> FindEntry(mlir::ModuleOp module) {
  if (auto main = module.lookupSymbol<mlir::func::FuncOp>(
          api_internal::ToStringRef(Program::kEntryFunctionName))) {
    return main;
  }
  auto functions = module.getOps<mlir::func::FuncOp>();
  if (!functions.empty() && std::next(functions.begin()) == functions.end()) {
    return *functions.begin();
  }
  return absl::InvalidArgumentError(
      "program has no function @main and not exactly one function to use instead");
}

absl::StatusOr<std::vector<TensorType>> FromMlirTypes(mlir::TypeRange types,
                                                      absl::string_view what) {
  std::vector<TensorType> result;
  for (auto [index, type] : llvm::enumerate(types)) {
    absl::StatusOr<TensorType> converted = api_internal::FromMlirType(type);
    if (!converted.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " ", index, " of the entry function: ", converted.status().message()));
    }
    result.push_back(*std::move(converted));
  }
  return result;
}

}  // namespace

Program::Program(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Program::Program(Program&&) noexcept = default;
Program& Program::operator=(Program&&) noexcept = default;
Program::~Program() = default;

namespace {

absl::StatusOr<Program> ImportHloShardingsInto(std::unique_ptr<mlir::MLIRContext> context,
                                               mlir::OwningOpRef<mlir::ModuleOp> module,
                                               absl::string_view name);

// StableHLO + Shardy text is imported (its GSPMD strings like HLO text's); other MLIR parsed.
absl::StatusOr<Program> ParseMlir(absl::string_view text, absl::string_view name) {
  auto context = std::make_unique<mlir::MLIRContext>();
  if (stablehlo::LooksLikeStablehlo(text)) {
    TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                            stablehlo::ParseStablehloModule(text, name, *context));
    // `mhlo.sharding` strings wait, as in HLO text, for the HLO sharding import.
    if (ir::HasGspmdShardingStrings(*module)) {
      return ImportHloShardingsInto(std::move(context), std::move(module), name);
    }
    return ProgramFromMlir(std::move(context), std::move(module));
  }
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          ParseModule(text, name, *context));
  AttachSourceNames(*module, ReadSourceNames(text, name));
  return ProgramFromMlir(std::move(context), std::move(module));
}

}  // namespace

absl::StatusOr<Program> Program::FromMlirText(absl::string_view text) {
  return ParseMlir(text, "program.mlir");
}

absl::StatusOr<Program> Program::FromMlirFile(absl::string_view path) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(llvm::StringRef(path.data(), path.size()));
  if (!buffer) {
    return absl::NotFoundError(
        absl::StrCat("cannot read ", path, ": ", buffer.getError().message()));
  }
  const llvm::StringRef text = (*buffer)->getBuffer();
  return ParseMlir(absl::string_view(text.data(), text.size()), path);
}

namespace {

// Imports HLO text named `name` and turns its sharding strings into Tessel shardings.
absl::StatusOr<Program> ImportHlo(absl::string_view text, absl::string_view name) {
  auto context = std::make_unique<mlir::MLIRContext>();
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          hlo_text::ImportHloTextToModule(text, name, *context));
  AttachSourceNames(*module, ReadHloSourceNames(text, name));
  return ImportHloShardingsInto(std::move(context), std::move(module), name);
}

absl::StatusOr<Program> ImportHloShardingsInto(std::unique_ptr<mlir::MLIRContext> context,
                                               mlir::OwningOpRef<mlir::ModuleOp> module,
                                               absl::string_view name) {
  api_internal::DiagnosticCollector diagnostics(context.get());
  mlir::PassManager passes(context.get());
  // In the order `tessel` runs them: GSPMD's shard_maps before the sharding import (which
  // refuses their manual shardings), Shardy's after it (their body names its mesh). Each
  // does nothing on a module without its form of shard_map.
  passes.addPass(sharding::createImportShardingGroupsPass());
  passes.addPass(sharding::createImportGspmdManualComputationsPass());
  passes.addPass(sharding::createImportHloShardingsPass());
  passes.addPass(sharding::createImportShardyManualComputationsPass());
  if (mlir::failed(passes.run(*module))) {
    return absl::InvalidArgumentError(
        absl::StrCat("the shardings of ", name, " do not convert: ", diagnostics.Errors()));
  }
  return ProgramFromMlir(std::move(context), std::move(module));
}

}  // namespace

absl::StatusOr<Program> Program::FromHloText(absl::string_view text) {
  return ImportHlo(text, "program.hlo");
}

absl::StatusOr<Program> Program::FromHloFile(absl::string_view path) {
  std::ifstream file{std::string(path)};
  if (!file) return absl::NotFoundError(absl::StrCat("cannot read '", path, "'"));
  std::stringstream text;
  text << file.rdbuf();
  return ImportHlo(text.str(), path);
}

std::string Program::ToMlirText() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  impl_->module->print(os, mlir::OpPrintingFlags());
  return os.str();
}

std::string Program::ToMlirTextWithLocations() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  impl_->module->print(os, mlir::OpPrintingFlags().enableDebugInfo(/*enable=*/true,
                                                                     /*prettyForm=*/false));
  return os.str();
}

const std::string& Program::entry_function() const { return impl_->entry_function; }
const std::vector<TensorType>& Program::parameter_types() const { return impl_->parameter_types; }
const std::vector<TensorType>& Program::result_types() const { return impl_->result_types; }
const std::vector<Mesh>& Program::meshes() const { return impl_->meshes; }
bool Program::is_partitioned() const { return impl_->num_partitions > 0; }
int64_t Program::num_partitions() const { return std::max<int64_t>(impl_->num_partitions, 1); }
const std::vector<TensorType>& Program::global_parameter_types() const {
  return impl_->global_parameter_types;
}
const std::vector<TensorType>& Program::global_result_types() const {
  return impl_->global_result_types;
}

absl::StatusOr<std::vector<std::optional<Sharding>>> Program::parameter_shardings() const {
  mlir::func::FuncOp entry = impl_->Entry();
  std::vector<std::optional<Sharding>> shardings;
  for (unsigned i = 0; i < entry.getNumArguments(); ++i) {
    TESSEL_ASSIGN_OR_RETURN(std::optional<Sharding> sharding,
                            impl_->ShardingOf(entry.getArgAttrDict(i)));
    shardings.push_back(std::move(sharding));
  }
  return shardings;
}

absl::StatusOr<std::vector<std::optional<Sharding>>> Program::result_shardings() const {
  mlir::func::FuncOp entry = impl_->Entry();
  std::vector<std::optional<Sharding>> shardings;
  for (unsigned i = 0; i < entry.getNumResults(); ++i) {
    TESSEL_ASSIGN_OR_RETURN(std::optional<Sharding> sharding,
                            impl_->ShardingOf(entry.getResultAttrDict(i)));
    shardings.push_back(std::move(sharding));
  }
  return shardings;
}

// Reads the kPartitionedAttrName attribute of `module`, if any, into `impl`.
absl::Status ProgramAccess::ReadPartitionedAttr(mlir::ModuleOp module, Program::Impl& impl) {
  static_assert(Program::kPartitionedAttrName == ir::kPartitionedAttrName.data(),
                "the API names the mark the IR writes");
  TESSEL_ASSIGN_OR_RETURN(
      std::optional<ir::PartitionedSignature> mark,
      ir::ReadPartitionedMark(module, impl.parameter_types.size(), impl.result_types.size()));
  if (!mark) {
    impl.global_parameter_types = impl.parameter_types;
    impl.global_result_types = impl.result_types;
    return absl::OkStatus();
  }
  impl.num_partitions = mark->num_partitions;
  for (auto [mlir_types, types, key] :
       {std::make_tuple(&mark->parameter_types, &impl.global_parameter_types, "parameter_types"),
        std::make_tuple(&mark->result_types, &impl.global_result_types, "result_types")}) {
    for (mlir::Type type : *mlir_types) {
      absl::StatusOr<TensorType> converted = api_internal::FromMlirType(type);
      if (!converted.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("module attribute ",
                                                       Program::kPartitionedAttrName, " ", key,
                                                       ": ", converted.status().message()));
      }
      types->push_back(*std::move(converted));
    }
  }
  return absl::OkStatus();
}

mlir::ModuleOp GetMlirModule(const Program& program) { return ProgramAccess::Module(program); }

absl::StatusOr<Program> ProgramFromMlir(std::unique_ptr<mlir::MLIRContext> context,
                                        mlir::OwningOpRef<mlir::ModuleOp> module) {
  return ProgramAccess::FromMlir(std::move(context), std::move(module));
}

absl::StatusOr<Program> ProgramAccess::FromMlir(std::unique_ptr<mlir::MLIRContext> context,
                                                mlir::OwningOpRef<mlir::ModuleOp> module) {
  // The Impl owns both from here on, so every return destroys the module before its context.
  auto impl = std::make_unique<Program::Impl>();
  impl->context = std::move(context);
  impl->module = std::move(module);
  {
    api_internal::DiagnosticCollector diagnostics(impl->context.get());
    if (mlir::failed(ir::verifyTree(*impl->module))) {
      return absl::InvalidArgumentError(
          absl::StrCat("program does not verify: ", diagnostics.Errors()));
    }
  }
  TESSEL_ASSIGN_OR_RETURN(mlir::func::FuncOp entry, FindEntry(*impl->module));
  impl->entry_function = entry.getSymName().str();
  TESSEL_ASSIGN_OR_RETURN(impl->parameter_types,
                          FromMlirTypes(entry.getArgumentTypes(), "parameter"));
  TESSEL_ASSIGN_OR_RETURN(impl->result_types, FromMlirTypes(entry.getResultTypes(), "result"));
  for (ir::MeshOp mesh : impl->module->getOps<ir::MeshOp>()) {
    TESSEL_ASSIGN_OR_RETURN(Mesh converted,
                            api_internal::FromMeshAttr(mesh.getSymName().str(), mesh.getMesh()));
    impl->meshes.push_back(std::move(converted));
  }
  TESSEL_RETURN_IF_ERROR(ReadPartitionedAttr(*impl->module, *impl));
  return Program(std::move(impl));
}

}  // namespace tessel
