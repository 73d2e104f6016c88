// convolution partitioned along every kind of dimension over the standard meshes: input
// spatial dims (halo exchange; strides 1-3, padding of both signs, lhs and rhs dilation,
// windows larger than a shard, uneven splits), batch, output feature, input feature
// (partial sums all-reduced, uneven splits masked), kernel spatial dims (kernel gradients:
// halos of the input, partial sums all-reduced), feature groups and batch groups, and
// 2-D meshes splitting two dims at once; f32 and i32. Plus a small NHWC conv net (conv,
// relu, max pool) with the image split along H. The conv must run on local shapes (its
// global signature never appears) except where the handler declines by design.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

// One spatial dimension of the window.
struct Spatial {
  const char* name;
  int64_t kernel, stride, low, high, lhsDilation, rhsDilation;

  int64_t OutputSize(int64_t input) const {
    int64_t padded = (input - 1) * lhsDilation + 1 + low + high;
    int64_t dilated = (kernel - 1) * rhsDilation + 1;
    return padded < dilated ? 0 : (padded - dilated) / stride + 1;
  }
};

const Spatial kSpatial[] = {
    {"k3s1p1", 3, 1, 1, 1, 1, 1},     {"k3s2p1", 3, 2, 1, 1, 1, 1},
    {"k5s3p2", 5, 3, 2, 2, 1, 1},     {"k2s2", 2, 2, 0, 0, 1, 1},
    {"k3s1pm1", 3, 1, -1, 1, 1, 1},   {"k3s2p1m2", 3, 2, 1, -2, 1, 1},
    {"k3l2p1", 3, 1, 1, 1, 2, 1},     {"k2r2p1", 2, 1, 1, 1, 1, 2},
    {"k7s1p3", 7, 1, 3, 3, 1, 1},     {"k3s3l3p21", 3, 3, 2, 1, 3, 1},
    {"k1s2", 1, 2, 0, 0, 1, 1},       {"k1", 1, 1, 0, 0, 1, 1},
};

struct ConvSpec {
  std::string name;
  int64_t batch = 3, height = 13, width = 7, features = 4, outFeatures = 5;
  Spatial h = kSpatial[0], w = kSpatial[0];
  int64_t featureGroups = 1, batchGroups = 1;
  // Shardings of lhs [N, H, W, C], kernel [KH, KW, C/G, O] and result [N', H', W', O].
  std::vector<std::vector<std::string>> lhs = {{}, {}, {}, {}};
  std::vector<std::vector<std::string>> kernel = {{}, {}, {}, {}};
  std::vector<std::vector<std::string>> result = {{}, {}, {}, {}};
  // The handler declines (groups that do not divide): the fallback may run the global op.
  bool declined = false;
};

struct Case {
  std::string name;
  std::string module;
  bool f32;
  std::vector<int64_t> lhsShape, kernelShape;
  std::string globalSignature;  // empty: not checked
  bool allReduce = false;
};

std::string TensorType(const std::vector<int64_t>& shape, const std::string& t) {
  return absl::StrCat("tensor<", absl::StrJoin(shape, "x"), "x", t, ">");
}

Case MakeCase(const testing::TestMesh& mesh, const ConvSpec& spec, bool f32) {
  const std::string t = f32 ? "f32" : "i32";
  std::vector<int64_t> lhsShape = {spec.batch, spec.height, spec.width, spec.features};
  std::vector<int64_t> kernelShape = {spec.h.kernel, spec.w.kernel,
                                      spec.features / spec.featureGroups, spec.outFeatures};
  std::vector<int64_t> outShape = {spec.batch / spec.batchGroups, spec.h.OutputSize(spec.height),
                                   spec.w.OutputSize(spec.width), spec.outFeatures};
  const std::string lhs = TensorType(lhsShape, t), kernel = TensorType(kernelShape, t),
                    out = TensorType(outShape, t);
  const std::string attrs = absl::StrCat(
      "window_strides = [", spec.h.stride, ", ", spec.w.stride, "], padding = [[", spec.h.low,
      ", ", spec.h.high, "], [", spec.w.low, ", ", spec.w.high, "]], lhs_dilation = [",
      spec.h.lhsDilation, ", ", spec.w.lhsDilation, "], rhs_dilation = [", spec.h.rhsDilation,
      ", ", spec.w.rhsDilation, "], feature_group_count = ", spec.featureGroups,
      ", batch_group_count = ", spec.batchGroups);
  const std::string signature = absl::StrCat(": (", lhs, ", ", kernel, ") -> ", out);
  std::string module = absl::StrReplaceAll(
      R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: LHS LHS_SHARDING, %k: KERNEL KERNEL_SHARDING) -> (OUT RESULT_SHARDING) {
  %0 = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], ATTRS SIGNATURE
  return %0 : OUT
})",
      {{"MESH", mesh.text},
       {"LHS_SHARDING", testing::ShardingArgAttrText(spec.lhs)},
       {"KERNEL_SHARDING", testing::ShardingArgAttrText(spec.kernel)},
       {"RESULT_SHARDING", testing::ShardingArgAttrText(spec.result)},
       {"ATTRS", attrs},
       {"SIGNATURE", signature},
       {"LHS", lhs},
       {"KERNEL", kernel},
       {"OUT", out}});
  Case c{absl::StrCat(t, "_", spec.name, "_", mesh.devices, "dev", mesh.axes.size(), "d"),
         module, f32, lhsShape, kernelShape, spec.declined ? "" : signature};
  return c;
}

