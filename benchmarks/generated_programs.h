// Generated programs for the compile-time benchmarks (propagation and partitioning): the
// same text for the same arguments, so the two benchmarks time the same programs.
#ifndef TESSEL_BENCHMARKS_GENERATED_PROGRAMS_H_
#define TESSEL_BENCHMARKS_GENERATED_PROGRAMS_H_

#include <cstdint>
#include <string>

namespace tessel::benchmarks {

// A chain of `num_ops / 4` blocks (exp, add, dot_general with a shared weight, transpose) on
// 64x64 f32 values over a 4x2 data x model mesh, the input split over data and the weight
// over model.
std::string OpChainProgram(int64_t num_ops);

// A Megatron MLP of `layers` layers (x @ w1 → relu → @ w2, weights split column- then
// row-wise over model, the batch over data) on a `data` x `model` mesh; the shapes are large
// enough that every mesh up to 4096 devices splits them evenly. With `replicate_between`,
// each layer's output is constrained to replicated, so the next layer cuts its batch shard
// out again with an offset table of one entry per device.
std::string MegatronMlpProgram(int64_t data, int64_t model, int64_t layers,
                               bool replicate_between = false);

}  // namespace tessel::benchmarks

#endif  // TESSEL_BENCHMARKS_GENERATED_PROGRAMS_H_
