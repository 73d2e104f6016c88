// A small conv net — two 3x3 convolutions with ReLU, then a 2x2 max pool — on images split
// along their height over a 1-D "space" mesh, as for images too large for one device. Each
// convolution needs a row of its neighbours' pieces above and below (a halo); what the
// partitioner emits for that is printed by the example.
#ifndef TESSEL_EXAMPLES_CONV_SPATIAL_CONV_SPATIAL_H_
#define TESSEL_EXAMPLES_CONV_SPATIAL_CONV_SPATIAL_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/program.h"

namespace tessel::examples {

// images: f32[2 batch, 24 height, 8 width, 3 channels] split along the height; kernels
// f32[3, 3, 3, 8] and f32[3, 3, 8, 8], replicated. Result f32[2, 12, 4, 8].
absl::StatusOr<Program> BuildConvSpatial(int64_t num_devices);

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_CONV_SPATIAL_CONV_SPATIAL_H_
