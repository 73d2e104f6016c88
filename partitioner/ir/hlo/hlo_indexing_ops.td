// Gather and scatter with general dimension numbers.
#ifndef TESSEL_IR_HLO_INDEXING_OPS_TD
#define TESSEL_IR_HLO_INDEXING_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"

#endif  // TESSEL_IR_HLO_INDEXING_OPS_TD
