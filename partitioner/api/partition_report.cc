// The printed forms and totals of what Partition() reports (partition.h).
#include <ostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "partitioner/api/partition.h"

namespace tessel {

std::string Explanation::ToString() const {
  if (origin.empty()) return "replicated: no sharding reached it";
  if (path.empty()) return origin;
  return absl::StrCat(origin, " via ", absl::StrJoin(path, ", "));
}

std::string ShardedValue::name() const {
  std::string text;
  switch (kind) {
    case Kind::kParameter:
      text = absl::StrCat("parameter ", index);
      break;
    case Kind::kResult:
      text = absl::StrCat("result ", index);
      break;
    case Kind::kOpResult:
      text = absl::StrCat(op_name, " (op ", index, ")");
      if (result_number > 0) absl::StrAppend(&text, " result ", result_number);
      break;
  }
  if (!location.empty()) absl::StrAppend(&text, " at ", location);
  return source_name.empty() ? text : absl::StrCat(source_name, " = ", text);
}

std::string ShardedValue::ToString() const {
  return absl::StrCat(name(), " ", type.ToString(), ": ",
                      sharding ? sharding->ToString() : "replicated");
}

std::string FallbackWarning::ToString() const {
  return location.empty() ? message : absl::StrCat(location, ": ", message);
}

int64_t CollectiveSummary::count(absl::string_view kind) const {
  int64_t total = 0;
  for (const Entry& entry : entries) {
    if (entry.kind == kind) total += entry.count;
  }
  return total;
}

int64_t CollectiveSummary::bytes_per_device(absl::string_view kind) const {
  int64_t total = 0;
  for (const Entry& entry : entries) {
    if (entry.kind == kind) total += entry.bytes_per_device;
  }
  return total;
}

int64_t CollectiveSummary::total_count() const {
  int64_t total = 0;
  for (const Entry& entry : entries) total += entry.count;
  return total;
}

std::string CollectiveSummary::ToString() const {
  if (entries.empty()) return "none";
  std::vector<std::string> lines;
  for (const Entry& entry : entries) {
    lines.push_back(absl::StrCat(
        entry.kind, " over ",
        absl::StrJoin(entry.axes, ", ",
                      [](std::string* out, const AxisRef& axis) { out->append(axis.ToString()); }),
        entry.mesh == Mesh::kDefaultName ? "" : absl::StrCat(" of @", entry.mesh), ": ",
        entry.count, " (", entry.bytes_per_device, " bytes per device)"));
  }
  return absl::StrJoin(lines, "\n");
}

std::ostream& operator<<(std::ostream& os, const ShardedValue& value) {
  return os << value.ToString();
}
std::ostream& operator<<(std::ostream& os, const FallbackWarning& warning) {
  return os << warning.ToString();
}
std::ostream& operator<<(std::ostream& os, const CollectiveSummary& summary) {
  return os << summary.ToString();
}

}  // namespace tessel
