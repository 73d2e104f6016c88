// A seeded generator of small random programs for the partitioner's differential fuzz
// test: a random mesh (1 to 8 devices, 1-D or 2-D, uneven sizes included), a chain of
// random ops over a pool of values (elementwise, transpose, broadcast, reduce, dot_general,
// reshape, slice, concatenate, reverse, pad, compare/select, iota, dynamic_slice,
// sharding constraints), random shardings on the arguments and sometimes on the result,
// and inputs. The same seed always gives the same program and inputs, so a failing seed
// is its own reproducer.
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
