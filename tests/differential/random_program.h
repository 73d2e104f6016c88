// A seeded generator of small random programs for the partitioner's differential fuzz
// test: a random mesh (1 to 16 devices, 1 to 3 axes, uneven sizes included), a chain of
// random ops over a pool of values, random shardings on the arguments and sometimes on the
// results, and inputs. The ops cover what the partitioner handles: elementwise unary and
// binary ops (bitwise, shifts, rem, clamp, convert, compare in every direction, select),
// transpose, broadcast, reduce, dot_general, reshape, slice, concatenate, reverse, pad, iota,
// dynamic_slice, dynamic_update_slice, convolution (any dimension order, strides, padding of
// both signs, lhs/rhs dilation, feature and batch groups), reduce_window, select_and_scatter,
// gather and scatter (batching dims; scatter adds, or overwrites at distinct positions),
// sort (one or two operands, stable), top_k, while (a counter loop carrying values), case
// (index from an argument or a constant), optimization_barrier, sharding_group, and
// sharding constraints. Shardings use sub-axes (`"x":(1)2`), open dims, priorities,
// `replicated={...}` and, on constraints, `unreduced={...}`. Some programs are a training
// step: they return a weight updated by a gradient from a dot of the activations (and
// sometimes momentum state), for weight-update sharding. The same seed always gives the
// same program and inputs, so a failing seed is its own reproducer.
//
//   RandomProgram program = GenerateRandomProgram(/*seed=*/42);
//   ExpectPartitionedRunMatches(program.module, program.inputs);
//
// Floats hold small integers and the ops keep them small, so every result is exact in f32
// whatever order a partitioned program adds in: any difference is a partitioner bug.
#ifndef TESSEL_TESTS_DIFFERENTIAL_RANDOM_PROGRAM_H_
#define TESSEL_TESTS_DIFFERENTIAL_RANDOM_PROGRAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/tensor.h"

namespace tessel::testing {

struct RandomProgram {
  uint64_t seed = 0;
  std::string module;  // MLIR text with `tessel.mesh @mesh` and `func.func @main`
  std::vector<runtime::Tensor> inputs;
};

RandomProgram GenerateRandomProgram(uint64_t seed);

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_RANDOM_PROGRAM_H_
