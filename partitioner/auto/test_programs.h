// Programs the auto-sharding tests and benchmarks share, built through the public API with
// the hand (Megatron) shardings: a two-layer MLP, a stack of transformer blocks, and a
// stack of MLPs run by a loop over stacked weights (what jax.lax.scan over layers emits).
// WithoutShardings strips the annotations so that only the mesh is left to plan from.
#ifndef TESSEL_PARTITIONER_AUTO_TEST_PROGRAMS_H_
#define TESSEL_PARTITIONER_AUTO_TEST_PROGRAMS_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/program.h"

namespace tessel::auto_sharding_testing {

// The same program with every sharding annotation removed: only the mesh is left.
absl::StatusOr<Program> WithoutShardings(const Program& program);

// A two-layer MLP on a data x model mesh, split Megatron's way: batch over "data", the
// hidden layer over "model".
absl::StatusOr<Program> BuildMlp(int64_t batch, int64_t features, int64_t hidden, int64_t data,
                                 int64_t model);

struct BlockSizes {
  int64_t batch, tokens, heads, head_size, hidden;
  int64_t layers = 1;
};

// `layers` transformer blocks (attention and MLP, each with a residual), each with its own
// weights, split Megatron's way: the batch over "data", heads and MLP hidden units over
// "model".
absl::StatusOr<Program> BuildBlock(const BlockSizes& s, int64_t data, int64_t model);

// `layers` MLP layers with residuals, x += relu(x @ w1[l]) @ w2[l], run by a while loop
// over the stacked weights w1[layers, features, hidden] and w2[layers, hidden, features],
// each trip slicing out its layer's pair: the loop state is the counter, x and both
// stacks. Split Megatron's way: x's batch over "data", the hidden units over "model".
absl::StatusOr<Program> BuildScannedMlp(int64_t batch, int64_t features, int64_t hidden,
                                        int64_t layers, int64_t data, int64_t model);

}  // namespace tessel::auto_sharding_testing

#endif  // TESSEL_PARTITIONER_AUTO_TEST_PROGRAMS_H_
