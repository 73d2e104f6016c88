// The `tessel._tessel` extension module: the public C++ API (partitioner/api) for Python.
// python/tessel/ wraps it in the Python-style interface users import.
#include "partitioner/api/version.h"
#include "pybind11/pybind11.h"
#include "python/ext/bindings.h"
#include "python/ext/errors.h"

PYBIND11_MODULE(_tessel, module) {
  module.doc() = "Tessel's C++ API: meshes, shardings, programs, partitioning and runs.";
  module.attr("__version__") = tessel::kVersion;
  tessel::python::RegisterErrors(module);
  tessel::python::RegisterShardings(module);
  tessel::python::RegisterPrograms(module);
  tessel::python::RegisterPartition(module);
  tessel::python::RegisterRun(module);
  tessel::python::RegisterVisualize(module);
}
