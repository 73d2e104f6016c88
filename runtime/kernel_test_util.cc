// Program builders and the runner of kernel_test_util.h.
#include "runtime/kernel_test_util.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/interpreter.h"

namespace tessel::runtime {
namespace {

absl::string_view MlirElementName(ElementType type) {
  switch (type) {
    case ElementType::kPred: return "i1";
    case ElementType::kS8: return "i8";
    case ElementType::kS16: return "i16";
    case ElementType::kS32: return "i32";
    case ElementType::kS64: return "i64";
    case ElementType::kU8: return "ui8";
    case ElementType::kU16: return "ui16";
    case ElementType::kU32: return "ui32";
    case ElementType::kU64: return "ui64";
    case ElementType::kF16: return "f16";
    case ElementType::kBF16: return "bf16";
    case ElementType::kF32: return "f32";
    case ElementType::kF64: return "f64";
    case ElementType::kC64: return "complex<f32>";
    case ElementType::kC128: return "complex<f64>";
  }
  return "?";
}

}  // namespace

std::string MlirTensorType(ElementType type, const Shape& shape) {
  std::string text = "tensor<";
  for (int64_t dim : shape) absl::StrAppend(&text, dim, "x");
  absl::StrAppend(&text, MlirElementName(type), ">");
  return text;
}

std::string UnaryProgram(absl::string_view op, const Tensor& x) {
  std::string type = MlirTensorType(x);
  return absl::StrFormat(R"(
    func.func @main(%%x: %s) -> %s {
      %%0 = %s %%x : %s
      return %%0 : %s
    })",
                         type, type, op, type, type);
}

std::string BinaryProgram(absl::string_view op, const Tensor& a, const Tensor& b) {
  std::string type = MlirTensorType(a);
  return absl::StrFormat(R"(
    func.func @main(%%a: %s, %%b: %s) -> %s {
      %%0 = %s %%a, %%b : %s
      return %%0 : %s
    })",
                         type, MlirTensorType(b), type, op, type, type);
}

absl::StatusOr<std::vector<Tensor>> KernelTest::Run(absl::string_view program,
                                                    std::vector<Tensor> args) {
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(program, "test.mlir", context_);
  if (!module.ok()) return module.status();
  module_ = *std::move(module);
  Interpreter interpreter;
  return interpreter.RunFunction(module_->lookupSymbol<mlir::func::FuncOp>("main"), args);
}

Tensor KernelTest::RunOne(absl::string_view program, std::vector<Tensor> args) {
  absl::StatusOr<std::vector<Tensor>> results = Run(program, std::move(args));
  if (!results.ok()) {
    ADD_FAILURE() << results.status() << "\nin program:" << program;
    return Tensor();
  }
  if (results->size() != 1) {
    ADD_FAILURE() << "expected one result, got " << results->size();
    return Tensor();
  }
  return std::move((*results)[0]);
}

std::string JaxSortKeyBody(bool interpreted) {
  return absl::StrCat(
      interpreted ? "  %unused = hlo.exp %a : tensor<f32>\n" : "",
      "  %nan = hlo.constant dense<0x7FC00000> : tensor<f32>\n",
      "  %zero = hlo.constant dense<0.0> : tensor<f32>\n",
      "  %an = hlo.compare NE, %a, %a : tensor<f32>\n",
      "  %az = hlo.compare EQ, %a, %zero : tensor<f32>\n",
      "  %a0 = hlo.select %az, %zero, %a : tensor<i1>, tensor<f32>\n",
      "  %a1 = hlo.select %an, %nan, %a0 : tensor<i1>, tensor<f32>\n",
      "  %bn = hlo.compare NE, %b, %b : tensor<f32>\n",
      "  %bz = hlo.compare EQ, %b, %zero : tensor<f32>\n",
      "  %b0 = hlo.select %bz, %zero, %b : tensor<i1>, tensor<f32>\n",
      "  %b1 = hlo.select %bn, %nan, %b0 : tensor<i1>, tensor<f32>\n",
      "  %lt = hlo.compare LT, %a1, %b1, TOTALORDER : tensor<f32>\n");
}

}  // namespace tessel::runtime
