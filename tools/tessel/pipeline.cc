// Propagation and partitioning behind a diagnostic handler that turns MLIR diagnostics into
// a Status and remark lines.
#include "tools/tessel/pipeline.h"

#include <cmath>
#include <ctime>
#include <memory>
#include <string>

#include "absl/flags/flag.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/location.h"
#include "partitioner/passes/collective_combining.h"
#include "partitioner/passes/hierarchical_all_reduce.h"
#include "partitioner/passes/weight_update_sharding.h"
#include "partitioner/sharding/transforms/passes.h"
#include "partitioner/spmd/partition.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/function_values.h"

namespace tessel::cli {
namespace {

// Collects errors and forwards remarks and warnings while it lives.
class DiagnosticCollector {
 public:
  DiagnosticCollector(mlir::MLIRContext* context, std::ostream& remarks,
                      const PlaceNamer& name_of = nullptr)
      : handler_(context, [this, &remarks, name_of](mlir::Diagnostic& diagnostic) {
          const std::string name = name_of ? name_of(diagnostic.getLocation()) : "";
          std::string line =
              absl::StrCat(FormatLocation(diagnostic.getLocation()), ": ", Severity(diagnostic),
                           ": ", name.empty() ? "" : absl::StrCat(name, ": "), diagnostic.str());
          if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error) {
            absl::StrAppend(&errors_, errors_.empty() ? "" : "\n", line);
          } else {
            remarks << line << "\n";
          }
          return mlir::success();
        }) {}

  absl::Status Finish(bool failed, absl::string_view stage) const {
    if (!failed) return absl::OkStatus();
    return absl::InvalidArgumentError(
        errors_.empty() ? absl::StrCat(stage, " failed") : errors_);
  }

 private:
  static const char* Severity(const mlir::Diagnostic& diagnostic) {
    switch (diagnostic.getSeverity()) {
      case mlir::DiagnosticSeverity::Error: return "error";
      case mlir::DiagnosticSeverity::Warning: return "warning";
      case mlir::DiagnosticSeverity::Remark: return "remark";
      case mlir::DiagnosticSeverity::Note: return "note";
    }
    return "note";
  }

  std::string errors_;
  mlir::ScopedDiagnosticHandler handler_;
};

}  // namespace

absl::Status ImportHloShardings(mlir::ModuleOp module, std::ostream& remarks) {
  // The header's device count rides on the module until the sharding import reads it.
  // So does Shardy's mesh and sharding text, which the sharding import checks and reads
  // where no GSPMD sharding stands beside it.
  auto hasShardy = [](mlir::DictionaryAttr frontend) {
    return frontend && (frontend.get("xla.sdy.meshes") || frontend.get("xla.sdy.sharding"));
  };
  bool any = module->hasAttr(hlo_text::kHloNumPartitionsAttr) ||
             ir::HasGspmdShardingStrings(module) ||
             hasShardy(module->getAttrOfType<mlir::DictionaryAttr>(hlo_text::kFrontendAttrsAttr));
  bool manual = false;
  bool gspmdManual = false;
  bool groups = false;
  const auto frontendKey =
      mlir::StringAttr::get(module.getContext(), hlo_text::kFrontendAttrsAttr);
  module.walk([&](mlir::Operation* op) {
    if (auto call = llvm::dyn_cast<hlo::CustomCallOp>(op)) {
      manual |= call.getCallTargetName() == "xla.sdy.GlobalToLocalShape";
      groups |= call.getCallTargetName() == "xla.sdy.ShardingGroup";
      gspmdManual |= call.getCallTargetName() == "SPMDFullToShardShape" ||
                     call.getCallTargetName() == "SPMDShardToFullShape";
    }
    if (hasShardy(
            llvm::dyn_cast_or_null<mlir::DictionaryAttr>(op->getDiscardableAttr(frontendKey)))) {
      any = true;
    }
    if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
      for (unsigned i = 0; i < function.getNumArguments(); ++i) {
        if (hasShardy(function.getArgAttrOfType<mlir::DictionaryAttr>(
                i, hlo_text::kFrontendAttrsAttr))) {
          any = true;
        }
      }
    }
  });
  if (!any && !manual && !gspmdManual && !groups) return absl::OkStatus();
  DiagnosticCollector collector(module.getContext(), remarks);
  mlir::PassManager pm(module.getContext());
  // The import verified the module, and the pass only turns sharding strings into
  // attributes it builds through the checked conversions (an invalid one is its error):
  // verifying the whole module again would cost as much as the import.
  pm.enableVerifier(false);
  // shard_alike's groups first: GSPMD writes them inside sharding strings
  // (`{unknown shard_as 1}`) that the other passes do not read.
  if (any || groups) pm.addPass(sharding::createImportShardingGroupsPass());
  // GSPMD's shard_maps carry manual shardings, which the sharding import refuses outside a
  // manual computation: they become manual computations first.
  if (gspmdManual) pm.addPass(sharding::createImportGspmdManualComputationsPass());
  if (any) pm.addPass(sharding::createImportHloShardingsPass());
  // shard_map bodies name the declared mesh, which the shardings' import sets up first.
  if (manual) pm.addPass(sharding::createImportShardyManualComputationsPass());
  return collector.Finish(mlir::failed(pm.run(module)), "sharding import");
}

