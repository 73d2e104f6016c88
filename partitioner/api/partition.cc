// Partition(): propagation and partitioning of a copy of a program, and the record of what
// they did: each value's sharding and its origin, the fallbacks, the collectives.
#include "partitioner/api/partition.h"

#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "cost_model/cost_report.h"
#include "cost_model/hardware_spec.h"
#include "partitioner/api/diagnostics.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/api/program_mlir.h"
#include "partitioner/api/value_halos.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/passes/collective_combining.h"
#include "partitioner/passes/hierarchical_all_reduce.h"
#include "partitioner/passes/weight_update_sharding.h"
#include "partitioner/auto/auto_sharding.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/spmd/partition.h"
#include "runtime/element_type.h"
#include "support/status_macros.h"

namespace tessel {
namespace {

// What the partitioner's fallback remarks and, under replicationIsError, its errors say
// (partitioner/spmd/fallback.cc).
constexpr absl::string_view kReplicationRemark = "is partitioned by replication";
constexpr absl::string_view kForbiddenReplication = "would be partitioned by replication";

// "program.mlir:4:8", or "" where the location has no place in a file.
std::string KnownLocation(mlir::Location loc) {
  return loc->findInstanceOf<mlir::FileLineColLoc>() ? FormatLocation(loc) : "";
}

// The name a name location gives (GraphBuilder::Named, `loc("h")`), or "".
std::string SourceName(mlir::Location loc) {
  auto name = loc->findInstanceOf<mlir::NameLoc>();
  return name ? name.getName().str() : "";
}

// A copy of `module` in a fresh context. A Program owns its context, so the partitioned
// program cannot share the input's; printing with locations and parsing back keeps every
// op, attribute and source position.
absl::StatusOr<std::pair<std::unique_ptr<mlir::MLIRContext>, mlir::OwningOpRef<mlir::ModuleOp>>>
CopyModule(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os, mlir::OpPrintingFlags().enableDebugInfo().printGenericOpForm());
  auto context = std::make_unique<mlir::MLIRContext>();
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> copy,
                          ParseModule(os.str(), "program.mlir", *context));
  return std::make_pair(std::move(context), std::move(copy));
}

// The Sharding of `attr` (null: none) with its mesh looked up by name.
absl::StatusOr<std::optional<Sharding>> ToSharding(ir::ShardingAttr attr,
                                                   const std::vector<Mesh>& meshes) {
  if (!attr) return std::nullopt;
  for (const Mesh& mesh : meshes) {
    if (mesh.name() == attr.getMeshName().getValue()) {
      TESSEL_ASSIGN_OR_RETURN(Sharding sharding, api_internal::FromShardingAttr(attr, mesh));
      return sharding;
    }
  }
  return absl::InternalError(
      absl::StrCat("sharding names mesh @", attr.getMeshName().getValue().str(),
                   " which the program does not declare"));
}

// Everything PartitionResult holds but the program, which is made last.
struct Records {
  std::vector<ShardedValue> parameters;
  std::vector<ShardedValue> op_results;
  std::vector<ShardedValue> results;
  std::vector<FallbackWarning> fallback_warnings;
};

// "hlo.add (program.mlir:3:8)", "hlo.add ('h' at my_model.cc:42)" for a named value, or
// "hlo.add" without a known location.
std::string DescribeStep(mlir::Operation* op) {
  std::string step = op->getName().getStringRef().str();
  if (!mlir::isa<mlir::UnknownLoc>(op->getLoc())) {
    absl::StrAppend(&step, " (", api_internal::UserLocation(op->getLoc()), ")");
  }
  return step;
}

Explanation Explain(const propagation::PropagationReport& report, mlir::Value value,
                    ir::ShardingAttr sharding) {
  Explanation explanation;
  std::optional<propagation::Provenance> provenance = report.provenanceOf(value);
  if (!provenance) return explanation;
  explanation.origin = provenance->origin;
  for (mlir::Operation* op : provenance->path) explanation.path.push_back(DescribeStep(op));
  for (const propagation::AxisProvenance& axis : report.axisProvenanceOf(value, sharding)) {
    Explanation::Axis explained;
    explained.dimension = axis.dim;
    explained.axis = axis.axis.getName().str();
    if (axis.axis.isSubAxis()) {
      absl::StrAppend(&explained.axis, ":(", axis.axis.getPreSize(), ")",
                      axis.axis.getSubSize());
    }
    explained.origin = axis.origin;
    for (mlir::Operation* op : axis.path) explained.path.push_back(DescribeStep(op));
    explanation.axes.push_back(std::move(explained));
  }
  return explanation;
}

