// Collects the nodes and initial shardings propagation starts from (propagation_graph.h).
#include "partitioner/propagation/propagation_graph.h"

#include <set>
#include <string>
#include <unordered_map>

#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/ir_counts.h"
#include "partitioner/ir/location.h"
#include "partitioner/rules/rule_key.h"
#include "partitioner/rules/sharding_rule_interface.h"

namespace tessel::propagation {
namespace {

std::string describeOp(mlir::Operation* op) {
  return op->getName().getStringRef().str() + " at " + FormatLocation(op->getLoc());
}

Stage stageOf(mlir::Operation* op) {
  if (llvm::isa<hlo::BroadcastInDimOp>(op)) return Stage::kBroadcast;
  if (llvm::isa<hlo::ReshapeOp>(op)) return Stage::kReshape;
  if (op->hasTrait<mlir::OpTrait::Elementwise>() ||
      op->hasTrait<mlir::OpTrait::SameOperandsAndResultShape>() ||
      llvm::isa<hlo::TransposeOp, hlo::ConvertOp, hlo::CompareOp, hlo::SelectOp, hlo::ClampOp,
                ir::ShardingConstraintOp, ir::ReshardOp>(op)) {
    return Stage::kElementwise;
  }
  return Stage::kOther;
}

// A rule that makes all of `values` one tensor: a factor per dimension shared by all.
rules::OpShardingRule identityRule(llvm::ArrayRef<mlir::Value> values) {
  auto type = llvm::cast<mlir::RankedTensorType>(values.front().getType());
  llvm::SmallVector<rules::Factor> factors;
  rules::TensorFactors tensor;
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    factors.push_back({size, rules::FactorKind::kPassThrough, false});
    tensor.push_back({static_cast<int64_t>(dim)});
  }
  llvm::SmallVector<rules::TensorFactors> members(values.size(), tensor);
  return rules::OpShardingRule(factors, members, {});
}

class GraphBuilder {
 public:
  GraphBuilder(mlir::ModuleOp module, bool conservative, bool enterManualBodies,
               bool recordAxisOrigins)
      : module_(module), conservative_(conservative), enterManualBodies_(enterManualBodies) {
    graph_.recordAxisOrigins = recordAxisOrigins;
  }

  mlir::FailureOr<PropagationGraph> build() {
    // Every value may get a slot and most ops a node: sizing the vectors once spares the
    // reallocations, which copy every state and rule (their moves may throw, so vectors
    // copy them) and leave the old arrays behind as garbage.
    const auto [ops, values] = ir::countOpsAndValues(module_);
    graph_.values.reserve(values);
    graph_.slotOf.reserve(values);
    graph_.users.reserve(values);
    graph_.states.reserve(values);
    graph_.shapes.reserve(values);
    graph_.nodes.reserve(ops);
    for (auto mesh : module_.getOps<ir::MeshOp>()) {
      graph_.defaultMeshName = mlir::FlatSymbolRefAttr::get(mesh.getSymNameAttr());
      graph_.defaultMesh = mesh.getMesh();
      break;
    }
    for (auto function : module_.getOps<mlir::func::FuncOp>()) {
      if (function.isDeclaration()) continue;
      if (mlir::failed(addFunction(function))) return mlir::failure();
    }
    graph_.levels.assign(levels_.begin(), levels_.end());
    if (graph_.levels.empty()) graph_.levels.push_back(0);
    return std::move(graph_);
  }

 private:
  // Seeds `value` with `sharding`; keeps an existing seed (the first annotation wins).
  void seed(mlir::Value value, ir::ShardingAttr sharding, std::string origin) {
    MeshAttr mesh = lookupMeshIn(module_, sharding.getMeshName());
    if (!mesh) return;
    TensorState& slotState = graph_.states[slotFor(value)];
    if (slotState.meshName) return;
    TensorState state = stateFromAttr(sharding, mesh);
    state.provenance.origin = std::make_shared<const std::string>(std::move(origin));
    for (auto [d, dim] : llvm::enumerate(state.dims)) {
      if (!graph_.recordAxisOrigins) break;
      for (AxisRefAttr axis : dim.axes) {
        state.axisLinks.push_back(
            {static_cast<int64_t>(d), axis, state.provenance.origin, mlir::Value(), nullptr});
      }
    }
    for (const DimState& dim : state.dims) {
      if (dim.hasPriority()) levels_.insert(dim.priority);
    }
    slotState = std::move(state);
  }

  int32_t slotFor(mlir::Value value) {
    auto [it, inserted] = graph_.slotOf.try_emplace(value, graph_.values.size());
    if (inserted) {
      graph_.values.push_back(value);
      graph_.users.emplace_back();
      graph_.states.emplace_back();
      PropagationGraph::Shape& shape = graph_.shapes.emplace_back();
      if (auto type = llvm::dyn_cast<mlir::RankedTensorType>(value.getType())) {
        shape.rank = type.getRank();
        if (type.hasStaticShape()) shape.numElements = type.getNumElements();
      }
    }
    return it->second;
  }

