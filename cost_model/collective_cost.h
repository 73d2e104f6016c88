// The time of a collective by the alpha-beta model: a step over a link costs the link's
// latency (alpha) and each byte costs 1 / bandwidth (beta). Per algorithm, for a group of n
// devices each holding an operand of S bytes:
//
//   kind                algorithm          bytes sent per device   latency steps
//   all_reduce          ring               2 (n-1)/n * S           2 (n-1)
//   all_gather          ring               (n-1) * S               n-1   (the result is n*S)
//   reduce_scatter      ring               (n-1)/n * S             n-1
//   all_to_all          pairwise exchange  (n-1)/n * S             n-1
//   collective_permute  one hop            S                       1
//
// time = latency steps * latency + bytes sent / bandwidth; a group of one device costs nothing.
// A group spanning several mesh axes is modelled over the slowest of their links (LinkForAxes),
// which ignores hierarchical algorithms that would keep most traffic on the fast axis.
//
//   double seconds = EstimateReshardCost(CollectiveKind::kAllGather, /*element_bytes=*/4,
//                                        /*local_elements=*/1024, /*group_size=*/8,
//                                        {"data"}, spec);
#ifndef TESSEL_COST_MODEL_COLLECTIVE_COST_H_
#define TESSEL_COST_MODEL_COLLECTIVE_COST_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "cost_model/hardware_spec.h"
#include "mlir/IR/Operation.h"

namespace tessel::cost_model {

enum class CollectiveKind { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kCollectivePermute };

// "all_reduce", "all_gather", ... (the op's mnemonic).
const char* CollectiveKindName(CollectiveKind kind);

struct CollectiveEstimate {
  double operand_bytes = 0;  // S: what each device contributes
  double sent_bytes = 0;     // what each device sends over its links
  double seconds = 0;
};

// The estimate for `kind` over `group_size` devices joined by `link`, each holding an operand
// of `operand_bytes`. REQUIRES: group_size >= 1.
CollectiveEstimate EstimateCollective(CollectiveKind kind, double operand_bytes,
                                      int64_t group_size, const Link& link);

// Seconds for a collective the reshard planner considers: `local_elements` elements of
// `element_bytes` bytes each on every device (the operand), a group of `group_size` devices
// along the mesh axes `axes` (names; sub-axes by their axis's name). Comparing the sums of
// this over two plans ranks them by estimated time rather than by bytes alone.
double EstimateReshardCost(CollectiveKind kind, int64_t element_bytes, int64_t local_elements,
                           int64_t group_size, absl::Span<const std::string> axes,
                           const HardwareSpec& spec);

// The kind of `op` if it is a tessel collective, nullopt for any other op.
std::optional<CollectiveKind> CollectiveKindOf(mlir::Operation* op);

// A collective op of the tessel dialect and its estimate.
struct CollectiveOpCost {
  CollectiveKind kind;
  // The op's axes as written in it: `model`, `x:(2)4` for a sub-axis.
  std::vector<std::string> axes;
  int64_t group_size = 1;
  CollectiveEstimate estimate;
};

// The cost of `op` if it is a tessel collective (all_reduce, all_gather, reduce_scatter,
// all_to_all, collective_permute), nullopt for any other op. A collective_permute whose every
// pair sends a device to itself moves nothing. REQUIRES: `op` verified.
std::optional<CollectiveOpCost> EstimateCollectiveOp(mlir::Operation* op,
                                                     const HardwareSpec& spec);

}  // namespace tessel::cost_model

#endif  // TESSEL_COST_MODEL_COLLECTIVE_COST_H_