absl::Status Propagate(mlir::ModuleOp module, propagation::PropagationReport* report,
                       std::ostream& remarks, bool conservative, const PlaceNamer& name_of) {
  DiagnosticCollector collector(module.getContext(), remarks, name_of);
  propagation::PropagationOptions options;
  options.conservative = conservative;
  // Whoever asks for a report wants to know where each axis came from.
  options.recordAxisOrigins = report != nullptr;
  bool failed = mlir::failed(propagation::propagateShardings(module, options, report));
  return collector.Finish(failed, "sharding propagation");
}

double ProcessCpuSeconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

PipelineOptions PipelineOptionsFromFlags(const std::string& path) {
  PipelineOptions options;
  // Shared by the copies of the options a command makes, so the names are read once.
  auto namer = std::make_shared<SourceNamer>(path);
  options.name_of = [namer](mlir::Location loc) { return namer->NameAt(loc); };
  options.conservative = absl::GetFlag(FLAGS_conservative);
  options.replication_is_error = absl::GetFlag(FLAGS_replication_is_error);
  return options;
}

absl::StatusOr<std::optional<auto_sharding::AutoShardingOptions>> ParseAutoSharding(
    absl::string_view text) {
  if (text.empty()) return std::nullopt;
  auto_sharding::AutoShardingOptions options;
  if (text == "on" || text == "true" || text == "1") return options;
  for (absl::string_view item : absl::StrSplit(text, ',')) {
    std::pair<absl::string_view, absl::string_view> kv = absl::StrSplit(item, absl::MaxSplits('=', 1));
    if (kv.first == "memory_limit") {
      absl::StatusOr<int64_t> bytes = ParseByteSize("auto memory_limit", kv.second);
      if (!bytes.ok()) return bytes.status();
      options.memoryLimitBytes = *bytes;
    } else if (kv.first == "time_limit") {
      absl::string_view number = absl::StripSuffix(kv.second, "s");
      double seconds = 0;
      if (!absl::SimpleAtod(number, &seconds) || !(seconds > 0) || std::isinf(seconds)) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--auto: time_limit must be a positive number of seconds, got '", kv.second, "'"));
      }
      options.timeLimitSeconds = seconds;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("--auto: unknown option '", item,
                       "' (expected memory_limit=BYTES or time_limit=SECONDS)"));
    }
  }
  return options;
}

