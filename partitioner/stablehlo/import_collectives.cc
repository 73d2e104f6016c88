// StableHLO collectives in the body of a manual computation (shard_map) → tessel collectives.
// StableHLO names the devices of each group by global id; Tessel names groups by mesh axes,
// so the import finds the axes of the manual computation's mesh whose groups are those.
#include "partitioner/stablehlo/import_collectives.h"

#include <map>
#include <set>
#include <vector>

#include "llvm/ADT/StringSwitch.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::stablehlo {
namespace {

using Groups = std::vector<std::vector<int64_t>>;
using Axes = llvm::SmallVector<ir::AxisRefAttr>;

// The mesh of the manual computation around `op`, or null (with an error) if none.
std::pair<mlir::FlatSymbolRefAttr, ir::MeshAttr> enclosingMesh(mlir::Operation* op) {
  auto manual = op->getParentOfType<ir::ManualComputationOp>();
  auto module = op->getParentOfType<mlir::ModuleOp>();
  if (!manual && module && module->hasAttr(ir::kPartitionedAttrName)) {
    // A partitioned program (what the export writes): every op runs per device, over the
    // module's one mesh.
    auto meshes = llvm::to_vector(module.getOps<ir::MeshOp>());
    if (meshes.size() != 1) {
      op->emitError() << "'" << op->getName() << "' in a partitioned module with "
                      << meshes.size() << " meshes: its device groups need exactly one";
      return {};
    }
    return {mlir::FlatSymbolRefAttr::get(meshes.front().getSymNameAttr()),
            meshes.front().getMesh()};
  }
  if (!manual) {
    op->emitError() << "'" << op->getName()
                    << "' outside a manual computation: collectives belong in the body of "
                       "an sdy.manual_computation";
    return {};
  }
  for (mlir::Attribute attr : manual.getInShardings()) {
    auto sharding = llvm::cast<ir::ShardingAttr>(attr);
    if (ir::MeshAttr mesh = ir::findMesh(manual, sharding.getMeshName())) {
      return {sharding.getMeshName(), mesh};
    }
  }
  for (mlir::Attribute attr : manual.getOutShardings()) {
    auto sharding = llvm::cast<ir::ShardingAttr>(attr);
    if (ir::MeshAttr mesh = ir::findMesh(manual, sharding.getMeshName())) {
      return {sharding.getMeshName(), mesh};
    }
  }
  op->emitError() << "'" << op->getName() << "': its manual computation names no declared mesh";
  return {};
}

Groups rows(mlir::DenseIntElementsAttr attr) {
  Groups groups;
  auto type = llvm::cast<mlir::ShapedType>(attr.getType());
  if (type.getRank() != 2) return groups;
  int64_t width = type.getDimSize(1);
  std::vector<int64_t> flat;
  for (const llvm::APInt& value : attr.getValues<llvm::APInt>()) {
    flat.push_back(value.getSExtValue());
  }
  for (size_t i = 0; i + width <= flat.size() && width > 0; i += width) {
    // XLA pads uneven groups with -1.
    std::vector<int64_t> group;
    for (int64_t j = 0; j < width; ++j) {
      if (flat[i + j] >= 0) group.push_back(flat[i + j]);
    }
    groups.push_back(group);
  }
  return groups;
}

Groups groupsOf(ir::MeshAttr mesh, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  Groups groups;
  for (const auto& group : ir::getDeviceGroups(mesh, axes)) {
    groups.emplace_back(group.begin(), group.end());
  }
  return groups;
}

// Every ordering of every subset of the mesh's axes, fewest axes first.
std::vector<Axes> candidateAxes(ir::MeshAttr mesh) {
  mlir::MLIRContext* context = mesh.getContext();
  size_t n = mesh.getAxes().size();
  std::vector<Axes> candidates;
  for (uint64_t subset = 0; subset < (uint64_t{1} << n); ++subset) {
    std::vector<size_t> members;
    for (size_t i = 0; i < n; ++i) {
      if (subset & (uint64_t{1} << i)) members.push_back(i);
    }
    do {
      Axes axes;
      for (size_t i : members) {
        axes.push_back(ir::AxisRefAttr::get(context, mesh.getAxes()[i].getName()));
      }
      candidates.push_back(axes);
    } while (std::next_permutation(members.begin(), members.end()));
  }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Axes& a, const Axes& b) { return a.size() < b.size(); });
  return candidates;
}

