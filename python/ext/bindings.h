// The parts of the `_tessel` extension module, one function per topic; module.cc calls them.
#ifndef TESSEL_PYTHON_EXT_BINDINGS_H_
#define TESSEL_PYTHON_EXT_BINDINGS_H_

#include "pybind11/pybind11.h"

namespace tessel::python {

void RegisterShardings(pybind11::module_& module);  // Mesh, Sharding
void RegisterPrograms(pybind11::module_& module);   // Program: load, print, edit
void RegisterPartition(pybind11::module_& module);  // partition() and its result
void RegisterRun(pybind11::module_& module);        // run() and verify() on host bytes
void RegisterVisualize(pybind11::module_& module);  // sharding pictures

}  // namespace tessel::python

#endif  // TESSEL_PYTHON_EXT_BINDINGS_H_
