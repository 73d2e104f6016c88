// select_and_scatter split along its windowed dimensions over every standard mesh:
// overlapping windows (stride < window) whose selections straddle shard boundaries,
// non-overlapping ones, gaps (stride > window), padding (never selected), windows larger
// than a shard, uneven splits, 2-D meshes splitting two windowed dims or one dim over two
// axes; f32 and i32 (whose small values tie often, so the choice between equal elements is
// checked too). The op must run on local shapes; a scatter region that is not a sum
// (multiply) shows that no contributions are added up across shards. Also: one value as
// both operand and source; two split windowed dims, the second gathered.
#include <algorithm>
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
  int64_t size, stride, low, high;

  int64_t OutputSize(int64_t input) const {
    int64_t padded = input + low + high;
    return padded < size ? 0 : (padded - size) / stride + 1;
  }
};

const Window kWindows[] = {
    {"w3s2p1", 3, 2, 1, 1}, {"w2s2", 2, 2, 0, 0},   {"w3s1p1", 3, 1, 1, 1},
    {"w5s3p2", 5, 3, 2, 2}, {"w4s3p02", 4, 3, 0, 2}, {"w7s1p3", 7, 1, 3, 3},
    {"w3s3p20", 3, 3, 2, 0}, {"w2s3", 2, 3, 0, 0},   {"w1s2", 1, 2, 0, 0},
    {"w1s1", 1, 1, 0, 0},
};

// Whether no local select_and_scatter along a dim of `size` split `n` ways has the global
// shape there: each shard recomputes M windows (the most that touch one shard's positions)
// over (M - 1) * stride + size operand elements, less the part in padding (see
// select_and_scatter_partition.cc).
bool AlwaysLocal(const Window& w, int64_t size, int64_t n) {
  const int64_t windows = w.OutputSize(size), s = (size + n - 1) / n;
  auto floorDiv = [](int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); };
  std::vector<int64_t> first, last;
  int64_t m = 1;
  for (int64_t i = 0; i * s < size; ++i) {
    first.push_back(std::max<int64_t>(0, -floorDiv(-(i * s + w.low - w.size + 1), w.stride)));
    last.push_back(
        std::min(windows - 1, floorDiv(std::min((i + 1) * s, size) - 1 + w.low, w.stride)));
    m = std::max(m, last.back() - first.back() + 1);
  }
  m = std::min(m, windows);
  const int64_t length = (m - 1) * w.stride + w.size;
  for (size_t i = 0; i < first.size(); ++i) {
    if (first[i] > last[i]) continue;
    int64_t a = std::clamp<int64_t>(first[i], 0, windows - m) * w.stride - w.low;
    int64_t inside = length - std::clamp<int64_t>(-a, 0, length) -
                     std::clamp<int64_t>(a + length - size, 0, length);
    if (m == windows && inside == size) return false;
  }
  return true;
}

struct Case {
  std::string name;
  std::string module;
  bool f32;
  std::vector<int64_t> sourceShape;
  std::string globalSignature;  // empty: not checked
};

Case MakeCase(const testing::TestMesh& mesh, const std::vector<std::vector<std::string>>& dims,
              const Window& w0, const Window& w1, bool f32, const char* scatter,
              const std::string& tag) {
  const std::string t = f32 ? "f32" : "i32";
  const std::string operand = absl::StrCat("tensor<13x7x", t, ">");
  std::vector<int64_t> sourceShape = {w0.OutputSize(13), w1.OutputSize(7)};
  const std::string source =
      absl::StrCat("tensor<", sourceShape[0], "x", sourceShape[1], "x", t, ">");
  const std::string signature =
      absl::StrCat(": (", operand, ", ", source, ", tensor<", t, ">) -> ", operand);
  std::string module = absl::StrReplaceAll(
      R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: OPERAND SHARDING, %src: SOURCE SHARDING, %z: tensor<T>) -> (OPERAND SHARDING) {
  %0 = hlo.select_and_scatter(%a, %src, %z) window_dimensions = [W0, W1], window_strides = [T0, T1], padding = [[L0, H0], [L1, H1]] SIGNATURE select {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %p = hlo.compare GE, %x, %y : tensor<T>
    hlo.return %p : tensor<i1>
  } scatter {
  ^bb0(%x: tensor<T>, %y: tensor<T>):
    %s = hlo.SCATTER %x, %y : tensor<T>
    hlo.return %s : tensor<T>
  }
  return %0 : OPERAND
})",
      {{"MESH", mesh.text},
       {"SHARDING", testing::ShardingArgAttrText(dims)},
       {"SIGNATURE", signature},
       {"OPERAND", operand},
       {"SOURCE", source},
       {"SCATTER", scatter},
       {"W0", absl::StrCat(w0.size)},
       {"W1", absl::StrCat(w1.size)},
       {"T0", absl::StrCat(w0.stride)},
       {"T1", absl::StrCat(w1.stride)},
       {"L0", absl::StrCat(w0.low)},
       {"H0", absl::StrCat(w0.high)},
       {"L1", absl::StrCat(w1.low)},
       {"H1", absl::StrCat(w1.high)},
       {"T", t}});
  // Unless every split dim recomputes all its windows (then the local op may have the
  // global shape), the global signature must not appear.
  bool local = false;
  const Window* windows[] = {&w0, &w1};
  const int64_t sizes[] = {13, 7};
  for (int d = 0; d < 2; ++d) {
    int64_t n = 1;
    for (const std::string& axis : dims[d]) {
      n *= mesh.axes.size() == 1 ? mesh.devices : (axis == "x" ? 2 : mesh.devices / 2);
    }
    if (n == 1) continue;
    const Window& w = *windows[d];
    if (w.size == 1 && w.stride == 1 && w.low == 0 && w.high == 0) {
      local = true;
      continue;
    }
    local |= AlwaysLocal(w, sizes[d], n);
  }
  return {absl::StrCat(t, "_", scatter, "_", w0.name, "_", w1.name, "_", mesh.devices, "dev",
                       mesh.axes.size(), "d_", tag),
          module, f32, sourceShape, local ? signature : ""};
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  const Window& trivial = kWindows[9];
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    for (const Window& w : kWindows) {
      for (bool f32 : {true, false}) {
        if (mesh.axes.size() == 1) {
          cases.push_back(MakeCase(mesh, {{"x"}, {}}, w, trivial, f32, "add", "dim0"));
          cases.push_back(MakeCase(mesh, {{}, {"x"}}, trivial, w, f32, "add", "dim1"));
        } else {
          cases.push_back(MakeCase(mesh, {{"x"}, {"y"}}, w, kWindows[0], f32, "add", "xy"));
          cases.push_back(MakeCase(mesh, {{"x", "y"}, {}}, w, trivial, f32, "add", "dim0xy"));
        }
      }
      if (mesh.axes.size() == 1) {
        cases.push_back(MakeCase(mesh, {{"x"}, {}}, w, kWindows[0], false, "mul", "dim0"));
      }
    }
  }
  return cases;
}

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class SelectAndScatterPartitionTest : public ::testing::TestWithParam<Case> {};

