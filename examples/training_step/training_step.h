// One data-parallel training step of a two-layer MLP: the batch is split over a 1-D "data"
// mesh and the weights are replicated. The forward pass and the mean squared error, the
// gradients written out by hand (backpropagation through both matmuls and the ReLU), and an
// SGD-with-momentum update. Each weight gradient sums over the split batch, so the
// partitioner adds an all_reduce over "data" per gradient; the loss, a sum over the whole
// batch too, costs one more collective over "data".
#ifndef TESSEL_EXAMPLES_TRAINING_STEP_TRAINING_STEP_H_
#define TESSEL_EXAMPLES_TRAINING_STEP_TRAINING_STEP_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/program.h"

namespace tessel::examples {

// Parameters: x f32[16, 8], targets f32[16, 4], w1 f32[8, 16], w2 f32[16, 4], and the
// momentum buffers of w1 and w2. Results: the loss (f32[]), the new w1, w2 and momentum
// buffers.
absl::StatusOr<Program> BuildTrainingStep(int64_t num_devices);

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_TRAINING_STEP_TRAINING_STEP_H_
