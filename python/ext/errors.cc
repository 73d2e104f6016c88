// tessel.Error: the one exception type the module raises for bad input.
#include "python/ext/errors.h"

namespace tessel::python {

void RegisterErrors(pybind11::module_& module) {
  pybind11::register_exception<Error>(module, "Error", PyExc_ValueError);
}

}  // namespace tessel::python
