// FuzzCoverage counts cases, not events, and tells a strategy candidate that was on offer
// but never chosen from one that was never on offer.
#include "tests/differential/fuzz_coverage.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::testing {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(FuzzCoverageTest, CountsEachEntryOncePerCase) {
  FuzzCoverage coverage;
  coverage.Add("op", "hlo.add");
  coverage.Add("op", "hlo.add");
  coverage.EndCase();
  coverage.Add("op", "hlo.add");
  coverage.EndCase();
  coverage.EndCase();
  EXPECT_EQ(coverage.cases(), 3);
  EXPECT_EQ(coverage.Count("op", "hlo.add"), 2);
  EXPECT_THAT(coverage.Below("op", {"hlo.add", "hlo.sort"}, 2), ElementsAre("hlo.sort (0)"));
}

TEST(FuzzCoverageTest, StrategiesOfferedButRarelyChosenAreBelow) {
  mlir::MLIRContext context;
  mlir::OpBuilder builder(&context);
  mlir::OwningOpRef<mlir::ModuleOp> op = mlir::ModuleOp::create(builder.getUnknownLoc());
  FuzzCoverage coverage;
  coverage.AddStrategy(*op, 1, 3);  // candidates 0, 1, 2 on offer; 1 chosen
  coverage.EndCase();
  coverage.AddStrategy(*op, 0, 2);
  coverage.AddStrategy(*op, 1, 2);  // the same case: each entry counts once
  coverage.EndCase();
  EXPECT_EQ(coverage.Count("strategy offered", "builtin.module candidate 0"), 2);
  EXPECT_EQ(coverage.Count("strategy offered", "builtin.module candidate 2"), 1);
  EXPECT_EQ(coverage.Count("strategy", "builtin.module candidate 1"), 2);
  EXPECT_THAT(coverage.StrategiesBelow(1),
              ElementsAre("builtin.module candidate 2 (0 chosen, 1 offered)"));
  EXPECT_THAT(coverage.StrategiesBelow(2),
              ElementsAre("builtin.module candidate 0 (1 chosen, 2 offered)",
                          "builtin.module candidate 2 (0 chosen, 1 offered)"));
  // A candidate never on offer is not asked for.
  FuzzCoverage none;
  none.EndCase();
  EXPECT_THAT(none.StrategiesBelow(100), IsEmpty());
}

TEST(FuzzCoverageTest, MergeAddsTotals) {
  FuzzCoverage a, b;
  a.Add("collective", "tessel.all_reduce");
  a.EndCase();
  b.Add("collective", "tessel.all_reduce");
  b.EndCase();
  b.EndCase();
  a.Merge(b);
  EXPECT_EQ(a.cases(), 3);
  EXPECT_EQ(a.Count("collective", "tessel.all_reduce"), 2);
}

}  // namespace
}  // namespace tessel::testing
