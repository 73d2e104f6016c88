// Printing and verifying for the examples (report.h).
#include "examples/common/report.h"

#include <utility>

#include "support/status_macros.h"

namespace tessel::examples {

absl::StatusOr<Outcome> PartitionAndVerify(const Program& program, std::ostream& out,
                                           uint64_t seed) {
  for (const Mesh& mesh : program.meshes()) out << "mesh " << mesh.ToString() << "\n";
  TESSEL_ASSIGN_OR_RETURN(PartitionResult partitioned, Partition(program));
  out << "shardings:\n";
  for (const auto* values : {&partitioned.parameters, &partitioned.op_results,
                             &partitioned.results}) {
    for (const ShardedValue& value : *values) out << "  " << value << "\n";
  }
  out << "collectives:\n";
  std::string summary = partitioned.collectives.ToString();
  for (size_t start = 0; start < summary.size();) {
    size_t end = summary.find('\n', start);
    if (end == std::string::npos) end = summary.size();
    out << "  " << summary.substr(start, end - start) << "\n";
    start = end + 1;
  }
  out << "fallback warnings:";
  if (partitioned.fallback_warnings.empty()) out << " none";
  out << "\n";
  for (const FallbackWarning& warning : partitioned.fallback_warnings) {
    out << "  " << warning << "\n";
  }
  const CostEstimate& cost = partitioned.cost;
  out << "estimated per device (" << cost.hardware << "): peak " << cost.peak_bytes
      << " bytes, " << cost.flops << " flops, step " << cost.step_seconds * 1e6
      << " us (compute " << cost.compute_seconds * 1e6 << " us, communication "
      << cost.communication_seconds * 1e6 << " us)\n";
  TESSEL_ASSIGN_OR_RETURN(VerifyReport report, Verify(program, partitioned, seed));
  out << report << "\n";
  return Outcome{std::move(partitioned), std::move(report)};
}

}  // namespace tessel::examples
