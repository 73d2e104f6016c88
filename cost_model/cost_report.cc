// Building a cost report: one walk over the function's ops in order, into control flow and
// callees, summing op and collective estimates (a counted loop's body times its trips);
// peak memory from peak_memory.h.
#include "cost_model/cost_report.h"

#include <vector>

#include "absl/strings/str_join.h"
#include "cost_model/op_cost.h"
#include "cost_model/peak_memory.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/trip_count.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::cost_model {
namespace {

// A collective and how many times it runs (the trips of the loops around it).
struct RepeatedCollective {
  CollectiveOpCost cost;
  double times = 1;
};

// The sums over some ops; a case keeps the costliest branch's.
struct Totals {
  double flops = 0;
  double bytes = 0;
  double compute_seconds = 0;
  std::vector<RepeatedCollective> collectives;
  int64_t while_loops = 0;

  double Seconds() const {
    double seconds = compute_seconds;
    for (const RepeatedCollective& collective : collectives) {
      seconds += collective.times * collective.cost.estimate.seconds;
    }
    return seconds;
  }

  // Adds `other` run `times` times.
  void Add(const Totals& other, double times = 1) {
    flops += times * other.flops;
    bytes += times * other.bytes;
    compute_seconds += times * other.compute_seconds;
    for (const RepeatedCollective& collective : other.collectives) {
      collectives.push_back({collective.cost, times * collective.times});
    }
    while_loops += other.while_loops;
  }
};

class Walker {
 public:
  explicit Walker(const HardwareSpec& spec) : spec_(spec) {}

  Totals WalkRegion(mlir::Region& region) {
    Totals totals;
    for (mlir::Block& block : region) {
      for (mlir::Operation& op : block) totals.Add(WalkOp(&op));
    }
    return totals;
  }

  Totals WalkFunction(mlir::func::FuncOp func) {
    // A recursive call would walk its callee forever; the outer walk already counts it once.
    if (func.isExternal() || !visiting_.insert(func).second) return Totals();
    Totals totals = WalkRegion(func.getBody());
    visiting_.erase(func);
    return totals;
  }

 private:
  Totals WalkOp(mlir::Operation* op) {
    Totals totals;
    if (std::optional<CollectiveOpCost> collective = EstimateCollectiveOp(op, spec_)) {
      totals.collectives.push_back({*collective, 1});
      return totals;
    }
    OpCost cost = EstimateOpCost(op);
    totals.flops = cost.flops;
    totals.bytes = cost.bytes;
    totals.compute_seconds = OpSeconds(cost, spec_);
    if (auto loop = llvm::dyn_cast<hlo::WhileOp>(op)) {
      // A counted loop runs its condition once more than its body; other loops count once.
      std::optional<int64_t> trips = hlo::staticTripCount(loop);
      if (!trips) ++totals.while_loops;
      totals.Add(WalkRegion(loop.getCond()), trips ? *trips + 1 : 1);
      totals.Add(WalkRegion(loop.getBody()), trips ? *trips : 1);
    } else if (llvm::isa<hlo::CaseOp>(op)) {
      Totals costliest;
      bool first = true;
      for (mlir::Region& region : op->getRegions()) {
        Totals branch = WalkRegion(region);
        if (first || branch.Seconds() > costliest.Seconds()) costliest = branch;
        first = false;
      }
      totals.Add(costliest);
    } else if (llvm::isa<ir::ManualComputationOp>(op)) {
      totals.Add(WalkRegion(op->getRegion(0)));
    } else if (auto call = llvm::dyn_cast<mlir::func::CallOp>(op)) {
      auto callee = mlir::SymbolTable::lookupNearestSymbolFrom<mlir::func::FuncOp>(
          op, call.getCalleeAttr());
      if (callee) totals.Add(WalkFunction(callee));
    }
    // Other regions (reducers, comparators) are part of their op's formula.
    return totals;
  }

