// Counting what the differential fuzzer exercised (see fuzz_coverage.h).
#include "tests/differential/fuzz_coverage.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::testing {
namespace {

// The sharding forms a tessel.sharding attribute uses.
void AddShardingForms(FuzzCoverage& coverage, ir::ShardingAttr sharding) {
  bool split = false;
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    if (!dim.getIsClosed()) coverage.Add("sharding", "open dim");
    if (dim.getPriority()) coverage.Add("sharding", "priority");
    if (dim.getAxes().size() > 1) coverage.Add("sharding", "several axes on a dim");
    for (ir::AxisRefAttr axis : dim.getAxes()) {
      split = true;
      if (axis.isSubAxis()) coverage.Add("sharding", "sub-axis");
    }
  }
  if (split) coverage.Add("sharding", "split dim");
  if (!sharding.getReplicatedAxes().empty()) coverage.Add("sharding", "replicated axes");
  if (!sharding.getUnreducedAxes().empty()) coverage.Add("sharding", "unreduced axes");
}

}  // namespace

void FuzzCoverage::Add(const std::string& category, const std::string& name) {
  current_.insert({category, name});
}

void FuzzCoverage::AddInput(mlir::ModuleOp module) {
  module.walk([&](mlir::Operation* op) {
    if (auto mesh = llvm::dyn_cast<ir::MeshOp>(op)) {
      ir::MeshAttr attr = mesh.getMesh();
      Add("mesh", absl::StrCat(attr.getAxes().size(), "-D"));
      const int64_t devices = attr.getTotalSize();
      Add("mesh", devices > 8 ? "9 to 16 devices" : absl::StrCat(devices, " devices"));
      return;
    }
    if (llvm::isa<mlir::ModuleOp, mlir::func::FuncOp, mlir::func::ReturnOp>(op)) return;
    Add("op", op->getName().getStringRef().str());
    for (mlir::NamedAttribute named : op->getAttrs()) {
      if (auto sharding = llvm::dyn_cast<ir::ShardingAttr>(named.getValue())) {
        AddShardingForms(*this, sharding);
      }
    }
  });
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      if (auto sharding = func.getArgAttrOfType<ir::ShardingAttr>(
              i, ir::TesselDialect::kShardingAttrName)) {
        AddShardingForms(*this, sharding);
      }
    }
    for (unsigned i = 0; i < func.getNumResults(); ++i) {
      if (auto sharding = func.getResultAttrOfType<ir::ShardingAttr>(
              i, ir::TesselDialect::kShardingAttrName)) {
        AddShardingForms(*this, sharding);
        Add("sharding", "on a result");
      }
    }
  }
}

void FuzzCoverage::AddPartitioned(mlir::ModuleOp module) {
  module.walk([&](mlir::Operation* op) {
    if (llvm::isa<ir::AllGatherOp, ir::AllReduceOp, ir::ReduceScatterOp, ir::AllToAllOp,
                  ir::CollectivePermuteOp>(op)) {
      Add("collective", op->getName().getStringRef().str());
    }
  });
}

void FuzzCoverage::AddStrategy(mlir::Operation* op, size_t chosen, size_t applicable) {
  const std::string name = op->getName().getStringRef().str();
  Add("strategy", absl::StrCat(name, " candidate ", chosen));
  for (size_t k = 0; k < applicable; ++k) {
    Add("strategy offered", absl::StrCat(name, " candidate ", k));
  }
}

void FuzzCoverage::AddDiagnostic(const mlir::Diagnostic& diagnostic) {
  // The replication fallback's message starts with the quoted op name.
  const std::string text = diagnostic.str();
  if (text.find("replicat") == std::string::npos || text.empty() || text[0] != '\'') return;
  const size_t end = text.find('\'', 1);
  if (end != std::string::npos) Add("fallback", text.substr(1, end - 1));
}

void FuzzCoverage::EndCase() {
  for (const auto& entry : current_) ++totals_[entry];
  current_.clear();
  ++cases_;
}

void FuzzCoverage::Merge(const FuzzCoverage& other) {
  for (const auto& [entry, count] : other.totals_) totals_[entry] += count;
  cases_ += other.cases_;
}

int64_t FuzzCoverage::Count(const std::string& category, const std::string& name) const {
  auto found = totals_.find({category, name});
  return found == totals_.end() ? 0 : found->second;
}

std::vector<std::string> FuzzCoverage::Below(const std::string& category,
                                             const std::vector<std::string>& names,
                                             int64_t minimum) const {
  std::vector<std::string> below;
  for (const std::string& name : names) {
    const int64_t count = Count(category, name);
    if (count < minimum) below.push_back(absl::StrCat(name, " (", count, ")"));
  }
  return below;
}

std::vector<std::string> FuzzCoverage::StrategiesBelow(int64_t minimum) const {
  std::vector<std::string> below;
  for (const auto& [entry, offered] : totals_) {
    if (entry.first != "strategy offered") continue;
    const int64_t chosen = Count("strategy", entry.second);
    if (chosen < minimum) {
      below.push_back(absl::StrCat(entry.second, " (", chosen, " chosen, ", offered, " offered)"));
    }
  }
  return below;
}

void FuzzCoverage::Print(std::ostream& os) const {
  os << "coverage over " << cases_ << " cases (cases that exercised each):\n";
  std::string category;
  for (const auto& [entry, count] : totals_) {
    if (entry.first != category) {
      category = entry.first;
      os << "  " << category << ":\n";
    }
    os << "    " << entry.second << ": " << count << "\n";
  }
}

}  // namespace tessel::testing
