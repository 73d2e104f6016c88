// Propagation on a generated N-layer transformer (attention + MLP) in the Megatron style.
//
// The layers' weights are stacked into one parameter per kind ([layers, ...], as a scan over
// layers produces them) and each layer takes its slice. Only the input and the stacked
// weights are annotated: heads split over "model" for the q/k/v projections and the output
// projection's rows, columns of the first MLP weight and rows of the second. Propagation must
// give every layer the Megatron sharding: heads split in attention, the hidden activations
// split over "model", and the batch over "data" throughout.
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"

namespace tessel::propagation {
namespace {

// Shapes: tokens T=32, model D=64, heads H=4 of size E=16, MLP hidden F=256.
constexpr char kHeader[] = R"(
tessel.mesh @mesh = <["data"=2, "model"=4]>
func.func @transformer(
    %x: tensor<32x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"data"}, {}]>},
    %wq: tensor<NLx64x4x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"model"}, {}]>},
    %wk: tensor<NLx64x4x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"model"}, {}]>},
    %wv: tensor<NLx64x4x16xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"model"}, {}]>},
    %wo: tensor<NLx4x16x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}, {}, {}]>},
    %w1: tensor<NLx64x256xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"model"}]>},
    %w2: tensor<NLx256x64xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"model"}, {}]>})
    -> tensor<32x64xf32> {
  %x0 = hlo.exp %x : tensor<32x64xf32>
)";

// One layer; L is the layer index, P the input value, N the value it defines.
constexpr char kLayer[] = R"(
  %wqL_s = hlo.slice %wq [L:L1, 0:64, 0:4, 0:16] : (tensor<NLx64x4x16xf32>) -> tensor<1x64x4x16xf32>
  %wqL = hlo.reshape %wqL_s : (tensor<1x64x4x16xf32>) -> tensor<64x4x16xf32>
  %wkL_s = hlo.slice %wk [L:L1, 0:64, 0:4, 0:16] : (tensor<NLx64x4x16xf32>) -> tensor<1x64x4x16xf32>
  %wkL = hlo.reshape %wkL_s : (tensor<1x64x4x16xf32>) -> tensor<64x4x16xf32>
  %wvL_s = hlo.slice %wv [L:L1, 0:64, 0:4, 0:16] : (tensor<NLx64x4x16xf32>) -> tensor<1x64x4x16xf32>
  %wvL = hlo.reshape %wvL_s : (tensor<1x64x4x16xf32>) -> tensor<64x4x16xf32>
  %woL_s = hlo.slice %wo [L:L1, 0:4, 0:16, 0:64] : (tensor<NLx4x16x64xf32>) -> tensor<1x4x16x64xf32>
  %woL = hlo.reshape %woL_s : (tensor<1x4x16x64xf32>) -> tensor<4x16x64xf32>
  %w1L_s = hlo.slice %w1 [L:L1, 0:64, 0:256] : (tensor<NLx64x256xf32>) -> tensor<1x64x256xf32>
  %w1L = hlo.reshape %w1L_s : (tensor<1x64x256xf32>) -> tensor<64x256xf32>
  %w2L_s = hlo.slice %w2 [L:L1, 0:256, 0:64] : (tensor<NLx256x64xf32>) -> tensor<1x256x64xf32>
  %w2L = hlo.reshape %w2L_s : (tensor<1x256x64xf32>) -> tensor<256x64xf32>
  %qL = hlo.dot_general %P, %wqL, lhs_contract = [1], rhs_contract = [0] : (tensor<32x64xf32>, tensor<64x4x16xf32>) -> tensor<32x4x16xf32> loc("layerL.q")
  %kL = hlo.dot_general %P, %wkL, lhs_contract = [1], rhs_contract = [0] : (tensor<32x64xf32>, tensor<64x4x16xf32>) -> tensor<32x4x16xf32> loc("layerL.k")
  %vL = hlo.dot_general %P, %wvL, lhs_contract = [1], rhs_contract = [0] : (tensor<32x64xf32>, tensor<64x4x16xf32>) -> tensor<32x4x16xf32> loc("layerL.v")
  %sL = hlo.dot_general %qL, %kL, lhs_batch = [1], rhs_batch = [1], lhs_contract = [2], rhs_contract = [2] : (tensor<32x4x16xf32>, tensor<32x4x16xf32>) -> tensor<4x32x32xf32> loc("layerL.scores")
  %pL = hlo.exp %sL : tensor<4x32x32xf32> loc("layerL.probs")
  %aL = hlo.dot_general %pL, %vL, lhs_batch = [0], rhs_batch = [1], lhs_contract = [2], rhs_contract = [0] : (tensor<4x32x32xf32>, tensor<32x4x16xf32>) -> tensor<4x32x16xf32> loc("layerL.attention")
  %oL = hlo.dot_general %aL, %woL, lhs_contract = [0, 2], rhs_contract = [0, 1] : (tensor<4x32x16xf32>, tensor<4x16x64xf32>) -> tensor<32x64xf32> loc("layerL.attention_out")
  %rL = hlo.add %P, %oL : tensor<32x64xf32> loc("layerL.residual1")
  %hL = hlo.dot_general %rL, %w1L, lhs_contract = [1], rhs_contract = [0] : (tensor<32x64xf32>, tensor<64x256xf32>) -> tensor<32x256xf32> loc("layerL.mlp_hidden")
  %zL = hlo.constant dense<0.0> : tensor<f32>
  %zbL = hlo.broadcast_in_dim %zL, dims = [] : (tensor<f32>) -> tensor<32x256xf32>
  %gL = hlo.max %hL, %zbL : tensor<32x256xf32> loc("layerL.relu")
  %yL = hlo.dot_general %gL, %w2L, lhs_contract = [1], rhs_contract = [0] : (tensor<32x256xf32>, tensor<256x64xf32>) -> tensor<32x64xf32> loc("layerL.mlp_out")
  %N = hlo.add %rL, %yL : tensor<32x64xf32> loc("layerL.residual2")
)";

