// --tessel-import-hlo-shardings: the verbatim GSPMD `tessel.hlo_sharding` strings left by HLO
// text import become one set of tessel meshes and `tessel.sharding` annotations (see
// passes.td), so that propagation and partitioning can use them. Shardy's annotations
// (`xla.sdy.meshes`, `xla.sdy.sharding`) are checked against each other and the GSPMD ones,
// and stand in for them where a value has only Shardy's.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/function_attrs.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/declared_axes.h"
#include "partitioner/sharding/existing_mesh.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/shardy_text.h"
#include "partitioner/sharding/transforms/open_dims.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_IMPORTHLOSHARDINGSPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

constexpr llvm::StringLiteral kHloShardingAttr = ir::kGspmdShardingAttr;
constexpr llvm::StringLiteral kFrontendAttrs = "tessel.hlo_frontend_attributes";
constexpr llvm::StringLiteral kHloNumPartitions = "tessel.hlo_num_partitions";

// One place that carries a sharding string: an op (all its results), or one argument or
// result of a function.
struct Site {
  enum class Kind { kOp, kArgument, kResult };
  Kind kind;
  mlir::Operation* op;  // the op, or the function
  unsigned index = 0;   // argument or result number
  mlir::StringAttr text;
  llvm::SmallVector<mlir::Type> types;  // the annotated values' types
  // Into the list handed to HloShardingsToMesh; sites with the same text on one value of
  // the same type share their leaf.
  size_t first_leaf = 0;

  mlir::InFlightDiagnostic error() const { return describe(op->emitError()); }

 private:
  mlir::InFlightDiagnostic describe(mlir::InFlightDiagnostic diag) const {
    if (kind == Kind::kArgument) diag << "argument " << index << ": ";
    if (kind == Kind::kResult) diag << "result " << index << ": ";
    diag << "sharding '" << text.getValue() << "' ";
    return diag;
  }
};

// Each distinct sharding text parsed once: a module repeats a few shardings on many values,
// and a parse costs dozens of small allocations.
class ParseCache {
 public:
  const absl::StatusOr<HloSharding>& Parse(mlir::StringAttr text) {
    auto [it, inserted] = parsed_.try_emplace(text);
    if (inserted) it->second = HloSharding::Parse(text.getValue().str());
    return it->second;
  }

 private:
  llvm::DenseMap<mlir::StringAttr, absl::StatusOr<HloSharding>> parsed_;
};

// The leaves of `site`'s sharding, one per annotated value, or a diagnostic at the site.
mlir::FailureOr<std::vector<HloShardingLeaf>> LeavesOf(const Site& site, ParseCache& cache) {
  const absl::StatusOr<HloSharding>& parsed = cache.Parse(site.text);
  if (!parsed.ok()) {
    return site.error() << "does not parse: " << std::string(parsed.status().message());
  }
  std::vector<HloSharding> shardings;
  if (parsed->IsTuple()) {
    shardings = parsed->tuple_elements();
  } else {
    shardings.push_back(*parsed);
  }
  if (shardings.size() != site.types.size()) {
    return site.error() << "has " << shardings.size() << " leaves but annotates "
                        << site.types.size() << " values";
  }
  std::vector<HloShardingLeaf> leaves;
  for (auto [sharding, type] : llvm::zip(shardings, site.types)) {
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor) return site.error() << "annotates " << type << ", which is not a ranked tensor";
    switch (sharding.kind()) {
      case HloSharding::Kind::kMaximal:
        // A value on one device keeps that placement (a one-device mesh): only its owner
        // holds the data, and the partitioned program broadcasts it where it is needed.
        break;
      case HloSharding::Kind::kManual:
        return site.error() << "is manual, but other values of the module are not: a value "
                               "becomes manual only inside a shard_map (between "
                               "SPMDFullToShardShape and SPMDShardToFullShape), or everywhere "
                               "in a program that is per-device throughout";
      case HloSharding::Kind::kTiled:
        if (!sharding.subgroup_types().empty() &&
            llvm::is_contained(sharding.subgroup_types(), SubgroupType::kManual)) {
          return site.error() << "has manual tile dims, which have no mesh form outside a "
                                 "tessel.manual_computation";
        }
        if (sharding.TiledDataRank() != tensor.getRank()) {
          return site.error() << "tiles " << sharding.TiledDataRank()
                              << " dims but the value has rank " << tensor.getRank();
        }
        break;
      default:
        break;
    }
    leaves.push_back({sharding, tensor.getRank()});
  }
  return leaves;
}

