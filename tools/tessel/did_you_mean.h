// Suggestions for misspelt names on the command line: a command, a flag, a value of a
// program. The closest known name is offered when it is near enough to be a likely typo.
#ifndef TESSEL_TOOLS_TESSEL_DID_YOU_MEAN_H_
#define TESSEL_TOOLS_TESSEL_DID_YOU_MEAN_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"

namespace tessel::cli {

// The candidate nearest to `word` in edit distance (insertions, deletions, replacements;
// a swap of two neighbouring characters counts as one edit), the first of equals, when it is at most one edit per three characters of `word` (at least
// one) away; nullopt otherwise, and for an exact match.
std::optional<std::string> ClosestSpelling(absl::string_view word,
                                           const std::vector<std::string>& candidates);

// "; did you mean 'partition'?", the suggestion between `before` and `after`, or "" when
// there is none.
std::string DidYouMean(absl::string_view word, const std::vector<std::string>& candidates,
                       absl::string_view before = "'", absl::string_view after = "'");

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_DID_YOU_MEAN_H_
