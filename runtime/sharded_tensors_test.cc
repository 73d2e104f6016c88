// Cutting and assembling sharded tensors: uneven splits pad with zeros, assembly drops the
// padding, replicas that disagree are reported, and partial sums over unreduced axes add up.
#include "runtime/sharded_tensors.h"

#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"
#include "support/status_matchers.h"

namespace tessel::runtime {
namespace {

class ShardedTensorsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto module = ParseModule(R"(
tessel.mesh @mesh = <["x"=2, "y"=2]>
func.func @f(%a: tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"y", "x"}]>},
             %b: tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}]>},
             %c: tensor<5xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}], unreduced={"y"}>},
             %d: tensor<5x3x7xi32> {tessel.sharding = #tessel.sharding<@mesh, [{"x"}, {}, {"y"}]>},
             %e: tensor<5x3x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {}, {"x", "y"}]>},
             %g: tensor<5x3x3xi32> {tessel.sharding = #tessel.sharding<@mesh, [{}, {"y", "x"}, {}]>}) {
  return
}
)",
                              "m.mlir", context_);
    ASSERT_TRUE(module.ok()) << module.status();
    module_ = std::move(*module);
    mesh_ = module_->lookupSymbol<ir::MeshOp>("mesh").getMesh();
    auto f = module_->lookupSymbol<mlir::func::FuncOp>("f");
    yx_ = f.getArgAttrOfType<ir::ShardingAttr>(0, "tessel.sharding");
    x_ = f.getArgAttrOfType<ir::ShardingAttr>(1, "tessel.sharding");
    xPartialOverY_ = f.getArgAttrOfType<ir::ShardingAttr>(2, "tessel.sharding");
    rank3_ = {f.getArgAttrOfType<ir::ShardingAttr>(3, "tessel.sharding"),
              f.getArgAttrOfType<ir::ShardingAttr>(4, "tessel.sharding"),
              f.getArgAttrOfType<ir::ShardingAttr>(5, "tessel.sharding")};
  }
  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  ir::MeshAttr mesh_;
  ir::ShardingAttr yx_, x_, xPartialOverY_;
  // Uneven splits of rank-3 tensors: the outer and the inner dimension split (5x3x7), the
  // inner one alone with a last piece wholly padding (5x3x3), a middle one alone with the
  // same (5x3x3).
  std::vector<ir::ShardingAttr> rank3_;
};

std::vector<int32_t> Iota(int64_t n) {
  std::vector<int32_t> values(n);
  for (int64_t i = 0; i < n; ++i) values[i] = static_cast<int32_t>(i);
  return values;
}

TEST_F(ShardedTensorsTest, UnevenRank3PiecesHoldTheirRowsAndPadTheRest) {
  // [{"x"}, {}, {"y"}] on 5x3x7: partition 3 is x = 1, y = 1, whose piece of 3x3x4 starts
  // at global (3, 0, 4); its local row 2 and its inner position 3 lie past the global edge.
  Tensor global = Tensor::FromVector<int32_t>({5, 3, 7}, Iota(105));
  auto local = ShardTensor(global, rank3_[0], mesh_, 3);
  ASSERT_TRUE(local.ok()) << local.status();
  ASSERT_EQ(local->shape(), (Shape{3, 3, 4}));
  std::vector<int32_t> want(36, 0);
  for (int64_t i = 0; i < 2; ++i) {
    for (int64_t j = 0; j < 3; ++j) {
      for (int64_t k = 0; k < 3; ++k) want[(i * 3 + j) * 4 + k] = (3 + i) * 21 + j * 7 + 4 + k;
    }
  }
  EXPECT_EQ(local->ToVector<int32_t>(), want);
}

