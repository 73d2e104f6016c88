// A GShard-style mixture-of-experts layer. A gate picks one expert per token (top-1); each
// expert takes at most `capacity` tokens, in token order, and drops the rest. Tokens reach
// their expert's slot through a one-hot dispatch tensor [tokens, experts, capacity] (a dot),
// each expert runs its own two-layer MLP, and a combine tensor (the dispatch weighted by
// the gate probability) brings the outputs back to the tokens.
//
// Tokens and experts are both split over the 1-D "expert" mesh, so the dispatch and the
// combine move tokens between devices (all-to-all traffic); what the partitioner emits
// for that is printed by the example.
#ifndef TESSEL_EXAMPLES_MOE_MOE_H_
#define TESSEL_EXAMPLES_MOE_MOE_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "partitioner/api/program.h"

namespace tessel::examples {

// tokens: f32[16, 8]; gate: f32[8, 8 experts]; expert weights f32[8 experts, 8, 16] and
// f32[8 experts, 16, 8]; capacity 4 tokens per expert.
absl::StatusOr<Program> BuildMoe(int64_t num_devices);

}  // namespace tessel::examples

#endif  // TESSEL_EXAMPLES_MOE_MOE_H_
