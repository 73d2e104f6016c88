// --tessel-export-hlo-shardings: every tessel.sharding as the GSPMD text the HLO exporter
// writes (passes.td has the contract).
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_EXPORTHLOSHARDINGSPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

constexpr llvm::StringLiteral kHloShardingAttr = ir::kGspmdShardingAttr;

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

// `sharding` without the axes in `manual`: how a manual computation's local value is split
// over the axes left to automatic partitioning.
TensorSharding WithoutAxes(TensorSharding sharding, const std::vector<std::string>& manual) {
  auto isManual = [&](const AxisRef& axis) {
    return std::find(manual.begin(), manual.end(), axis.name) != manual.end();
  };
  for (DimSharding& dim : sharding.dims) llvm::erase_if(dim.axes, isManual);
  llvm::erase_if(sharding.replicated_axes, isManual);
  llvm::erase_if(sharding.unreduced_axes, isManual);
  return sharding;
}

struct ExportHloShardingsPass
    : public impl::ExportHloShardingsPassBase<ExportHloShardingsPass> {
  void runOnOperation() override {
    mlir::ModuleOp module = getOperation();
    mlir::SymbolTable symbols(module);
    // The GSPMD text of one sharding (its local part along `manual`, as a manual subgroup,
    // with `local`), or an error at `where`.
    auto text = [&](ir::ShardingAttr sharding, const std::vector<std::string>& manual,
                    mlir::Operation* where, bool local = false) -> mlir::FailureOr<std::string> {
      auto mesh = symbols.lookup<ir::MeshOp>(sharding.getMeshName().getValue());
      if (!mesh) {
        return where->emitError() << "sharding " << sharding << " names mesh "
                                  << sharding.getMeshName() << ", which is not in the module";
      }
      TensorSharding tensor = TensorShardingFromAttr(sharding);
      if (local) tensor = WithoutAxes(std::move(tensor), manual);
      absl::StatusOr<HloSharding> hlo =
          MeshShardingToHlo(MeshFromAttr(mesh.getMesh()), tensor, manual);
      if (!hlo.ok()) {
        return where->emitError() << "sharding " << sharding << " has no GSPMD form: "
                                  << std::string(hlo.status().message());
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
      // A manual computation is written as GSPMD's shard_map: each operand's in sharding,
      // then its local value's (manual along the manual axes); each result's local value's,
      // then its out sharding.
      if (auto manual = llvm::dyn_cast<ir::ManualComputationOp>(op)) {
        std::vector<std::string> axes;
        for (mlir::Attribute axis : manual.getManualAxes()) {
          axes.push_back(llvm::cast<mlir::StringAttr>(axis).str());
        }
        const std::vector<std::string> outer = manualAxesAround(op);
        for (auto [shardings, global, local] :
             {std::make_tuple(manual.getInShardings(), "tessel.hlo_in_shardings",
                              "tessel.hlo_in_local_shardings"),
              std::make_tuple(manual.getOutShardings(), "tessel.hlo_out_shardings",
                              "tessel.hlo_out_local_shardings")}) {
          llvm::SmallVector<mlir::Attribute> globalTexts, localTexts;
          for (auto sharding : shardings.getAsRange<ir::ShardingAttr>()) {
            mlir::FailureOr<std::string> whole = text(sharding, outer, op);
            mlir::FailureOr<std::string> part = text(sharding, axes, op, /*local=*/true);
            if (mlir::failed(whole) || mlir::failed(part)) return mlir::WalkResult::interrupt();
            globalTexts.push_back(mlir::StringAttr::get(context, *whole));
            localTexts.push_back(mlir::StringAttr::get(context, *part));
          }
          op->setAttr(global, mlir::ArrayAttr::get(context, globalTexts));
          op->setAttr(local, mlir::ArrayAttr::get(context, localTexts));
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
