// Root of the `hlo` op definitions; each op family lives in its own file.
#ifndef TESSEL_IR_HLO_OPS_TD
#define TESSEL_IR_HLO_OPS_TD

include "partitioner/ir/hlo/hlo_base.td"
include "partitioner/ir/hlo/hlo_enums.td"
include "partitioner/ir/hlo/hlo_attrs.td"
include "partitioner/ir/hlo/hlo_creation_ops.td"
include "partitioner/ir/hlo/hlo_elementwise_ops.td"
include "partitioner/ir/hlo/hlo_shape_ops.td"
include "partitioner/ir/hlo/hlo_reduction_ops.td"
include "partitioner/ir/hlo/hlo_linalg_ops.td"
include "partitioner/ir/hlo/hlo_indexing_ops.td"
include "partitioner/ir/hlo/hlo_control_ops.td"

#endif  // TESSEL_IR_HLO_OPS_TD
