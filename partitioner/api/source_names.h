// The names values have in the text of a program (`%h`, `%x`), which the parsed module
// forgets: the CLI uses them to show and select values by the names their author wrote, and
// the API's loaders attach them to the module as name locations (AttachSourceNames), so that
// PartitionResult's records carry them.
//
//   SourceNames names = ReadSourceNames(text, "mlp.mlir");
//   names.results[{11, 8}];   // {"%h"}: the results of the op at line 11, column 8
//   names.arguments[{6, 1}];  // {"%x", "%w1", "%w2"}: the entry block arguments of the
//                             // function op at line 6, column 1
// XLA HLO text has its instruction names (`w1`, `dot.3`) read the same way.
#ifndef TESSEL_PARTITIONER_API_SOURCE_NAMES_H_
#define TESSEL_PARTITIONER_API_SOURCE_NAMES_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

namespace tessel {

// Where an op starts in the text: line and column, as its FileLineColLoc says.
using SourcePosition = std::pair<unsigned, unsigned>;

struct SourceNames {
  // Per op position, one name per result: `%h`, or `%q#1` for result 1 of `%q:2 = ...`.
  std::map<SourcePosition, std::vector<std::string>> results;
  // Per op position, the names of the arguments of its first region's entry block
  // (a function's arguments).
  std::map<SourcePosition, std::vector<std::string>> arguments;
};

// The names in MLIR `text`, parsed on its own (a program that does not parse has none).
// `buffer_name` only labels the parse.
SourceNames ReadSourceNames(absl::string_view text, absl::string_view buffer_name);

// The instruction names in XLA HLO `text`, by where each instruction starts (the place the
// importer gives its ops and, for a parameter, the function argument): `results` only.
SourceNames ReadHloSourceNames(absl::string_view text, absl::string_view buffer_name);

// The position of `loc` (also inside name, call-site and fused locations); nullopt if it
// has none.
std::optional<SourcePosition> PositionOf(mlir::Location loc);

// Wraps the location of each function argument and op of `module` that `names` names in a
// name location (`loc("h")` around the op's place in the file), unless it has one already:
// `%h` becomes "h", the ops of `%q:2 = ...` "q", an HLO instruction keeps its name. The
// numbers MLIR gives unnamed values (`%0`, `%arg1`) name nothing and are left out.
void AttachSourceNames(mlir::ModuleOp module, const SourceNames& names);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_SOURCE_NAMES_H_
