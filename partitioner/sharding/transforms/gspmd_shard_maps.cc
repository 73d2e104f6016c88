// Finding GSPMD's shard_maps in imported HLO, and cleaning up their bodies once they sit in
// a tessel.manual_computation (gspmd_shard_maps.h).
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/sharding/transforms/gspmd_shard_maps.h"

#include <algorithm>
#include <map>

#include "absl/status/statusor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "partitioner/sharding/existing_mesh.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mlir_conversion.h"

namespace tessel::sharding {
namespace {

constexpr llvm::StringLiteral kHloShardingAttr = ir::kGspmdShardingAttr;
// Calls nested deeper than this in a shard_map body are taken for recursion.
constexpr int kMaxInlineRounds = 64;

bool isCustomCall(mlir::Operation* op, llvm::StringRef target) {
  auto call = llvm::dyn_cast_or_null<hlo::CustomCallOp>(op);
  return call && call.getCallTargetName() == target && call.getInputs().size() == 1 &&
         call->getNumResults() == 1;
}

bool isEntry(mlir::Operation* op) { return isCustomCall(op, "SPMDFullToShardShape"); }
bool isExit(mlir::Operation* op) { return isCustomCall(op, "SPMDShardToFullShape"); }

// Whether `value` is computed in `block` from constants alone by ops that may be copied
// freely (pure hlo ops without regions, GSPMD annotations); adds those ops to `slice`.
bool isConstantExpression(mlir::Value value, mlir::Block* block,
                          llvm::DenseMap<mlir::Operation*, bool>& memo,
                          llvm::SetVector<mlir::Operation*>& slice) {
  mlir::Operation* def = value.getDefiningOp();
  if (!def || def->getBlock() != block) return false;
  auto found = memo.find(def);
  if (found != memo.end()) return found->second;
  bool constant = !isEntry(def) && !isExit(def) && def->getNumRegions() == 0 &&
                  llvm::isa<hlo::HloDialect>(def->getDialect()) &&
                  mlir::isMemoryEffectFree(def);
  memo[def] = constant;  // no cycles in SSA, but keeps a diamond from being walked twice
  for (mlir::Value operand : def->getOperands()) {
    constant = constant && isConstantExpression(operand, block, memo, slice);
  }
  memo[def] = constant;
  if (constant) slice.insert(def);
  return constant;
}

// The shard_maps of `block`: ops joined by local values, from each entry forward to the
// exits.
mlir::FailureOr<std::vector<GspmdShardMap>> shardMapsOf(mlir::Block& block) {
  llvm::DenseMap<mlir::Operation*, size_t> position;
  for (mlir::Operation& op : block) position[&op] = position.size();
  llvm::EquivalenceClasses<mlir::Operation*> classes;
  for (mlir::Operation& op : block) {
    if (!isEntry(&op) && !isExit(&op)) continue;
    classes.insert(&op);
    if (!isEntry(&op)) continue;
    llvm::SmallVector<mlir::Operation*> worklist = {&op};
    llvm::DenseSet<mlir::Operation*> seen = {&op};
    while (!worklist.empty()) {
      mlir::Operation* current = worklist.pop_back_val();
      for (mlir::Operation* user : current->getUsers()) {
        mlir::Operation* local = block.findAncestorOpInBlock(*user);
        if (!local) continue;
        if (local->hasTrait<mlir::OpTrait::IsTerminator>()) {
          return current->emitError() << "a per-device value of a shard_map leaves it without "
                                         "SPMDShardToFullShape";
        }
        if (isEntry(local)) {
          return local->emitError() << "SPMDFullToShardShape of a value that is already "
                                       "per-device (a shard_map inside a shard_map)";
        }
        classes.unionSets(&op, local);
        if (seen.insert(local).second && !isExit(local)) worklist.push_back(local);
      }
    }
  }

  std::vector<GspmdShardMap> shardMaps;
  for (auto it = classes.begin(); it != classes.end(); ++it) {
    if (!it->isLeader()) continue;
    std::vector<mlir::Operation*> members(classes.member_begin(it), classes.member_end());
    std::sort(members.begin(), members.end(),
              [&](mlir::Operation* a, mlir::Operation* b) { return position[a] < position[b]; });
    GspmdShardMap shardMap;
    llvm::DenseSet<mlir::Value> local;
    for (mlir::Operation* op : members) {
      if (isEntry(op)) {
        shardMap.entries.push_back(llvm::cast<hlo::CustomCallOp>(op));
      } else if (isExit(op)) {
        shardMap.exits.push_back(llvm::cast<hlo::CustomCallOp>(op));
        continue;
      } else {
        shardMap.body.push_back(op);
      }
      local.insert(op->getResults().begin(), op->getResults().end());
    }
    // Every value the body or an exit reads is local, or a constant it may copy.
    llvm::DenseMap<mlir::Operation*, bool> memo;
    llvm::SetVector<mlir::Operation*> slice;
    auto check = [&](mlir::Operation* user, mlir::Value value) -> mlir::LogicalResult {
      if (local.contains(value) || isConstantExpression(value, &block, memo, slice)) {
        return mlir::success();
      }
      if (isExit(user)) {
        return user->emitError() << "SPMDShardToFullShape takes a value that the shard_map's "
                                    "per-device code does not compute";
      }
      return user->emitError() << "per-device code of a shard_map uses a global value that "
                                  "does not enter through SPMDFullToShardShape";
    };
    for (mlir::Operation* op : members) {
      if (isEntry(op)) continue;
      for (mlir::Value operand : op->getOperands()) {
        if (mlir::failed(check(op, operand))) return mlir::failure();
      }
      mlir::LogicalResult captured = mlir::success();
      mlir::visitUsedValuesDefinedAbove(op->getRegions(), [&](mlir::OpOperand* use) {
        if (mlir::succeeded(captured)) captured = check(op, use->get());
      });
      if (mlir::failed(captured)) return mlir::failure();
    }
    shardMap.constants.assign(slice.begin(), slice.end());
    std::sort(shardMap.constants.begin(), shardMap.constants.end(),
              [&](mlir::Operation* a, mlir::Operation* b) { return position[a] < position[b]; });
    shardMaps.push_back(std::move(shardMap));
  }
  std::sort(shardMaps.begin(), shardMaps.end(), [&](const GspmdShardMap& a, const GspmdShardMap& b) {
    auto first = [&](const GspmdShardMap& s) {
      hlo::CustomCallOp op = s.entries.empty() ? s.exits.front() : s.entries.front();
      return position[op.getOperation()];
    };
    return first(a) < first(b);
  });
  return shardMaps;
}

int depthOf(mlir::Block* block) {
  int depth = 0;
  for (mlir::Operation* op = block->getParentOp(); op; op = op->getParentOp()) ++depth;
  return depth;
}

// Inlines every func.call in `region` until none is left.
mlir::LogicalResult inlineCalls(mlir::Region& region, mlir::SymbolTable& symbols,
                                llvm::SetVector<mlir::func::FuncOp>& inlined) {
  for (int round = 0;; ++round) {
    llvm::SmallVector<mlir::func::CallOp> calls;
    region.walk([&](mlir::func::CallOp call) { calls.push_back(call); });
    if (calls.empty()) return mlir::success();
    if (round == kMaxInlineRounds) {
      return calls.front().emitError() << "calls in a shard_map body nest more than "
                                       << kMaxInlineRounds << " deep (recursion?)";
    }
    for (mlir::func::CallOp call : calls) {
      auto callee = symbols.lookup<mlir::func::FuncOp>(call.getCallee());
      if (!callee || callee.isExternal() || !callee.getBody().hasOneBlock()) {
        return call.emitError() << "the shard_map body calls @" << call.getCallee()
                                << ", which has no single-block body to inline";
      }
      mlir::IRMapping mapping;
      mlir::Block& body = callee.getBody().front();
      mapping.map(body.getArguments(), call.getOperands());
      mlir::OpBuilder builder(call);
      for (mlir::Operation& op : body.without_terminator()) builder.clone(op, mapping);
      for (auto [result, returned] :
           llvm::zip(call.getResults(), body.getTerminator()->getOperands())) {
        result.replaceAllUsesWith(mapping.lookupOrDefault(returned));
      }
      call.erase();
      inlined.insert(callee);
    }
  }
}

std::string axesText(const std::set<std::string>& axes) {
  std::string text;
  for (const std::string& axis : axes) text += (text.empty() ? "\"" : ", \"") + axis + "\"";
  return "{" + text + "}";
}

// Removes the manual sharding of `op` (in a body manual over `manualAxes`), as
// cleanUpBody says.
mlir::LogicalResult dropManualSharding(mlir::Operation* op, const std::string& meshName,
                                       const Mesh& mesh,
                                       const std::set<std::string>& manualAxes) {
  const std::string text = hloShardingText(op);
  absl::StatusOr<HloSharding> parsed = HloSharding::Parse(text);
  if (!parsed.ok()) {
    return op->emitError() << "sharding '" << text
                           << "' does not parse: " << std::string(parsed.status().message());
  }
  std::vector<HloSharding> leaves =
      parsed->IsTuple() ? parsed->tuple_elements()
                        : std::vector<HloSharding>(op->getNumResults(), *parsed);
  if (leaves.size() != op->getNumResults()) {
    return op->emitError() << "sharding '" << text << "' has " << leaves.size()
                           << " leaves but the op has " << op->getNumResults() << " results";
  }
  std::optional<ImportedSharding> first;
  for (auto [leaf, result] : llvm::zip(leaves, op->getResults())) {
    const bool manual = leaf.kind() == HloSharding::Kind::kManual ||
                        (leaf.kind() == HloSharding::Kind::kTiled &&
                         llvm::is_contained(leaf.subgroup_types(), SubgroupType::kManual));
    if (!manual) {
      return op->emitError() << "sharding '" << text << "' inside a shard_map body is not "
                                                        "manual";
    }
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(result.getType());
    if (!type) {
      return op->emitError() << "sharding '" << text << "' annotates " << result.getType()
                             << ", which is not a ranked tensor";
    }
    absl::StatusOr<ImportedSharding> imported =
        HloShardingOnMesh(leaf, type.getRank(), meshName, mesh);
    if (!imported.ok()) {
      return op->emitError() << "sharding " << std::string(imported.status().message());
    }
    std::set<std::string> axes(imported->manual_axes.begin(), imported->manual_axes.end());
    if (axes != manualAxes) {
      return op->emitError() << "sharding '" << text << "' is manual over " << axesText(axes)
                             << " inside a shard_map manual over " << axesText(manualAxes);
    }
    if (!first) first = *imported;
  }
  if (!isShardingCustomCall(op)) {
    op->removeAttr(kHloShardingAttr);
    return mlir::success();
  }
  // The annotation's part over the other axes still says how to split the local value.
  const TensorSharding& automatic = first->sharding;
  const bool splits = !automatic.unreduced_axes.empty() ||
                      llvm::any_of(automatic.dims, [](const DimSharding& dim) {
                        return !dim.axes.empty();
                      });
  mlir::Value replacement = op->getOperand(0);
  if (splits) {
    absl::StatusOr<ir::ShardingAttr> attr = TensorShardingToAttr(op->getContext(), automatic);
    if (!attr.ok()) {
      return op->emitError() << "imported sharding is invalid: "
                             << std::string(attr.status().message());
    }
    mlir::OpBuilder builder(op);
    replacement = builder.create<ir::ShardingConstraintOp>(
        op->getLoc(), op->getResult(0).getType(), op->getOperand(0), *attr);
  }
  op->getResult(0).replaceAllUsesWith(replacement);
  op->erase();
  return mlir::success();
}

}  // namespace

std::string hloShardingText(mlir::Operation* op) {
  auto text = op ? op->getAttrOfType<mlir::StringAttr>(kHloShardingAttr) : nullptr;
  return text ? text.str() : "";
}

bool isShardingCustomCall(mlir::Operation* op) {
  return isCustomCall(op, "Sharding") &&
         op->getOperand(0).getType() == op->getResult(0).getType();
}

mlir::FailureOr<std::vector<GspmdShardMap>> findGspmdShardMaps(mlir::ModuleOp module) {
  llvm::SetVector<mlir::Block*> blocks;
  mlir::WalkResult malformed = module.walk([&](hlo::CustomCallOp call) {
    llvm::StringRef target = call.getCallTargetName();
    if (target != "SPMDFullToShardShape" && target != "SPMDShardToFullShape") {
      return mlir::WalkResult::advance();
    }
    if (!isEntry(call) && !isExit(call)) {
      call.emitError() << target << " takes one operand and gives one result";
      return mlir::WalkResult::interrupt();
    }
    blocks.insert(call->getBlock());
    return mlir::WalkResult::advance();
  });
  if (malformed.wasInterrupted()) return mlir::failure();
  llvm::SmallVector<mlir::Block*> ordered = blocks.takeVector();
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](mlir::Block* a, mlir::Block* b) { return depthOf(a) > depthOf(b); });
  std::vector<GspmdShardMap> all;
  for (mlir::Block* block : ordered) {
    mlir::FailureOr<std::vector<GspmdShardMap>> found = shardMapsOf(*block);
    if (mlir::failed(found)) return mlir::failure();
    all.insert(all.end(), found->begin(), found->end());
  }
  return all;
}

mlir::LogicalResult cleanUpBody(ir::ManualComputationOp manual, const std::string& meshName,
                                const Mesh& mesh, const std::set<std::string>& manualAxes,
                                mlir::SymbolTable& symbols,
                                llvm::SetVector<mlir::func::FuncOp>& inlined) {
  if (mlir::failed(inlineCalls(manual.getBody(), symbols, inlined))) return mlir::failure();
  llvm::SmallVector<mlir::Operation*> annotated;
  manual.getBody().walk([&](mlir::Operation* op) {
    if (op->hasAttr(kHloShardingAttr)) annotated.push_back(op);
  });
  for (mlir::Operation* op : annotated) {
    if (mlir::failed(dropManualSharding(op, meshName, mesh, manualAxes))) return mlir::failure();
  }
  return mlir::success();
}

}  // namespace tessel::sharding
