// Reductions with reducer regions: reduce, reduce_window, select_and_scatter.
#ifndef TESSEL_IR_HLO_REDUCTION_OPS_TD
#define TESSEL_IR_HLO_REDUCTION_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

#endif  // TESSEL_IR_HLO_REDUCTION_OPS_TD
