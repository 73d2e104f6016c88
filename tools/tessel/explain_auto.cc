// Text and JSON for auto-sharding's explanation of its plan.
#include "tools/tessel/explain_auto.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "support/json_quote.h"

namespace tessel::cli {
namespace {

using auto_sharding::AutoShardingResult;
using auto_sharding::ChoiceExplanation;
using auto_sharding::ReshardExplanation;

// Seconds as people read them: "12.3 us", "1.5 ms".
std::string Time(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds < 1e-3) return absl::StrFormat("%.3g us", seconds * 1e6);
  if (seconds < 1) return absl::StrFormat("%.3g ms", seconds * 1e3);
  return absl::StrFormat("%.3g s", seconds);
}

std::string Place(const std::string& what, const std::string& name, const std::string& at) {
  std::string text = what;
  if (!name.empty()) absl::StrAppend(&text, " ", name);
  if (!at.empty()) absl::StrAppend(&text, " (", at, ")");
  return text;
}

std::string Nullable(const std::string& text) {
  return text.empty() ? "null" : JsonQuote(text);
}

}  // namespace

void PrintAutoExplanation(const AutoShardingResult& chosen, std::ostream& out) {
  const auto_sharding::PlanExplanation& plan = chosen.plan;
  out << "auto-sharding: " << (chosen.optimal ? "optimal" : "best-found") << " plan, "
      << chosen.nodes << " choices (" << chosen.mergedOps << " elementwise ops merged)\n";
  if (!chosen.repeatedLayerRuns.empty()) {
    // The plan's optimality is among plans that treat the copies of a layer alike.
    int64_t copies = 0;
    for (int64_t run : chosen.repeatedLayerRuns) copies += run;
    out << "layers: " << copies << " identical layers take the same strategies"
        << (chosen.repeatedLayerRuns.size() == 1
                ? std::string()
                : " (runs of " + absl::StrJoin(chosen.repeatedLayerRuns, ", ") + " copies)")
        << "; the plan is " << (chosen.optimal ? "optimal" : "the best found")
        << " among such plans\n";
  }
  if (!chosen.wholeOps.empty()) {
    out << "priced whole (no sharding rule, no strategies): "
        << absl::StrJoin(chosen.wholeOps, ", ") << "\n";
  }
  for (const ChoiceExplanation& choice : plan.choices) {
    out << "  " << Place(choice.node, choice.name, choice.location) << ": " << choice.strategy
        << (choice.annotated ? "  [annotated]"
                             : absl::StrCat("  [chosen of ", choice.strategies, "]"))
        << "\n";
  }
  out << "objective: " << Time(chosen.objectiveSeconds) << " = compute "
      << Time(plan.computeSeconds) << " + communication inside ops "
      << Time(plan.opCommunicationSeconds) << " + reshards " << Time(plan.reshardSeconds)
      << "\n";
  if (plan.reshards.empty()) {
    out << "reshards: none\n";
  } else {
    out << "reshards: " << plan.reshards.size() << ", the costliest first\n";
    const size_t shown = std::min<size_t>(plan.reshards.size(), kReshardsShown);
    for (size_t i = 0; i < shown; ++i) {
      const ReshardExplanation& r = plan.reshards[i];
      out << "  " << Time(r.seconds) << ": " << (r.name.empty() ? "a value" : r.name) << " "
          << r.type << " " << r.from << " -> " << r.to << ", from "
          << Place(r.producer, "", r.producerAt) << " to " << Place(r.consumer, "", r.consumerAt)
          << "\n";
    }
    if (shown < plan.reshards.size()) {
      out << "  (" << plan.reshards.size() - shown << " more; --format=json lists them)\n";
    }
  }
  out << "memory: estimated peak " << static_cast<int64_t>(plan.peakBytes)
      << " bytes per device" << (plan.peakAt.empty() ? "" : " at " + plan.peakAt)
      << "; limit " << chosen.memoryLimitBytes << "\n";
  if (chosen.nextBest) {
    if (!chosen.nextBest->found) {
      out << "next-best plan: none (" << chosen.nextBest->why << ")\n";
    } else {
      const double delta = chosen.nextBest->objectiveSeconds - chosen.objectiveSeconds;
      out << "next-best plan: " << Time(chosen.nextBest->objectiveSeconds) << " ("
          << (delta >= 0 ? "+" : "-") << Time(std::abs(delta)) << "), differing at "
          << chosen.nextBest->changes.size() << ":\n";
      for (const std::string& change : chosen.nextBest->changes) out << "  " << change << "\n";
    }
  }
}

