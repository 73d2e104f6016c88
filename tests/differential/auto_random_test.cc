// Auto-sharding under the differential fuzzer: each seed's random program (random_program.h:
// random meshes of 1 to 16 devices, uneven sizes included, and every op the generator makes)
// has the shardings of its arguments, results and ops removed, auto-sharding chooses them
// on the built-in hardware spec and on one where splitting pays almost everywhere, and the
// partitioned program must equal the single-device run. Constraints, sharding groups and manual computations stay: auto-sharding takes
// them as they are, or refuses them (a sub-axis, an unreduced axis), and a refused seed is
// counted apart. Reproduce a seed with `--gtest_filter=*seed_123`.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>

#include "absl/strings/str_cat.h"
#include "cost_model/hardware_spec.h"
#include "gtest/gtest.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/auto/auto_sharding.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "tests/differential/partition_harness.h"
#include "tests/differential/random_program.h"

namespace tessel {
namespace {

constexpr char kSharding[] = "tessel.sharding";

// Arithmetic so slow and links so fast that splitting pays almost everywhere: the plans
// then split and communicate, where on the built-in spec these small programs mostly
// stay whole.
constexpr char kFastLinks[] = R"pb(
  name: "fast links"
  flops_per_second: 1e6
  memory_bandwidth_bytes_per_second: 1e7
  memory_capacity_bytes: 1073741824
  default_link { bandwidth_bytes_per_second: 1e12 latency_seconds: 1e-9 }
)pb";

struct Tally {
  int ran = 0;
  int refused = 0;
  int compared = 0;         // the partitioned program ran and was compared
  int withCollectives = 0;  // the chosen plan partitioned with collectives
};

Tally& Counts() {
  static Tally* tally = new Tally();
  return *tally;
}

// The seed's program with its argument, result and op shardings removed, its shardings
// chosen by auto-sharding, as text; or auto-sharding's error (Unimplemented when it refuses
// a user sharding).
absl::StatusOr<std::string> AutoShardedText(const testing::RandomProgram& program,
                                            const cost_model::HardwareSpec& spec) {
  mlir::MLIRContext context;
  absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> module =
      ParseModule(program.module, "case.mlir", context);
  if (!module.ok()) return module.status();
  const mlir::StringAttr name = mlir::StringAttr::get(&context, kSharding);
  (*module)->walk([&](mlir::func::FuncOp func) {
    for (unsigned i = 0; i < func.getNumArguments(); ++i) func.removeArgAttr(i, name);
    for (unsigned i = 0; i < func.getNumResults(); ++i) func.removeResultAttr(i, name);
  });
  (*module)->walk([](mlir::Operation* op) {
    // Constraints, groups and manual computations keep theirs: they are the ops' meaning.
    if (llvm::isa<ir::ShardingConstraintOp, ir::ManualComputationOp>(op)) return;
    if (op->getParentOfType<ir::ManualComputationOp>()) return;
    op->removeAttr(kSharding);
  });
  absl::StatusOr<auto_sharding::AutoShardingResult> chosen =
      auto_sharding::autoShard(**module, spec, auto_sharding::AutoShardingOptions());
  if (!chosen.ok()) return chosen.status();
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os);
  return os.str();
}

class AutoRandomTest : public ::testing::Test {
 public:
  AutoRandomTest(uint64_t seed, bool fastLinks) : seed_(seed), fastLinks_(fastLinks) {}
  void TestBody() override {
    const testing::RandomProgram program = testing::GenerateRandomProgram(seed_);
    absl::StatusOr<cost_model::HardwareSpec> spec =
        fastLinks_ ? cost_model::ParseHardwareSpec(kFastLinks, "fast_links.textproto")
                   : cost_model::DefaultHardwareSpec();
    ASSERT_TRUE(spec.ok()) << spec.status();
    const absl::StatusOr<std::string> text = AutoShardedText(program, *spec);
    if (!text.ok() && text.status().code() != absl::StatusCode::kUnimplemented) {
      ADD_FAILURE() << "auto-sharding failed: " << text.status().message() << "\n"
                    << program.module;
      return;
    }
    if (!text.ok()) {
      // A user sharding auto-sharding cannot take yet: refused with a message, as users
      // see it; counted below so that refusals cannot hide every case.
      const std::string why(text.status().message());
      EXPECT_NE(why.find("auto-sharding cannot take"), std::string::npos) << why;
      ++Counts().refused;
      return;
    }
    ++Counts().ran;
    testing::HarnessOptions options;
    options.max_while_iterations = 1000;
    const testing::PartitionedRun run =
        testing::CheckPartitionedRun(*text, program.inputs, options);
    EXPECT_TRUE(run.status.ok()) << run.status.message();
    if (run.compared) ++Counts().compared;
    if (run.partitioned.find("tessel.all_") != std::string::npos ||
        run.partitioned.find("tessel.collective_permute") != std::string::npos ||
        run.partitioned.find("tessel.reduce_scatter") != std::string::npos) {
      ++Counts().withCollectives;
    }
  }

 private:
  uint64_t seed_;
  bool fastLinks_;
};

}  // namespace
}  // namespace tessel

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  constexpr uint64_t kCases = 500;
  for (bool fastLinks : {false, true}) {
    for (uint64_t seed = 1; seed <= kCases; ++seed) {
      ::testing::RegisterTest(fastLinks ? "AutoRandomFastLinksTest" : "AutoRandomTest",
                              absl::StrCat("seed_", seed).c_str(), nullptr, nullptr, __FILE__,
                              __LINE__, [seed, fastLinks]() -> ::testing::Test* {
                                return new tessel::AutoRandomTest(seed, fastLinks);
                              });
    }
  }
  int status = RUN_ALL_TESTS();
  const tessel::Tally& tally = tessel::Counts();
  std::cout << "auto-sharded: " << tally.ran << " (compared with one device: " << tally.compared
            << ", with collectives: " << tally.withCollectives << "), refused: " << tally.refused
            << "\n";
  // Most generated programs must be taken: a refusal that spread would leave the test
  // checking nothing.
  if (tally.ran + tally.refused > 0 &&
      (tally.ran * 2 < tally.ran + tally.refused || tally.compared * 2 < tally.ran)) {
    std::cout << "FAILED: fewer than half of the programs were auto-sharded and compared\n";
    status = 1;
  }
  return status;
}