// The axes whose groups are `groups` (each in the same order), or failure.
mlir::FailureOr<Axes> axesForGroups(mlir::Operation* op, ir::MeshAttr mesh, Groups groups) {
  std::sort(groups.begin(), groups.end());
  for (const Axes& axes : candidateAxes(mesh)) {
    Groups expected = groupsOf(mesh, axes);
    std::sort(expected.begin(), expected.end());
    if (expected == groups) return axes;
  }
  return op->emitError() << "'" << op->getName()
                         << "': replica_groups are not the device groups of any axes of mesh "
                         << mesh;
}

mlir::FailureOr<ir::ReductionKind> reductionKind(mlir::Operation* op) {
  auto fail = [&]() {
    return op->emitError() << "'" << op->getName()
                           << "': the reducer must be add, multiply, maximum or minimum of its "
                              "two arguments";
  };
  if (op->getNumRegions() != 1 || !op->getRegion(0).hasOneBlock()) return fail();
  mlir::Block& block = op->getRegion(0).front();
  auto ret = llvm::dyn_cast<hlo::ReturnOp>(block.getTerminator());
  if (block.getNumArguments() != 2 || !ret || ret->getNumOperands() != 1) return fail();
  // Shardy's export may pin the reducer's result with a constraint: it stands for its input.
  mlir::Value root = ret->getOperand(0);
  while (auto constraint = root.getDefiningOp<ir::ShardingConstraintOp>()) {
    root = constraint.getInput();
  }
  mlir::Operation* defining = root.getDefiningOp();
  if (!defining || defining->getNumOperands() != 2 ||
      defining->getOperand(0) == defining->getOperand(1) ||
      !llvm::all_of(defining->getOperands(), [&](mlir::Value v) {
        return llvm::isa<mlir::BlockArgument>(v) && v.getParentBlock() == &block;
      })) {
    return fail();
  }
  mlir::Operation& combine = *defining;
  bool pred = mlir::getElementTypeOrSelf(combine.getResult(0).getType()).isInteger(1);
  if (llvm::isa<hlo::AddOp>(combine)) return ir::ReductionKind::Sum;
  if (llvm::isa<hlo::MulOp>(combine)) return ir::ReductionKind::Prod;
  if (llvm::isa<hlo::MaxOp>(combine) || (pred && llvm::isa<hlo::OrOp>(combine)))
    return ir::ReductionKind::Max;
  if (llvm::isa<hlo::MinOp>(combine) || (pred && llvm::isa<hlo::AndOp>(combine)))
    return ir::ReductionKind::Min;
  return fail();
}

mlir::FailureOr<int64_t> intAttr(mlir::Operation* op, const mlir::NamedAttrList& attrs,
                                 llvm::StringRef name) {
  auto value = llvm::dyn_cast_or_null<mlir::IntegerAttr>(attrs.get(name));
  if (!value) return op->emitError() << "'" << op->getName() << "' needs an integer " << name;
  return value.getInt();
}

// (source, target) positions within groups of `axes` that give exactly `pairs` in every
// group, or none.
std::optional<std::set<std::pair<int64_t, int64_t>>> permuteRule(
    ir::MeshAttr mesh, llvm::ArrayRef<ir::AxisRefAttr> axes, const Groups& pairs) {
  Groups groups = groupsOf(mesh, axes);
  std::map<int64_t, int64_t> position;
  for (const auto& group : groups) {
    for (size_t p = 0; p < group.size(); ++p) position[group[p]] = p;
  }
  std::set<std::pair<int64_t, int64_t>> rule, expected, actual;
  for (const auto& pair : pairs) {
    if (!position.count(pair[0]) || !position.count(pair[1])) return std::nullopt;
    rule.insert({position[pair[0]], position[pair[1]]});
    actual.insert({pair[0], pair[1]});
  }
  for (const auto& group : groups) {
    for (const auto& [s, t] : rule) expected.insert({group[s], group[t]});
  }
  if (expected != actual) return std::nullopt;
  return rule;
}

}  // namespace