std::string AutoExplanationJson(const AutoShardingResult& chosen) {
  const auto_sharding::PlanExplanation& plan = chosen.plan;
  std::vector<std::string> choices;
  for (const ChoiceExplanation& c : plan.choices) {
    choices.push_back(absl::StrCat(
        "{\"node\": ", JsonQuote(c.node), ", \"name\": ", Nullable(c.name),
        ", \"at\": ", Nullable(c.location), ", \"strategy\": ", JsonQuote(c.strategy),
        ", \"annotated\": ", c.annotated ? "true" : "false", ", \"strategies\": ", c.strategies,
        ", \"compute_seconds\": ", c.computeSeconds,
        ", \"communication_seconds\": ", c.communicationSeconds, "}"));
  }
  std::vector<std::string> reshards;
  for (const ReshardExplanation& r : plan.reshards) {
    reshards.push_back(absl::StrCat(
        "{\"name\": ", Nullable(r.name), ", \"type\": ", JsonQuote(r.type),
        ", \"from\": ", JsonQuote(r.from), ", \"to\": ", JsonQuote(r.to),
        ", \"producer\": ", JsonQuote(r.producer), ", \"producer_at\": ",
        Nullable(r.producerAt), ", \"consumer\": ", JsonQuote(r.consumer),
        ", \"consumer_at\": ", Nullable(r.consumerAt), ", \"seconds\": ", r.seconds, "}"));
  }
  std::string next = "null";
  if (chosen.nextBest && chosen.nextBest->found) {
    std::vector<std::string> changes;
    for (const std::string& change : chosen.nextBest->changes) changes.push_back(JsonQuote(change));
    next = absl::StrCat("{\"objective_seconds\": ", chosen.nextBest->objectiveSeconds,
                        ", \"changes\": [", absl::StrJoin(changes, ", "), "]}");
  } else if (chosen.nextBest) {
    next = absl::StrCat("{\"none\": ", JsonQuote(chosen.nextBest->why), "}");
  }
  std::vector<std::string> wholeOps;
  for (const std::string& op : chosen.wholeOps) wholeOps.push_back(JsonQuote(op));
  return absl::StrCat(
      "{\"optimal\": ", chosen.optimal ? "true" : "false",
      ", \"objective_seconds\": ", chosen.objectiveSeconds,
      ", \"compute_seconds\": ", plan.computeSeconds,
      ", \"op_communication_seconds\": ", plan.opCommunicationSeconds,
      ", \"reshard_seconds\": ", plan.reshardSeconds,
      ", \"estimated_peak_bytes\": ", static_cast<int64_t>(plan.peakBytes),
      ", \"memory_limit_bytes\": ", chosen.memoryLimitBytes,
      ", \"repeated_layer_runs\": [", absl::StrJoin(chosen.repeatedLayerRuns, ", "), "]",
      ", \"whole_ops\": [", absl::StrJoin(wholeOps, ", "), "]",
      ",\n   \"choices\": [", absl::StrJoin(choices, ",\n     "),
      "],\n   \"reshards\": [", absl::StrJoin(reshards, ",\n     "),
      "],\n   \"next_best\": ", next, "}");
}

}  // namespace tessel::cli