std::vector<ConvSpec> Specs(const testing::TestMesh& mesh) {
  std::vector<ConvSpec> specs;
  const bool twoD = mesh.axes.size() == 2;
  const std::string a = "x", b = twoD ? "y" : "x";
  for (const Spatial& s : kSpatial) {
    ConvSpec h;
    h.name = absl::StrCat("H_", s.name);
    h.h = s;
    h.lhs[1] = h.result[1] = twoD ? std::vector<std::string>{"x", "y"} : std::vector<std::string>{a};
    specs.push_back(h);
    if (twoD) {
      ConvSpec hw = h;
      hw.name = absl::StrCat("HxW_", s.name);
      hw.lhs[1] = hw.result[1] = {"x"};
      hw.lhs[2] = hw.result[2] = {"y"};
      specs.push_back(hw);
      ConvSpec nh = h;
      nh.name = absl::StrCat("NxH_", s.name);
      nh.lhs[0] = nh.result[0] = {"x"};
      nh.lhs[1] = nh.result[1] = {"y"};
      specs.push_back(nh);
    }
  }
  // Kernel gradients: the "kernel" spans most of the input and is split along H, the output
  // H is whole. Each shard convolves its kernel rows with the input rows they read (halos
  // from its neighbours) and the partial sums are all-reduced. Kernels of 12 (even over 2,
  // 3, 4, 6; uneven over 8) and 11 (uneven), padding of both signs.
  const Spatial kernelGradients[] = {{"kh12p1", 12, 1, 1, 1, 1, 1},
                                     {"kh11p2", 11, 1, 2, 2, 1, 1},
                                     {"kh10pm1", 10, 1, -1, 2, 1, 1}};
  for (const Spatial& s : kernelGradients) {
    ConvSpec k;
    k.name = absl::StrCat("kernel_H_", s.name);
    k.h = s;
    k.kernel[0] = k.lhs[1] =
        twoD ? std::vector<std::string>{"x", "y"} : std::vector<std::string>{a};
    specs.push_back(k);
    if (twoD) {
      ConvSpec nk = k;
      nk.name = absl::StrCat("N_x_kernel_H_y_", s.name);
      nk.lhs[0] = nk.result[0] = {"x"};
      nk.kernel[0] = nk.lhs[1] = {"y"};
      specs.push_back(nk);
    }
  }
  ConvSpec batch;
  batch.name = "batch";
  batch.lhs[0] = batch.result[0] = {a};
  specs.push_back(batch);
  ConvSpec outFeature;
  outFeature.name = "out_feature";
  outFeature.kernel[3] = outFeature.result[3] = {a};
  specs.push_back(outFeature);
  ConvSpec inFeature;
  inFeature.name = "in_feature";
  inFeature.lhs[3] = inFeature.kernel[2] = {a};
  specs.push_back(inFeature);
  ConvSpec inFeatureSplitOut = inFeature;
  inFeatureSplitOut.name = "in_feature_h_out";
  inFeatureSplitOut.result[1] = {a};
  if (twoD) {
    inFeatureSplitOut.lhs[3] = inFeatureSplitOut.kernel[2] = {"x"};
    inFeatureSplitOut.result[1] = {"y"};
  }
  specs.push_back(inFeatureSplitOut);
  ConvSpec grouped;
  grouped.name = "feature_groups";
  grouped.featureGroups = 2;
  grouped.outFeatures = 6;
  grouped.lhs[3] = grouped.result[3] = {a};
  grouped.kernel[3] = {a};
  grouped.declined = 2 % (twoD ? 2 : mesh.devices) != 0;
  specs.push_back(grouped);
  ConvSpec batchGroups;
  batchGroups.name = "batch_groups";
  batchGroups.batch = 4;
  batchGroups.batchGroups = 2;
  batchGroups.outFeatures = 6;
  batchGroups.lhs[0] = batchGroups.result[3] = batchGroups.kernel[3] = {a};
  batchGroups.declined = 2 % (twoD ? 2 : mesh.devices) != 0;
  specs.push_back(batchGroups);
  if (twoD) {
    ConvSpec mixed;
    mixed.name = "batch_x_out_feature_y_h";
    mixed.h = kSpatial[1];
    mixed.lhs[0] = mixed.result[0] = {"x"};
    mixed.kernel[3] = mixed.result[3] = {"y"};
    specs.push_back(mixed);
    ConvSpec groupedH = grouped;
    groupedH.name = "feature_groups_x_h_y";
    groupedH.lhs = {{}, {"y"}, {}, {"x"}};
    groupedH.result = {{}, {"y"}, {}, {"x"}};
    groupedH.kernel = {{}, {}, {}, {"x"}};
    groupedH.declined = false;
    specs.push_back(groupedH);
  }
  return specs;
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    for (const ConvSpec& spec : Specs(mesh)) {
      for (bool f32 : {true, false}) cases.push_back(MakeCase(mesh, spec, f32));
    }
  }
  return cases;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class ConvolutionPartitionTest : public ::testing::TestWithParam<Case> {};