// Whether every sharding of the module is `{manual}` (tuples: in every element) and no
// manual computation (`hasManualComputation`) leads into manual code from a global program.
bool EveryValueManual(bool hasManualComputation, const std::vector<Site>& sites,
                      ParseCache& cache) {
  if (hasManualComputation) return false;
  for (const Site& site : sites) {
    const absl::StatusOr<HloSharding>& parsed = cache.Parse(site.text);
    if (!parsed.ok()) return false;
    std::vector<HloSharding> leaves =
        parsed->IsTuple() ? parsed->tuple_elements() : std::vector<HloSharding>{*parsed};
    for (const HloSharding& leaf : leaves) {
      if (leaf.kind() != HloSharding::Kind::kManual) return false;
    }
  }
  return true;
}

// The device count the shardings imply: that of the tiled ones, else of the module's first
// existing mesh, else 1. Tiled shardings over another count are reported at their site.
mlir::FailureOr<int64_t> DeviceCount(mlir::ModuleOp module, const std::vector<Site>& sites,
                                     const std::vector<HloShardingLeaf>& leaves,
                                     std::optional<int64_t> declaredDevices) {
  std::optional<int64_t> count;
  const Site* first = nullptr;
  for (const Site& site : sites) {
    for (size_t i = 0; i < site.types.size(); ++i) {
      const HloSharding& sharding = leaves[site.first_leaf + i].sharding;
      if (sharding.kind() != HloSharding::Kind::kTiled) continue;
      int64_t devices = sharding.tile_assignment().NumDevices();
      if (!count) {
        count = devices;
        first = &site;
      } else if (devices != *count) {
        return site.error() << "spans " << devices << " devices but sharding '"
                            << first->text.getValue() << "' spans " << *count;
      }
    }
  }
  if (count) return *count;
  for (auto mesh : module.getOps<ir::MeshOp>()) return MeshFromAttr(mesh.getMesh()).NumDevices();
  return declaredDevices.value_or(1);
}

// A name for an imported mesh that no other symbol of `module` has, unless that symbol is
// already the same mesh.
std::string FreeMeshName(mlir::ModuleOp module, const std::string& wanted, ir::MeshAttr mesh,
                         bool& exists) {
  exists = false;
  std::string name = wanted;
  for (int suffix = 1;; ++suffix) {
    mlir::Operation* symbol = mlir::SymbolTable::lookupSymbolIn(module, name);
    if (!symbol) return name;
    auto existing = llvm::dyn_cast<ir::MeshOp>(symbol);
    if (existing && existing.getMesh() == mesh) {
      exists = true;
      return name;
    }
    name = wanted + "_hlo" + (suffix == 1 ? "" : "_" + std::to_string(suffix));
  }
}

// The mesh of the module's first manual computation, where it is in device order: the
// shardings of GSPMD's shard_maps (imported before this pass) are on it.
std::optional<NamedMesh> ManualComputationMesh(mlir::ModuleOp module) {
  std::optional<NamedMesh> found;
  module.walk([&](ir::ManualComputationOp manual) {
    for (mlir::ArrayAttr shardings : {manual.getInShardings(), manual.getOutShardings()}) {
      for (auto sharding : shardings.getAsRange<ir::ShardingAttr>()) {
        auto mesh = mlir::SymbolTable::lookupNearestSymbolFrom<ir::MeshOp>(
            manual, sharding.getMeshName());
        if (!mesh || !mesh.getMesh().getDeviceIds().empty()) continue;
        found = NamedMesh{sharding.getMeshName().getValue().str(), MeshFromAttr(mesh.getMesh())};
        return mlir::WalkResult::interrupt();
      }
    }
    return mlir::WalkResult::advance();
  });
  return found;
}

// Whether `op` is GSPMD's sharding annotation `custom-call(x), custom_call_target="Sharding"`.
bool IsShardingCustomCall(mlir::Operation* op) {
  auto call = llvm::dyn_cast<hlo::CustomCallOp>(op);
  return call && call.getCallTargetName() == "Sharding" && call.getInputs().size() == 1 &&
         call.getNumResults() == 1 && !call.getHasSideEffect() &&
         call.getInputs()[0].getType() == call.getResult(0).getType();
}

