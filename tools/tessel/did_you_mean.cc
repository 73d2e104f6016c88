// Nearest-name suggestions for the command line (see did_you_mean.h).
#include "tools/tessel/did_you_mean.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "llvm/ADT/StringRef.h"

namespace tessel::cli {
namespace {

// Whether `a` becomes `b` by swapping two neighbouring characters ("modle" and "model"),
// the commonest typing slip, which plain edit distance counts as two edits.
bool OneSwapApart(llvm::StringRef a, llvm::StringRef b) {
  if (a.size() != b.size()) return false;
  size_t first = 0;
  while (first < a.size() && a[first] == b[first]) ++first;
  if (first + 1 >= a.size()) return false;
  return a[first] == b[first + 1] && a[first + 1] == b[first] &&
         a.drop_front(first + 2) == b.drop_front(first + 2);
}

}  // namespace

std::optional<std::string> ClosestSpelling(absl::string_view word,
                                           const std::vector<std::string>& candidates) {
  const unsigned limit = std::max<unsigned>(1, static_cast<unsigned>(word.size()) / 3);
  const llvm::StringRef typed(word.data(), word.size());
  std::optional<std::string> best;
  unsigned best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    if (candidate == word) return std::nullopt;
    const unsigned distance =
        OneSwapApart(typed, candidate)
            ? 1
            : typed.edit_distance(candidate, /*AllowReplacements=*/true,
                                  /*MaxEditDistance=*/limit + 1);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string DidYouMean(absl::string_view word, const std::vector<std::string>& candidates,
                       absl::string_view before, absl::string_view after) {
  std::optional<std::string> closest = ClosestSpelling(word, candidates);
  if (!closest) return "";
  return absl::StrCat("; did you mean ", before, *closest, after, "?");
}

}  // namespace tessel::cli
