// partition() for Python: options from keyword names, and the result's records (values and
// their shardings with explanations, fallback warnings, collectives, the cost estimate).
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_join.h"
#include "partitioner/api/partition.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/ext/bindings.h"
#include "python/ext/errors.h"
#include "python/ext/types.h"

namespace tessel::python {
namespace py = pybind11;

namespace {

// PartitionOptions from a dict of keyword arguments; an unknown name is an Error listing
// the known ones.
PartitionOptions ToOptions(const py::dict& given) {
  PartitionOptions options;
  std::vector<std::pair<const char*, bool*>> flags = {
      {"replication_is_error", &options.replication_is_error},
      {"conservative_propagation", &options.conservative_propagation},
      {"shard_weight_update", &options.shard_weight_update},
      {"combine_collectives", &options.combine_collectives},
      {"hierarchical_all_reduce", &options.hierarchical_all_reduce},
  };
  for (const auto& [key, value] : given) {
    std::string name = py::str(key);
    bool known = false;
    for (auto& [flag, field] : flags) {
      if (name == flag) {
        *field = value.cast<bool>();
        known = true;
      }
    }
    if (name == "hardware_spec") {
      options.hardware_spec = value.cast<std::string>();
      known = true;
    }
    if (name == "auto_sharding") {
      // True for the defaults, False or None for off, or a dict of the limits.
      known = true;
      if (py::isinstance<py::dict>(value)) {
        AutoShardingOptions chosen;
        for (const auto& [limitKey, limit] : value.cast<py::dict>()) {
          std::string limitName = py::str(limitKey);
          if (limitName == "memory_limit_bytes") {
            chosen.memory_limit_bytes = limit.cast<int64_t>();
          } else if (limitName == "time_limit_seconds") {
            chosen.time_limit_seconds = limit.cast<double>();
          } else {
            throw Error("unknown auto_sharding option '" + limitName +
                        "' (options: memory_limit_bytes, time_limit_seconds)");
          }
        }
        options.auto_sharding = chosen;
      } else if (!value.is_none() && value.cast<bool>()) {
        options.auto_sharding = AutoShardingOptions();
      }
    }
    if (!known) {
      std::vector<std::string> names;
      for (const auto& [flag, field] : flags) names.push_back(flag);
      names.push_back("hardware_spec");
      names.push_back("auto_sharding");
      throw Error("unknown partition option '" + name + "' (options: " +
                  absl::StrJoin(names, ", ") + ")");
    }
  }
  return options;
}

const char* KindName(ShardedValue::Kind kind) {
  switch (kind) {
    case ShardedValue::Kind::kParameter: return "parameter";
    case ShardedValue::Kind::kOpResult: return "op_result";
    case ShardedValue::Kind::kResult: return "result";
  }
  return "value";
}

}  // namespace

void RegisterPartition(py::module_& module) {
  py::class_<Explanation::Axis>(module, "ExplanationAxis")
      .def_readonly("dimension", &Explanation::Axis::dimension)
      .def_readonly("axis", &Explanation::Axis::axis)
      .def_readonly("origin", &Explanation::Axis::origin)
      .def_readonly("path", &Explanation::Axis::path);
  py::class_<Explanation>(module, "Explanation")
      .def_readonly("origin", &Explanation::origin)
      .def_readonly("path", &Explanation::path)
      .def_readonly("axes", &Explanation::axes)
      .def("__str__", &Explanation::ToString);
  py::class_<ShardedValue>(module, "ShardedValue")
      .def_property_readonly("kind", [](const ShardedValue& v) { return KindName(v.kind); })
      .def_readonly("index", &ShardedValue::index)
      .def_readonly("result_number", &ShardedValue::result_number)
      .def_readonly("op_name", &ShardedValue::op_name)
      .def_readonly("source_name", &ShardedValue::source_name)
      .def_readonly("location", &ShardedValue::location)
      .def_property_readonly("type", [](const ShardedValue& v) { return ToTuple(v.type); })
      .def_property_readonly("type_string", [](const ShardedValue& v) { return v.type.ToString(); })
      .def_readonly("sharding", &ShardedValue::sharding)
      .def_readonly("explanation", &ShardedValue::explanation)
      .def_readonly("halos", &ShardedValue::halos)
      .def_property_readonly("name", &ShardedValue::name)
      .def("__str__", &ShardedValue::ToString);
  py::class_<FallbackWarning>(module, "FallbackWarning")
      .def_readonly("op_name", &FallbackWarning::op_name)
      .def_readonly("location", &FallbackWarning::location)
      .def_readonly("message", &FallbackWarning::message)
      .def("__str__", &FallbackWarning::ToString);
  py::class_<CollectiveSummary::Entry>(module, "CollectiveEntry")
      .def_readonly("kind", &CollectiveSummary::Entry::kind)
      .def_readonly("mesh", &CollectiveSummary::Entry::mesh)
      .def_property_readonly("axes",
                             [](const CollectiveSummary::Entry& e) {
                               std::vector<std::string> axes;
                               for (const AxisRef& axis : e.axes) axes.push_back(axis.ToString());
                               return axes;
                             })
      .def_readonly("count", &CollectiveSummary::Entry::count)
      .def_readonly("bytes_per_device", &CollectiveSummary::Entry::bytes_per_device);
  py::class_<CostEstimate>(module, "CostEstimate")
      .def_readonly("hardware", &CostEstimate::hardware)
      .def_readonly("argument_bytes", &CostEstimate::argument_bytes)
      .def_readonly("peak_bytes", &CostEstimate::peak_bytes)
      .def_readonly("flops", &CostEstimate::flops)
      .def_readonly("compute_seconds", &CostEstimate::compute_seconds)
      .def_readonly("communication_seconds", &CostEstimate::communication_seconds)
      .def_readonly("step_seconds", &CostEstimate::step_seconds)
      .def_readonly("table", &CostEstimate::table);
  py::class_<PartitionResult>(module, "PartitionResult")
      .def_readonly("program", &PartitionResult::program)
      .def_readonly("num_partitions", &PartitionResult::num_partitions)
      .def_readonly("parameters", &PartitionResult::parameters)
      .def_readonly("op_results", &PartitionResult::op_results)
      .def_readonly("results", &PartitionResult::results)
      .def_readonly("fallback_warnings", &PartitionResult::fallback_warnings)
      .def_property_readonly("collectives",
                             [](const PartitionResult& r) { return r.collectives.entries; })
      .def_property_readonly("collectives_text",
                             [](const PartitionResult& r) { return r.collectives.ToString(); })
      .def_readonly("cost", &PartitionResult::cost)
      .def_property_readonly("auto_sharding", [](const PartitionResult& r) -> py::object {
        if (!r.auto_sharding) return py::none();
        const AutoShardingSummary& s = *r.auto_sharding;
        py::dict summary;
        summary["estimated_step_seconds"] = s.estimated_step_seconds;
        summary["compute_seconds"] = s.compute_seconds;
        summary["communication_seconds"] = s.communication_seconds;
        summary["optimal"] = s.optimal;
        summary["solve_seconds"] = s.solve_seconds;
        summary["memory_limit_bytes"] = s.memory_limit_bytes;
        summary["estimated_peak_bytes"] = s.estimated_peak_bytes;
        summary["reshard_seconds"] = s.reshard_seconds;
        summary["choices"] = s.choices;
        summary["repeated_layers"] = s.repeated_layers;
        summary["repeated_layer_runs"] = s.repeated_layer_runs;
        summary["whole_ops"] = s.whole_ops;
        return std::move(summary);
      });

  module.def(
      "partition",
      [](const Program& program, const py::dict& options) {
        PartitionOptions parsed = ToOptions(options);
        absl::StatusOr<PartitionResult> result;
        {
          py::gil_scoped_release release;
          result = Partition(program, parsed);
        }
        return Unwrap(std::move(result));
      },
      py::arg("program"), py::arg("options") = py::dict());
}

}  // namespace tessel::python
