// The number of trips of a counted while loop, read off its condition and body: a counter
// that starts at a constant, grows by a constant step each trip, and is compared with a
// bound that is a constant or a carried value the loop never changes (the loops `fori_loop`
// and `scan` lower to). Cost estimates multiply a loop body by it; where it is unknown they
// count one trip.
//
//   if (std::optional<int64_t> trips = staticTripCount(loop)) seconds += *trips * body;
#ifndef TESSEL_PARTITIONER_IR_HLO_TRIP_COUNT_H_
#define TESSEL_PARTITIONER_IR_HLO_TRIP_COUNT_H_

#include <cstdint>
#include <optional>

#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo {

// The trips of `loop` when its condition is `counter LT|LE bound` (or `bound GT|GE
// counter`) on integer scalars, the counter's initial value is a constant, the body adds a
// positive constant to it, and the bound is a constant or a loop-invariant carry whose
// initial value is a constant; nullopt otherwise.
std::optional<int64_t> staticTripCount(WhileOp loop);

}  // namespace tessel::hlo

#endif  // TESSEL_PARTITIONER_IR_HLO_TRIP_COUNT_H_
