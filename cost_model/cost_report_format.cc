// The cost report as a table for people and as JSON for programs.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cost_model/cost_report.h"

namespace tessel::cost_model {
namespace {

// "1.50 KiB": binary units, three significant digits.
std::string Bytes(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 5) {
    bytes /= 1024;
    ++unit;
  }
  if (unit == 0) return absl::StrFormat("%.0f B", bytes);
  return absl::StrFormat("%.3g %s", bytes, kUnits[unit]);
}

// "12.3 us": seconds in the unit that keeps the number at or above 1.
std::string Seconds(double seconds) {
  if (seconds == 0) return "0 s";
  if (seconds >= 1) return absl::StrFormat("%.3g s", seconds);
  if (seconds >= 1e-3) return absl::StrFormat("%.3g ms", seconds * 1e3);
  if (seconds >= 1e-6) return absl::StrFormat("%.3g us", seconds * 1e6);
  return absl::StrFormat("%.3g ns", seconds * 1e9);
}

// "4.19 M": decimal prefixes for counts.
std::string Count(double count) {
  static const char* const kPrefixes[] = {"", " k", " M", " G", " T", " P", " E"};
  int prefix = 0;
  while (count >= 1000 && prefix < 6) {
    count /= 1000;
    ++prefix;
  }
  if (prefix == 0) return absl::StrFormat("%.0f", count);
  return absl::StrFormat("%.3g%s", count, kPrefixes[prefix]);
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

// A JSON string literal.
std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += absl::StrFormat("\\u%04x", static_cast<int>(c));
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
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
  absl::StrAppend(&out, Row("arguments", Bytes(report.argument_bytes)));
  absl::StrAppend(&out, Row("results", Bytes(report.result_bytes)));
  std::string peak = Bytes(report.peak_bytes);
  if (!report.peak_op.empty()) {
    absl::StrAppend(&peak, " at ", report.peak_op, " (", report.peak_location, ")");
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
    for (const auto& [key, sums] : report.by_kind_and_axes) {
      absl::StrAppend(&out, CollectiveRow(CollectiveKindName(key.first), key.second, sums));
    }
    for (const auto& [kind, sums] : report.by_kind) {
      absl::StrAppend(&out, CollectiveRow(absl::StrCat("all ", CollectiveKindName(kind)), "",
                                          sums));
    }
  }
  absl::StrAppend(&out, Row("time", Seconds(report.communication_seconds)));

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
  absl::StrAppend(&out, "  \"function\": ", Quote(report.function), ",\n");
  absl::StrAppend(&out, "  \"devices\": ", report.devices, ",\n");
  absl::StrAppend(&out, "  \"hardware\": ", Quote(report.hardware), ",\n");
  absl::StrAppend(&out, "  \"memory\": {\"argument_bytes\": ", report.argument_bytes,
                  ", \"result_bytes\": ", report.result_bytes,
                  ", \"peak_bytes\": ", report.peak_bytes,
                  ", \"peak_op\": ", Quote(report.peak_op),
                  ", \"peak_location\": ", Quote(report.peak_location),
                  ", \"capacity_bytes\": ", report.memory_capacity_bytes, "},\n");
  absl::StrAppend(&out, "  \"compute\": {\"flops\": ", Number(report.flops),
                  ", \"memory_traffic_bytes\": ", Number(report.memory_traffic_bytes),
                  ", \"seconds\": ", Number(report.compute_seconds), "},\n");
  absl::StrAppend(&out, "  \"communication\": {\n    \"seconds\": ",
                  Number(report.communication_seconds), ",\n    \"by_kind\": {");
  const char* separator = "";
  for (const auto& [kind, sums] : report.by_kind) {
    absl::StrAppend(&out, separator, "\n      ", Quote(CollectiveKindName(kind)), ": {",
                    TotalsJson(sums), "}");
    separator = ",";
  }
  absl::StrAppend(&out, report.by_kind.empty() ? "" : "\n    ", "},\n    \"collectives\": [");
  separator = "";
  for (const auto& [key, sums] : report.by_kind_and_axes) {
    absl::StrAppend(&out, separator, "\n      {\"kind\": ", Quote(CollectiveKindName(key.first)),
                    ", \"axes\": ", Quote(key.second), ", ", TotalsJson(sums), "}");
    separator = ",";
  }
  absl::StrAppend(&out, report.by_kind_and_axes.empty() ? "" : "\n    ", "]\n  },\n");
  absl::StrAppend(&out, "  \"step_seconds\": ", Number(report.step_seconds), ",\n");
  absl::StrAppend(&out, "  \"while_loops\": ", report.while_loops, "\n}\n");
  return out;
}

}  // namespace tessel::cost_model