  // The graph's copy of `rule`: an equal rule kept before, or `rule` itself, moved in.
  const rules::OpShardingRule* intern(rules::OpShardingRule&& rule) {
    llvm::SmallVector<const rules::OpShardingRule*, 1>& sameHash =
        rulesByHash_[static_cast<size_t>(hash_value(rule))];
    for (const rules::OpShardingRule* kept : sameHash) {
      if (*kept == rule) return kept;
    }
    sameHash.push_back(&graph_.rules.emplace_back(std::move(rule)));
    return sameHash.back();
  }

  void addNode(mlir::Operation* op, rules::OpShardingRule&& rule,
               llvm::ArrayRef<mlir::Value> values, Stage stage) {
    addNode(op, intern(std::move(rule)), values, stage);
  }

  // `rule` is one of the graph's kept rules.
  void addNode(mlir::Operation* op, const rules::OpShardingRule* rule,
               llvm::ArrayRef<mlir::Value> values, Stage stage) {
    int64_t index = graph_.nodes.size();
    Node& node = graph_.nodes.emplace_back();
    node.op = op;
    node.rule = rule;
    node.stage = stage;
    for (mlir::Value value : values) {
      int32_t slot = slotFor(value);
      graph_.users[slot].push_back(index);
      node.slots.push_back(slot);
    }
  }

  void addEdge(mlir::Operation* owner, llvm::SmallVector<mlir::Value, 4> members) {
    if (members.size() < 2 || !llvm::isa<mlir::RankedTensorType>(members[0].getType())) return;
    rules::OpShardingRule rule = identityRule(members);
    addNode(owner, std::move(rule), members, Stage::kElementwise);
  }

