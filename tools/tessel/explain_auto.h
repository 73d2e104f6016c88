// `tessel explain --auto`: what auto-sharding chose for a program and why, as text or as a
// JSON object: the choices (with places, user-fixed ones marked), the objective's parts, the
// costliest reshards, the memory model's peak against the limit, and the runner-up plan.
//
//   AutoShardingResult chosen = ...;   // autoShard with nextBest set
//   PrintAutoExplanation(chosen, std::cout);
#ifndef TESSEL_TOOLS_TESSEL_EXPLAIN_AUTO_H_
#define TESSEL_TOOLS_TESSEL_EXPLAIN_AUTO_H_

#include <ostream>
#include <string>

#include "partitioner/auto/auto_sharding.h"

namespace tessel::cli {

// How many reshards the text lists; JSON lists them all.
inline constexpr int kReshardsShown = 5;

void PrintAutoExplanation(const auto_sharding::AutoShardingResult& chosen, std::ostream& out);

// A JSON object (no trailing newline).
std::string AutoExplanationJson(const auto_sharding::AutoShardingResult& chosen);

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_EXPLAIN_AUTO_H_