absl::Status ChooseShardings(mlir::ModuleOp module, std::ostream& remarks,
                             const PipelineOptions& options) {
  absl::StatusOr<std::optional<auto_sharding::AutoShardingOptions>> autoOptions =
      ParseAutoSharding(options.auto_sharding);
  if (!autoOptions.ok()) return autoOptions.status();
  if (*autoOptions) {
    absl::StatusOr<auto_sharding::AutoShardingResult> chosen = auto_sharding::autoShard(
        module, options.hardware ? *options.hardware : cost_model::DefaultHardwareSpec(),
        **autoOptions);
    if (!chosen.ok()) return chosen.status();
    remarks << absl::StrFormat(
        "auto-sharding: %d choices (%d elementwise ops merged), %s plan in %.3f s; estimated "
        "step %.3g s (compute %.3g s, communication %.3g s); estimated peak %d bytes; "
        "memory limit %d bytes per device\n",
        chosen->nodes, chosen->mergedOps, chosen->optimal ? "optimal" : "best-found",
        chosen->solveSeconds, chosen->objectiveSeconds, chosen->computeSeconds,
        chosen->communicationSeconds, chosen->estimatedPeakBytes, chosen->memoryLimitBytes);
    if (chosen->repeatedLayerRuns.size() > 1) {
      remarks << "auto-sharding: " << chosen->repeatedLayerRuns.size()
              << " runs of identical layers (" << absl::StrJoin(chosen->repeatedLayerRuns, ", ")
              << " copies) take the same strategies within each run and were solved as one "
                 "layer per run; the plan is "
              << (chosen->optimal ? "optimal" : "the best found") << " among such plans\n";
    } else if (chosen->repeatedLayers > 1) {
      remarks << absl::StrFormat(
          "auto-sharding: %d identical layers take the same strategies and were solved as "
          "one; the plan is %s among such plans\n",
          chosen->repeatedLayers, chosen->optimal ? "optimal" : "the best found");
    }
    if (!chosen->wholeOps.empty()) {
      // The plan's blind spots: these run whole in its estimate, and loop bodies are left
      // to propagation, so the estimate and the plan may be poor around them.
      constexpr size_t kListed = 3;
      std::string listed;
      for (size_t i = 0; i < chosen->wholeOps.size() && i < kListed; ++i) {
        absl::StrAppend(&listed, i ? ", " : "", chosen->wholeOps[i]);
      }
      if (chosen->wholeOps.size() > kListed) {
        absl::StrAppend(&listed, " and ", chosen->wholeOps.size() - kListed, " more");
      }
      const bool one = chosen->wholeOps.size() == 1;
      remarks << "auto-sharding: " << chosen->wholeOps.size() << (one ? " op" : " ops")
              << " cannot be split by the plan and " << (one ? "is" : "are")
              << " priced on whole tensors (no sharding rule): "
              << listed << "\n";
    }
  }
  return absl::OkStatus();
}

absl::Status PropagateAndPartition(mlir::ModuleOp module, std::ostream& remarks,
                                   const PipelineOptions& options) {
  const absl::Time start = absl::Now();
  const double startCpu = ProcessCpuSeconds();
  if (absl::Status chosen = ChooseShardings(module, remarks, options); !chosen.ok()) {
    return chosen;
  }
  absl::Status propagated =
      Propagate(module, nullptr, remarks, options.conservative, options.name_of);
  const absl::Time propagatedAt = absl::Now();
  const double propagatedCpu = ProcessCpuSeconds();
  if (options.seconds) {
    options.seconds->propagate = absl::ToDoubleSeconds(propagatedAt - start);
    options.seconds->propagate_cpu = propagatedCpu - startCpu;
  }
  if (!propagated.ok()) return propagated;
  DiagnosticCollector collector(module.getContext(), remarks, options.name_of);
  if (options.shard_weight_update) {
    passes::shardWeightUpdates(module, passes::WeightUpdateShardingOptions());
  }
  if (options.propagate_only) return collector.Finish(false, "weight-update sharding");
  spmd::PartitionOptions partition_options;
  partition_options.hardware = options.hardware;
  partition_options.strategyRemarks = options.strategy_remarks;
  partition_options.replicationIsError = options.replication_is_error;
  partition_options.recordGlobalLayouts = options.global_layouts;
  bool failed = mlir::failed(spmd::partitionModule(module, partition_options));
  if (!failed && options.combine_collectives) {
    passes::combineCollectives(module, passes::CollectiveCombiningOptions());
  }
  if (!failed && options.hierarchical_all_reduce) {
    passes::splitAllReducesByAxis(
        module, options.hardware ? *options.hardware : cost_model::DefaultHardwareSpec());
  }
  if (options.seconds) {
    options.seconds->partition = absl::ToDoubleSeconds(absl::Now() - propagatedAt);
    options.seconds->partition_cpu = ProcessCpuSeconds() - propagatedCpu;
  }
  return collector.Finish(failed, "partitioning");
}

}  // namespace tessel::cli
