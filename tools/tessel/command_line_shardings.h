// Shardings given on the command line, the way JAX users write them:
//
//   tessel partition mlp.mlir --mesh=data=4,model=2
//       --in_shardings="x=P('data',None),w1=P(None,'model')" --out_shardings="0=P('data')"
//
// An assignment names an argument (by its source name, `%x` or `x`, by `argN`, or by its
// number) or a result (by number, `resultN`, or the source name of the value returned
// there), and gives a PartitionSpec: one entry per leading dimension, each `None`, an axis
// name, or a tuple of axis names (major first); dimensions past the last entry are
// replicated. `P()` and `replicated` replicate the value. Quotes around axis names are
// optional. The dimensions it names are pinned (closed), as JAX's in_shardings are.
#ifndef TESSEL_TOOLS_TESSEL_COMMAND_LINE_SHARDINGS_H_
#define TESSEL_TOOLS_TESSEL_COMMAND_LINE_SHARDINGS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::cli {

// `P('data', ('x', 'y'), None)`: per dimension, the axes that split it.
struct PartitionSpec {
  std::vector<std::vector<std::string>> dims;
};

struct ShardingAssignment {
  std::string target;  // as written: "x", "%x", "arg0", "0", "result1"
  PartitionSpec spec;
  std::string text;    // the whole assignment, for messages
};

// Parses one PartitionSpec (`P(...)` or `replicated`). InvalidArgument, saying where, for
// anything else.
absl::StatusOr<PartitionSpec> ParsePartitionSpec(absl::string_view text);

// Parses the value of --in_shardings or --out_shardings (`flag` names it in messages):
// assignments separated by commas outside parentheses (a repeated flag's values are joined
// by commas). InvalidArgument for a malformed one: a bad command line.
absl::StatusOr<std::vector<ShardingAssignment>> ParseShardingAssignments(absl::string_view value,
                                                                         absl::string_view flag);

// Writes the assignments onto `function` of `module` (read from `path`, whose source names
// the targets may use) as `tessel.sharding` argument and result attributes over the
// program's one mesh, replacing what the program had. InvalidArgument (bad input) for an
// unknown target (with the nearest name), an unknown axis, an axis used twice, more entries
// than dimensions, a program without a mesh or with several.
absl::Status ApplyShardingAssignments(mlir::ModuleOp module, const std::string& function,
                                      const std::string& path,
                                      const std::vector<ShardingAssignment>& in,
                                      const std::vector<ShardingAssignment>& out);

// Both flags, parsed: what a command reads where it reads --mesh.
struct ShardingFlags {
  std::vector<ShardingAssignment> in;
  std::vector<ShardingAssignment> out;
};
absl::StatusOr<ShardingFlags> ParseShardingFlags();

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_COMMAND_LINE_SHARDINGS_H_
