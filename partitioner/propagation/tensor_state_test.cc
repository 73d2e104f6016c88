// Tests of the conversions between propagation states and sharding attributes.
#include "partitioner/propagation/tensor_state.h"

#include <vector>

#include "gtest/gtest.h"
#include "partitioner/propagation/mesh_test_fixture.h"

namespace tessel::propagation {
namespace {

class TensorStateTest : public MeshTest {
 protected:
  ir::DimShardingAttr Dim(llvm::ArrayRef<AxisRefAttr> axes, bool closed,
                          std::optional<int64_t> priority = std::nullopt) {
    return ir::DimShardingAttr::get(&context_, axes, closed, priority);
  }
  DimState State(AxisList axes, bool closed, int64_t priority = DimState::kNoPriority) {
    DimState dim;
    dim.axes = std::move(axes);
    dim.closed = closed;
    dim.priority = priority;
    return dim;
  }
};

TEST_F(TensorStateTest, WritesEveryKindOfDimension) {
  TensorState state = openState(meshName_, mesh_, 5);
  state.dims[0] = State({}, /*closed=*/false);
  state.dims[1] = State({}, /*closed=*/true);
  state.dims[2] = State({Sub("x", 1, 2), Sub("x", 2, 2)}, /*closed=*/false);  // merges to x
  state.dims[3] = State({}, /*closed=*/false, /*priority=*/1);
  state.dims[4] = State({Axis("y")}, /*closed=*/true, /*priority=*/0);
  state.unreduced = {Axis("x")};
  // An axis is not both unreduced and on a dimension in a valid sharding, but the
  // conversion copies what it is given.
  ir::ShardingAttr expectedOpen = ir::ShardingAttr::get(
      &context_, meshName_,
      {Dim({}, false), Dim({}, true), Dim({Axis("x")}, false), Dim({}, false, 1),
       Dim({Axis("y")}, true, 0)},
      {}, {Axis("x")});
  ir::ShardingAttr expectedClosed = ir::ShardingAttr::get(
      &context_, meshName_,
      {Dim({}, true), Dim({}, true), Dim({Axis("x")}, true), Dim({}, true, 1),
       Dim({Axis("y")}, true, 0)},
      {}, {Axis("x")});
  EXPECT_EQ(stateToAttr(state, &context_, /*closeOpenDims=*/false), expectedOpen);
  EXPECT_EQ(stateToAttr(state, &context_, /*closeOpenDims=*/true), expectedClosed);
  // One writer for many states gives what stateToAttr gives for each, in any order.
  ShardingAttrWriter writer(&context_);
  EXPECT_EQ(writer.write(state, /*closeOpenDims=*/true), expectedClosed);
  EXPECT_EQ(writer.write(state, /*closeOpenDims=*/false), expectedOpen);
  EXPECT_EQ(writer.write(state, /*closeOpenDims=*/true), expectedClosed);
}

TEST_F(TensorStateTest, OneWriterTellsApartStatesThatDifferInAnyField) {
  // Each state differs from the first in one field; the writer must give each its own
  // sharding, the one stateToAttr makes, however often and in whatever order it is asked.
  std::vector<TensorState> states;
  auto add = [&](auto change) {
    TensorState state = openState(meshName_, mesh_, 2);
    state.dims[0] = State({Axis("x")}, /*closed=*/false);
    change(state);
    states.push_back(std::move(state));
  };
  add([](TensorState&) {});
  add([&](TensorState& s) { s.dims[0].closed = true; });
  add([&](TensorState& s) { s.dims[1].closed = true; });
  add([&](TensorState& s) { s.dims[0].priority = 0; });
  add([&](TensorState& s) { s.dims[0].priority = 1; });
  add([&](TensorState& s) { s.dims[0].axes = {Axis("y")}; });
  add([&](TensorState& s) { s.dims[0].axes = {Axis("x"), Axis("y")}; });
  add([&](TensorState& s) { s.dims[0].axes = {Axis("y"), Axis("x")}; });
  add([&](TensorState& s) { s.dims[0].axes = {Sub("x", 1, 2)}; });
  add([&](TensorState& s) { s.dims[0].axes.clear(); s.dims[1].axes = {Axis("x")}; });
  add([&](TensorState& s) { s.replicated = {Axis("y")}; });
  add([&](TensorState& s) { s.unreduced = {Axis("y")}; });
  add([&](TensorState& s) { s.dims.push_back(State({}, false)); });
  add([&](TensorState& s) { s.dims.pop_back(); });
  ShardingAttrWriter writer(&context_);
  for (int round = 0; round < 2; ++round) {
    for (bool closeOpenDims : {false, true}) {
      for (size_t i = 0; i < states.size(); ++i) {
        const TensorState& state = states[round == 0 ? i : states.size() - 1 - i];
        EXPECT_EQ(writer.write(state, closeOpenDims),
                  stateToAttr(state, &context_, closeOpenDims))
            << "state " << i << ", round " << round << ", closeOpenDims " << closeOpenDims;
      }
    }
  }
}

TEST_F(TensorStateTest, ReadsBackWhatItWrites) {
  TensorState state = openState(meshName_, mesh_, 2);
  state.dims[0] = State({Axis("x")}, /*closed=*/true, /*priority=*/2);
  state.replicated = {Axis("y")};
  ir::ShardingAttr written = ShardingAttrWriter(&context_).write(state, false);
  TensorState read = stateFromAttr(written, mesh_);
  ASSERT_EQ(read.dims.size(), 2u);
  EXPECT_EQ(read.dims[0].axes, AxisList{Axis("x")});
  EXPECT_TRUE(read.dims[0].closed);
  EXPECT_EQ(read.dims[0].priority, 2);
  EXPECT_TRUE(read.dims[1].axes.empty());
  EXPECT_FALSE(read.dims[1].closed);
  EXPECT_FALSE(read.dims[1].hasPriority());
  EXPECT_EQ(read.replicated, AxisList{Axis("y")});
}

}  // namespace
}  // namespace tessel::propagation