  const HardwareSpec& spec_;
  llvm::SmallPtrSet<mlir::Operation*, 4> visiting_;
};

// The number of devices of the mesh `func` works on: that of its first collective, else of
// its first sharded argument or result, else of the module's first mesh, else 1.
int64_t DeviceCount(mlir::func::FuncOp func) {
  int64_t devices = 0;
  func.walk([&](mlir::Operation* op) {
    if (llvm::isa<ir::AllReduceOp, ir::AllGatherOp, ir::ReduceScatterOp, ir::AllToAllOp,
                  ir::CollectivePermuteOp>(op)) {
      if (auto mesh_name = op->getAttrOfType<mlir::FlatSymbolRefAttr>("mesh_name")) {
        if (auto mesh = mlir::SymbolTable::lookupNearestSymbolFrom<ir::MeshOp>(op, mesh_name)) {
          devices = mesh.getMesh().getTotalSize();
          return mlir::WalkResult::interrupt();
        }
      }
    }
    return mlir::WalkResult::advance();
  });
  if (devices > 0) return devices;
  auto lookup = [&](ir::ShardingAttr sharding) -> int64_t {
    if (!sharding) return 0;
    auto mesh = mlir::SymbolTable::lookupNearestSymbolFrom<ir::MeshOp>(
        func, sharding.getMeshName());
    return mesh ? mesh.getMesh().getTotalSize() : 0;
  };
  for (unsigned i = 0; i < func.getNumArguments() && devices == 0; ++i) {
    devices = lookup(func.getArgAttrOfType<ir::ShardingAttr>(
        i, ir::TesselDialect::kShardingAttrName));
  }
  for (unsigned i = 0; i < func.getNumResults() && devices == 0; ++i) {
    devices = lookup(func.getResultAttrOfType<ir::ShardingAttr>(
        i, ir::TesselDialect::kShardingAttrName));
  }
  if (devices > 0) return devices;
  if (auto module = func->getParentOfType<mlir::ModuleOp>()) {
    for (ir::MeshOp mesh : module.getOps<ir::MeshOp>()) return mesh.getMesh().getTotalSize();
  }
  return 1;
}

}  // namespace

CostReport BuildCostReport(mlir::func::FuncOp func, const HardwareSpec& spec,
                           const PlaceNamer& name_of) {
  CostReport report;
  report.function = func.getSymName().str();
  report.hardware = spec.name();
  report.devices = DeviceCount(func);
  report.memory_capacity_bytes = spec.memory_capacity_bytes();

  PeakMemory memory = EstimatePeakMemory(func);
  report.argument_bytes = memory.argument_bytes;
  report.result_bytes = memory.result_bytes;
  report.peak_bytes = memory.peak_bytes;
  if (memory.peak_op) {
    report.peak_op = memory.peak_op->getName().getStringRef().str();
    report.peak_location = FormatLocation(memory.peak_op->getLoc());
    const mlir::Location loc = memory.peak_op->getLoc();
    if (name_of) {
      report.peak_value = name_of(loc);
    } else if (auto name = mlir::dyn_cast<mlir::NameLoc>(loc)) {
      report.peak_value = name.getName().str();
    }
  }

  Walker walker(spec);
  Totals totals = walker.WalkFunction(func);
  report.flops = totals.flops;
  report.memory_traffic_bytes = totals.bytes;
  report.compute_seconds = totals.compute_seconds;
  report.while_loops = totals.while_loops;
  for (const auto& [collective, times] : totals.collectives) {
    for (CollectiveTotals* sums :
         {&report.by_kind[collective.kind],
          &report.by_kind_and_axes[{collective.kind, absl::StrJoin(collective.axes, ",")}]}) {
      sums->count += static_cast<int64_t>(times);
      sums->operand_bytes += times * collective.estimate.operand_bytes;
      sums->sent_bytes += times * collective.estimate.sent_bytes;
      sums->seconds += times * collective.estimate.seconds;
    }
    report.communication_seconds += times * collective.estimate.seconds;
  }
  report.step_seconds = report.compute_seconds + report.communication_seconds;
  return report;
}

}  // namespace tessel::cost_model