// Fills the per-value records from the propagated (not yet partitioned) entry function.
absl::Status RecordShardings(mlir::func::FuncOp entry, const std::vector<Mesh>& meshes,
                             const propagation::PropagationReport& report,
                             Records& result) {
  auto sharding_key = ir::TesselDialect::kShardingAttrName;
  for (mlir::BlockArgument arg : entry.getArguments()) {
    ShardedValue value;
    value.kind = ShardedValue::Kind::kParameter;
    value.index = arg.getArgNumber();
    value.source_name = SourceName(arg.getLoc());
    TESSEL_ASSIGN_OR_RETURN(value.type, api_internal::FromMlirType(arg.getType()));
    auto attr = entry.getArgAttrOfType<ir::ShardingAttr>(arg.getArgNumber(), sharding_key);
    TESSEL_ASSIGN_OR_RETURN(value.sharding, ToSharding(attr, meshes));
    value.explanation = Explain(report, arg, attr);
    value.halos = api_internal::HalosOf(arg, attr, entry);
    result.parameters.push_back(std::move(value));
  }
  // Program order, descending only into the bodies propagation shards (while and case);
  // other regions compute on single elements.
  int64_t op_index = 0;
  absl::Status status;
  entry.getBody().walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
    if (llvm::isa<mlir::func::ReturnOp>(op)) return mlir::WalkResult::advance();
    int64_t index = op_index++;
    auto shardings = op->getAttrOfType<ir::ShardingPerValueAttr>(sharding_key);
    for (auto [k, op_result] : llvm::enumerate(op->getResults())) {
      absl::StatusOr<TensorType> type = api_internal::FromMlirType(op_result.getType());
      if (!type.ok()) continue;  // tokens and other non-tensors have no sharding to report
      ShardedValue value;
      value.kind = ShardedValue::Kind::kOpResult;
      value.index = index;
      value.result_number = static_cast<int64_t>(k);
      value.op_name = op->getName().getStringRef().str();
      value.location = KnownLocation(op->getLoc());
      value.source_name = SourceName(op->getLoc());
      if (!value.source_name.empty() && op->getNumResults() > 1) {
        absl::StrAppend(&value.source_name, "#", k);
      }
      value.type = *std::move(type);
      if (shardings && k < shardings.getShardings().size()) {
        absl::StatusOr<std::optional<Sharding>> sharding =
            ToSharding(shardings.getShardings()[k], meshes);
        if (!sharding.ok()) {
          status = sharding.status();
          return mlir::WalkResult::interrupt();
        }
        value.sharding = *std::move(sharding);
      }
      ir::ShardingAttr attr = shardings && k < shardings.getShardings().size()
                                  ? shardings.getShardings()[k]
                                  : ir::ShardingAttr();
      value.explanation = Explain(report, op_result, attr);
      value.halos = api_internal::HalosOf(op_result, attr, entry);
      result.op_results.push_back(std::move(value));
    }
    bool descend = op->getNumRegions() == 0 || llvm::isa<hlo::WhileOp, hlo::CaseOp>(op);
    return descend ? mlir::WalkResult::advance() : mlir::WalkResult::skip();
  });
  TESSEL_RETURN_IF_ERROR(status);
  mlir::Operation* terminator = entry.getBody().front().getTerminator();
  for (unsigned i = 0; i < entry.getNumResults(); ++i) {
    ShardedValue value;
    value.kind = ShardedValue::Kind::kResult;
    value.index = i;
    TESSEL_ASSIGN_OR_RETURN(value.type, api_internal::FromMlirType(entry.getResultTypes()[i]));
    auto attr = entry.getResultAttrOfType<ir::ShardingAttr>(i, sharding_key);
    TESSEL_ASSIGN_OR_RETURN(value.sharding, ToSharding(attr, meshes));
    value.explanation = Explain(report, terminator->getOperand(i), attr);
    result.results.push_back(std::move(value));
  }
  return absl::OkStatus();
}

