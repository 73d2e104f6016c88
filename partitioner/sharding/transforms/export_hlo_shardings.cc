// --tessel-export-hlo-shardings: every tessel.sharding as the GSPMD text the HLO exporter
// writes (passes.td has the contract).
#include <string>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_EXPORTHLOSHARDINGSPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

constexpr llvm::StringLiteral kHloShardingAttr = "tessel.hlo_sharding";

// The manual axes where `op` runs: those of every enclosing manual computation.
std::vector<std::string> manualAxesAround(mlir::Operation* op) {
  std::vector<std::string> axes;
  for (mlir::Operation* parent = op->getParentOp(); parent; parent = parent->getParentOp()) {
    if (auto manual = llvm::dyn_cast<ir::ManualComputationOp>(parent)) {
      for (mlir::Attribute axis : manual.getManualAxes()) {
        axes.push_back(llvm::cast<mlir::StringAttr>(axis).str());
      }
    }
  }
  return axes;
}

struct ExportHloShardingsPass
    : public impl::ExportHloShardingsPassBase<ExportHloShardingsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::SymbolTable symbols(module);
    // The GSPMD text of one sharding, or an error at `where`.
    auto text = [&](ir::ShardingAttr sharding, const std::vector<std::string>& manual,
                    mlir::Operation* where) -> mlir::FailureOr<std::string> {
      auto mesh = symbols.lookup<ir::MeshOp>(sharding.getMeshName().getValue());
      if (!mesh) {
        return where->emitError() << "sharding " << sharding << " names mesh "
                                  << sharding.getMeshName() << ", which is not in the module";
      }
      absl::StatusOr<HloSharding> hlo = MeshShardingToHlo(
          MeshFromAttr(mesh.getMesh()), TensorShardingFromAttr(sharding), manual);
      if (!hlo.ok()) {
        return where->emitError() << "sharding " << sharding << " has no GSPMD form: "
                                  << hlo.status().message();
      }
      return hlo->ToString();
    };
    mlir::MLIRContext* context = &getContext();
    auto walk = module.walk([&](mlir::Operation* op) -> mlir::WalkResult {
      if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
        for (unsigned i = 0; i < function.getNumArguments(); ++i) {
          auto sharding = function.getArgAttrOfType<ir::ShardingAttr>(
              i, ir::TesselDialect::kShardingAttrName);
          if (!sharding) continue;
          mlir::FailureOr<std::string> hlo = text(sharding, {}, op);
          if (mlir::failed(hlo)) return mlir::WalkResult::interrupt();
          function.setArgAttr(i, kHloShardingAttr, mlir::StringAttr::get(context, *hlo));
        }
        for (unsigned i = 0; i < function.getNumResults(); ++i) {
          auto sharding = function.getResultAttrOfType<ir::ShardingAttr>(
              i, ir::TesselDialect::kShardingAttrName);
          if (!sharding) continue;
          mlir::FailureOr<std::string> hlo = text(sharding, {}, op);
          if (mlir::failed(hlo)) return mlir::WalkResult::interrupt();
          function.setResultAttr(i, kHloShardingAttr, mlir::StringAttr::get(context, *hlo));
        }
        return mlir::WalkResult::advance();
      }
      // A constraint (GSPMD's Sharding custom call) carries its own sharding.
      llvm::SmallVector<ir::ShardingAttr> shardings;
      if (auto constraint = llvm::dyn_cast<ir::ShardingConstraintOp>(op)) {
        shardings.push_back(constraint.getSharding());
      } else if (auto reshard = llvm::dyn_cast<ir::ReshardOp>(op)) {
        shardings.push_back(reshard.getSharding());
      } else if (auto perValue = op->getAttrOfType<ir::ShardingPerValueAttr>(
                     ir::TesselDialect::kShardingAttrName)) {
        shardings.append(perValue.getShardings().begin(), perValue.getShardings().end());
      }
      if (shardings.empty()) return mlir::WalkResult::advance();
      const std::vector<std::string> manual = manualAxesAround(op);
      std::vector<std::string> leaves;
      for (ir::ShardingAttr sharding : shardings) {
        mlir::FailureOr<std::string> hlo = text(sharding, manual, op);
        if (mlir::failed(hlo)) return mlir::WalkResult::interrupt();
        leaves.push_back(*hlo);
      }
      std::string combined;
      if (leaves.size() == 1) {
        combined = leaves.front();
      } else {
        combined = "{";
        for (size_t i = 0; i < leaves.size(); ++i) combined += (i ? ", " : "") + leaves[i];
        combined += "}";
      }
      op->setAttr(kHloShardingAttr, mlir::StringAttr::get(context, combined));
      return mlir::WalkResult::advance();
    });
    if (walk.wasInterrupted()) signalPassFailure();
  }
};

}  // namespace
}  // namespace tessel::sharding
