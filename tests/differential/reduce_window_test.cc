// reduce_window split along its windowed dimensions (halo exchange) over every standard
// mesh: windows with strides 1-3, padding, base and window dilation, windows larger than a
// shard, uneven splits, f32 sums and i32 maxima with init values that are not identities
// (so padding that took the wrong value would show). The op must run on local shapes,
// never on the whole input.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

struct Window {
  const char* name;
  int64_t size, stride, low, high, baseDilation, windowDilation;

  int64_t OutputSize(int64_t input) const {
    int64_t padded = (input - 1) * baseDilation + 1 + low + high;
    int64_t dilated = (size - 1) * windowDilation + 1;
    return padded < dilated ? 0 : (padded - dilated) / stride + 1;
  }
};

const Window kWindows[] = {
    {"w3s1p1", 3, 1, 1, 1, 1, 1},       {"w3s2p1", 3, 2, 1, 1, 1, 1},
    {"w5s3p2", 5, 3, 2, 2, 1, 1},       {"w2s2", 2, 2, 0, 0, 1, 1},
    {"w4s3p02", 4, 3, 0, 2, 1, 1},      {"w3s1b2", 3, 1, 0, 0, 2, 1},
    {"w2s3b3p1", 2, 3, 1, 2, 3, 1},     {"w2s1r2p1", 2, 1, 1, 0, 1, 2},
    {"w7s1p3", 7, 1, 3, 3, 1, 1},       {"w9s2p4", 9, 2, 4, 4, 1, 1},
    {"w1s2", 1, 2, 0, 0, 1, 1},         {"w1s1", 1, 1, 0, 0, 1, 1},
};

struct Case {
  std::string name;
  std::string module;
  bool f32;
  std::vector<int64_t> shape;
  // The op's global result signature, which must not appear (empty: nothing to check,
  // the local result has the global shape).
  std::string globalSignature;
};

// The size of mesh axis `axis` of the standard meshes ("x"=2 in the 2-D ones).
int64_t AxisSize(const testing::TestMesh& mesh, const std::string& axis) {
  if (mesh.axes.size() == 1) return mesh.devices;
  return axis == "x" ? 2 : mesh.devices / 2;
}

// Whether splitting `dims` of a tensor of `shape` changes its local shape.
bool LocalDiffers(const testing::TestMesh& mesh, const std::vector<std::vector<std::string>>& dims,
                  const std::vector<int64_t>& shape) {
  for (size_t d = 0; d < dims.size(); ++d) {
    int64_t n = 1;
    for (const std::string& axis : dims[d]) n *= AxisSize(mesh, axis);
    if ((shape[d] + n - 1) / n != shape[d]) return true;
  }
  return false;
}

std::string WindowAttrs(const Window& a, const Window& b) {
  return absl::StrCat("window_dimensions = [", a.size, ", ", b.size, "], window_strides = [",
                      a.stride, ", ", b.stride, "], base_dilations = [", a.baseDilation, ", ",
                      b.baseDilation, "], window_dilations = [", a.windowDilation, ", ",
                      b.windowDilation, "], padding = [[", a.low, ", ", a.high, "], [", b.low,
                      ", ", b.high, "]]");
}

Case MakeCase(const testing::TestMesh& mesh, const std::vector<std::vector<std::string>>& dims,
              const Window& w0, const Window& w1, bool f32, const std::string& tag) {
  const std::vector<int64_t> shape = {13, 7};
  const std::string t = f32 ? "f32" : "i32";
  const std::string in = absl::StrCat("tensor<13x7x", t, ">");
  const std::string out =
      absl::StrCat("tensor<", w0.OutputSize(13), "x", w1.OutputSize(7), "x", t, ">");
  std::string module = absl::StrReplaceAll(
      R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: IN SHARDING, %z: tensor<T>) -> (OUT SHARDING) {
  %0 = hlo.reduce_window(%a) init(%z) ATTRS : (IN, tensor<T>) -> OUT reducer {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %s = hlo.OP %x, %y : tensor<T>
    hlo.return %s : tensor<T>
  }
  return %0 : OUT
})",
      {{"MESH", mesh.text},
       {"SHARDING", testing::ShardingArgAttrText(dims)},
       {"ATTRS", WindowAttrs(w0, w1)},
       {"IN", in},
       {"OUT", out},
       {"OP", f32 ? "add" : "max"},
       {"T", t}});
  const bool differs = LocalDiffers(mesh, dims, {w0.OutputSize(13), w1.OutputSize(7)});
  return {absl::StrCat(t, "_", w0.name, "_", w1.name, "_", mesh.devices, "dev",
                       mesh.axes.size(), "d_", tag),
          module, f32, shape, differs ? absl::StrCat("-> ", out, " reducer") : ""};
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const Window& trivial = kWindows[11];
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    for (const Window& w : kWindows) {
      for (bool f32 : {true, false}) {
        if (mesh.axes.size() == 1) {
          cases.push_back(MakeCase(mesh, {{"x"}, {}}, w, trivial, f32, "dim0"));
          cases.push_back(MakeCase(mesh, {{}, {"x"}}, trivial, w, f32, "dim1"));
        } else {
          // Both dims windowed and split (spatial x spatial), and one dim over both axes.
          cases.push_back(MakeCase(mesh, {{"x"}, {"y"}}, w, kWindows[0], f32, "xy"));
          cases.push_back(MakeCase(mesh, {{"x", "y"}, {}}, w, trivial, f32, "dim0xy"));
          // A split size-1 window dim passes through beside a replicated windowed one.
          cases.push_back(MakeCase(mesh, {{}, {"y"}}, w, trivial, f32, "passthrough"));
        }
      }
    }
  }
  return cases;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class ReduceWindowPartitionTest : public ::testing::TestWithParam<Case> {};

TEST_P(ReduceWindowPartitionTest, MatchesSingleDevice) {
  const Case& c = GetParam();
  testing::HarnessOptions options;
  // The handler ran the op on local shapes: the global result never appears.
  if (!c.globalSignature.empty()) options.expect_not_in_program = {c.globalSignature};
  runtime::ElementType type = c.f32 ? runtime::ElementType::kF32 : runtime::ElementType::kS32;
  testing::ExpectPartitionedRunMatches(
      c.module, {runtime::RandomTensor(type, c.shape, 5), runtime::RandomTensor(type, {}, 6)},
      options);
}

INSTANTIATE_TEST_SUITE_P(Generated, ReduceWindowPartitionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
