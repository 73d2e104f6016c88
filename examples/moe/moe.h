// A GShard-style mixture-of-experts layer. Tokens come in groups; a gate picks one expert
// per token (top-1); within each group every expert takes at most `kMoeCapacity` tokens, in
// token order, and drops the rest. Tokens reach their expert's slot through a one-hot
// dispatch tensor [groups, group size, experts, capacity] (a dot inside each group), each
// expert runs its own two-layer MLP, and a combine tensor (the dispatch weighted by the
// gate probability) brings the outputs back to the tokens.
//
// Groups and experts are both split over the 1-D "expert" mesh, as in GShard: the dispatch
// and the combine are local to a device, and two all-to-alls move every expert's slots to
// the device holding its weights and back.
#ifndef TESSEL_EXAMPLES_MOE_MOE_H_
#define TESSEL_EXAMPLES_MOE_MOE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/program.h"

namespace tessel::examples {

// 24 groups divide evenly over 1, 2, 3, 4 and 8 devices; 8 experts do not over 3.
inline constexpr int64_t kMoeGroups = 24;
inline constexpr int64_t kMoeGroupSize = 4;
inline constexpr int64_t kMoeExperts = 8;
inline constexpr int64_t kMoeCapacity = 2;

// tokens: f32[24 groups, 4, 8]; gate: f32[8, 8 experts]; expert weights f32[8 experts, 8, 16]
// and f32[8 experts, 16, 8]. The result is f32[24, 4, 8].
absl::StatusOr<Program> BuildMoe(int64_t num_devices);

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_MOE_MOE_H_
