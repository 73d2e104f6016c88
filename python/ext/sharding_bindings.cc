// Meshes and shardings for Python: Mesh from named axis sizes, Sharding from per-dimension
// axis lists (what tessel.P becomes) or from `#sdy.sharding` / `#tessel.sharding` text.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/ext/bindings.h"
#include "python/ext/errors.h"

namespace tessel::python {
namespace py = pybind11;

namespace {

std::vector<AxisRef> ParseAxes(const std::vector<std::string>& names) {
  std::vector<AxisRef> axes;
  for (const std::string& name : names) axes.push_back(Unwrap(AxisRef::Parse(name)));
  return axes;
}

std::vector<std::string> AxisNames(const std::vector<AxisRef>& axes) {
  std::vector<std::string> names;
  for (const AxisRef& axis : axes) {
    names.push_back(axis.is_sub_axis() ? axis.name() + ":(" + std::to_string(axis.pre_size()) +
                                             ")" + std::to_string(axis.sub_size())
                                       : axis.name());
  }
  return names;
}

// A sharding of a rank-`dims.size()` tensor: dims[i] splits dimension i, open[i] leaves it
// to propagation, priorities[i] (when given and not None) orders it in propagation.
Sharding CreateSharding(const Mesh& mesh, const std::vector<std::vector<std::string>>& dims,
                        const std::vector<bool>& open, const std::vector<std::string>& replicated,
                        const std::vector<std::string>& unreduced,
                        const std::vector<std::optional<int64_t>>& priorities) {
  if (priorities.size() > dims.size()) {
    throw Error(std::to_string(priorities.size()) + " priorities for " +
                std::to_string(dims.size()) + " dimensions");
  }
  std::vector<DimSpec> specs;
  for (size_t i = 0; i < dims.size(); ++i) {
    DimSpec spec = Axes(ParseAxes(dims[i]));
    if (i < open.size() && open[i]) spec = spec.Open();
    if (i < priorities.size() && priorities[i]) spec = spec.WithPriority(*priorities[i]);
    specs.push_back(std::move(spec));
  }
  PartitionSpec spec = PartitionSpec(std::move(specs))
                           .WithReplicated(ParseAxes(replicated))
                           .WithUnreduced(ParseAxes(unreduced));
  return Unwrap(Sharding::Create(mesh, std::move(spec)));
}

}  // namespace

void RegisterShardings(py::module_& module) {
  py::class_<Mesh>(module, "Mesh")
      .def(py::init([](const std::vector<std::pair<std::string, int64_t>>& axes,
                       const std::vector<int64_t>& device_ids, const std::string& name) {
             std::vector<MeshAxis> mesh_axes;
             for (const auto& [axis, size] : axes) mesh_axes.push_back(MeshAxis{axis, size});
             return Unwrap(Mesh::CreateNamed(name, std::move(mesh_axes), device_ids));
           }),
           py::arg("axes"), py::arg("device_ids") = std::vector<int64_t>(),
           py::arg("name") = std::string(Mesh::kDefaultName))
      .def_property_readonly("name", &Mesh::name)
      .def_property_readonly("axes",
                             [](const Mesh& mesh) {
                               std::vector<std::pair<std::string, int64_t>> axes;
                               for (const MeshAxis& axis : mesh.axes()) {
                                 axes.emplace_back(axis.name, axis.size);
                               }
                               return axes;
                             })
      .def_property_readonly("num_devices", &Mesh::num_devices)
      .def_property_readonly("device_ids",
                             [](const Mesh& mesh) {
                               std::vector<int64_t> ids;
                               for (int64_t i = 0; i < mesh.num_devices(); ++i) {
                                 ids.push_back(mesh.device_id(i));
                               }
                               return ids;
                             })
      .def("__str__", &Mesh::ToString)
      .def("__eq__", [](const Mesh& a, const Mesh& b) { return a == b; });

  py::class_<Sharding>(module, "Sharding")
      .def_static("create", &CreateSharding, py::arg("mesh"), py::arg("dims"),
                  py::arg("open") = std::vector<bool>(),
                  py::arg("replicated") = std::vector<std::string>(),
                  py::arg("unreduced") = std::vector<std::string>(),
                  py::arg("priorities") = std::vector<std::optional<int64_t>>())
      .def_static(
          "parse",
          [](const Mesh& mesh, const std::string& text) {
            return Unwrap(Sharding::Parse(mesh, text));
          },
          py::arg("mesh"), py::arg("text"))
      .def_property_readonly("mesh", &Sharding::mesh)
      .def_property_readonly("rank", &Sharding::rank)
      .def_property_readonly("dims",
                             [](const Sharding& sharding) {
                               std::vector<std::vector<std::string>> dims;
                               for (const DimSpec& dim : sharding.spec().dims()) {
                                 dims.push_back(AxisNames(dim.axes()));
                               }
                               return dims;
                             })
      .def_property_readonly("open",
                             [](const Sharding& sharding) {
                               std::vector<bool> open;
                               for (const DimSpec& dim : sharding.spec().dims()) {
                                 open.push_back(dim.is_open());
                               }
                               return open;
                             })
      .def_property_readonly(
          "unreduced",
          [](const Sharding& sharding) { return AxisNames(sharding.spec().unreduced_axes()); })
      .def_property_readonly(
          "replicated",
          [](const Sharding& sharding) { return AxisNames(sharding.spec().replicated_axes()); })
      .def_property_readonly("priorities",
                             [](const Sharding& sharding) {
                               std::vector<std::optional<int64_t>> priorities;
                               for (const DimSpec& dim : sharding.spec().dims()) {
                                 priorities.push_back(dim.priority());
                               }
                               return priorities;
                             })
      .def("num_shards",
           [](const Sharding& sharding, int64_t dim) {
             if (dim < 0 || dim >= sharding.rank()) {
               throw Error("dimension " + std::to_string(dim) + " of a rank-" +
                           std::to_string(sharding.rank()) + " sharding");
             }
             return sharding.num_shards(dim);
           })
      .def("__str__", &Sharding::ToString)
      .def("__eq__", [](const Sharding& a, const Sharding& b) { return a == b; });
}

}  // namespace tessel::python
