// --tessel-import-gspmd-manual-computations: GSPMD's form of shard_map (SPMDFullToShardShape
// ... SPMDShardToFullShape around per-device code) as a tessel.manual_computation
// (passes.td has the contract). Finding the shard_maps is in gspmd_shard_maps.cc.
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/existing_mesh.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/transforms/gspmd_shard_maps.h"
#include "partitioner/sharding/transforms/open_dims.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_IMPORTGSPMDMANUALCOMPUTATIONSPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

constexpr llvm::StringLiteral kMeshName = "mesh";

// The mesh every shard_map of the module uses, by symbol name.
struct ModuleMesh {
  std::string name;
  Mesh mesh;
};

int64_t rankOf(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType()).getRank();
}

mlir::FailureOr<HloSharding> parseAt(mlir::Operation* op) {
  std::string text = hloShardingText(op);
  absl::StatusOr<HloSharding> parsed = HloSharding::Parse(text);
  if (!parsed.ok()) {
    return op->emitError() << "sharding '" << text
                           << "' does not parse: " << std::string(parsed.status().message());
  }
  return *parsed;
}

// `op`'s (single-value) sharding on the module mesh, reported at `op` when it does not fit.
mlir::FailureOr<ImportedSharding> onMesh(mlir::Operation* op, mlir::Value value,
                                         const ModuleMesh& mesh) {
  mlir::FailureOr<HloSharding> parsed = parseAt(op);
  if (mlir::failed(parsed)) return mlir::failure();
  absl::StatusOr<ImportedSharding> imported =
      HloShardingOnMesh(*parsed, rankOf(value), mesh.name, mesh.mesh);
  if (!imported.ok()) {
    return op->emitError() << "sharding " << std::string(imported.status().message());
  }
  return *imported;
}

bool isManual(const HloSharding& sharding) {
  return sharding.kind() == HloSharding::Kind::kManual ||
         (sharding.kind() == HloSharding::Kind::kTiled &&
          llvm::is_contained(sharding.subgroup_types(), SubgroupType::kManual));
}

// The mesh named "mesh" (the one HLO import gave the collectives), or else one made from the
// shard_maps' tiled shardings, added to the module.
mlir::FailureOr<ModuleMesh> moduleMesh(mlir::ModuleOp module,
                                       llvm::ArrayRef<GspmdShardMap> shardMaps) {
  if (mlir::Operation* symbol = mlir::SymbolTable::lookupSymbolIn(module, kMeshName)) {
    if (auto mesh = llvm::dyn_cast<ir::MeshOp>(symbol)) {
      return ModuleMesh{kMeshName.str(), MeshFromAttr(mesh.getMesh())};
    }
  }
  std::vector<HloShardingLeaf> leaves;
  int64_t devices = 0;
  auto add = [&](mlir::Operation* op, mlir::Value value) {
    absl::StatusOr<HloSharding> parsed = HloSharding::Parse(hloShardingText(op));
    if (!parsed.ok() || parsed->kind() != HloSharding::Kind::kTiled) return;
    // Shardings over another device count are reported where they are placed on the mesh.
    if (devices == 0) devices = parsed->tile_assignment().NumDevices();
    if (parsed->tile_assignment().NumDevices() != devices) return;
    if (parsed->TiledDataRank() != rankOf(value)) return;
    leaves.push_back({*parsed, rankOf(value)});
  };
  for (const GspmdShardMap& shardMap : shardMaps) {
    for (hlo::CustomCallOp entry : shardMap.entries) {
      if (mlir::Operation* in = entry.getInputs()[0].getDefiningOp()) add(in, in->getResult(0));
      add(entry, entry->getResult(0));
    }
    for (hlo::CustomCallOp exit : shardMap.exits) add(exit, exit->getResult(0));
  }
  Mesh mesh;
  if (devices > 0) {
    absl::StatusOr<MeshShardingImport> imported = HloShardingsToMesh(leaves, devices);
    if (!imported.ok()) {
      return module.emitError() << "cannot make a mesh of the shard_maps' shardings: "
                                << std::string(imported.status().message());
    }
    if (const Mesh* main = imported->FindMesh(kMeshName.str())) mesh = *main;
  }
  absl::StatusOr<ir::MeshAttr> attr = MeshToAttr(module.getContext(), mesh);
  if (!attr.ok()) return module.emitError() << std::string(attr.status().message());
  std::string name = kMeshName.str();
  for (int suffix = 1; mlir::SymbolTable::lookupSymbolIn(module, name); ++suffix) {
    name = kMeshName.str() + "_" + std::to_string(suffix);
  }
  mlir::OpBuilder builder = mlir::OpBuilder::atBlockBegin(module.getBody());
  builder.create<ir::MeshOp>(module.getLoc(), name, *attr);
  return ModuleMesh{name, mesh};
}

