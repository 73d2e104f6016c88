// Generated op definitions of the `tessel` dialect; verifiers live beside their op family.
#include "partitioner/ir/tessel/tessel_ops.h"

#define GET_OP_CLASSES
#include "partitioner/ir/tessel/tessel_ops.cpp.inc"
