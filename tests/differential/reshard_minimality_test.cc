// The reshard planner against the analytical minimum (docs/partitioning.md, "How many bytes a
// reshard must move"): for every pair of layouts A -> B of a rank-2 (16x16) and a rank-3
// (8x8x8) f32 tensor on the meshes 8, 2x4 and 2x2x2, a sharding_constraint is partitioned
// and the bytes its collectives send per device (the cost model's ring figures) are compared
// with the most any device must receive: the elements of its B-shard it does not hold in its
// A-shard. No plan may beat that bound (else the measure is wrong), and every plan must reach
// it: per-axis moves where they do, a piece exchange (piece_exchange.h) where several axes
// move at once. The test also prints the pairs per mesh and number of moved axes.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <utility>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "cost_model/collective_cost.h"
#include "cost_model/hardware_spec.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/spmd/partition.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using Layout = std::vector<std::vector<std::string>>;

struct MeshAxis {
  std::string name;
  int64_t size;
};

// The shard index of device `linear` along `axes` (row-major mesh coordinates, the axes of
// a dimension major to minor).
int64_t ShardIndex(const std::vector<MeshAxis>& mesh, const std::vector<std::string>& axes,
                   int64_t linear) {
  std::vector<int64_t> coords(mesh.size());
  for (int64_t i = static_cast<int64_t>(mesh.size()) - 1; i >= 0; --i) {
    coords[i] = linear % mesh[i].size;
    linear /= mesh[i].size;
  }
  int64_t index = 0;
  for (const std::string& name : axes) {
    for (size_t i = 0; i < mesh.size(); ++i) {
      if (mesh[i].name == name) index = index * mesh[i].size + coords[i];
    }
  }
  return index;
}

int64_t Shards(const std::vector<MeshAxis>& mesh, const std::vector<std::string>& axes) {
  int64_t n = 1;
  for (const std::string& name : axes) {
    for (const MeshAxis& axis : mesh) {
      if (axis.name == name) n *= axis.size;
    }
  }
  return n;
}

// The most elements any device must receive to go from `from` to `to`.
int64_t MinimumElements(const std::vector<MeshAxis>& mesh, const std::vector<int64_t>& shape,
                        const Layout& from, const Layout& to) {
  int64_t devices = 1;
  for (const MeshAxis& axis : mesh) devices *= axis.size;
  int64_t most = 0;
  for (int64_t d = 0; d < devices; ++d) {
    int64_t target = 1, kept = 1;
    for (size_t k = 0; k < shape.size(); ++k) {
      const int64_t sa = shape[k] / Shards(mesh, from[k]), sb = shape[k] / Shards(mesh, to[k]);
      const int64_t a = ShardIndex(mesh, from[k], d) * sa, b = ShardIndex(mesh, to[k], d) * sb;
      target *= sb;
      kept *= std::max<int64_t>(0, std::min(a + sa, b + sb) - std::max(a, b));
    }
    most = std::max(most, target - kept);
  }
  return most;
}

std::string Name(const Layout& layout) {
  std::vector<std::string> dims;
  for (const auto& axes : layout) dims.push_back(axes.empty() ? "-" : absl::StrJoin(axes, ""));
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

struct MeshCase {
  std::vector<MeshAxis> axes;
  std::string text;
};

class ReshardMinimalityTest : public ::testing::TestWithParam<int> {};

TEST_P(ReshardMinimalityTest, PlannerSendsTheMinimum) {
  const MeshCase meshes[] = {
      {{{"x", 8}}, R"(["x"=8])"},
      {{{"x", 2}, {"y", 4}}, R"(["x"=2, "y"=4])"},
      {{{"x", 2}, {"y", 2}, {"z", 2}}, R"(["x"=2, "y"=2, "z"=2])"},
  };
  const int rank = GetParam();
  const std::vector<int64_t> shape = rank == 2 ? std::vector<int64_t>{16, 16}
                                               : std::vector<int64_t>{8, 8, 8};
  const std::string dims = rank == 2 ? "16x16" : "8x8x8";
  int pairs = 0, minimal = 0;
  std::map<std::string, std::pair<int, int>> byClass;
  for (const MeshCase& mesh : meshes) {
    std::vector<std::string> names;
    for (const MeshAxis& axis : mesh.axes) names.push_back(axis.name);
    std::vector<Layout> layouts = testing::AllLayouts(rank, names);
    for (const Layout& from : layouts) {
      for (const Layout& to : layouts) {
        std::string text = absl::StrReplaceAll(
            R"(tessel.mesh @mesh = <MESH>
func.func @main(%a: tensor<Dxf32> FROM) -> (tensor<Dxf32> TO) {
  %b = tessel.sharding_constraint %a TOSHARDING : tensor<Dxf32>
  return %b : tensor<Dxf32>
})",
            {{"MESH", mesh.text},
             {"FROM", testing::ShardingArgAttrText(from)},
             {"TO", testing::ShardingArgAttrText(to)},
             {"TOSHARDING", absl::StrReplaceAll(testing::ShardingAttrText(to),
                                                {{"#tessel.sharding", ""}})},
             {"D", dims}});
        mlir::MLIRContext context;
        auto module = ParseModule(text, "pair.mlir", context);
        ASSERT_TRUE(module.ok()) << module.status();
        ASSERT_TRUE(mlir::succeeded(propagation::propagateShardings(**module, {}, nullptr)));
        ASSERT_TRUE(mlir::succeeded(spmd::partitionModule(**module)));
        double sent = 0;
        (*module)->walk([&](mlir::Operation* op) {
          if (auto cost = cost_model::EstimateCollectiveOp(op, cost_model::DefaultHardwareSpec())) {
            sent += cost->estimate.sent_bytes;
          }
        });
        const double minimum = 4.0 * MinimumElements(mesh.axes, shape, from, to);
        ++pairs;
        // Class: mesh and how many axes sit elsewhere (dimension or position) in B.
        int moved = 0;
        for (const std::string& axis : names) {
          std::pair<int, int> where[2] = {{-1, -1}, {-1, -1}};
          const Layout* both[2] = {&from, &to};
          for (int side = 0; side < 2; ++side) {
            for (size_t k = 0; k < both[side]->size(); ++k) {
              const auto& axes = (*both[side])[k];
              for (size_t at = 0; at < axes.size(); ++at) {
                if (axes[at] == axis) where[side] = {static_cast<int>(k), static_cast<int>(at)};
              }
            }
          }
          moved += where[0] != where[1];
        }
        auto& counts = byClass[absl::StrCat(mesh.text, " moved=", moved)];
        ++counts.second;
        EXPECT_GE(sent + 1e-6, minimum) << Name(from) << " -> " << Name(to);
        EXPECT_LE(sent, minimum + 1e-6) << mesh.text << " " << Name(from) << " -> " << Name(to);
        if (sent <= minimum + 1e-6) {
          ++minimal;
          ++counts.first;
        }
      }
    }
  }
  std::cout << minimal << " of " << pairs << " pairs at the minimum\n";
  for (const auto& [key, counts] : byClass) {
    std::cout << "  class " << key << ": " << counts.first << " of " << counts.second << "\n";
  }
}

INSTANTIATE_TEST_SUITE_P(Ranks, ReshardMinimalityTest, ::testing::Values(2, 3));

}  // namespace
}  // namespace tessel
