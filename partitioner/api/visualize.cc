// ShardingPicture: the API's values handed to the renderers `tessel viz` uses
// (partitioner/sharding/visualize*.h); see visualize.h.
#include "partitioner/api/visualize.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "partitioner/sharding/visualize.h"
#include "partitioner/sharding/visualize_color.h"
#include "partitioner/sharding/visualize_html.h"
#include "support/status_macros.h"

namespace tessel {

struct ShardingPicture::Impl {
  Sharding sharding;
  sharding::ShardingView view;
  std::vector<Dim> dims;
};

namespace {

sharding::AxisRef ToViewAxis(const AxisRef& axis) {
  return axis.is_sub_axis() ? sharding::AxisRef(axis.name(), axis.pre_size(), axis.sub_size())
                            : sharding::AxisRef(axis.name());
}

std::vector<sharding::AxisRef> ToViewAxes(const std::vector<AxisRef>& axes) {
  std::vector<sharding::AxisRef> out;
  for (const AxisRef& axis : axes) out.push_back(ToViewAxis(axis));
  return out;
}

// The renderers' mesh and sharding for an API Sharding (checked when it was created).
absl::StatusOr<sharding::Mesh> ToViewMesh(const Mesh& mesh) {
  std::vector<sharding::MeshAxis> axes;
  for (const MeshAxis& axis : mesh.axes()) axes.push_back({axis.name, axis.size});
  return sharding::Mesh::Create(
      std::move(axes), std::vector<int64_t>(mesh.explicit_device_ids().begin(),
                                            mesh.explicit_device_ids().end()));
}

sharding::TensorSharding ToViewSharding(const Sharding& sharding) {
  std::vector<sharding::DimSharding> dims;
  for (const DimSpec& dim : sharding.spec().dims()) {
    dims.emplace_back(ToViewAxes(dim.axes()), !dim.is_open(), dim.priority());
  }
  return sharding::TensorSharding(sharding.mesh().name(), std::move(dims),
                                  ToViewAxes(sharding.spec().replicated_axes()),
                                  ToViewAxes(sharding.spec().unreduced_axes()));
}

}  // namespace

absl::StatusOr<ShardingPicture> ShardingPicture::Create(const Sharding& sharding,
                                                        const std::vector<int64_t>& shape,
                                                        std::vector<HaloUse> halos) {
  if (static_cast<int64_t>(shape.size()) != sharding.rank()) {
    return absl::InvalidArgumentError(absl::StrCat("the sharding has ", sharding.rank(),
                                                   " dimensions but the shape has rank ",
                                                   shape.size()));
  }
  TESSEL_ASSIGN_OR_RETURN(sharding::Mesh mesh, ToViewMesh(sharding.mesh()));
  TESSEL_ASSIGN_OR_RETURN(sharding::ShardingView view,
                          sharding::ViewSharding(mesh, ToViewSharding(sharding), shape));
  for (HaloUse& use : halos) {
    sharding::HaloUse drawn;
    drawn.user = std::move(use.user);
    drawn.note = std::move(use.note);
    for (HaloUse::Dim& dim : use.dims) {
      if (dim.dim < 0 || dim.dim >= sharding.rank()) {
        return absl::InvalidArgumentError(
            absl::StrCat("a halo on dimension ", dim.dim, " of a rank-", sharding.rank(),
                         " value"));
      }
      drawn.dims.push_back({dim.dim, std::move(dim.low), std::move(dim.high)});
    }
    view.halos.push_back(std::move(drawn));
  }
  auto impl = std::make_shared<Impl>(Impl{sharding, std::move(view), {}});
  for (const sharding::DimView& dim : impl->view.dims) {
    Dim out;
    out.size = dim.size;
    for (const sharding::AxisRef& axis : dim.axes) {
      out.axes.push_back(axis.IsSubAxis()
                             ? absl::StrCat(axis.name, ":(", axis.pre_size, ")", axis.size)
                             : axis.name);
    }
    out.pieces = dim.num_pieces;
    out.piece_size = dim.piece_size;
    impl->dims.push_back(std::move(out));
  }
  return ShardingPicture(std::move(impl));
}

absl::StatusOr<ShardingPicture> ShardingPicture::Create(const PartitionResult& result,
                                                        const ShardedValue& value) {
  if (value.sharding) return Create(*value.sharding, value.type.dimensions(), value.halos);
  // Unsharded values are whole on every device of the program's mesh.
  const std::vector<Mesh>& meshes = result.program.meshes();
  Mesh mesh = meshes.empty() ? *Mesh::Create({}) : meshes.front();
  return Create(Sharding::Replicated(mesh, value.type.rank()), value.type.dimensions(),
                value.halos);
}

const std::vector<ShardingPicture::Dim>& ShardingPicture::dims() const { return impl_->dims; }

const Sharding& ShardingPicture::sharding() const { return impl_->sharding; }

int64_t ShardingPicture::num_devices() const { return impl_->view.NumDevices(); }

std::vector<ShardingPicture::Tile> ShardingPicture::Tiles() const {
  std::vector<Tile> tiles;
  for (const sharding::DeviceView& device : sharding::DeviceViews(impl_->view)) {
    Tile tile;
    tile.device = device.device;
    for (const sharding::IndexRange& range : device.ranges) {
      tile.ranges.emplace_back(range.begin, range.end);
    }
    tile.empty = device.Empty();
    tile.partial_sum_group = device.partial_sum_group;
    tiles.push_back(std::move(tile));
  }
  return tiles;
}

std::string ShardingPicture::Text(int width, bool color) const {
  sharding::DeviceSetColors colors;
  return sharding::RenderShardingView(impl_->view, width, color ? &colors : nullptr);
}

std::string ShardingPicture::Html(absl::string_view heading, absl::string_view header) const {
  sharding::ShardingGraphic graphic(sharding::GraphicFormat::kHtml, std::string(heading));
  graphic.AddValue(header, impl_->view);
  return graphic.Finish();
}

std::string ShardingPicture::Svg(absl::string_view heading, absl::string_view header) const {
  sharding::ShardingGraphic graphic(sharding::GraphicFormat::kSvg, std::string(heading));
  graphic.AddValue(header, impl_->view);
  return graphic.Finish();
}

std::string ShardingPicture::Json() const {
  return sharding::ShardingViewToJson(impl_->view, "");
}

}  // namespace tessel
