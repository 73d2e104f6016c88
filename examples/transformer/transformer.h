// A transformer block — multi-head self-attention and an MLP, each with a residual — on a
// 2-D mesh: the batch split over "data", the attention heads and the MLP's hidden units
// over "model" (Megatron's split), so each sub-block ends in one all_reduce over "model".
#ifndef TESSEL_EXAMPLES_TRANSFORMER_TRANSFORMER_H_
#define TESSEL_EXAMPLES_TRANSFORMER_TRANSFORMER_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/program.h"

namespace tessel::examples {

// The data x model mesh for `num_devices`: 2 x (n / 2) for an even n of at least 4,
// otherwise 1 x n.
absl::StatusOr<Mesh> TransformerMesh(int64_t num_devices);

// x: f32[4 batch, 8 tokens, 16 features]; 4 heads of 4; MLP hidden size 32.
absl::StatusOr<Program> BuildTransformer(int64_t num_devices);

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_TRANSFORMER_TRANSFORMER_H_