// "'hlo.sort' is partitioned by replication: ..." → "hlo.sort".
std::string QuotedOpName(const std::string& message) {
  size_t open = message.find('\'');
  size_t close = open == std::string::npos ? open : message.find('\'', open + 1);
  if (close == std::string::npos) return "";
  return message.substr(open + 1, close - open - 1);
}

int64_t LocalBytes(mlir::Type type) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape()) return 0;
  absl::StatusOr<runtime::ElementType> element =
      runtime::ElementTypeFromMlir(tensor.getElementType());
  if (!element.ok()) return 0;
  return tensor.getNumElements() * runtime::ElementTypeSize(*element);
}

// Collectives are the tessel ops that name device groups by a mesh and its axes.
CollectiveSummary SummarizeCollectives(mlir::ModuleOp module) {
  std::map<std::tuple<std::string, std::string, std::string>, CollectiveSummary::Entry> entries;
  module.walk([&](mlir::Operation* op) {
    if (op->getDialect() == nullptr ||
        op->getDialect()->getNamespace() != ir::TesselDialect::getDialectNamespace()) {
      return;
    }
    auto axes = op->getAttrOfType<mlir::ArrayAttr>("axes");
    auto mesh = op->getAttrOfType<mlir::FlatSymbolRefAttr>("mesh_name");
    if (!axes || !mesh) return;
    CollectiveSummary::Entry entry;
    entry.kind = op->getName().stripDialect().str();
    entry.mesh = mesh.getValue().str();
    for (mlir::Attribute axis : axes) {
      auto ref = mlir::dyn_cast<ir::AxisRefAttr>(axis);
      if (!ref) continue;
      entry.axes.push_back(ref.isSubAxis() ? AxisRef::Sub(ref.getName().str(), ref.getPreSize(),
                                                           ref.getSubSize())
                                           : AxisRef(ref.getName().str()));
    }
    std::string axes_key = absl::StrJoin(entry.axes, ",", [](std::string* out, const AxisRef& a) {
      out->append(a.ToString());
    });
    auto key = std::make_tuple(entry.kind, entry.mesh, axes_key);
    auto [it, inserted] = entries.emplace(key, std::move(entry));
    it->second.count += 1;
    for (mlir::Type type : op->getResultTypes()) it->second.bytes_per_device += LocalBytes(type);
  });
  CollectiveSummary summary;
  for (auto& [key, entry] : entries) summary.entries.push_back(std::move(entry));
  return summary;
}

}  // namespace