// ---- Shardy's annotations (xla.sdy.meshes, xla.sdy.sharding) ----

constexpr llvm::StringLiteral kShardyMeshes = "xla.sdy.meshes";
constexpr llvm::StringLiteral kShardySharding = "xla.sdy.sharding";

// A place that carries Shardy's `xla.sdy.sharding`: an op (one sharding per result), one
// argument of a function (its parameter instruction), or one result of a function (the
// xla.sdy.FuncResultSharding call that marked it).
struct ShardySite {
  mlir::Operation* op;             // the op, or the function
  std::optional<unsigned> argument;
  std::optional<unsigned> result;  // of the function
  std::string text;
  llvm::SmallVector<mlir::Type> types;

  mlir::func::FuncOp function() const { return llvm::cast<mlir::func::FuncOp>(op); }
  mlir::Location loc() const {
    if (argument) return function().getArgument(*argument).getLoc();
    if (result) {
      // Where the results are returned: the ROOT instruction.
      mlir::Block& body = function().getBody().front();
      return body.empty() ? op->getLoc() : body.getTerminator()->getLoc();
    }
    return op->getLoc();
  }
  mlir::InFlightDiagnostic describe(mlir::InFlightDiagnostic diag) const {
    if (argument) diag << "argument " << *argument << ": ";
    if (result) diag << "result " << *result << ": ";
    diag << "xla.sdy.sharding '" << text << "' ";
    return diag;
  }
  mlir::InFlightDiagnostic error() const { return describe(mlir::emitError(loc())); }
  mlir::InFlightDiagnostic warning() const { return describe(mlir::emitWarning(loc())); }

  // The GSPMD text beside it (`sharding=`), or none.
  mlir::StringAttr gspmd() const {
    if (argument) return function().getArgAttrOfType<mlir::StringAttr>(*argument, kHloShardingAttr);
    if (result) return function().getResultAttrOfType<mlir::StringAttr>(*result, kHloShardingAttr);
    return op->getAttrOfType<mlir::StringAttr>(kHloShardingAttr);
  }
  void setGspmd(mlir::StringAttr text) const {
    if (argument) return function().setArgAttr(*argument, kHloShardingAttr, text);
    if (result) return function().setResultAttr(*result, kHloShardingAttr, text);
    op->setAttr(kHloShardingAttr, text);
  }
};

// The `xla.sdy.sharding` of a frontend attribute dictionary, or null.
mlir::StringAttr ShardyShardingIn(mlir::DictionaryAttr frontend) {
  return frontend ? frontend.getAs<mlir::StringAttr>(kShardySharding) : nullptr;
}

std::vector<ShardySite> ShardySites(mlir::ModuleOp module) {
  std::vector<ShardySite> sites;
  const auto key = mlir::StringAttr::get(module.getContext(), kFrontendAttrs);
  module.walk([&](mlir::Operation* op) {
    if (auto text = ShardyShardingIn(
            llvm::dyn_cast_or_null<mlir::DictionaryAttr>(op->getDiscardableAttr(key)))) {
      sites.push_back({op, std::nullopt, std::nullopt, text.str(),
                       llvm::to_vector(op->getResultTypes())});
    }
    auto function = llvm::dyn_cast<mlir::func::FuncOp>(op);
    if (!function) return;
    for (unsigned i = 0; i < function.getNumArguments(); ++i) {
      auto text = ShardyShardingIn(function.getArgAttrOfType<mlir::DictionaryAttr>(i, kFrontendAttrs));
      if (text) {
        sites.push_back({op, i, std::nullopt, text.str(), {function.getArgumentTypes()[i]}});
      }
    }
    for (unsigned i = 0; i < function.getNumResults(); ++i) {
      auto text =
          ShardyShardingIn(function.getResultAttrOfType<mlir::DictionaryAttr>(i, kFrontendAttrs));
      if (text) {
        sites.push_back({op, std::nullopt, i, text.str(), {function.getResultTypes()[i]}});
      }
    }
  });
  return sites;
}

