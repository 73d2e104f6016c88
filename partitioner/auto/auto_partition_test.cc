// Auto-sharding through the public Partition(): programs with only a mesh get a plan whose
// estimated step time is within 5% of the best hand plan known for them (Megatron), and
// the partitioned program computes what the single-device program does, on even and
// uneven meshes (3 and 6 devices included).
#include <cmath>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/run.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/verify.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

// The same program with every sharding annotation removed: only the mesh is left.
absl::StatusOr<Program> WithoutShardings(const Program& program) {
  static const std::regex annotation(R"( \{tessel\.sharding = #tessel\.sharding<[^>]*>\})");
  return Program::FromMlirText(std::regex_replace(program.ToMlirText(), annotation, ""));
}

// A two-layer MLP on a data x model mesh, split Megatron's way: batch over "data", the
// hidden layer over "model".
absl::StatusOr<Program> BuildMlp(int64_t batch, int64_t features, int64_t hidden, int64_t data,
                                 int64_t model) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", data}, {"model", model}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rowsOfBatch, Sharding::Create(mesh, {"data", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({batch, features}), rowsOfBatch);
  Value w1 = b.Parameter(F32({features, hidden}), columns);
  Value w2 = b.Parameter(F32({hidden, features}), rows);
  Value h = b.MatMul(x, w1);
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {batch, hidden}, {});
  Value y = b.MatMul(b.Max(h, zeros), w2);
  return b.Build({y}, {rowsOfBatch});
}

struct BlockSizes {
  int64_t batch, tokens, heads, head_size, hidden;
  int64_t layers = 1;
};

// Softmax over the last dimension of a [b, h, s, t] tensor.
Value Softmax(GraphBuilder& b, Value scores) {
  std::vector<int64_t> shape = scores.type().dimensions();
  Value max = b.Reduce(scores, ReduceKind::kMax, {3});
  Value shifted = b.Exp(b.Sub(scores, b.BroadcastInDim(max, shape, {0, 1, 2})));
  Value sum = b.Reduce(shifted, ReduceKind::kSum, {3});
  return b.Div(shifted, b.BroadcastInDim(sum, shape, {0, 1, 2}));
}