// The axes of `imported` that are manual, in mesh order, as a set for comparison.
std::set<std::string> manualSet(const ImportedSharding& imported) {
  return std::set<std::string>(imported.manual_axes.begin(), imported.manual_axes.end());
}

std::string axesText(const std::set<std::string>& axes) {
  std::string text = "{";
  for (const std::string& axis : axes) text += (text.size() > 1 ? ", \"" : "\"") + axis + "\"";
  return text + "}";
}

// The local type a value of `type` has in the body when split by `sharding`'s manual axes,
// or an error at `op`: each dim divided by the sizes of the manual axes that split it.
mlir::FailureOr<mlir::RankedTensorType> localType(mlir::Operation* op, mlir::Type type,
                                                  const TensorSharding& sharding,
                                                  const std::set<std::string>& manual,
                                                  const Mesh& mesh) {
  auto tensor = llvm::cast<mlir::RankedTensorType>(type);
  llvm::SmallVector<int64_t> shape(tensor.getShape());
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.dims)) {
    int64_t shards = 1;
    bool automatic = false;
    for (const AxisRef& axis : dimSharding.axes) {
      if (!manual.count(axis.name)) {
        automatic = true;
        continue;
      }
      if (automatic) {
        return op->emitError() << "dimension " << dim << " is split by manual axis \""
                               << axis.name << "\" inside a non-manual one; a shard_map "
                                               "needs its manual axes major";
      }
      shards *= axis.Size(mesh);
    }
    if (shape[dim] % shards != 0) {
      return op->emitError() << "dimension " << dim << " of size " << shape[dim]
                             << " does not split evenly over " << shards
                             << " devices of the manual axes";
    }
    shape[dim] /= shards;
  }
  return mlir::RankedTensorType::get(shape, tensor.getElementType());
}

// A shard_map's boundary, read and checked: global operands, shardings, manual axes.
struct Boundary {
  llvm::SmallVector<mlir::Value> operands;
  llvm::SmallVector<mlir::Attribute> inShardings, outShardings;
  std::set<std::string> manual;
  bool manualKnown = false;
  mlir::Operation* manualFrom = nullptr;
};

// Takes `imported`'s manual axes as the shard_map's, or fails at `op` if they differ.
mlir::LogicalResult agreeOnManualAxes(Boundary& boundary, mlir::Operation* op,
                                      const ImportedSharding& imported) {
  std::set<std::string> axes = manualSet(imported);
  if (!boundary.manualKnown) {
    boundary.manual = axes;
    boundary.manualKnown = true;
    boundary.manualFrom = op;
    return mlir::success();
  }
  if (axes == boundary.manual) return mlir::success();
  mlir::InFlightDiagnostic diag = op->emitError()
                                  << "is manual over " << axesText(axes)
                                  << " but the same shard_map is manual over "
                                  << axesText(boundary.manual);
  diag.attachNote(boundary.manualFrom->getLoc()) << "manual over those here";
  return diag;
}

mlir::FailureOr<ir::ShardingAttr> toAttr(mlir::Operation* op, const TensorSharding& sharding) {
  absl::StatusOr<ir::ShardingAttr> attr = TensorShardingToAttr(op->getContext(), sharding);
  if (!attr.ok()) {
    return op->emitError() << "imported sharding is invalid: "
                           << std::string(attr.status().message());
  }
  return *attr;
}

