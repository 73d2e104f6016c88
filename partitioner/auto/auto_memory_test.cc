// Auto-sharding under a memory limit, through the public Partition(): the plan's peak by
// the cost report of the partitioned program stays under the limit (the solver's liveness
// model bounds it), where a bound of parameters plus the largest value would have let a
// plan through that peaks far above; weights larger than the limit still get a plan that
// fits and runs like the single-device program, on even and uneven meshes.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/partition.h"
#include "partitioner/api/program.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/verify.h"
#include "support/status_macros.h"
#include "support/status_matchers.h"

namespace tessel {
namespace {

using ::tessel::testing::IsOk;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

constexpr int64_t kF32Bytes = 4;

// Links so slow next to arithmetic that any collective costs more than computing whole:
// without a memory limit the cheapest plan keeps every value whole on every device.
constexpr char kSlowLinkSpec[] = R"pb(
  name: "slow links"
  flops_per_second: 1e12
  memory_bandwidth_bytes_per_second: 1e12
  memory_capacity_bytes: 1073741824
  default_link { bandwidth_bytes_per_second: 1e3 latency_seconds: 1e-3 }
)pb";

constexpr int64_t kSize = 64;    // x and every w_i are kSize x kSize
constexpr int64_t kBranches = 6;  // the activations live at once

// y = x w_1 + x w_2 + ... + x w_6 with every product made before the first addition, so all
// six are live together. x and y are pinned whole; the weights are left open, or pinned
// whole too (`pinWeights`) for the plan that keeps everything whole.
absl::StatusOr<Program> BuildBranches(int64_t devices, bool pinWeights) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", devices}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding whole, Sharding::Create(mesh, {Replicated(), Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({kSize, kSize}), whole);
  std::vector<Value> products;
  for (int64_t i = 0; i < kBranches; ++i) {
    Value w = pinWeights ? b.Parameter(F32({kSize, kSize}), whole)
                         : b.Parameter(F32({kSize, kSize}));
    products.push_back(b.MatMul(x, w));
  }
  Value sum = products[0];
  for (int64_t i = 1; i < kBranches; ++i) sum = b.Add(sum, products[i]);
  return b.Build({sum}, {whole});
}

// Runs the partitioned program against the single-device one: `tessel run --check`.
void ExpectSameResults(const Program& program, const PartitionResult& partitioned) {
  absl::StatusOr<VerifyReport> report = Verify(program, partitioned, /*seed=*/11);
  ASSERT_THAT(report, IsOk());
  EXPECT_TRUE(report->ok()) << report->ToString();
}

TEST(AutoShardingMemoryTest, ManyLiveActivationsStayUnderTheLimit) {
  const int64_t tensor = kSize * kSize * kF32Bytes;             // 16 KiB
  const int64_t parameters = (1 + kBranches) * tensor;          // x and the weights: 112 KiB
  const int64_t limit = 160 << 10;
  // Parameters plus the largest value fit: a bound of that kind accepts keeping everything
  // whole, the cheapest plan on these links.
  ASSERT_LE(parameters + tensor, limit);
  for (int64_t devices : {4, 3}) {
    SCOPED_TRACE(::testing::Message() << devices << " devices");
    // Everything whole really peaks higher: the six products live together.
    absl::StatusOr<Program> whole = BuildBranches(devices, /*pinWeights=*/true);
    ASSERT_THAT(whole, IsOk());
    PartitionOptions plain;
    plain.hardware_spec = kSlowLinkSpec;
    absl::StatusOr<PartitionResult> wholePlan = Partition(*whole, plain);
    ASSERT_THAT(wholePlan, IsOk());
    EXPECT_GT(wholePlan->cost.peak_bytes, limit);

    absl::StatusOr<Program> open = BuildBranches(devices, /*pinWeights=*/false);
    ASSERT_THAT(open, IsOk());
    PartitionOptions options = plain;
    options.auto_sharding = AutoShardingOptions{limit, 10};
    absl::StatusOr<PartitionResult> chosen = Partition(*open, options);
    ASSERT_THAT(chosen, IsOk());
    EXPECT_LE(chosen->cost.peak_bytes, limit)
        << ::testing::PrintToString(chosen->auto_sharding->choices);
    // The solver's estimate is an upper bound of what the report counts.
    EXPECT_LE(chosen->cost.peak_bytes, chosen->auto_sharding->estimated_peak_bytes);
    EXPECT_LE(chosen->auto_sharding->estimated_peak_bytes, limit);
    ExpectSameResults(*open, *chosen);
  }
}

// A two-layer MLP whose weights alone (128 KiB) exceed the limit: no device can hold them
// whole, so pure data parallelism does not fit either. Only the mesh is given.
absl::StatusOr<Program> BuildBigMlp(int64_t data, int64_t model) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", data}, {"model", model}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding whole, Sharding::Create(mesh, {Replicated(), Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({16, 64}));
  Value w1 = b.Parameter(F32({64, 256}));
  Value w2 = b.Parameter(F32({256, 64}));
  Value h = b.MatMul(x, w1);
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {16, 256}, {});
  Value y = b.MatMul(b.Max(h, zeros), w2);
  // The result pinned whole declares the mesh; every other value is left open.
  return b.Build({y}, {whole});
}

TEST(AutoShardingMemoryTest, WeightsLargerThanTheLimitGetAPlanThatFits) {
  const int64_t weights = 2 * 64 * 256 * kF32Bytes;
  const int64_t limit = 100 << 10;
  ASSERT_GT(weights, limit);
  for (auto [data, model] : {std::pair<int64_t, int64_t>{4, 2}, {2, 2}, {2, 3}, {1, 3}}) {
    SCOPED_TRACE(::testing::Message() << data << "x" << model);
    absl::StatusOr<Program> open = BuildBigMlp(data, model);
    ASSERT_THAT(open, IsOk());
    PartitionOptions options;
    options.auto_sharding = AutoShardingOptions{limit, 10};
    absl::StatusOr<PartitionResult> chosen = Partition(*open, options);
    ASSERT_THAT(chosen, IsOk());
    EXPECT_LE(chosen->cost.peak_bytes, limit)
        << ::testing::PrintToString(chosen->auto_sharding->choices);
    EXPECT_LE(chosen->cost.peak_bytes, chosen->auto_sharding->estimated_peak_bytes);
    ExpectSameResults(*open, *chosen);
  }
}

TEST(AutoShardingMemoryTest, ALimitNoPlanMeetsNamesTheTightestPlace) {
  absl::StatusOr<Program> open = BuildBigMlp(2, 2);
  ASSERT_THAT(open, IsOk());
  PartitionOptions options;
  // A quarter of the weights is 32 KiB per device, more than the whole limit.
  options.auto_sharding = AutoShardingOptions{16 << 10, 10};
  absl::StatusOr<PartitionResult> chosen = Partition(*open, options);
  EXPECT_EQ(chosen.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(chosen.status().message()),
              ::testing::HasSubstr("no plan fits the memory limit of 16384 bytes per device; "
                                   "the tightest point is hlo."));
  EXPECT_THAT(std::string(chosen.status().message()),
              ::testing::HasSubstr("auto_memory_test.cc:"));
}

}  // namespace
}  // namespace tessel
