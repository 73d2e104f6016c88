// The Megatron MLP built with GraphBuilder (megatron_mlp.h).
#include "examples/megatron_mlp/megatron_mlp.h"

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::examples {

absl::StatusOr<Program> BuildMegatronMlp(int64_t num_devices) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"model", num_devices}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));

  GraphBuilder b;
  Value x = b.Parameter(TensorType(ElementType::kF32, {8, 32}));
  Value w1 = b.Parameter(TensorType(ElementType::kF32, {32, 64}), columns);
  Value w2 = b.Parameter(TensorType(ElementType::kF32, {64, 32}), rows);
  Value hidden = b.MatMul(x, w1);
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {8, 64}, {});
  Value y = b.MatMul(b.Max(hidden, zeros), w2);
  return b.Build({y});
}

}  // namespace tessel::examples
