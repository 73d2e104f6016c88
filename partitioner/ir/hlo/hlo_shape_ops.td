// Shape ops: broadcast_in_dim, reshape, transpose, slice, dynamic slices, pad, concatenate, reverse.
#ifndef TESSEL_IR_HLO_SHAPE_OPS_TD
#define TESSEL_IR_HLO_SHAPE_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

#endif  // TESSEL_IR_HLO_SHAPE_OPS_TD
