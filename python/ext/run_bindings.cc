// run() and verify() for Python: host tensors cross as (element type, shape, bytes); the
// interpreter lock is released while the executor works.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "partitioner/api/run.h"
#include "partitioner/api/verify.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/ext/bindings.h"
#include "python/ext/errors.h"
#include "python/ext/types.h"

namespace tessel::python {
namespace py = pybind11;

namespace {

using TensorTuple = std::tuple<std::string, std::vector<int64_t>, py::buffer>;

std::vector<HostTensor> ToHostTensors(const std::vector<TensorTuple>& inputs) {
  std::vector<HostTensor> tensors;
  for (const auto& [type, shape, data] : inputs) {
    tensors.push_back(ToHostTensor(type, shape, data));
  }
  return tensors;
}

RunOptions ToRunOptions(std::optional<double> timeout_seconds) {
  RunOptions options;
  if (timeout_seconds) options.timeout = absl::Seconds(*timeout_seconds);
  return options;
}

}  // namespace

void RegisterRun(py::module_& module) {
  module.def(
      "run",
      [](const Program& program, const std::vector<TensorTuple>& inputs,
         std::optional<double> timeout_seconds) {
        std::vector<HostTensor> tensors = ToHostTensors(inputs);
        RunOptions options = ToRunOptions(timeout_seconds);
        absl::StatusOr<std::vector<HostTensor>> outputs;
        {
          py::gil_scoped_release release;
          outputs = Run(program, tensors, options);
        }
        py::list results;
        for (const HostTensor& output : Unwrap(std::move(outputs))) {
          results.append(FromHostTensor(output));
        }
        return results;
      },
      py::arg("program"), py::arg("inputs"), py::arg("timeout_seconds") = std::nullopt);

  py::class_<ResultCheck>(module, "ResultCheck")
      .def_readonly("index", &ResultCheck::index)
      .def_readonly("type", &ResultCheck::type)
      .def_readonly("matches", &ResultCheck::matches)
      .def_readonly("exact", &ResultCheck::exact)
      .def_readonly("max_abs_difference", &ResultCheck::max_abs_difference)
      .def_readonly("mismatch", &ResultCheck::mismatch);
  py::class_<VerifyReport>(module, "VerifyReport")
      .def_readonly("num_partitions", &VerifyReport::num_partitions)
      .def_readonly("results", &VerifyReport::results)
      .def_property_readonly("ok", &VerifyReport::ok)
      .def("__str__", &VerifyReport::ToString);

  // Inputs given: they are compared on; none: inputs drawn from `seed`.
  module.def(
      "verify",
      [](const Program& original, const PartitionResult& partitioned,
         const std::optional<std::vector<TensorTuple>>& inputs, uint64_t seed,
         double relative_tolerance, double absolute_tolerance,
         std::optional<double> timeout_seconds) {
        VerifyOptions options;
        options.relative_tolerance = relative_tolerance;
        options.absolute_tolerance = absolute_tolerance;
        options.run = ToRunOptions(timeout_seconds);
        std::vector<HostTensor> tensors;
        if (inputs) tensors = ToHostTensors(*inputs);
        absl::StatusOr<VerifyReport> report;
        {
          py::gil_scoped_release release;
          report = inputs ? Verify(original, partitioned, tensors, options)
                          : Verify(original, partitioned, seed, options);
        }
        return Unwrap(std::move(report));
      },
      py::arg("original"), py::arg("partitioned"), py::arg("inputs") = std::nullopt,
      py::arg("seed") = 1, py::arg("relative_tolerance") = 1e-4,
      py::arg("absolute_tolerance") = 1e-5, py::arg("timeout_seconds") = std::nullopt);
}

}  // namespace tessel::python