TEST_P(ConvolutionPartitionTest, MatchesSingleDevice) {
  const Case& c = GetParam();
  testing::HarnessOptions options;
  if (!c.globalSignature.empty()) options.expect_not_in_program = {c.globalSignature};
  runtime::ElementType type = c.f32 ? runtime::ElementType::kF32 : runtime::ElementType::kS32;
  testing::ExpectPartitionedRunMatches(
      c.module,
      {runtime::RandomTensor(type, c.lhsShape, 11), runtime::RandomTensor(type, c.kernelShape, 12)},
      options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ConvolutionPartitionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

// One value as both input and kernel, split along the spatial dim: the input needs halos,
// the kernel does not, and the local conv must read each in its own form.
TEST(ConvolutionPartitionTest, InputThatIsAlsoTheKernel) {
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    SCOPED_TRACE(mesh.text);
    testing::ExpectPartitionedRunMatches(
        absl::StrReplaceAll(R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<3x9x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x"}, {}]>})
    -> tensor<3x9x3xi32> {
  %c = hlo.convolution %x, %x, dims = [b, 0, f]x[i, 0, o]->[b, 0, f], padding = [[4, 4]] : (tensor<3x9x3xi32>, tensor<3x9x3xi32>) -> tensor<3x9x3xi32>
  return %c : tensor<3x9x3xi32>
})",
                            {{"MESH", mesh.text}}),
        {runtime::RandomTensor(runtime::ElementType::kS32, {3, 9, 3}, 41)});
  }
}

// conv 3x3 -> relu -> 2x2 max pool, NHWC, the image split along H on 2, 3 and 4 devices
// and on a 2x2 mesh with the batch on the other axis: only halos move, never the image.
TEST(ConvolutionPartitionTest, ConvNetSplitAlongH) {
  const char* kNet = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<2x12x8x3xf32> XS, %k: tensor<3x3x3x4xf32>, %z: tensor<f32>)
    -> (tensor<2x6x4x4xf32> XS) {
  %c = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], padding = [[1, 1], [1, 1]] : (tensor<2x12x8x3xf32>, tensor<3x3x3x4xf32>) -> tensor<2x12x8x4xf32>
  %zb = hlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<2x12x8x4xf32>
  %r = hlo.max %c, %zb : tensor<2x12x8x4xf32>
  %ninf = hlo.constant dense<0xFF800000> : tensor<f32>
  %p = hlo.reduce_window(%r) init(%ninf) window_dimensions = [1, 2, 2, 1], window_strides = [1, 2, 2, 1] : (tensor<2x12x8x4xf32>, tensor<f32>) -> tensor<2x6x4x4xf32> reducer {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = hlo.max %a, %b : tensor<f32>
    hlo.return %m : tensor<f32>
  }
  return %p : tensor<2x6x4x4xf32>
})";
  struct Net {
    const char* mesh;
    const char* sharding;
  };
  for (Net net : {Net{R"(["x"=2])", R"([{}, {"x"}, {}, {}])"},
                  Net{R"(["x"=3])", R"([{}, {"x"}, {}, {}])"},
                  Net{R"(["x"=4])", R"([{}, {"x"}, {}, {}])"},
                  Net{R"(["x"=2, "y"=2])", R"([{"x"}, {"y"}, {}, {}])"}}) {
    SCOPED_TRACE(net.mesh);
    std::string module = absl::StrReplaceAll(
        kNet, {{"MESH", net.mesh},
               {"XS", absl::StrCat("{tessel.sharding = #tessel.sharding<@mesh, ", net.sharding,
                                   ">}")}});
    testing::HarnessOptions options;
    options.expect_in_program = {"tessel.collective_permute"};
    options.expect_not_in_program = {"tessel.all_gather",
                                     "(tensor<2x12x8x3xf32>, tensor<3x3x3x4xf32>)"};
    testing::ExpectPartitionedRunMatches(
        module,
        {runtime::RandomTensor(runtime::ElementType::kF32, {2, 12, 8, 3}, 1),
         runtime::RandomTensor(runtime::ElementType::kF32, {3, 3, 3, 4}, 2),
         runtime::RandomTensor(runtime::ElementType::kF32, {}, 3)},
        options);
  }
}

}  // namespace
}  // namespace tessel
