// Generated op definitions of the `tessel` dialect; verifiers live beside their op family
// (sharding_ops.cc, manual_computation.cc, collective_ops.cc).
#include "partitioner/ir/tessel/tessel_ops.h"

#include "partitioner/ir/tessel/tessel_op_syntax.h"

#define GET_OP_CLASSES
#include "partitioner/ir/tessel/tessel_ops.cpp.inc"
