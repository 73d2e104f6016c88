// Program for Python: loading MLIR and HLO text or files, the signature, boundary
// shardings, and printing as MLIR or HLO text.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partitioner/api/program.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/ext/bindings.h"
#include "python/ext/errors.h"
#include "python/ext/types.h"

namespace tessel::python {
namespace py = pybind11;

void RegisterPrograms(py::module_& module) {
  py::class_<Program>(module, "Program")
      .def_static("from_mlir_text",
                  [](const std::string& text) { return Unwrap(Program::FromMlirText(text)); })
      .def_static("from_mlir_file",
                  [](const std::string& path) { return Unwrap(Program::FromMlirFile(path)); })
      .def_static("from_hlo_text",
                  [](const std::string& text) { return Unwrap(Program::FromHloText(text)); })
      .def_static("from_hlo_file",
                  [](const std::string& path) { return Unwrap(Program::FromHloFile(path)); })
      .def("mlir_text", &Program::ToMlirText)
      .def("hlo_text", [](const Program& program) { return Unwrap(program.ToHloText()); })
      .def_property_readonly("entry_function", &Program::entry_function)
      .def_property_readonly("parameter_names", &Program::parameter_names)
      .def_property_readonly("parameter_types",
                             [](const Program& p) { return TypeTuples(p.global_parameter_types()); })
      .def_property_readonly("result_types",
                             [](const Program& p) { return TypeTuples(p.global_result_types()); })
      .def_property_readonly("parameter_shardings",
                             [](const Program& p) { return Unwrap(p.parameter_shardings()); })
      .def_property_readonly("result_shardings",
                             [](const Program& p) { return Unwrap(p.result_shardings()); })
      .def_property_readonly("meshes", &Program::meshes)
      .def_property_readonly("is_partitioned", &Program::is_partitioned)
      .def_property_readonly("num_partitions", &Program::num_partitions)
      .def(
          "with_shardings",
          [](const Program& program, const std::vector<std::optional<Sharding>>& parameters,
             const std::vector<std::optional<Sharding>>& results) {
            return Unwrap(program.WithShardings(parameters, results));
          },
          py::arg("parameters"), py::arg("results"));
}

}  // namespace tessel::python