// The functions that are shard_map bodies in Shardy's form (called on the values of an
// `xla.sdy.GlobalToLocalShape`): their values are local, so a sharding there has no
// GSPMD form of its own.
llvm::DenseSet<mlir::Operation*> ShardMapBodies(mlir::ModuleOp module) {
  llvm::DenseSet<mlir::Operation*> bodies;
  mlir::SymbolTable symbols(module);
  module.walk([&](hlo::CustomCallOp call) {
    if (call.getCallTargetName() != "xla.sdy.GlobalToLocalShape") return;
    for (mlir::Operation* user : call->getUsers()) {
      if (auto body = llvm::dyn_cast<mlir::func::CallOp>(user)) {
        if (mlir::Operation* callee = symbols.lookup(body.getCallee())) bodies.insert(callee);
      }
    }
  });
  return bodies;
}

// The non-tuple leaves of a GSPMD sharding text, or none if it does not parse (the GSPMD
// import reports that).
std::optional<std::vector<HloSharding>> GspmdLeaves(llvm::StringRef text) {
  absl::StatusOr<HloSharding> parsed = HloSharding::Parse(text.str());
  if (!parsed.ok()) return std::nullopt;
  if (parsed->IsTuple()) return parsed->tuple_elements();
  return std::vector<HloSharding>{*parsed};
}

bool HasManualPart(const HloSharding& sharding) {
  return sharding.kind() == HloSharding::Kind::kManual ||
         llvm::is_contained(sharding.subgroup_types(), SubgroupType::kManual);
}

// Checks every Shardy annotation of the module against the meshes it declares, warns where
// one contradicts the GSPMD sharding beside it, and gives every value annotated in Shardy's
// form only the GSPMD sharding it stands for, so that the GSPMD import below treats both
// forms alike. Reports every fault before it fails.
mlir::LogicalResult ImportShardyAnnotations(mlir::ModuleOp module) {
  mlir::MLIRContext* context = module.getContext();
  std::vector<ShardySite> sites = ShardySites(module);
  std::optional<std::vector<DeclaredMesh>> declared;
  auto frontend = module->getAttrOfType<mlir::DictionaryAttr>(kFrontendAttrs);
  if (auto meshes = frontend ? frontend.getAs<mlir::StringAttr>(kShardyMeshes) : nullptr) {
    absl::StatusOr<std::vector<DeclaredMesh>> parsed = ParseShardyMeshes(meshes.str());
    if (!parsed.ok()) {
      return module.emitError() << "xla.sdy.meshes: " << std::string(parsed.status().message());
    }
    for (const DeclaredMesh& mesh : *parsed) {
      absl::Status valid = mesh.mesh.Validate();
      if (!valid.ok()) {
        return module.emitError() << "xla.sdy.meshes: mesh @" << mesh.name << ": "
                                  << std::string(valid.message());
      }
    }
    declared = *std::move(parsed);
  }
  if (sites.empty()) return mlir::success();

  auto findDeclared = [&](llvm::StringRef name) -> const DeclaredMesh* {
    if (!declared) return nullptr;
    for (const DeclaredMesh& mesh : *declared) {
      if (mesh.name == name) return &mesh;
    }
    return nullptr;
  };
  const llvm::DenseSet<mlir::Operation*> bodies = ShardMapBodies(module);
  bool failed = false;
  for (const ShardySite& site : sites) {
    absl::StatusOr<std::vector<ir::ShardingAttr>> shardings = ParseShardyShardings(context, site.text);
    if (!shardings.ok()) {
      site.error() << "does not parse: " << std::string(shardings.status().message());
      failed = true;
      continue;
    }
    if (shardings->size() != site.types.size()) {
      // Beside a GSPMD sharding, which is used, a count that differs may be the tokens or
      // tuple elements import flattened away: that one is left to the GSPMD import.
      if (site.gspmd()) continue;
      site.error() << "has " << shardings->size() << " shardings but annotates "
                   << site.types.size() << " values";
      failed = true;
      continue;
    }
    // Each sharding against its declared mesh.
    std::vector<const DeclaredMesh*> meshes;
    bool siteFailed = false;
    for (auto [i, sharding] : llvm::enumerate(*shardings)) {
      auto prefixed = [&, i = i]() {
        mlir::InFlightDiagnostic diag = site.error();
        if (site.types.size() > 1) diag << "result " << i << ": ";
        return diag;
      };
      const DeclaredMesh* mesh = findDeclared(sharding.getMeshName().getValue());
      if (!mesh) {
        auto diag = prefixed() << "names mesh " << sharding.getMeshName() << ", which ";
        if (declared) {
          diag << "the module's xla.sdy.meshes does not declare";
        } else {
          diag << "is not declared: the module has no xla.sdy.meshes";
        }
        siteFailed = true;
        continue;
      }
      absl::StatusOr<ir::MeshAttr> meshAttr = MeshToAttr(context, mesh->mesh);
      auto onMesh = [&]() {
        return prefixed() << "on mesh @" << mesh->name << ": ";
      };
      if (!meshAttr.ok() ||
          mlir::failed(ir::verifyShardingForMesh(onMesh, sharding, site.types[i], *meshAttr))) {
        siteFailed = true;
        continue;
      }
      meshes.push_back(mesh);
    }
    if (siteFailed) {
      failed = true;
      continue;
    }

    // Beside GSPMD's form: the same placement, or a warning that GSPMD's is used.
    std::vector<HloSharding> converted;
    for (auto [sharding, mesh] : llvm::zip(*shardings, meshes)) {
      absl::StatusOr<HloSharding> gspmd = ShardyShardingToHlo(mesh->mesh, sharding);
      if (!gspmd.ok()) {
        site.error() << "has no GSPMD form: " << std::string(gspmd.status().message());
        siteFailed = true;
        break;
      }
      converted.push_back(*gspmd);
    }
    if (siteFailed) {
      failed = true;
      continue;
    }
    if (mlir::StringAttr gspmd = site.gspmd()) {
      std::optional<std::vector<HloSharding>> leaves = GspmdLeaves(gspmd.getValue());
      if (!leaves || leaves->size() != converted.size()) continue;
      for (size_t i = 0; i < converted.size(); ++i) {
        if (HasManualPart((*leaves)[i]) || SamePlacement((*leaves)[i], converted[i])) continue;
        mlir::InFlightDiagnostic diag = site.warning();
        if (converted.size() > 1) diag << "(result " << i << ") ";
        diag << "places the value as '" << converted[i].ToString() << "', but sharding='"
             << (*leaves)[i].ToString() << "' beside it does not; the GSPMD sharding= is used";
        break;
      }
      continue;
    }
    // Shardy's form only: the GSPMD sharding it stands for. Values in a shard_map body are
    // local, and their GSPMD form would need the body's manual axes: those keep none.
    mlir::Operation* function = site.argument || site.result
                                    ? site.op
                                    : site.op->getParentOfType<mlir::func::FuncOp>();
    if (bodies.contains(function) || site.op->getParentOfType<ir::ManualComputationOp>()) continue;
    if (converted.empty()) continue;
    std::string text;
    if (converted.size() == 1) {
      text = converted[0].ToString();
    } else {
      text = "{";
      for (size_t i = 0; i < converted.size(); ++i) {
        text += (i ? ", " : "") + converted[i].ToString();
      }
      text += "}";
    }
    site.setGspmd(mlir::StringAttr::get(context, text));
  }
  return mlir::failure(failed);
}