std::string GenerateTransformer(int layers) {
  std::string text = absl::StrReplaceAll(kHeader, {{"NL", absl::StrCat(layers)}});
  for (int layer = 0; layer < layers; ++layer) {
    std::string previous = layer == 0 ? "x0" : absl::StrCat("x", layer);
    // Replace the longer placeholders first so "L1" is not read as "L" followed by "1".
    absl::StrAppend(&text, absl::StrReplaceAll(kLayer, {{"NL", absl::StrCat(layers)},
                                                        {"L1", absl::StrCat(layer + 1)},
                                                        {"%P", "%" + previous},
                                                        {"%N", absl::StrCat("%x", layer + 1)},
                                                        {"L", absl::StrCat(layer)}}));
  }
  absl::StrAppend(&text, "  return %x", layers, " : tensor<32x64xf32>\n}\n");
  return text;
}

// The sharding written on the op named `name`, printed: `[{"data"}, {"model"}]`.
std::string ShardingOf(mlir::ModuleOp module, llvm::StringRef name) {
  std::string text = "<no op named " + name.str() + ">";
  module.walk([&](mlir::Operation* op) {
    auto loc = llvm::dyn_cast<mlir::NameLoc>(op->getLoc());
    if (!loc || loc.getName() != name) return;
    auto shardings =
        op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
    if (!shardings) {
      text = "<unsharded>";
      return;
    }
    std::string printed;
    llvm::raw_string_ostream os(printed);
    os << shardings.getShardings()[0];
    text = os.str();
  });
  return text;
}

class TransformerPropagationTest : public ::testing::TestWithParam<int> {};

TEST_P(TransformerPropagationTest, EveryLayerGetsTheMegatronSharding) {
  int layers = GetParam();
  mlir::DialectRegistry registry;
  rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);
  auto module = ParseModule(GenerateTransformer(layers), "transformer.mlir", context);
  ASSERT_TRUE(module.ok()) << module.status();
  ASSERT_TRUE(mlir::succeeded(propagateShardings(**module, PropagationOptions(), nullptr)));

  auto expect = [&](const std::string& name, const std::string& dims) {
    EXPECT_EQ(ShardingOf(**module, name), "#tessel.sharding<@mesh, " + dims + ">") << name;
  };
  for (int layer = 0; layer < layers; ++layer) {
    std::string prefix = absl::StrCat("layer", layer, ".");
    // q, k, v: tokens over data, heads over model.
    for (const char* projection : {"q", "k", "v"}) {
      expect(prefix + projection, R"([{"data"}, {"model"}, {}])");
    }
    // Scores [heads, query tokens, key tokens]: heads over model, queries over data; the key
    // tokens cannot also take data.
    expect(prefix + "scores", R"([{"model"}, {"data"}, {}])");
    expect(prefix + "probs", R"([{"model"}, {"data"}, {}])");
    expect(prefix + "attention", R"([{"model"}, {"data"}, {}])");
    // The output projection contracts the heads: its result is split over data only (the
    // partitioner all-reduces over model).
    expect(prefix + "attention_out", R"([{"data"}, {}])");
    expect(prefix + "residual1", R"([{"data"}, {}])");
    // MLP: column-split first weight gives hidden activations over model.
    expect(prefix + "mlp_hidden", R"([{"data"}, {"model"}])");
    expect(prefix + "relu", R"([{"data"}, {"model"}])");
    expect(prefix + "mlp_out", R"([{"data"}, {}])");
    expect(prefix + "residual2", R"([{"data"}, {}])");
  }
}

INSTANTIATE_TEST_SUITE_P(Layers, TransformerPropagationTest, ::testing::Values(1, 2, 4));

}  // namespace
}  // namespace tessel::propagation
