// The cost report as a table for people and as JSON for programs.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cost_model/cost_report.h"
#include "support/json_quote.h"

namespace tessel::cost_model {
namespace {

// Three significant digits, trailing zeros kept: "4.00", "23.8", "132".
std::string Digits3(double value) {
  if (value >= 100) return absl::StrFormat("%.0f", value);
  if (value >= 10) return absl::StrFormat("%.1f", value);
  return absl::StrFormat("%.2f", value);
}

// "1.50 KiB": binary units, three significant digits.
std::string Bytes(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  if (unit == 0) return absl::StrFormat("%.0f B", bytes);
  return absl::StrCat(Digits3(bytes), " ", kUnits[unit]);
}

// "12.3 us": seconds in the unit that keeps the number at or above 1.
std::string Seconds(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds >= 1) return absl::StrCat(Digits3(seconds), " s");
  if (seconds >= 1e-3) return absl::StrCat(Digits3(seconds * 1e3), " ms");
  if (seconds >= 1e-6) return absl::StrCat(Digits3(seconds * 1e6), " us");
  return absl::StrCat(Digits3(seconds * 1e9), " ns");
}

// "132 k (131584)": decimal prefixes for counts, with the exact count.
std::string Count(double count) {
  double exact = count;
  static const char* const kPrefixes[] = {"", " k", " M", " G", " T", " P", " E"};
  int prefix = 0;
  while (count >= 1000 && prefix < 6) {
    count /= 1000;
    ++prefix;
  }
  if (prefix == 0) return absl::StrFormat("%.0f", count);
  return absl::StrCat(Digits3(count), kPrefixes[prefix], absl::StrFormat(" (%.0f)", exact));
}

// "65 KiB (66560 B)": the exact count too, for bytes that can be checked by hand.
std::string ExactBytes(int64_t bytes) {
  std::string rounded = Bytes(static_cast<double>(bytes));
  if (bytes < 1024) return rounded;
  return absl::StrCat(rounded, " (", bytes, " B)");
}

std::string Row(const std::string& label, const std::string& value) {
  return absl::StrFormat("  %-18s %s\n", label, value);
}

std::string CollectiveRow(const std::string& kind, const std::string& axes,
                          const CollectiveTotals& sums) {
  return absl::StrFormat("  %-20s %-12s %6d %12s %12s %10s\n", kind, axes, sums.count,
                         Bytes(sums.operand_bytes), Bytes(sums.sent_bytes),
                         Seconds(sums.seconds));
}

// A JSON number: integers exactly, fractions with 12 significant digits.
std::string Number(double value) { return absl::StrFormat("%.12g", value); }

std::string TotalsJson(const CollectiveTotals& sums) {
  return absl::StrCat("\"count\": ", sums.count, ", \"operand_bytes\": ", Number(sums.operand_bytes),
                      ", \"sent_bytes\": ", Number(sums.sent_bytes),
                      ", \"seconds\": ", Number(sums.seconds));
}

}  // namespace

