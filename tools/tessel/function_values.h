// The values of one function as every command names them: the source's own name (`%h` from
// MLIR text, the instruction name `w1` from XLA HLO text, a name location), else `argN`, with
// the op and its file:line:col beside it. `tessel explain` and `tessel viz` list and select
// values through this, so a name one prints is one the other accepts.
//
//   SourceNames names = ReadProgramNames("mlp.mlir");
//   std::vector<FunctionValue> values = CollectFunctionValues(function, names);
//   absl::StatusOr<std::vector<FunctionValue>> chosen =
//       SelectFunctionValues(std::move(values), {"%h", "arg0"}, "mlp.mlir", "main");
#ifndef TESSEL_TOOLS_TESSEL_FUNCTION_VALUES_H_
#define TESSEL_TOOLS_TESSEL_FUNCTION_VALUES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "partitioner/api/source_names.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::cli {

struct FunctionValue {
  mlir::Value value;
  // The name users know it by: "%h", "w1", or "arg0" / "" when the source gives none.
  std::string name;
  // How a listing introduces it: "%x = arg0", "%h = hlo.dot_general at f.mlir:11:8".
  std::string title;
  // Every name --value accepts besides the op's place: "%h", "arg0", "11:8" or "11:8#1".
  std::vector<std::string> names;
  // For op results: where the op is ("f.mlir:11:8" and "11:8") and the result number; an
  // op's place names all its results. Empty for arguments.
  std::string at;
  std::string line_col;
  int64_t result = 0;
  int64_t argument = -1;  // the argument number, or -1 for an op result
  mlir::Operation* op = nullptr;  // the defining op; null for arguments
  mlir::Type type;
  ir::ShardingAttr sharding;  // null: no sharding, replicated
  // In a partitioned program: the type each partition holds (null elsewhere). `type` is
  // then the global type where one is known; where none is, the value is per-device
  // (`per_device`), and `type` is the local type too.
  mlir::Type local_type;
  bool per_device = false;
};

// The source names of the program in `path` (MLIR or XLA HLO text); none for "-" or a file
// that cannot be read or parsed.
SourceNames ReadProgramNames(const std::string& path);

// The arguments and op results of `function`, in program order, with their names. Bodies
// of manual computations are per-device code, whose values no global tile describes: they
// are left out.
std::vector<FunctionValue> CollectFunctionValues(mlir::func::FuncOp function,
                                                 const SourceNames& source);

// The values `requested` names, in program order; fails naming the first unknown name and
// the nearest known one.
absl::StatusOr<std::vector<FunctionValue>> SelectFunctionValues(
    std::vector<FunctionValue> values, const std::vector<std::string>& requested,
    const std::string& file, const std::string& function);

// Names places in the program at `path` for messages, by the source's own names: a name
// location's name, else the name the source gives what is computed at that position (`%h`,
// the HLO instruction name `dot.3`; `%q` for all results of `%q:2 = ...`). It reads the names
// (a second parse of the text) the first time it is asked, so a run that prints no warning
// and no report pays nothing for it.
class SourceNamer {
 public:
  explicit SourceNamer(std::string path) : path_(std::move(path)) {}

  // The name at `loc`, or "" where the source gives none.
  std::string NameAt(mlir::Location loc);

 private:
  std::string path_;
  std::optional<SourceNames> names_;
};

}  // namespace tessel::cli

#endif  // TESSEL_TOOLS_TESSEL_FUNCTION_VALUES_H_