mlir::FailureOr<Boundary> readBoundary(GspmdShardMap& shardMap, const ModuleMesh& mesh) {
  Boundary boundary;
  struct Local {
    mlir::Operation* op;
    mlir::Value global, local;
    TensorSharding sharding;
  };
  std::vector<Local> locals;
  for (hlo::CustomCallOp entry : shardMap.entries) {
    mlir::Operation* in = entry.getInputs()[0].getDefiningOp();
    if (!isShardingCustomCall(in)) {
      return entry.emitError() << "SPMDFullToShardShape needs its operand annotated by a "
                                  "Sharding custom call (the shard_map's in sharding)";
    }
    mlir::FailureOr<ImportedSharding> inSharding = onMesh(in, in->getResult(0), mesh);
    if (mlir::failed(inSharding)) return mlir::failure();
    if (!inSharding->manual_axes.empty()) {
      return in->emitError() << "sharding '" << hloShardingText(in)
                             << "' is manual, but it is the in sharding of a shard_map";
    }
    mlir::FailureOr<HloSharding> entrySharding = parseAt(entry);
    if (mlir::failed(entrySharding)) return mlir::failure();
    if (!isManual(*entrySharding)) {
      return entry.emitError() << "SPMDFullToShardShape needs a manual sharding, got '"
                               << hloShardingText(entry) << "'";
    }
    mlir::FailureOr<ImportedSharding> local = onMesh(entry, entry->getResult(0), mesh);
    if (mlir::failed(local) || mlir::failed(agreeOnManualAxes(boundary, entry, *local))) {
      return mlir::failure();
    }
    mlir::FailureOr<ir::ShardingAttr> attr = toAttr(in, inSharding->sharding);
    if (mlir::failed(attr)) return mlir::failure();
    boundary.operands.push_back(in->getResult(0));
    // Dims JAX leaves unconstrained (automatic axes of a partly manual shard_map) stay open.
    boundary.inShardings.push_back(OpenUp(*attr, OpenDims(in)));
    locals.push_back({entry, in->getResult(0), entry->getResult(0), inSharding->sharding});
  }
  for (hlo::CustomCallOp exit : shardMap.exits) {
    mlir::Operation* source = exit.getInputs()[0].getDefiningOp();
    mlir::FailureOr<HloSharding> sourceSharding =
        isShardingCustomCall(source) ? parseAt(source) : mlir::FailureOr<HloSharding>();
    if (!isShardingCustomCall(source) || mlir::failed(sourceSharding) ||
        !isManual(*sourceSharding)) {
      return exit.emitError() << "SPMDShardToFullShape needs a manual operand: a Sharding "
                                 "custom call with a manual sharding";
    }
    mlir::FailureOr<ImportedSharding> local = onMesh(source, source->getResult(0), mesh);
    if (mlir::failed(local) || mlir::failed(agreeOnManualAxes(boundary, source, *local))) {
      return mlir::failure();
    }
    mlir::FailureOr<ImportedSharding> out = onMesh(exit, exit->getResult(0), mesh);
    if (mlir::failed(out)) return mlir::failure();
    if (!out->manual_axes.empty()) {
      return exit.emitError() << "SPMDShardToFullShape needs a sharding that is not manual, "
                                 "got '" << hloShardingText(exit) << "'";
    }
    mlir::FailureOr<ir::ShardingAttr> attr = toAttr(exit, out->sharding);
    if (mlir::failed(attr)) return mlir::failure();
    boundary.outShardings.push_back(OpenUp(*attr, OpenDims(exit)));
    locals.push_back({exit, exit->getResult(0), exit.getInputs()[0], out->sharding});
  }
  for (const Local& local : locals) {
    mlir::FailureOr<mlir::RankedTensorType> expected =
        localType(local.op, local.global.getType(), local.sharding, boundary.manual, mesh.mesh);
    if (mlir::failed(expected)) return mlir::failure();
    if (local.local.getType() != *expected) {
      return local.op->emitError()
             << "the local value has type " << local.local.getType() << ", but the global "
             << local.global.getType() << " split by the manual axes "
             << axesText(boundary.manual) << " is " << *expected;
    }
  }
  return boundary;
}

