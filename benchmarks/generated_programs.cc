// The generated benchmark programs (see generated_programs.h).
#include "benchmarks/generated_programs.h"

#include "absl/strings/str_cat.h"

namespace tessel::benchmarks {
namespace {

constexpr int kOpsPerBlock = 4;

}  // namespace

std::string OpChainProgram(int64_t num_ops) {
  std::string text = R"(
tessel.mesh @mesh = <["data"=4, "model"=2]>
func.func @main(%x: tensor<64x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
                %w: tensor<64x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}]>})
    -> tensor<64x64xf32> {
)";
  std::string previous = "%x";
  for (int64_t block = 0; block < num_ops / kOpsPerBlock; ++block) {
    absl::StrAppend(&text, "  %e", block, " = hlo.exp ", previous, " : tensor<64x64xf32>\n",
                    "  %a", block, " = hlo.add %e", block, ", ", previous,
                    " : tensor<64x64xf32>\n", "  %d", block, " = hlo.dot_general %a", block,
                    ", %w, lhs_contract = [1], rhs_contract = [0] : (tensor<64x64xf32>, "
                    "tensor<64x64xf32>) -> tensor<64x64xf32>\n",
                    "  %t", block, " = hlo.transpose %d", block,
                    ", permutation = [1, 0] : (tensor<64x64xf32>) -> tensor<64x64xf32>\n");
    previous = absl::StrCat("%t", block);
  }
  absl::StrAppend(&text, "  return ", previous, " : tensor<64x64xf32>\n}\n");
  return text;
}

std::string MegatronMlpProgram(int64_t data, int64_t model, int64_t layers,
                               bool replicate_between) {
  constexpr int64_t kBatch = 8192, kHidden = 1024, kFfn = 4096;
  const std::string x = absl::StrCat("tensor<", kBatch, "x", kHidden, "xf32>");
  const std::string h = absl::StrCat("tensor<", kBatch, "x", kFfn, "xf32>");
  const std::string w1 = absl::StrCat("tensor<", kHidden, "x", kFfn, "xf32>");
  const std::string w2 = absl::StrCat("tensor<", kFfn, "x", kHidden, "xf32>");
  std::string text = absl::StrCat("tessel.mesh @mesh = <[\"data\"=", data, ", \"model\"=", model,
                                  "]>\nfunc.func @main(%x: ", x,
                                  " {tessel.sharding = #tessel.sharding<@mesh, [{\"data\"}, {}]>}");
  for (int64_t l = 0; l < layers; ++l) {
    absl::StrAppend(&text, ", %w1_", l, ": ", w1,
                    " {tessel.sharding = #tessel.sharding<@mesh, [{}, {\"model\"}]>}, %w2_", l,
                    ": ", w2, " {tessel.sharding = #tessel.sharding<@mesh, [{\"model\"}, {}]>}");
  }
  absl::StrAppend(&text, ") -> ", x, " {\n  %zero = hlo.constant dense<0.0> : tensor<f32>\n",
                  "  %zeros = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> ", h, "\n");
  std::string previous = "%x";
  for (int64_t l = 0; l < layers; ++l) {
    absl::StrAppend(&text, "  %h", l, " = hlo.dot_general ", previous, ", %w1_", l,
                    ", lhs_contract = [1], rhs_contract = [0] : (", x, ", ", w1, ") -> ", h,
                    "\n  %r", l, " = hlo.max %h", l, ", %zeros : ", h, "\n  %y", l,
                    " = hlo.dot_general %r", l, ", %w2_", l,
                    ", lhs_contract = [1], rhs_contract = [0] : (", h, ", ", w2, ") -> ", x, "\n");
    previous = absl::StrCat("%y", l);
    if (replicate_between) {
      absl::StrAppend(&text, "  %c", l, " = tessel.sharding_constraint ", previous,
                      " <@mesh, [{}, {}]> : ", x, "\n");
      previous = absl::StrCat("%c", l);
    }
  }
  absl::StrAppend(&text, "  return ", previous, " : ", x, "\n}\n");
  return text;
}

}  // namespace tessel::benchmarks