std::string FormatCostReport(const CostReport& report) {
  std::string out = absl::StrCat("cost report: @", report.function, " on ", report.devices,
                                 report.devices == 1 ? " device\n" : " devices\n");
  absl::StrAppend(&out, "hardware: ", report.hardware, "\n\nmemory per device\n");
  absl::StrAppend(&out, Row("arguments", ExactBytes(report.argument_bytes)));
  absl::StrAppend(&out, Row("results", ExactBytes(report.result_bytes)));
  std::string peak = ExactBytes(report.peak_bytes);
  if (!report.peak_op.empty()) {
    absl::StrAppend(&peak, " at ",
                    report.peak_value.empty() ? "" : absl::StrCat(report.peak_value, " = "),
                    report.peak_op, " (", report.peak_location, ")");
  }
  absl::StrAppend(&out, Row("peak live", peak));
  double used = report.memory_capacity_bytes > 0
                    ? 100.0 * static_cast<double>(report.peak_bytes) /
                          static_cast<double>(report.memory_capacity_bytes)
                    : 0;
  absl::StrAppend(&out, Row("capacity", absl::StrFormat("%s (peak uses %.2f%%)",
                                                        Bytes(report.memory_capacity_bytes),
                                                        used)));

  absl::StrAppend(&out, "\ncompute per device\n");
  absl::StrAppend(&out, Row("flops", Count(report.flops)));
  absl::StrAppend(&out, Row("memory traffic", Bytes(report.memory_traffic_bytes)));
  absl::StrAppend(&out, Row("time", Seconds(report.compute_seconds)));

  absl::StrAppend(&out, "\ncommunication per device\n");
  if (report.by_kind.empty()) {
    absl::StrAppend(&out, "  no collectives\n");
  } else {
    absl::StrAppend(&out, absl::StrFormat("  %-20s %-12s %6s %12s %12s %10s\n", "kind", "axes",
                                          "count", "operand", "sent", "time"));
    CollectiveTotals total;
    for (const auto& [kind, sums] : report.by_kind) {
      int64_t groups = 0;
      for (const auto& [key, group_sums] : report.by_kind_and_axes) {
        if (key.first != kind) continue;
        ++groups;
        absl::StrAppend(&out, CollectiveRow(CollectiveKindName(kind), key.second, group_sums));
      }
      // A kind over several axis groups gets a subtotal.
      if (groups > 1) {
        absl::StrAppend(&out, CollectiveRow(CollectiveKindName(kind), "(all)", sums));
      }
      total.count += sums.count;
      total.operand_bytes += sums.operand_bytes;
      total.sent_bytes += sums.sent_bytes;
      total.seconds += sums.seconds;
    }
    absl::StrAppend(&out, CollectiveRow("total", "", total));
  }
  if (report.by_kind.empty()) {
    absl::StrAppend(&out, Row("time", Seconds(report.communication_seconds)));
  }

  absl::StrAppend(&out, "\nstep time per device\n");
  absl::StrAppend(&out, Row("total", absl::StrCat(Seconds(report.step_seconds),
                                                  " (compute + communication, no overlap)")));
  if (report.while_loops > 0) {
    absl::StrAppend(&out, "\nnote: ", report.while_loops,
                    report.while_loops == 1 ? " while loop" : " while loops",
                    " counted as one iteration (trip counts are not known)\n");
  }
  return out;
}

std::string FormatCostReportJson(const CostReport& report) {
  std::string out = "{\n";
  absl::StrAppend(&out, "  \"function\": ", JsonQuote(report.function), ",\n");
  absl::StrAppend(&out, "  \"devices\": ", report.devices, ",\n");
  absl::StrAppend(&out, "  \"hardware\": ", JsonQuote(report.hardware), ",\n");
  absl::StrAppend(&out, "  \"memory\": {\"argument_bytes\": ", report.argument_bytes,
                  ", \"result_bytes\": ", report.result_bytes,
                  ", \"peak_bytes\": ", report.peak_bytes,
                  ", \"peak_op\": ", JsonQuote(report.peak_op),
                  ", \"peak_location\": ", JsonQuote(report.peak_location),
                  ", \"peak_value\": ", JsonQuote(report.peak_value),
                  ", \"capacity_bytes\": ", report.memory_capacity_bytes, "},\n");
  absl::StrAppend(&out, "  \"compute\": {\"flops\": ", Number(report.flops),
                  ", \"memory_traffic_bytes\": ", Number(report.memory_traffic_bytes),
                  ", \"seconds\": ", Number(report.compute_seconds), "},\n");
  absl::StrAppend(&out, "  \"communication\": {\n    \"seconds\": ",
                  Number(report.communication_seconds), ",\n    \"by_kind\": {");
  const char* separator = "";
  for (const auto& [kind, sums] : report.by_kind) {
    absl::StrAppend(&out, separator, "\n      ", JsonQuote(CollectiveKindName(kind)), ": {",
                    TotalsJson(sums), "}");
    separator = ",";
  }
  absl::StrAppend(&out, report.by_kind.empty() ? "" : "\n    ", "},\n    \"collectives\": [");
  separator = "";
  for (const auto& [key, sums] : report.by_kind_and_axes) {
    absl::StrAppend(&out, separator, "\n      {\"kind\": ", JsonQuote(CollectiveKindName(key.first)),
                    ", \"axes\": ", JsonQuote(key.second), ", ", TotalsJson(sums), "}");
    separator = ",";
  }
  absl::StrAppend(&out, report.by_kind_and_axes.empty() ? "" : "\n    ", "]\n  },\n");
  absl::StrAppend(&out, "  \"step_seconds\": ", Number(report.step_seconds), ",\n");
  absl::StrAppend(&out, "  \"while_loops\": ", report.while_loops, "\n}\n");
  return out;
}

}  // namespace tessel::cost_model
