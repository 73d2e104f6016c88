// staticTripCount on the counted loops it must recognize and the loops it must not.
#include "partitioner/ir/hlo/trip_count.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "absl/strings/str_replace.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/parse_module.h"

namespace tessel::hlo {
namespace {

// A loop carrying a counter %i (from START), a bound %n (from BOUND_INIT) and a value; the
// condition is COND, and the body yields NEXT for the counter and NEXT_BOUND for the bound.
constexpr char kLoop[] = R"(func.func @f(%x: tensor<4xf32>, %s: tensor<i32>) -> tensor<4xf32> {
  %start = START
  %bound = hlo.constant dense<BOUND_INIT> : tensor<i32>
  %r:3 = hlo.while(%i = %start, %n = %bound, %v = %x) : tensor<i32>, tensor<i32>, tensor<4xf32>
  cond {
    %c = hlo.constant dense<5> : tensor<i32>
    %p = COND
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %two = hlo.constant dense<2> : tensor<i32>
    %next = NEXT
    %t = hlo.tanh %v : tensor<4xf32>
    hlo.return %next, NEXT_BOUND, %t : tensor<i32>, tensor<i32>, tensor<4xf32>
  }
  return %r#2 : tensor<4xf32>
}
)";

struct Loop {
  std::string start = "hlo.constant dense<0> : tensor<i32>";
  std::string bound_init = "7";
  std::string cond = "hlo.compare LT, %i, %c : tensor<i32>";
  std::string next = "hlo.add %i, %one : tensor<i32>";
  std::string next_bound = "%n";
};

std::optional<int64_t> TripsOf(const Loop& loop) {
  mlir::MLIRContext context;
  std::string text = absl::StrReplaceAll(kLoop, {{"START", loop.start},
                                                 {"BOUND_INIT", loop.bound_init},
                                                 {"NEXT_BOUND", loop.next_bound},
                                                 {"COND", loop.cond},
                                                 {"NEXT", loop.next}});
  auto module = ParseModule(text, "loop.mlir", context);
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return -1;
  WhileOp found;
  (*module)->walk([&](WhileOp op) { found = op; });
  return staticTripCount(found);
}

TEST(TripCountTest, CounterBelowAConstant) {
  EXPECT_EQ(TripsOf(Loop()), 5);
  Loop inclusive;
  inclusive.cond = "hlo.compare LE, %i, %c : tensor<i32>";
  EXPECT_EQ(TripsOf(inclusive), 6);
  Loop swapped;
  swapped.cond = "hlo.compare GT, %c, %i : tensor<i32>";
  EXPECT_EQ(TripsOf(swapped), 5);
  Loop stride;
  stride.next = "hlo.add %two, %i : tensor<i32>";
  EXPECT_EQ(TripsOf(stride), 3);
  Loop late;
  late.start = "hlo.constant dense<9> : tensor<i32>";
  EXPECT_EQ(TripsOf(late), 0);
}

TEST(TripCountTest, CounterBelowAnInvariantCarry) {
  Loop carried;
  carried.cond = "hlo.compare LT, %i, %n : tensor<i32>";
  EXPECT_EQ(TripsOf(carried), 7);
  // A bound the body changes is no bound.
  carried.next_bound = "%next";
  EXPECT_EQ(TripsOf(carried), std::nullopt);
}

TEST(TripCountTest, UnknownCounts) {
  Loop unknownStart;
  unknownStart.start = "hlo.add %s, %s : tensor<i32>";
  EXPECT_EQ(TripsOf(unknownStart), std::nullopt);
  Loop notEqual;
  notEqual.cond = "hlo.compare NE, %i, %c : tensor<i32>";
  EXPECT_EQ(TripsOf(notEqual), std::nullopt);
  Loop down;
  down.next = "hlo.sub %i, %one : tensor<i32>";
  EXPECT_EQ(TripsOf(down), std::nullopt);
}

}  // namespace
}  // namespace tessel::hlo
