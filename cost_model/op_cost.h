// The compute cost of one op on one device: the arithmetic it does and the bytes it reads and
// writes in device memory, from the op's (local, after partitioning) types. The time is that
// of a roofline: an op is bound either by arithmetic or by memory traffic.
//
//   OpCost cost = EstimateOpCost(dot);        // {2*M*N*K*batch flops, lhs+rhs+result bytes}
//   double seconds = OpSeconds(cost, spec);   // max(flops / rate, bytes / bandwidth)
//
// Formulas (flops; bytes are operands + results unless said otherwise):
//   elementwise (incl. convert, compare, select, clamp): one per result element;
//   dot_general: 2 * result elements * product of the contracting sizes (= 2*M*N*K*batch);
//   convolution: 2 * result elements * kernel elements / kernel output features (one
//     multiply-add per kernel tap and input feature of the output's group);
//   reduce: one per input element; reduce_window: one per result element and window tap;
//   select_and_scatter: source elements * (window taps + 1) (the selection compares a
//     window per source element, the scatter adds it);
//   sort: input elements * ceil(log2(sorted dimension size)) comparisons;
//   scatter: one per update element;
//   movement (broadcast_in_dim, transpose, slice, dynamic_slice, pad, concatenate, reverse,
//     gather, iota, custom_call): no flops, only bytes; dynamic_update_slice works in place
//     (reads and writes the update only); slice and dynamic_slice read only what they
//     return; iota only writes.
//   Free: constant (part of the program image), reshape (a row-major buffer is reinterpreted,
//   not copied), partition_id, returns, sharding ops; while and case themselves (their bodies
//   are costed op by op by the caller); collectives, whose time is collective_cost.h's.
#ifndef TESSEL_COST_MODEL_OP_COST_H_
#define TESSEL_COST_MODEL_OP_COST_H_

#include "cost_model/hardware_spec.h"
#include "mlir/IR/Operation.h"

namespace tessel::cost_model {

struct OpCost {
  double flops = 0;
  double bytes = 0;  // device-memory traffic: bytes read plus bytes written
};

// The cost of `op` alone, without the ops nested in its regions (reducer bodies are part of
// the formula; control-flow bodies are the caller's to walk).
OpCost EstimateOpCost(mlir::Operation* op);

// max(flops / flops_per_second, bytes / memory_bandwidth_bytes_per_second).
double OpSeconds(const OpCost& cost, const HardwareSpec& spec);

}  // namespace tessel::cost_model

#endif  // TESSEL_COST_MODEL_OP_COST_H_