TEST_F(ShardedTensorsTest, UnevenRank3PiecesAssembleBackToTheGlobalTensor) {
  const std::vector<Shape> shapes = {{5, 3, 7}, {5, 3, 3}, {5, 3, 3}};
  for (size_t s = 0; s < shapes.size(); ++s) {
    Tensor global = Tensor::FromVector<int32_t>(shapes[s], Iota(NumElements(shapes[s])));
    std::vector<Tensor> locals;
    for (int p = 0; p < 4; ++p) {
      auto local = ShardTensor(global, rank3_[s], mesh_, p);
      ASSERT_TRUE(local.ok()) << local.status();
      locals.push_back(*std::move(local));
    }
    auto back = AssembleTensor(locals, rank3_[s], mesh_, shapes[s]);
    ASSERT_TRUE(back.ok()) << "sharding " << s << ": " << back.status();
    EXPECT_TRUE(back->BitwiseEquals(global)) << "sharding " << s;
  }
}

TEST_F(ShardedTensorsTest, UnevenSplitPadsTheLastShardsWithZeros) {
  Tensor global = Tensor::FromVector<int32_t>({5}, {1, 2, 3, 4, 5});
  // Axes ["y", "x"]: device (x, y) holds shard 2*y + x, each of 2 elements.
  std::vector<std::vector<int32_t>> want = {{1, 2}, {5, 0}, {3, 4}, {0, 0}};
  for (int p = 0; p < 4; ++p) {
    auto local = ShardTensor(global, yx_, mesh_, p);
    ASSERT_TRUE(local.ok()) << local.status();
    EXPECT_EQ(local->ToVector<int32_t>(), want[p]) << "partition " << p;
  }
}

TEST_F(ShardedTensorsTest, AssembleDropsPaddingAndInvertsShard) {
  Tensor global = Tensor::FromVector<int32_t>({5}, {1, 2, 3, 4, 5});
  std::vector<Tensor> locals;
  for (int p = 0; p < 4; ++p) locals.push_back(*ShardTensor(global, yx_, mesh_, p));
  auto back = AssembleTensor(locals, yx_, mesh_, {5});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->BitwiseEquals(global));
}

TEST_F(ShardedTensorsTest, DisagreeingReplicasFail) {
  Tensor global = Tensor::FromVector<int32_t>({5}, {1, 2, 3, 4, 5});
  std::vector<Tensor> locals;
  for (int p = 0; p < 4; ++p) locals.push_back(*ShardTensor(global, x_, mesh_, p));
  locals[3].data<int32_t>()[0] = 9;  // partition 3 replicates partition 2's shard
  EXPECT_THAT(AssembleTensor(locals, x_, mesh_, {5}),
              tessel::testing::StatusIs(absl::StatusCode::kFailedPrecondition, "partition 3 disagrees"));
}

// Split over "x", partial sums over "y": device (x, y) is partition 2*x + y (row-major).
TEST_F(ShardedTensorsTest, PartialSumsOverUnreducedAxesAddUp) {
  Tensor global = Tensor::FromVector<int32_t>({5}, {1, 2, 3, 4, 5});
  // Cutting: the first device along "y" holds the piece, the other zeros.
  std::vector<std::vector<int32_t>> want = {{1, 2, 3}, {0, 0, 0}, {4, 5, 0}, {0, 0, 0}};
  std::vector<Tensor> locals;
  for (int p = 0; p < 4; ++p) {
    auto local = ShardTensor(global, xPartialOverY_, mesh_, p);
    ASSERT_TRUE(local.ok()) << local.status();
    EXPECT_EQ(local->ToVector<int32_t>(), want[p]) << "partition " << p;
    locals.push_back(*std::move(local));
  }
  auto back = AssembleTensor(locals, xPartialOverY_, mesh_, {5});
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(back->BitwiseEquals(global));
  // Assembling: the two devices along "y" each hold a part; the value is their sum.
  locals[0] = Tensor::FromVector<int32_t>({3}, {10, 20, 30});
  locals[1] = Tensor::FromVector<int32_t>({3}, {1, 2, 3});
  locals[2] = Tensor::FromVector<int32_t>({3}, {40, 50, 7});
  locals[3] = Tensor::FromVector<int32_t>({3}, {4, 5, 8});
  auto sum = AssembleTensor(locals, xPartialOverY_, mesh_, {5});
  ASSERT_TRUE(sum.ok()) << sum.status();
  EXPECT_EQ(sum->ToVector<int32_t>(), (std::vector<int32_t>{11, 22, 33, 44, 55}));
}

}  // namespace
}  // namespace tessel::runtime
