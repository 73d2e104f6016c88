// Reading and checking .npy inputs, and making seeded random ones, for `tessel run`.
#include "tools/tessel/run_inputs.h"

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "runtime/element_type.h"
#include "runtime/interpreter.h"
#include "runtime/npy.h"
#include "runtime/random_inputs.h"
#include "support/status_macros.h"

namespace tessel::cli {
namespace {

// "@main", preceded by where the function is defined ("prog.mlir:3:6: @main"), so that a
// message about the signature names the program file.
std::string FunctionName(mlir::func::FuncOp function) {
  std::string name = absl::StrCat("@", function.getSymName().str());
  if (auto loc = llvm::dyn_cast<mlir::FileLineColLoc>(function.getLoc())) {
    return absl::StrCat(loc.getFilename().str(), ":", loc.getLine(), ":", loc.getColumn(), ": ",
                        name);
  }
  return name;
}

// "@main" alone, for messages that already start with another file's name.
std::string ShortName(mlir::func::FuncOp function) {
  return absl::StrCat("@", function.getSymName().str());
}

// "1 argument", "2 arguments".
std::string Count(size_t n, absl::string_view noun) {
  return absl::StrCat(n, " ", noun, n == 1 ? "" : "s");
}

std::string TypeString(mlir::Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  type.print(os);
  return os.str();
}

}  // namespace

absl::StatusOr<std::vector<runtime::Tensor>> ReadInputs(mlir::func::FuncOp function,
                                                        absl::Span<const std::string> paths,
                                                        llvm::ArrayRef<mlir::Type> types) {
  if (types.empty()) types = function.getArgumentTypes();
  if (paths.size() != types.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(FunctionName(function), " takes ", Count(types.size(), "argument"),
                     ", but --inputs names ", Count(paths.size(), "file")));
  }
  std::vector<runtime::Tensor> inputs;
  for (size_t i = 0; i < paths.size(); ++i) {
    TESSEL_ASSIGN_OR_RETURN(runtime::Tensor tensor, runtime::ReadNpy(paths[i]));
    TESSEL_RETURN_IF_ERROR(runtime::CheckTensorMatchesType(
        tensor, types[i],
        absl::StrCat(paths[i], ": argument ", i, " of ", ShortName(function))));
    inputs.push_back(std::move(tensor));
  }
  return inputs;
}

absl::StatusOr<std::vector<runtime::Tensor>> RandomInputs(mlir::func::FuncOp function,
                                                          uint64_t seed,
                                                          llvm::ArrayRef<mlir::Type> types) {
  if (types.empty()) types = function.getArgumentTypes();
  std::vector<runtime::Tensor> inputs;
  for (unsigned i = 0; i < types.size(); ++i) {
    mlir::Type input = types[i];
    std::string what =
        absl::StrCat(FunctionName(function), ": argument ", i, " (", TypeString(input), ")");
    auto tensor_type = llvm::dyn_cast<mlir::RankedTensorType>(input);
    if (!tensor_type || !tensor_type.hasStaticShape()) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, ": random inputs need a tensor type with a static shape"));
    }
    absl::StatusOr<runtime::ElementType> element =
        runtime::ElementTypeFromMlir(tensor_type.getElementType());
    if (!element.ok()) {
      return absl::InvalidArgumentError(absl::StrCat(what, ": ", element.status().message()));
    }
    runtime::Shape shape(tensor_type.getShape().begin(), tensor_type.getShape().end());
    inputs.push_back(runtime::RandomTensor(*element, std::move(shape), seed + i));
  }
  return inputs;
}

}  // namespace tessel::cli
