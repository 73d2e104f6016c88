// Generated op definitions of the `hlo` dialect. Verifiers, type inference and custom
// parsers live beside their op family (hlo_<family>_ops.cc).
#include "partitioner/ir/hlo/hlo_ops.h"

#define GET_OP_CLASSES
#include "partitioner/ir/hlo/hlo_ops.cpp.inc"
