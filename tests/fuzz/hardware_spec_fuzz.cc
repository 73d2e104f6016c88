// Fuzz target: the hardware spec reader (cost_model/hardware_spec.h). A spec it accepts feeds
// the cost model's comparisons, so every collective it prices must take a non-negative time
// that is a number: a NaN makes every comparison of two plans false. (Absurd but finite
// rates may overflow to an infinite time, which still compares.)
#include <cmath>
#include <string>
#include <vector>

#include "cost_model/collective_cost.h"
#include "cost_model/hardware_spec.h"
#include "tests/fuzz/fuzz_targets.h"

namespace tessel::fuzz {

int FuzzHardwareSpec(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<cost_model::HardwareSpec> spec = cost_model::ParseHardwareSpec(text, "fuzz");
  if (!spec.ok()) return 0;
  std::vector<std::vector<std::string>> groups = {{}};
  for (const cost_model::AxisLink& axis : spec->axis_links()) groups.push_back({axis.axis()});
  if (spec->axis_links_size() >= 2) {
    groups.push_back({spec->axis_links(0).axis(), spec->axis_links(1).axis()});
  }
  for (const std::vector<std::string>& axes : groups) {
    const cost_model::Link link = cost_model::LinkForAxes(*spec, axes);
    for (cost_model::CollectiveKind kind :
         {cost_model::CollectiveKind::kAllReduce, cost_model::CollectiveKind::kAllGather,
          cost_model::CollectiveKind::kReduceScatter, cost_model::CollectiveKind::kAllToAll,
          cost_model::CollectiveKind::kCollectivePermute}) {
      for (int64_t group_size : {1, 2, 7, 4096}) {
        for (double bytes : {0.0, 4.0, 1e9}) {
          const double seconds =
              cost_model::EstimateCollective(kind, bytes, group_size, link).seconds;
          if (std::isnan(seconds) || seconds < 0) {
            Finding("hardware_spec",
                    (std::string("an accepted spec prices ") + cost_model::CollectiveKindName(kind) +
                     " at " + std::to_string(seconds) + " s")
                        .c_str());
          }
        }
      }
    }
  }
  return 0;
}

}  // namespace tessel::fuzz
