// planPieceExchange on every pair of layouts of small meshes: each device gets every piece of
// its new shard exactly once (from itself or from a device whose old shard holds the piece),
// no device sends twice in a round, and the rounds are exactly the most pieces any device
// lacks (the bound of docs/partitioning.md in pieces). Execution of the emitted rounds is
// tested with the reshard planner (tests/differential/reshard_test).
#include "partitioner/spmd/piece_exchange.h"

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::spmd {
namespace {

class PieceExchangeTest : public ::testing::Test {
 protected:
  PieceExchangeTest() { context_.loadDialect<ir::TesselDialect>(); }

  // Every layout of rank `rank` over the axes of `mesh`: each axis on no dimension or on one,
  // in every order within a dimension.
  std::vector<Layout> AllLayouts(ir::MeshAttr mesh, int64_t rank) {
    auto meshName = mlir::FlatSymbolRefAttr::get(&context_, "mesh");
    std::vector<Layout> layouts;
    llvm::SmallVector<ir::AxisRefAttr> axes;
    for (ir::MeshAxisAttr axis : mesh.getAxes()) {
      axes.push_back(ir::AxisRefAttr::get(&context_, axis.getName()));
    }
    std::function<void(size_t, Layout)> place = [&](size_t next, Layout layout) {
      if (next == axes.size()) {
        layouts.push_back(layout);
        return;
      }
      place(next + 1, layout);
      for (int64_t d = 0; d < rank; ++d) {
        for (size_t at = 0; at <= layout.dims[d].size(); ++at) {
          Layout placed = layout;
          placed.dims[d].insert(placed.dims[d].begin() + at, axes[next]);
          place(next + 1, placed);
        }
      }
    };
    place(0, Layout::replicated(mesh, meshName, rank));
    return layouts;
  }

  ir::MeshAttr Mesh(std::vector<std::pair<std::string, int64_t>> axes) {
    llvm::SmallVector<ir::MeshAxisAttr> list;
    for (const auto& [name, size] : axes) list.push_back(ir::MeshAxisAttr::get(&context_, name, size));
    return ir::MeshAttr::get(&context_, list, {});
  }

  // Checks one plan; returns how many pairs had a plan.
  void CheckAll(ir::MeshAttr mesh, std::vector<int64_t> shape, int* planned) {
    const int64_t rank = shape.size();
    const int64_t devices = mesh.getTotalSize();
    for (const Layout& from : AllLayouts(mesh, rank)) {
      for (const Layout& to : AllLayouts(mesh, rank)) {
        std::optional<PieceExchange> plan = planPieceExchange(from, to, shape);
        if (!plan) continue;
        ++*planned;
        int64_t slots = 1;
        for (int64_t g : plan->grid) slots *= g;
        // Whether device s's old shard holds slot `slot` of device t's new shard.
        auto holds = [&](int64_t s, int64_t t, int64_t slot) {
          for (int64_t d = 0; d < rank; ++d) {
            const int64_t start = plan->globalStart(to, t, slot, d);
            const int64_t length = shape[d] / from.numShards(d);
            const int64_t begin = from.shardIndex(d, s) * length;
            if (start < begin || start + plan->piece[d] > begin + length) return false;
          }
          return true;
        };
        std::vector<std::vector<int>> got(devices, std::vector<int>(slots, 0));
        int64_t mostMissing = 0;
        for (int64_t t = 0; t < devices; ++t) {
          int64_t missing = 0;
          for (int64_t slot = 0; slot < slots; ++slot) missing += !holds(t, t, slot);
          mostMissing = std::max(mostMissing, missing);
        }
        for (const auto& round : plan->remote) {
          std::vector<int> sends(devices, 0);
          for (int64_t t = 0; t < devices; ++t) {
            if (round[t].source < 0) continue;
            ASSERT_TRUE(holds(round[t].source, t, round[t].slot));
            ++sends[round[t].source];
            ++got[t][round[t].slot];
          }
          for (int count : sends) ASSERT_LE(count, 1);
        }
        for (const auto& round : plan->local) {
          for (int64_t t = 0; t < devices; ++t) {
            if (round[t] < 0) continue;
            ASSERT_TRUE(holds(t, t, round[t]));
            ++got[t][round[t]];
          }
        }
        for (int64_t t = 0; t < devices; ++t) {
          for (int64_t slot = 0; slot < slots; ++slot) ASSERT_EQ(got[t][slot], 1);
        }
        EXPECT_EQ(static_cast<int64_t>(plan->remote.size()), mostMissing);
      }
    }
  }

  mlir::MLIRContext context_;
};

TEST_F(PieceExchangeTest, EveryPairOnTwoByFour) {
  int planned = 0;
  CheckAll(Mesh({{"x", 2}, {"y", 4}}), {16, 16}, &planned);
  EXPECT_GT(planned, 0);
}

TEST_F(PieceExchangeTest, EveryPairOnTwoByThree) {
  // Shard counts 2, 3 and 6 meet on one dimension: pieces of lcm granularity.
  int planned = 0;
  CheckAll(Mesh({{"x", 2}, {"y", 3}}), {12, 6}, &planned);
  EXPECT_GT(planned, 0);
}

TEST_F(PieceExchangeTest, EveryPairOnTwoByTwoByTwo) {
  int planned = 0;
  CheckAll(Mesh({{"x", 2}, {"y", 2}, {"z", 2}}), {8, 8, 8}, &planned);
  EXPECT_GT(planned, 0);
}

TEST_F(PieceExchangeTest, NoPlanWhereAPieceWouldSplitUnevenly) {
  ir::MeshAttr mesh = Mesh({{"x", 3}});
  auto meshName = mlir::FlatSymbolRefAttr::get(&context_, "mesh");
  Layout rows = Layout::replicated(mesh, meshName, 2), cols = rows;
  rows.dims[0].push_back(ir::AxisRefAttr::get(&context_, "x"));
  cols.dims[1].push_back(ir::AxisRefAttr::get(&context_, "x"));
  EXPECT_FALSE(planPieceExchange(rows, cols, {7, 9}).has_value());
  EXPECT_TRUE(planPieceExchange(rows, cols, {6, 9}).has_value());
}

}  // namespace
}  // namespace tessel::spmd
