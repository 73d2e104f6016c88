// Linear algebra: dot_general and convolution.
#ifndef TESSEL_IR_HLO_LINALG_OPS_TD
#define TESSEL_IR_HLO_LINALG_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

#endif  // TESSEL_IR_HLO_LINALG_OPS_TD