  mlir::LogicalResult addFunction(mlir::func::FuncOp function) {
    std::string name = function.getSymName().str();
    for (auto [i, arg] : llvm::enumerate(function.getArguments())) {
      if (auto sharding = function.getArgAttrOfType<ir::ShardingAttr>(
              i, ir::TesselDialect::kShardingAttrName)) {
        seed(arg, sharding, "argument " + std::to_string(i) + " of @" + name);
      }
    }
    mlir::WalkResult walk = function.getBody().walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
      return addOp(op);
    });
    if (walk.wasInterrupted()) return mlir::failure();
    // A function result's annotation is a wish for the returned value: it seeds the value
    // unless the value has a sharding of its own, in which case the partitioner reshards
    // at the return.
    auto returnOp = llvm::cast<mlir::func::ReturnOp>(function.getBody().front().getTerminator());
    for (auto [j, value] : llvm::enumerate(returnOp.getOperands())) {
      if (auto sharding = function.getResultAttrOfType<ir::ShardingAttr>(
              j, ir::TesselDialect::kShardingAttrName)) {
        seed(value, sharding, "result " + std::to_string(j) + " of @" + name);
      }
    }
    return mlir::success();
  }

  mlir::WalkResult addOp(mlir::Operation* op) {
    // Existing annotations on op results seed them.
    if (auto shardings = op->getAttrOfType<ir::ShardingPerValueAttr>(
            ir::TesselDialect::kShardingAttrName)) {
      for (auto [value, sharding] : llvm::zip(op->getResults(), shardings.getShardings())) {
        seed(value, sharding, "annotation on " + describeOp(op));
      }
    }
    if (auto constraint = llvm::dyn_cast<ir::ShardingConstraintOp>(op)) {
      seed(constraint.getResult(), constraint.getSharding(), describeOp(op));
    } else if (auto reshard = llvm::dyn_cast<ir::ReshardOp>(op)) {
      seed(reshard.getResult(), reshard.getSharding(), describeOp(op));
    }
    if (auto manual = llvm::dyn_cast<ir::ManualComputationOp>(op)) {
      // A boundary: its results start from its out_shardings and nothing crosses it.
      for (auto [value, sharding] :
           llvm::zip(manual.getResults(), manual.getOutShardings().getAsRange<ir::ShardingAttr>())) {
        seed(value, sharding, "out_shardings of " + describeOp(op));
      }
      if (!enterManualBodies_) return mlir::WalkResult::skip();
      mlir::Block& body = manual.getBody().front();
      for (auto [arg, sharding] :
           llvm::zip(body.getArguments(), manual.getInShardings().getAsRange<ir::ShardingAttr>())) {
        seed(arg, withoutManualAxes(sharding, manual.getManualAxes()),
             "in_shardings of " + describeOp(op));
      }
      return mlir::WalkResult::advance();
    }
    if (auto whileOp = llvm::dyn_cast<hlo::WhileOp>(op)) {
      mlir::Block& cond = whileOp.getCond().front();
      mlir::Block& body = whileOp.getBody().front();
      for (auto [k, input] : llvm::enumerate(whileOp.getInputs())) {
        addEdge(op, {input, whileOp.getResult(k), cond.getArgument(k), body.getArgument(k),
                     body.getTerminator()->getOperand(k)});
      }
      return mlir::WalkResult::advance();
    }
    if (auto caseOp = llvm::dyn_cast<hlo::CaseOp>(op)) {
      for (auto [k, result] : llvm::enumerate(caseOp.getResults())) {
        llvm::SmallVector<mlir::Value, 4> members = {result};
        for (mlir::Region& branch : caseOp.getBranches()) {
          members.push_back(branch.front().getTerminator()->getOperand(k));
        }
        addEdge(op, members);
      }
      return mlir::WalkResult::advance();
    }
    if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op)) {
      auto callee = module_.lookupSymbol<mlir::func::FuncOp>(call.getCalleeAttr());
      if (!callee || callee.isDeclaration()) return mlir::WalkResult::advance();
      for (auto [operand, arg] : llvm::zip(call.getOperands(), callee.getArguments())) {
        addEdge(op, {operand, arg});
      }
      mlir::Operation* calleeReturn = callee.getBody().front().getTerminator();
      for (auto [result, returned] : llvm::zip(call.getResults(), calleeReturn->getOperands())) {
        addEdge(op, {result, returned});
      }
      return mlir::WalkResult::advance();
    }
    const rules::OpShardingRule* rule = nullptr;
    const bool keyed = rules::ruleKeyOf(op, ruleKey_);
    if (const rules::OpShardingRule* const* kept = keyed ? rulesByKey_.find(ruleKey_) : nullptr) {
      rule = *kept;
    } else {
      rules::ShardingRuleOptions ruleOptions;
      ruleOptions.conservative = conservative_;
      rules::ShardingRuleOrNone answer = rules::getShardingRuleOf(op, ruleOptions);
      if (auto* made = std::get_if<rules::OpShardingRule>(&answer)) {
        rule = intern(std::move(*made));
        if (keyed) rulesByKey_.insert(ruleKey_, rule);
      }
    }
    if (rule) {
      llvm::SmallVector<mlir::Value, 4> values(op->getOperands());
      values.append(op->result_begin(), op->result_end());
      addNode(op, rule, values, stageOf(op));
    }
    // The regions of other ops (reducers, comparators, scatter updates) compute on single
    // elements: there is nothing in them to shard.
    return op->getNumRegions() > 0 ? mlir::WalkResult::skip() : mlir::WalkResult::advance();
  }

  // The distinct rules kept so far, by hash.
  std::unordered_map<size_t, llvm::SmallVector<const rules::OpShardingRule*, 1>> rulesByHash_;
  // The kept rules of ops whose rule follows from what rules::ruleKeyOf keys, by that key.
  rules::RulesByKey<const rules::OpShardingRule*> rulesByKey_;
  rules::RuleKey ruleKey_;  // reused
  mlir::ModuleOp module_;
  bool conservative_;
  bool enterManualBodies_;
  PropagationGraph graph_;
  std::set<int64_t> levels_;
};

}  // namespace

MeshAttr lookupMeshIn(mlir::ModuleOp module, mlir::FlatSymbolRefAttr name) {
  auto mesh = module.lookupSymbol<ir::MeshOp>(name);
  return mesh ? mesh.getMesh() : MeshAttr();
}

mlir::FailureOr<PropagationGraph> buildPropagationGraph(mlir::ModuleOp module,
                                                        bool conservative,
                                                        bool enterManualBodies,
                                                        bool recordAxisOrigins) {
  return GraphBuilder(module, conservative, enterManualBodies, recordAxisOrigins).build();
}

ir::ShardingAttr withoutManualAxes(ir::ShardingAttr sharding, mlir::ArrayAttr manualAxes) {
  auto isManual = [&](ir::AxisRefAttr axis) {
    return llvm::is_contained(manualAxes.getAsValueRange<mlir::StringAttr>(), axis.getName());
  };
  auto keep = [&](llvm::ArrayRef<ir::AxisRefAttr> axes) {
    return llvm::to_vector(llvm::make_filter_range(axes, [&](ir::AxisRefAttr axis) {
      return !isManual(axis);
    }));
  };
  mlir::MLIRContext* context = sharding.getContext();
  llvm::SmallVector<ir::DimShardingAttr> dims;
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    dims.push_back(ir::DimShardingAttr::get(context, keep(dim.getAxes()), dim.getIsClosed(),
                                            dim.getPriority()));
  }
  return ir::ShardingAttr::get(context, sharding.getMeshName(), dims,
                               keep(sharding.getReplicatedAxes()),
                               keep(sharding.getUnreducedAxes()));
}

}  // namespace tessel::propagation
