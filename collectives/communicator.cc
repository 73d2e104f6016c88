// Argument checks that every Communicator backend shares.
#include "collectives/communicator.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::collectives {

std::string GroupString(absl::Span<const int64_t> group) {
  return absl::StrCat("[", absl::StrJoin(group, ", "), "]");
}

absl::Status ValidateGroup(int64_t self, absl::Span<const int64_t> group, int64_t num_partitions) {
  std::vector<bool> seen(num_partitions, false);
  for (int64_t id : group) {
    if (id < 0 || id >= num_partitions) {
      return absl::InvalidArgumentError(absl::StrCat("group ", GroupString(group), ": partition ",
                                                     id, " is out of range [0, ", num_partitions,
                                                     ")"));
    }
    if (seen[id]) {
      return absl::InvalidArgumentError(
          absl::StrCat("group ", GroupString(group), ": partition ", id, " appears twice"));
    }
    seen[id] = true;
  }
  if (self < 0 || self >= num_partitions || !seen[self]) {
    return absl::InvalidArgumentError(absl::StrCat(
        "group ", GroupString(group), " does not include the caller, partition ", self));
  }
  return absl::OkStatus();
}

absl::Status ValidateOutput(ConstBuffer input, Buffer output, int64_t expected_output_count) {
  if (output.type != input.type) {
    return absl::InvalidArgumentError(absl::StrCat("output type ", DataTypeName(output.type),
                                                   " differs from input type ",
                                                   DataTypeName(input.type)));
  }
  if (output.num_elements != expected_output_count) {
    return absl::InvalidArgumentError(absl::StrCat("output has ", output.num_elements,
                                                   " elements, expected ", expected_output_count));
  }
  return absl::OkStatus();
}

absl::Status ValidateDivisible(absl::string_view what, int64_t count, int64_t group_size) {
  if (count % group_size == 0) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(what, " has ", count,
                                                 " elements, which is not divisible by the "
                                                 "group size ",
                                                 group_size));
}

absl::Status ValidatePairs(absl::Span<const int64_t> group, absl::Span<const SourceTarget> pairs) {
  std::vector<int64_t> sources, targets;
  for (const SourceTarget& pair : pairs) {
    for (int64_t id : {pair.source, pair.target}) {
      if (std::find(group.begin(), group.end(), id) == group.end()) {
        return absl::InvalidArgumentError(
            absl::StrCat("pair (", pair.source, ", ", pair.target, ") names partition ", id,
                         ", which is not in the group ", GroupString(group)));
      }
    }
    if (std::find(sources.begin(), sources.end(), pair.source) != sources.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", pair.source, " is the source of two pairs"));
    }
    if (std::find(targets.begin(), targets.end(), pair.target) != targets.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("partition ", pair.target, " is the target of two pairs"));
    }
    sources.push_back(pair.source);
    targets.push_back(pair.target);
  }
  return absl::OkStatus();
}

}  // namespace tessel::collectives
