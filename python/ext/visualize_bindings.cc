// Sharding pictures for Python: the API's ShardingPicture (the pictures `tessel viz` draws)
// for a sharding and a shape, or for a value of a partition result with its halos.
#include <cstdint>
#include <string>
#include <vector>

#include "partitioner/api/partition.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/visualize.h"
#include "pybind11/pybind11.h"
#include "pybind11/stl.h"
#include "python/ext/bindings.h"
#include "python/ext/errors.h"

namespace tessel::python {
namespace py = pybind11;

void RegisterVisualize(py::module_& module) {
  py::class_<HaloUse::Dim>(module, "HaloDim")
      .def_readonly("dim", &HaloUse::Dim::dim)
      .def_readonly("low", &HaloUse::Dim::low)
      .def_readonly("high", &HaloUse::Dim::high);
  py::class_<HaloUse>(module, "HaloUse")
      .def_readonly("user", &HaloUse::user)
      .def_readonly("dims", &HaloUse::dims)
      .def_readonly("note", &HaloUse::note);
  py::class_<ShardingPicture::Dim>(module, "PictureDim")
      .def_readonly("size", &ShardingPicture::Dim::size)
      .def_readonly("axes", &ShardingPicture::Dim::axes)
      .def_readonly("pieces", &ShardingPicture::Dim::pieces)
      .def_readonly("piece_size", &ShardingPicture::Dim::piece_size);
  py::class_<ShardingPicture::Tile>(module, "PictureTile")
      .def_readonly("device", &ShardingPicture::Tile::device)
      .def_readonly("ranges", &ShardingPicture::Tile::ranges)
      .def_readonly("empty", &ShardingPicture::Tile::empty)
      .def_readonly("partial_sum_group", &ShardingPicture::Tile::partial_sum_group);
  py::class_<ShardingPicture>(module, "ShardingPicture")
      .def_property_readonly("dims", &ShardingPicture::dims)
      .def_property_readonly("sharding", &ShardingPicture::sharding)
      .def_property_readonly("num_devices", &ShardingPicture::num_devices)
      .def("tiles", &ShardingPicture::Tiles)
      .def("text", &ShardingPicture::Text, py::arg("width") = 80, py::arg("color") = false)
      // pybind11 converts to std::string, not to the installed Abseil's own string_view.
      .def(
          "html",
          [](const ShardingPicture& picture, const std::string& heading,
             const std::string& header) { return picture.Html(heading, header); },
          py::arg("heading"), py::arg("header"))
      .def(
          "svg",
          [](const ShardingPicture& picture, const std::string& heading,
             const std::string& header) { return picture.Svg(heading, header); },
          py::arg("heading"), py::arg("header"))
      .def("json", &ShardingPicture::Json);
  module.def(
      "picture",
      [](const Sharding& sharding, const std::vector<int64_t>& shape) {
        return Unwrap(ShardingPicture::Create(sharding, shape));
      },
      py::arg("sharding"), py::arg("shape"));
  module.def(
      "value_picture",
      [](const PartitionResult& result, const ShardedValue& value) {
        return Unwrap(ShardingPicture::Create(result, value));
      },
      py::arg("result"), py::arg("value"));
}

}  // namespace tessel::python