// Builds the manual computation for `shardMap` and removes what it replaces.
mlir::LogicalResult rewrite(GspmdShardMap& shardMap, const ModuleMesh& mesh,
                            mlir::SymbolTable& symbols,
                            llvm::SetVector<mlir::func::FuncOp>& inlined) {
  mlir::FailureOr<Boundary> boundary = readBoundary(shardMap, mesh);
  if (mlir::failed(boundary)) return mlir::failure();
  mlir::Operation* at = !shardMap.exits.empty() ? shardMap.exits.front().getOperation()
                                                : shardMap.entries.back()->getNextNode();
  for (mlir::Value operand : boundary->operands) {
    mlir::Operation* def = operand.getDefiningOp();
    if (def->getBlock() != at->getBlock() || !def->isBeforeInBlock(at)) {
      return def->emitError() << "this in sharding of a shard_map comes after the shard_map's "
                                 "first result is taken";
    }
  }
  llvm::SmallVector<mlir::Type> resultTypes;
  for (hlo::CustomCallOp exit : shardMap.exits) resultTypes.push_back(exit->getResult(0).getType());
  llvm::SmallVector<mlir::Attribute> manual;
  for (const MeshAxis& axis : mesh.mesh.axes) {
    if (boundary->manual.count(axis.name)) {
      manual.push_back(mlir::StringAttr::get(at->getContext(), axis.name));
    }
  }
  mlir::OpBuilder builder(at);
  mlir::Location loc = shardMap.entries.empty() ? shardMap.exits.front().getLoc()
                                                : shardMap.entries.front().getLoc();
  auto manualOp = builder.create<ir::ManualComputationOp>(
      loc, resultTypes, boundary->operands, builder.getArrayAttr(boundary->inShardings),
      builder.getArrayAttr(boundary->outShardings), builder.getArrayAttr(manual));
  mlir::Block* block = builder.createBlock(&manualOp.getBody());
  mlir::IRMapping mapping;
  for (hlo::CustomCallOp entry : shardMap.entries) {
    mapping.map(entry->getResult(0), block->addArgument(entry->getResult(0).getType(), entry.getLoc()));
  }
  for (mlir::Operation* op : shardMap.constants) builder.clone(*op, mapping);
  for (mlir::Operation* op : shardMap.body) builder.clone(*op, mapping);
  llvm::SmallVector<mlir::Value> returned;
  for (hlo::CustomCallOp exit : shardMap.exits) {
    returned.push_back(mapping.lookupOrDefault(exit.getInputs()[0]));
  }
  builder.create<ir::ReturnOp>(shardMap.exits.empty() ? loc : shardMap.exits.back().getLoc(),
                               returned);
  if (mlir::failed(
          cleanUpBody(manualOp, mesh.name, mesh.mesh, boundary->manual, symbols, inlined))) {
    return mlir::failure();
  }

  for (auto [exit, result] : llvm::zip(shardMap.exits, manualOp.getResults())) {
    exit->getResult(0).replaceAllUsesWith(result);
    exit->erase();
  }
  for (mlir::Operation* op : llvm::reverse(shardMap.body)) op->erase();
  for (hlo::CustomCallOp entry : shardMap.entries) entry->erase();
  // Constants the body shared with global code stay for it.
  for (mlir::Operation* op : llvm::reverse(shardMap.constants)) {
    if (op->use_empty()) op->erase();
  }
  return mlir::success();
}

struct ImportGspmdManualComputationsPass
    : public impl::ImportGspmdManualComputationsPassBase<ImportGspmdManualComputationsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::FailureOr<std::vector<GspmdShardMap>> shardMaps = findGspmdShardMaps(module);
    if (mlir::failed(shardMaps)) return signalPassFailure();
    if (shardMaps->empty()) return;
    mlir::FailureOr<ModuleMesh> mesh = moduleMesh(module, *shardMaps);
    if (mlir::failed(mesh)) return signalPassFailure();
    mlir::SymbolTable symbols(module);
    llvm::SetVector<mlir::func::FuncOp> inlined;
    bool failed = false;
    for (GspmdShardMap& shardMap : *shardMaps) {
      failed |= mlir::failed(rewrite(shardMap, *mesh, symbols, inlined));
    }
    if (failed) return signalPassFailure();
    // Body functions nothing calls any more go; callers come before their callees in
    // `inlined`, so one pass in that order frees nested ones too.
    for (mlir::func::FuncOp function : inlined) {
      if (function.isPrivate() && mlir::SymbolTable::symbolKnownUseEmpty(function, module)) {
        symbols.erase(function);
      }
    }
  }
};

}  // namespace
}  // namespace tessel::sharding