// `layers` transformer blocks (attention and MLP, each with a residual), each with its own
// weights, split Megatron's way: the batch over "data", heads and MLP hidden units over
// "model".
absl::StatusOr<Program> BuildBlock(const BlockSizes& s, int64_t data, int64_t model) {
  const int64_t features = s.heads * s.head_size;
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", data}, {"model", model}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding batch,
                          Sharding::Create(mesh, {"data", Replicated(), Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding qkv,
                          Sharding::Create(mesh, {Replicated(), "model", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding out,
                          Sharding::Create(mesh, {"model", Replicated(), Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({s.batch, s.tokens, features}), batch);
  for (int64_t layer = 0; layer < s.layers; ++layer) {
    Value wq = b.Parameter(F32({features, s.heads, s.head_size}), qkv);
    Value wk = b.Parameter(F32({features, s.heads, s.head_size}), qkv);
    Value wv = b.Parameter(F32({features, s.heads, s.head_size}), qkv);
    Value wo = b.Parameter(F32({s.heads, s.head_size, features}), out);
    Value w1 = b.Parameter(F32({features, s.hidden}), columns);
    Value w2 = b.Parameter(F32({s.hidden, features}), rows);
    DotDimensions project{{}, {}, {2}, {0}};
    Value q = b.DotGeneral(x, wq, project);
    Value k = b.DotGeneral(x, wk, project);
    Value v = b.DotGeneral(x, wv, project);
    Value scores = b.DotGeneral(q, k, DotDimensions{{0, 2}, {0, 2}, {3}, {3}});
    Value scale = b.BroadcastInDim(
        b.ScalarConstant(ElementType::kF32, 1.0 / std::sqrt(double(s.head_size))),
        scores.type().dimensions(), {});
    Value weights = Softmax(b, b.Mul(scores, scale));
    Value context = b.DotGeneral(weights, v, DotDimensions{{0, 1}, {0, 2}, {3}, {1}});
    Value attention = b.DotGeneral(context, wo, DotDimensions{{}, {}, {1, 3}, {0, 1}});
    Value h = b.Add(x, attention);
    Value hidden = b.DotGeneral(h, w1, DotDimensions{{}, {}, {2}, {0}});
    Value zeros =
        b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), hidden.type().dimensions(), {});
    Value mlp = b.DotGeneral(b.Max(hidden, zeros), w2, DotDimensions{{}, {}, {2}, {0}});
    x = b.Add(h, mlp);
  }
  return b.Build({x}, {batch});
}

PartitionOptions AutoOptions() {
  PartitionOptions options;
  options.auto_sharding = AutoShardingOptions();
  return options;
}

// The hand plan's and the chosen plan's step time by the cost model, on the same program.
// Prints a row of the table in docs/auto_sharding.md.
void ExpectAtMostHandPlanCost(const std::string& name, const std::string& mesh,
                              const Program& hand, double slack = 1.05) {
  absl::StatusOr<PartitionResult> byHand = Partition(hand);
  ASSERT_THAT(byHand, IsOk());
  absl::StatusOr<Program> open = WithoutShardings(hand);
  ASSERT_THAT(open, IsOk());
  absl::StatusOr<PartitionResult> chosen = Partition(*open, AutoOptions());
  ASSERT_THAT(chosen, IsOk());
  ASSERT_TRUE(chosen->auto_sharding.has_value());
  EXPECT_LE(chosen->cost.step_seconds, slack * byHand->cost.step_seconds)
      << "hand plan " << byHand->cost.step_seconds << " s, chosen "
      << chosen->cost.step_seconds << " s\n"
      << ::testing::PrintToString(chosen->auto_sharding->choices);
  EXPECT_TRUE(chosen->auto_sharding->optimal);
  // The chosen plan by its parameters' shardings, the short form of what it decided.
  std::string plan;
  for (const std::string& choice : chosen->auto_sharding->choices) {
    if (choice.rfind("parameter ", 0) != 0) continue;
    plan += (plan.empty() ? "" : "; ") + choice.substr(choice.find(':') + 2);
  }
  std::cout << "| " << name << " | " << mesh << " | Megatron | " << byHand->cost.step_seconds * 1e3
            << " ms | " << plan << " | " << chosen->cost.step_seconds * 1e3 << " ms | "
            << chosen->auto_sharding->solve_seconds << " s |\n";
}

// Hardware whose arithmetic is so slow next to its links that every split of work pays: on
// the small programs the executor checks quickly, the plan then splits work instead of
// keeping tiny tensors whole.
constexpr char kSlowComputeSpec[] = R"pb(
  name: "slow compute"
  flops_per_second: 1e6
  memory_bandwidth_bytes_per_second: 1e7
  memory_capacity_bytes: 1073741824
  default_link { bandwidth_bytes_per_second: 1e9 latency_seconds: 1e-9 }
)pb";

// Partitions `hand` without its shardings and checks the run against the single-device one.
// The memory limit, 90% of the parameters' bytes, forbids keeping every weight whole (the
// weights take most of it, and more than the rest is live beside them at some op), so the
// plan must split weights and pay collectives (a forward pass split only by batch would
// need none and show little). The partitioned program's peak stays under the limit.
void ExpectSameResultsAsOneDevice(const Program& hand) {
  absl::StatusOr<Program> open = WithoutShardings(hand);
  ASSERT_THAT(open, IsOk());
  PartitionOptions options = AutoOptions();
  options.hardware_spec = kSlowComputeSpec;
  int64_t parameterBytes = 0;
  for (const TensorType& type : open->global_parameter_types()) {
    int64_t elements = 4;  // f32
    for (int64_t d : type.dimensions()) elements *= d;
    parameterBytes += elements;
  }
  const int64_t limit = parameterBytes * 9 / 10;
  options.auto_sharding->memory_limit_bytes = limit;
  absl::StatusOr<PartitionResult> chosen = Partition(*open, options);
  ASSERT_THAT(chosen, IsOk());
  // The plan splits something: otherwise the comparison would show nothing.
  EXPECT_GT(chosen->collectives.total_count(), 0)
      << ::testing::PrintToString(chosen->auto_sharding->choices);
  EXPECT_LE(chosen->cost.peak_bytes, limit);
  EXPECT_LE(chosen->cost.peak_bytes, chosen->auto_sharding->estimated_peak_bytes);
  std::vector<HostTensor> inputs = RandomInputs(*open, 7);
  absl::StatusOr<std::vector<HostTensor>> want = Run(*open, inputs);
  absl::StatusOr<std::vector<HostTensor>> got = Run(chosen->program, inputs);
  ASSERT_THAT(want, IsOk());
  ASSERT_THAT(got, IsOk());
  ASSERT_EQ(got->size(), want->size());
  for (size_t r = 0; r < want->size(); ++r) {
    std::vector<float> w = (*want)[r].ToVector<float>();
    std::vector<float> g = (*got)[r].ToVector<float>();
    ASSERT_EQ(g.size(), w.size());
    for (size_t i = 0; i < w.size(); ++i) {
      ASSERT_NEAR(g[i], w[i], 1e-4 * (1 + std::abs(w[i]))) << "result " << r << " element " << i;
    }
  }
}

TEST(AutoShardingTest, MlpPlanCostsNoMoreThanMegatron) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{4, 2}, {2, 2}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildMlp(1024, 1024, 4096, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectAtMostHandPlanCost("MLP 1024x1024x4096", absl::StrCat(data, "x", model), *hand);
  }
}

TEST(AutoShardingTest, TransformerBlockPlanCostsNoMoreThanMegatron) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{4, 2}, {2, 2}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildBlock({8, 512, 16, 64, 4096}, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectAtMostHandPlanCost("transformer block b8 s512 h16x64 mlp4096",
                             absl::StrCat(data, "x", model), *hand);
  }
}

// Four layers: four times the choices, one ILP (repeated layers are not detected yet).
TEST(AutoShardingTest, FourLayerStackPlanCostsNoMoreThanMegatron) {
  absl::StatusOr<Program> hand = BuildBlock({8, 512, 16, 64, 4096, 4}, 4, 2);
  ASSERT_THAT(hand, IsOk());
  ExpectAtMostHandPlanCost("4 transformer blocks, same sizes", "4x2", *hand);
}

TEST(AutoShardingTest, MlpRunsLikeOneDeviceOnEvenAndUnevenMeshes) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {4, 2}, {1, 3}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildMlp(12, 16, 24, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectSameResultsAsOneDevice(*hand);
  }
}

TEST(AutoShardingTest, TransformerBlockRunsLikeOneDeviceOnEvenAndUnevenMeshes) {
  for (auto [data, model] : {std::pair<int64_t, int64_t>{2, 2}, {4, 2}, {1, 3}, {2, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> hand = BuildBlock({4, 6, 6, 4, 24}, data, model);
    ASSERT_THAT(hand, IsOk());
    ExpectSameResultsAsOneDevice(*hand);
  }
}

}  // namespace
}  // namespace tessel