struct ImportHloShardingsPass : public impl::ImportHloShardingsPassBase<ImportHloShardingsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    // The header's device count only stands in for the tiled shardings' (DeviceCount); it
    // does not outlive the import.
    std::optional<int64_t> declaredDevices;
    if (auto declared = module->getAttrOfType<mlir::IntegerAttr>(kHloNumPartitions)) {
      declaredDevices = declared.getInt();
      module->removeAttr(kHloNumPartitions);
    }
    // Shardy's annotations are checked first, and those without a GSPMD form beside them
    // get one.
    if (mlir::failed(ImportShardyAnnotations(module))) return signalPassFailure();
    // One walk finds both the annotations that say nothing and the sites (a module is
    // walked several times on the way in, and each walk of a large one costs its cache
    // misses): the former are left out of the sites, since they go.
    llvm::SmallVector<mlir::Operation*> open;
    std::vector<Site> sites;
    const auto key = mlir::StringAttr::get(&getContext(), kHloShardingAttr);
    bool hasManualComputation = false;
    module.walk([&](mlir::Operation* op) {
      hasManualComputation |= llvm::isa<ir::ManualComputationOp>(op);
      // Read as replication, these would gather what the body may keep split.
      if (IsShardingCustomCall(op) && SaysNothing(op)) {
        open.push_back(op);
        return;
      }
      if (auto text = llvm::dyn_cast_or_null<mlir::StringAttr>(op->getDiscardableAttr(key))) {
        sites.push_back({Site::Kind::kOp, op, 0, text, llvm::to_vector(op->getResultTypes())});
      }
      auto function = llvm::dyn_cast<mlir::func::FuncOp>(op);
      if (!function) return;
      for (unsigned i = 0; i < function.getNumArguments(); ++i) {
        if (auto text = function.getArgAttrOfType<mlir::StringAttr>(i, kHloShardingAttr)) {
          sites.push_back({Site::Kind::kArgument, op, i, text, {function.getArgumentTypes()[i]}});
        }
      }
      for (unsigned i = 0; i < function.getNumResults(); ++i) {
        if (auto text = function.getResultAttrOfType<mlir::StringAttr>(i, kHloShardingAttr)) {
          sites.push_back({Site::Kind::kResult, op, i, text, {function.getResultTypes()[i]}});
        }
      }
    });
    for (mlir::Operation* op : open) {
      op->getResult(0).replaceAllUsesWith(op->getOperand(0));
      op->erase();
    }
    if (sites.empty()) return;
    ParseCache parseCache;
    if (EveryValueManual(hasManualComputation, sites, parseCache)) {
      // GSPMD leaves a manual value as written on every device: the function is already
      // the per-device program, which runs as it is on the header's device count.
      for (const Site& site : sites) {
        if (site.kind == Site::Kind::kArgument) {
          llvm::cast<mlir::func::FuncOp>(site.op).removeArgAttr(site.index, key);
        } else if (site.kind == Site::Kind::kResult) {
          llvm::cast<mlir::func::FuncOp>(site.op).removeResultAttr(site.index, key);
        } else if (IsShardingCustomCall(site.op)) {
          site.op->getResult(0).replaceAllUsesWith(site.op->getOperand(0));
          site.op->erase();
        } else {
          site.op->removeAttr(kHloShardingAttr);
        }
      }
      module->setAttr(ir::TesselDialect::kPerDeviceAttrName, mlir::UnitAttr::get(&getContext()));
      return;
    }

    // Check everything before changing anything, reporting every bad site at once.
    bool failed = false;
    std::vector<HloShardingLeaf> leaves;
    // A leaf converts the same wherever it appears, so each (text, type) of a one-value
    // site is checked and converted once.
    llvm::DenseMap<std::pair<mlir::Attribute, mlir::Type>, size_t> sharedLeaf;
    for (Site& site : sites) {
      const bool oneValue = site.types.size() == 1;
      if (oneValue) {
        auto it = sharedLeaf.find({site.text, site.types[0]});
        if (it != sharedLeaf.end()) {
          site.first_leaf = it->second;
          continue;
        }
      }
      mlir::FailureOr<std::vector<HloShardingLeaf>> site_leaves = LeavesOf(site, parseCache);
      if (mlir::failed(site_leaves)) {
        failed = true;
        continue;
      }
      site.first_leaf = leaves.size();
      if (oneValue) sharedLeaf[{site.text, site.types[0]}] = site.first_leaf;
      leaves.insert(leaves.end(), site_leaves->begin(), site_leaves->end());
    }
    if (failed) return signalPassFailure();
    mlir::FailureOr<int64_t> devices = DeviceCount(module, sites, leaves, declaredDevices);
    if (mlir::failed(devices)) return signalPassFailure();
    for (const Site& site : sites) {
      for (size_t i = 0; i < site.types.size(); ++i) {
        const HloSharding& sharding = leaves[site.first_leaf + i].sharding;
        if (sharding.kind() == HloSharding::Kind::kMaximal && sharding.device() >= *devices) {
          site.error() << "places the value on device " << sharding.device()
                       << ", but the module has " << *devices << " devices";
          failed = true;
        }
      }
    }
    if (failed) return signalPassFailure();
    // The manual computations' mesh comes first, so that where it can, the common mesh is
    // that one (HloShardingsToMesh keeps the chain of the first leaves it meets).
    std::optional<NamedMesh> manual = ManualComputationMesh(module);
    if (manual && manual->mesh.NumDevices() != *devices) manual.reset();
    if (manual) leaves.insert(leaves.begin(), MeshAsLeaf(manual->mesh));
    absl::StatusOr<MeshShardingImport> imported = HloShardingsToMesh(leaves, *devices);
    if (!imported.ok()) {
      module.emitError() << "cannot import the module's HLO shardings: "
                         << std::string(imported.status().message());
      return signalPassFailure();
    }
    if (manual) imported->shardings.erase(imported->shardings.begin());
    const bool adopted = manual && AdoptMesh(manual->name, manual->mesh, *imported);

    // The axes take the names of the mesh the frontend declared, where they line up.
    auto frontend = module->getAttrOfType<mlir::DictionaryAttr>(kFrontendAttrs);
    if (frontend && !adopted) {
      if (auto meshes = frontend.getAs<mlir::StringAttr>("xla.sdy.meshes")) {
        absl::StatusOr<std::vector<DeclaredMesh>> declared = ParseShardyMeshes(meshes.str());
        if (declared.ok()) NameAxesAsDeclared(*declared, *imported);
      }
    }

    // Meshes first, each under a name no other symbol uses.
    mlir::MLIRContext* context = module.getContext();
    std::map<std::string, std::string> renamed;
    mlir::OpBuilder builder = mlir::OpBuilder::atBlockBegin(module.getBody());
    for (const NamedMesh& named : imported->meshes) {
      absl::StatusOr<ir::MeshAttr> attr = MeshToAttr(context, named.mesh);
      if (!attr.ok()) {
        module.emitError() << "imported mesh '" << named.name
                           << "' is invalid: " << std::string(attr.status().message());
        return signalPassFailure();
      }
      bool exists = false;
      std::string name = FreeMeshName(module, named.name, *attr, exists);
      renamed[named.name] = name;
      if (!exists) builder.create<ir::MeshOp>(module.getLoc(), name, *attr);
    }
    std::vector<ir::ShardingAttr> attrs;
    for (const ImportedSharding& sharding : imported->shardings) {
      TensorSharding renamed_sharding = sharding.sharding;
      renamed_sharding.mesh_name = renamed[renamed_sharding.mesh_name];
      absl::StatusOr<ir::ShardingAttr> attr = TensorShardingToAttr(context, renamed_sharding);
      if (!attr.ok()) {
        module.emitError() << "imported sharding is invalid: "
                           << std::string(attr.status().message());
        return signalPassFailure();
      }
      attrs.push_back(*attr);
    }

    llvm::StringRef sharding_name = ir::TesselDialect::kShardingAttrName;
    // One editor per function: its argument and result attributes are rewritten once.
    std::map<mlir::Operation*, std::unique_ptr<ir::FunctionAttrEditor>> editors;
    auto editorOf = [&](mlir::Operation* op) -> ir::FunctionAttrEditor& {
      std::unique_ptr<ir::FunctionAttrEditor>& editor = editors[op];
      if (!editor) {
        editor = std::make_unique<ir::FunctionAttrEditor>(llvm::cast<mlir::func::FuncOp>(op));
      }
      return *editor;
    };
    for (const Site& site : sites) {
      llvm::ArrayRef<ir::ShardingAttr> shardings(&attrs[site.first_leaf], site.types.size());
      if (site.kind == Site::Kind::kArgument) {
        ir::FunctionAttrEditor& edit = editorOf(site.op);
        edit.removeArg(site.index, kHloShardingAttr);
        edit.setArg(site.index, sharding_name, shardings[0]);
      } else if (site.kind == Site::Kind::kResult) {
        ir::FunctionAttrEditor& edit = editorOf(site.op);
        edit.removeResult(site.index, kHloShardingAttr);
        edit.setResult(site.index, sharding_name, shardings[0]);
      } else if (IsShardingCustomCall(site.op)) {
        // GSPMD's annotation op is exactly a sharding constraint.
        mlir::OpBuilder at(site.op);
        auto constraint = at.create<ir::ShardingConstraintOp>(
            site.op->getLoc(), site.op->getResult(0).getType(), site.op->getOperand(0),
            OpenUp(shardings[0], OpenDims(site.op)));
        site.op->getResult(0).replaceAllUsesWith(constraint.getResult());
        site.op->erase();
      } else {
        // The op's own annotation: propagation seeds its results from it.
        site.op->removeAttr(kHloShardingAttr);
        site.op->setAttr(sharding_name, ir::ShardingPerValueAttr::get(context, shardings));
      }
    }
  }
};

}  // namespace
}  // namespace tessel::sharding
