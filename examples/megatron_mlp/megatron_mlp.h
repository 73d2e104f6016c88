// A two-layer MLP split the Megatron way over a 1-D "model" mesh: the first weight by
// columns and the second by rows, so each device computes a slice of the hidden layer and
// a partial sum of the output, and one all_reduce adds the partial sums.
#ifndef TESSEL_EXAMPLES_MEGATRON_MLP_MEGATRON_MLP_H_
#define TESSEL_EXAMPLES_MEGATRON_MLP_MEGATRON_MLP_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/program.h"

namespace tessel::examples {

// y = relu(x @ w1) @ w2 with x: f32[8,32], w1: f32[32,64], w2: f32[64,32], on a mesh
// ["model"=num_devices].
absl::StatusOr<Program> BuildMegatronMlp(int64_t num_devices);

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_MEGATRON_MLP_MEGATRON_MLP_H_
