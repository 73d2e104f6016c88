// Pictures of how a sharding lays a tensor out over the devices of its mesh: which device
// holds which block of indices, which blocks are short or empty because a split is uneven,
// what is replicated, which axes hold partial sums, and the halos windowed ops reading the
// value exchange. They are the pictures `tessel viz` draws (the same renderers), for
// programs that call the library: text for a terminal (optionally coloured), a
// self-contained HTML page or SVG image, JSON, and the tiles themselves.
//
//   TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", 4}}));
//   TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"data"}));
//   TESSEL_ASSIGN_OR_RETURN(ShardingPicture picture, ShardingPicture::Create(rows, {10}));
//   std::cout << picture.Text();
//   //   dim 0: 10 over "data" (4 pieces of 3; [9:10] holds 1 of 3 elements, padded)
//   //   +----------------------+----------------------+----------------------+--------+
//   //   |          0           |          1           |          2           |   3    |
//   //   |        [0:3]         |        [3:6]         |        [6:9]         | [9:10] |
//   //   +----------------------+----------------------+----------------------+--------+
//   picture.Tiles()[3].ranges[0];  // {9, 10}
//
// For a value of a partitioned program, ShardingPicture::Create(result, value) also marks
// the halos that PartitionResult recorded for it (ShardedValue::halos).
#ifndef TESSEL_PARTITIONER_API_VISUALIZE_H_
#define TESSEL_PARTITIONER_API_VISUALIZE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/sharding.h"

namespace tessel {

class ShardingPicture {
 public:
  // How one tensor dimension is cut.
  struct Dim {
    int64_t size = 0;
    // The axes that split it, major to minor, as AxisRef prints them; empty when whole.
    std::vector<std::string> axes;
    int64_t pieces = 1;
    // ceil(size / pieces): what every device allocates along the dimension.
    int64_t piece_size = 0;
  };

  // What one device holds.
  struct Tile {
    int64_t device = 0;
    // Per dimension the half-open index range [first, second) the device holds, padding
    // excluded (an empty tile has first == second in some dimension).
    std::vector<std::pair<int64_t, int64_t>> ranges;
    bool empty = false;
    // Devices holding the same tile in different groups hold different partial sums of it
    // (only with unreduced axes); 0 otherwise.
    int64_t partial_sum_group = 0;
  };

  // The picture of a tensor of `shape` laid out by `sharding`, with the halos of the
  // windowed ops that read it. Fails with InvalidArgument when the sharding's rank is not
  // the shape's or a dimension is negative.
  static absl::StatusOr<ShardingPicture> Create(const Sharding& sharding,
                                                const std::vector<int64_t>& shape,
                                                std::vector<HaloUse> halos = {});

  // The picture of `value`, a value of `result`: its sharding, or replicated over the
  // partitioned program's first mesh (one device without one), and its halos.
  static absl::StatusOr<ShardingPicture> Create(const PartitionResult& result,
                                                const ShardedValue& value);

  const std::vector<Dim>& dims() const;
  const Sharding& sharding() const;
  int64_t num_devices() const;

  // Every device's tile, by increasing device id. One entry per device: on a mesh of a
  // million devices, prefer Text() or Json(), whose size is what is drawn.
  std::vector<Tile> Tiles() const;

  // The text picture of `tessel viz`, lines of at most about `width` characters, each
  // ending with '\n'; with `color`, each tile's cells on an ANSI 256-colour background per
  // set of devices holding it, and a legend.
  std::string Text(int width = 80, bool color = false) const;

  // One self-contained HTML page (`heading` its title, `header` above the grid) or SVG image
  // with this picture, as `tessel viz --format=html|svg` draws each value.
  std::string Html(absl::string_view heading, absl::string_view header) const;
  std::string Svg(absl::string_view heading, absl::string_view header) const;

  // The layout as `tessel viz --format=json` writes it for a value.
  std::string Json() const;

 private:
  struct Impl;
  explicit ShardingPicture(std::shared_ptr<const Impl> impl) : impl_(std::move(impl)) {}

  // Shared: a picture is an immutable value, cheap to copy.
  std::shared_ptr<const Impl> impl_;
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_VISUALIZE_H_
