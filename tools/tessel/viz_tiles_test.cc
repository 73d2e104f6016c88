// The tiles `tessel viz` draws are the pieces the runtime cuts: for a few shardings (even,
// uneven, with empty tiles, sub-axes, partial replication, explicit device ids, rank 3),
// every device's index ranges from partitioner/sharding/visualize.h must select exactly the
// elements runtime/sharded_tensors.h gives that partition, the rest of its piece padding.
#include <cstdint>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/sharding/visualize.h"
#include "runtime/sharded_tensors.h"
#include "runtime/tensor.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;
using sharding::AxisRef;
using sharding::DimSharding;
using sharding::Mesh;
using sharding::TensorSharding;

class VizTilesTest : public ::testing::Test {
 protected:
  VizTilesTest() { context_.loadDialect<ir::TesselDialect>(); }

  // Cuts 1, 2, 3, ... of `shape` for every device and compares with the view's ranges.
  void ExpectTilesMatchRuntime(const Mesh& mesh, const TensorSharding& tensor_sharding,
                               const std::vector<int64_t>& shape) {
    SCOPED_TRACE(tensor_sharding.ToString());
    absl::StatusOr<ir::MeshAttr> mesh_attr = sharding::MeshToAttr(&context_, mesh);
    ASSERT_THAT(mesh_attr, IsOk());
    absl::StatusOr<ir::ShardingAttr> sharding_attr =
        sharding::TensorShardingToAttr(&context_, tensor_sharding);
    ASSERT_THAT(sharding_attr, IsOk());
    absl::StatusOr<sharding::ShardingView> view =
        sharding::ViewSharding(mesh, tensor_sharding, shape);
    ASSERT_THAT(view, IsOk());
    const std::vector<sharding::DeviceView> devices = sharding::DeviceViews(*view);
    ASSERT_EQ(static_cast<int64_t>(devices.size()), mesh.NumDevices());

    int64_t count = 1;
    for (int64_t size : shape) count *= size;
    std::vector<int32_t> values(count);
    for (int64_t i = 0; i < count; ++i) values[i] = static_cast<int32_t>(i + 1);
    const runtime::Tensor global = runtime::Tensor::FromVector<int32_t>(shape, values);
    std::vector<int64_t> global_strides(shape.size(), 1);
    for (int64_t d = static_cast<int64_t>(shape.size()) - 2; d >= 0; --d) {
      global_strides[d] = global_strides[d + 1] * shape[d + 1];
    }

    for (const sharding::DeviceView& device : devices) {
      SCOPED_TRACE("device " + std::to_string(device.device));
      absl::StatusOr<runtime::Tensor> local =
          runtime::ShardTensor(global, *sharding_attr, *mesh_attr, device.device);
      ASSERT_THAT(local, IsOk());
      // The piece is the allocated tile: piece_size along each dimension.
      std::vector<int64_t> piece;
      for (const sharding::DimView& dim : view->dims) piece.push_back(dim.piece_size);
      ASSERT_EQ(local->shape(), piece);
      std::vector<int32_t> got = local->ToVector<int32_t>();
      for (int64_t flat = 0; flat < local->num_elements(); ++flat) {
        int64_t rest = flat;
        int64_t global_flat = 0;
        bool inside = true;
        for (int64_t d = static_cast<int64_t>(shape.size()) - 1; d >= 0; --d) {
          const int64_t index = rest % piece[d];
          rest /= piece[d];
          inside &= index < device.ranges[d].Size();
          global_flat += (device.ranges[d].begin + index) * global_strides[d];
        }
        // Inside the ranges: the global element; outside: the zero padding.
        EXPECT_EQ(got[flat], inside ? values[global_flat] : 0) << "local element " << flat;
      }
    }
  }

  mlir::MLIRContext context_;
};

TEST_F(VizTilesTest, EvenTwoByTwo) {
  Mesh mesh{{{"x", 2}, {"y", 2}}, {}};
  ExpectTilesMatchRuntime(mesh, {"mesh", {DimSharding({AxisRef("x")}), DimSharding({AxisRef("y")})}},
                          {4, 6});
  ExpectTilesMatchRuntime(mesh, {"mesh", {DimSharding({AxisRef("y")}), DimSharding({AxisRef("x")})}},
                          {4, 6});
}

TEST_F(VizTilesTest, UnevenAndEmpty) {
  ExpectTilesMatchRuntime({{{"x", 4}}, {}}, {"mesh", {DimSharding({AxisRef("x")})}}, {14});
  ExpectTilesMatchRuntime({{{"x", 8}}, {}}, {"mesh", {DimSharding({AxisRef("x")}), DimSharding()}},
                          {5, 3});
  ExpectTilesMatchRuntime({{{"x", 2}, {"y", 3}}, {}},
                          {"mesh", {DimSharding({AxisRef("x")}), DimSharding({AxisRef("y")})}},
                          {3, 7});
}

TEST_F(VizTilesTest, SubAxesAndSeveralAxesOnOneDim) {
  Mesh mesh{{{"x", 8}}, {}};
  ExpectTilesMatchRuntime(mesh, {"mesh", {DimSharding({AxisRef("x", 2, 4)})}}, {8});
  ExpectTilesMatchRuntime(mesh,
                          {"mesh", {DimSharding({AxisRef("x", 4, 2)}),
                                    DimSharding({AxisRef("x", 1, 4)})}},
                          {6, 9});
  ExpectTilesMatchRuntime({{{"x", 2}, {"y", 3}}, {}},
                          {"mesh", {DimSharding({AxisRef("y"), AxisRef("x")})}}, {13});
}

TEST_F(VizTilesTest, PartialReplicationAndExplicitDeviceIds) {
  ExpectTilesMatchRuntime({{{"data", 4}, {"model", 2}}, {}},
                          {"mesh", {DimSharding(), DimSharding({AxisRef("model")})}}, {3, 10});
  ExpectTilesMatchRuntime({{{"x", 2}, {"y", 2}}, {3, 1, 0, 2}},
                          {"mesh", {DimSharding({AxisRef("y")}), DimSharding()}}, {5, 2});
}

TEST_F(VizTilesTest, RankThree) {
  ExpectTilesMatchRuntime({{{"x", 2}, {"y", 4}}, {}},
                          {"mesh", {DimSharding({AxisRef("x")}), DimSharding(),
                                    DimSharding({AxisRef("y")})}},
                          {3, 2, 10});
}

}  // namespace
}  // namespace tessel
