// The spatially split conv net built with GraphBuilder (conv_spatial.h).
#include "examples/conv_spatial/conv_spatial.h"

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::examples {
namespace {

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

// A 3x3 "same" convolution (padding 1 on each side) followed by ReLU, channels last.
Value ConvRelu(GraphBuilder& b, Value input, Value kernel) {
  ConvolutionOptions same;
  same.padding = {{1, 1}, {1, 1}};
  Value conv = b.Convolution(input, kernel, ConvDimensions::ChannelsLast(2), same);
  Value zeros =
      b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), conv.type().dimensions(), {});
  return b.Max(conv, zeros);
}

}  // namespace

absl::StatusOr<Program> BuildConvSpatial(int64_t num_devices) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"space", num_devices}}));
  TESSEL_ASSIGN_OR_RETURN(
      Sharding rows, Sharding::Create(mesh, {Replicated(), "space", Replicated(), Replicated()}));

  GraphBuilder b;
  Value images = b.Parameter(F32({2, 24, 8, 3}), rows);
  Value k1 = b.Parameter(F32({3, 3, 3, 8}));
  Value k2 = b.Parameter(F32({3, 3, 8, 8}));
  Value features = ConvRelu(b, ConvRelu(b, images, k1), k2);
  Window pool;
  pool.strides = {1, 2, 2, 1};
  Value pooled = b.ReduceWindow(features, ReduceKind::kMax, {1, 2, 2, 1}, pool);
  return b.Build({pooled}, {rows});
}

}  // namespace tessel::examples