TEST_P(SelectAndScatterPartitionTest, MatchesSingleDevice) {
  const Case& c = GetParam();
  testing::HarnessOptions options;
  if (!c.globalSignature.empty()) options.expect_not_in_program = {c.globalSignature};
  runtime::ElementType type = c.f32 ? runtime::ElementType::kF32 : runtime::ElementType::kS32;
  testing::ExpectPartitionedRunMatches(
      c.module,
      {runtime::RandomTensor(type, {13, 7}, 21), runtime::RandomTensor(type, c.sourceShape, 22),
       runtime::RandomTensor(type, {}, 23)},
      options);
}

// One value as both operand and source (windows of 2 at stride 1 with low padding 1 keep
// their shapes equal): each needs its own halo, and the local op must read both (once both
// uses read the source's form, which failed to verify).
TEST(SelectAndScatterSameValueTest, OperandThatIsAlsoTheSource) {
  for (const testing::TestMesh& mesh : testing::StandardMeshes()) {
    SCOPED_TRACE(mesh.text);
    testing::ExpectPartitionedRunMatches(
        absl::StrReplaceAll(R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<9xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>}) -> tensor<9xi32> {
  %z = hlo.constant dense<0> : tensor<i32>
  %r = hlo.select_and_scatter(%a, %a, %z) window_dimensions = [2], window_strides = [1], padding = [[1, 0]] : (tensor<9xi32>, tensor<9xi32>, tensor<i32>) -> tensor<9xi32> select {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %c = hlo.compare GE, %p, %q : tensor<i32>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%p: tensor<i32>, %q: tensor<i32>):
    %s = hlo.add %p, %q : tensor<i32>
    hlo.return %s : tensor<i32>
  }
  return %r : tensor<9xi32>
})",
                            {{"MESH", mesh.text}}),
        {runtime::RandomTensor(runtime::ElementType::kS32, {9}, 31)});
  }
}

// Windowed along two split dims where the second needs more than its neighbours' halos
// (so it is gathered): the gather must take the first dim's exchanged windows as they are,
// not as the layout's local size (it cut them to that size, and the local op failed to
// verify).
TEST(SelectAndScatterTwoDimsTest, SecondDimGatheredAfterTheFirstExchanged) {
  for (const char* mesh : {R"(["x"=2, "y"=2])", R"(["x"=2, "y"=3])"}) {
    SCOPED_TRACE(mesh);
    testing::ExpectPartitionedRunMatches(
        absl::StrReplaceAll(R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>},
                %s: tensor<2x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"x", "y"}]>})
    -> (tensor<8x2xf32> {tessel.sharding = #tessel.sharding<@mesh, [{"y"}, {"x"}]>}) {
  %z = hlo.constant dense<0.0> : tensor<f32>
  %r = hlo.select_and_scatter(%a, %s, %z) window_dimensions = [3, 2], window_strides = [3, 1], padding = [[0, 0], [0, 1]] : (tensor<8x2xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<8x2xf32> select {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %c = hlo.compare GE, %p, %q : tensor<f32>
    hlo.return %c : tensor<i1>
  } scatter {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %t = hlo.add %p, %q : tensor<f32>
    hlo.return %t : tensor<f32>
  }
  return %r : tensor<8x2xf32>
})",
                            {{"MESH", mesh}}),
        {runtime::RandomTensor(runtime::ElementType::kF32, {8, 2}, 51),
         runtime::RandomTensor(runtime::ElementType::kF32, {2, 2}, 52)});
  }
}

INSTANTIATE_TEST_SUITE_P(Generated, SelectAndScatterPartitionTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace tessel