mlir::FailureOr<mlir::Operation*> importCollective(mlir::Operation* op,
                                                   const mlir::NamedAttrList& attrs) {
  auto [meshName, mesh] = enclosingMesh(op);
  if (!mesh) return mlir::failure();
  llvm::StringRef name = op->getName().getStringRef().split('.').second;
  if (op->getNumOperands() != 1 || op->getNumResults() != 1) {
    return op->emitError() << "'" << op->getName() << "' with " << op->getNumOperands()
                           << " operands is not supported";
  }
  mlir::OpBuilder b(op);
  mlir::MLIRContext* context = op->getContext();
  mlir::NamedAttrList result;
  result.set("mesh_name", meshName);
  Axes axes;
  if (name == "collective_permute") {
    auto pairsAttr = llvm::dyn_cast_or_null<mlir::DenseIntElementsAttr>(
        attrs.get("source_target_pairs"));
    Groups pairs = pairsAttr ? rows(pairsAttr) : Groups();
    if (pairs.empty() || llvm::any_of(pairs, [](const auto& p) { return p.size() != 2; })) {
      return op->emitError() << "'" << op->getName() << "' needs source_target_pairs";
    }
    // The fewest axes that hold every move; any permutation fits the whole mesh as one
    // group, in mesh order.
    std::optional<std::set<std::pair<int64_t, int64_t>>> rule;
    for (const Axes& candidate : candidateAxes(mesh)) {
      if (candidate.empty()) continue;
      if ((rule = permuteRule(mesh, candidate, pairs))) {
        axes = candidate;
        break;
      }
    }
    if (!rule) {
      return op->emitError() << "'" << op->getName()
                             << "': source_target_pairs are no permutation within groups of "
                                "mesh axes";
    }
    llvm::SmallVector<int64_t> flat;
    for (const auto& [s, t] : *rule) flat.append({s, t});
    result.set("pairs", b.getDenseI64ArrayAttr(flat));
  } else {
    auto groupsAttr =
        llvm::dyn_cast_or_null<mlir::DenseIntElementsAttr>(attrs.get("replica_groups"));
    if (!groupsAttr) return op->emitError() << "'" << op->getName() << "' needs replica_groups";
    if (!attrs.get("use_global_device_ids") && !attrs.get("channel_handle")) {
      return op->emitError() << "'" << op->getName()
                             << "' without channel_handle groups replicas; Tessel runs one";
    }
    mlir::FailureOr<Axes> found = axesForGroups(op, mesh, rows(groupsAttr));
    if (mlir::failed(found)) return mlir::failure();
    axes = *found;
    if (name == "all_reduce" || name == "reduce_scatter") {
      mlir::FailureOr<ir::ReductionKind> kind = reductionKind(op);
      if (mlir::failed(kind)) return mlir::failure();
      result.set("kind", ir::ReductionKindAttr::get(context, *kind));
    }
    if (name == "all_gather" || name == "reduce_scatter") {
      mlir::FailureOr<int64_t> dim =
          intAttr(op, attrs, name == "all_gather" ? "all_gather_dim" : "scatter_dimension");
      if (mlir::failed(dim)) return mlir::failure();
      result.set("dim", b.getI64IntegerAttr(*dim));
    }
    if (name == "all_to_all") {
      mlir::FailureOr<int64_t> split = intAttr(op, attrs, "split_dimension");
      mlir::FailureOr<int64_t> concat = intAttr(op, attrs, "concat_dimension");
      if (mlir::failed(split) || mlir::failed(concat)) return mlir::failure();
      result.set("split_dim", b.getI64IntegerAttr(*split));
      result.set("concat_dim", b.getI64IntegerAttr(*concat));
    }
  }
  llvm::SmallVector<mlir::Attribute> axisAttrs(axes.begin(), axes.end());
  result.set("axes", b.getArrayAttr(axisAttrs));
  mlir::OperationState state(op->getLoc(), ("tessel." + name).str());
  state.addOperands(op->getOperands());
  state.addAttributes(result.getAttrs());
  state.addTypes(op->getResultTypes());
  return b.create(state);
}

}  // namespace tessel::stablehlo