absl::StatusOr<PartitionResult> Partition(const Program& program,
                                          const PartitionOptions& options) {
  if (program.is_partitioned()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the program is partitioned already (for ", program.num_partitions(), " devices)"));
  }
  cost_model::HardwareSpec hardware = cost_model::DefaultHardwareSpec();
  if (!options.hardware_spec.empty()) {
    TESSEL_ASSIGN_OR_RETURN(hardware,
                            cost_model::ParseHardwareSpec(options.hardware_spec, "hardware_spec"));
  }
  TESSEL_ASSIGN_OR_RETURN(auto copy, CopyModule(GetMlirModule(program)));
  auto& [context, module] = copy;
  const std::vector<Mesh>& meshes = program.meshes();
  // Meshes over the program's devices all have its device count, except the one-device
  // meshes of values placed on a single device, which name their device by id.
  const Mesh* widest = nullptr;
  for (const Mesh& mesh : meshes) {
    if (!widest || mesh.num_devices() > widest->num_devices()) widest = &mesh;
  }
  const int64_t num_partitions = ir::ModuleDeviceCount(GetMlirModule(program));
  for (const Mesh& mesh : meshes) {
    const bool onOneDevice = mesh.num_devices() == 1 && !mesh.explicit_device_ids().empty();
    if (mesh.num_devices() != widest->num_devices() && !onOneDevice) {
      return absl::InvalidArgumentError(absl::StrCat(
          "meshes @", widest->name(), " (", widest->num_devices(), " devices) and @",
          mesh.name(), " (", mesh.num_devices(),
          " devices) differ in size; a partitioned program runs on one number of devices"));
    }
  }
  auto entry = module->lookupSymbol<mlir::func::FuncOp>(
      api_internal::ToStringRef(program.entry_function()));

  Records result;
  std::optional<AutoShardingSummary> chosen;
  if (options.auto_sharding) {
    auto_sharding::AutoShardingOptions auto_options;
    auto_options.memoryLimitBytes = options.auto_sharding->memory_limit_bytes;
    auto_options.timeLimitSeconds = options.auto_sharding->time_limit_seconds;
    auto_options.function = program.entry_function();
    TESSEL_ASSIGN_OR_RETURN(auto_sharding::AutoShardingResult plan,
                            auto_sharding::autoShard(*module, hardware, auto_options));
    chosen = AutoShardingSummary{plan.objectiveSeconds, plan.computeSeconds,
                                 plan.communicationSeconds, plan.optimal, plan.solveSeconds,
                                 plan.memoryLimitBytes, plan.estimatedPeakBytes,
                                 plan.reshardSeconds, plan.choices, plan.repeatedLayers,
                                 plan.repeatedLayerRuns, plan.wholeOps};
  }
  {
    api_internal::DiagnosticCollector diagnostics(context.get());
    propagation::PropagationOptions propagation_options;
    propagation_options.conservative = options.conservative_propagation;
    propagation_options.recordAxisOrigins = true;  // PartitionResult explains every axis
    propagation::PropagationReport report;
    if (mlir::failed(propagation::propagateShardings(*module, propagation_options, &report))) {
      return absl::InvalidArgumentError(
          absl::StrCat("sharding propagation failed: ", diagnostics.Errors()));
    }
    if (options.shard_weight_update) {
      passes::shardWeightUpdates(*module, passes::WeightUpdateShardingOptions());
    }
    TESSEL_RETURN_IF_ERROR(RecordShardings(entry, meshes, report, result));
  }
  {
    api_internal::DiagnosticCollector diagnostics(context.get());
    spmd::PartitionOptions partition_options;
    partition_options.replicationIsError = options.replication_is_error;
    partition_options.hardware = &hardware;
    if (mlir::failed(spmd::partitionModule(*module, partition_options))) {
      std::string errors = diagnostics.Errors();
      if (options.replication_is_error && absl::StrContains(errors, kForbiddenReplication)) {
        return absl::FailedPreconditionError(errors);
      }
      return absl::InvalidArgumentError(absl::StrCat("partitioning failed: ", errors));
    }
    if (options.combine_collectives) {
      passes::combineCollectives(*module, passes::CollectiveCombiningOptions());
    }
    if (options.hierarchical_all_reduce) passes::splitAllReducesByAxis(*module, hardware);
    for (const api_internal::DiagnosticCollector::Message& remark : diagnostics.Notices()) {
      if (!absl::StrContains(remark.text, kReplicationRemark)) continue;
      result.fallback_warnings.push_back(
          FallbackWarning{QuotedOpName(remark.text), remark.location, remark.text});
    }
  }
  CollectiveSummary collectives = SummarizeCollectives(*module);
  if (!meshes.empty()) {
    mlir::MLIRContext* ctx = context.get();
    ir::PartitionedSignature signature;
    signature.num_partitions = num_partitions;
    for (const TensorType& type : program.global_parameter_types()) {
      signature.parameter_types.push_back(api_internal::ToMlirType(type, ctx));
    }
    for (const TensorType& type : program.global_result_types()) {
      signature.result_types.push_back(api_internal::ToMlirType(type, ctx));
    }
    ir::MarkPartitioned(*module, signature);
  }
  CostEstimate cost;
  if (auto entry = module->lookupSymbol<mlir::func::FuncOp>(
          api_internal::ToStringRef(program.entry_function()))) {
    cost_model::CostReport report = cost_model::BuildCostReport(entry, hardware);
    cost = CostEstimate{report.hardware,       report.argument_bytes,
                        report.peak_bytes,     report.flops,
                        report.compute_seconds, report.communication_seconds,
                        report.step_seconds,   cost_model::FormatCostReport(report)};
  }
  TESSEL_ASSIGN_OR_RETURN(Program partitioned,
                          ProgramFromMlir(std::move(context), std::move(module)));
  return PartitionResult{std::move(partitioned),         num_partitions,
                         std::move(result.parameters),   std::move(result.op_results),
                         std::move(result.results),      std::move(result.fallback_warnings),
                         std::move(collectives),         std::move(cost),
                         std::move(chosen)};
}

}  // namespace tessel
