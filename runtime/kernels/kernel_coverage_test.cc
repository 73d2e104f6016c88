// Checks that every op of executor part A (creation, elementwise, shape ops) has a kernel
// in the default registry, without going through lit or a program.
#include <string>

#include "gtest/gtest.h"
#include "runtime/kernel_registry.h"

namespace tessel::runtime {
namespace {

constexpr const char* kPartAOps[] = {
    // creation
    "hlo.constant", "hlo.iota",
    // unary
    "hlo.abs", "hlo.neg", "hlo.exp", "hlo.log", "hlo.log1p", "hlo.expm1", "hlo.tanh",
    "hlo.logistic", "hlo.sqrt", "hlo.rsqrt", "hlo.sin", "hlo.cos", "hlo.floor", "hlo.ceil",
    "hlo.round", "hlo.sign", "hlo.not", "hlo.is_finite", "hlo.convert",
    // binary
    "hlo.add", "hlo.sub", "hlo.mul", "hlo.div", "hlo.rem", "hlo.max", "hlo.min", "hlo.pow",
    "hlo.atan2", "hlo.and", "hlo.or", "hlo.xor", "hlo.shift_left",
    "hlo.shift_right_arithmetic", "hlo.shift_right_logical",
    // compare, select, clamp
    "hlo.compare", "hlo.select", "hlo.clamp",
    // shape
    "hlo.broadcast_in_dim", "hlo.reshape", "hlo.transpose", "hlo.slice", "hlo.dynamic_slice",
    "hlo.dynamic_update_slice", "hlo.pad", "hlo.concatenate", "hlo.reverse",
};

TEST(KernelCoverageTest, EveryPartAOpHasAKernel) {
  const KernelRegistry& registry = DefaultKernelRegistry();
  for (const char* op : kPartAOps) {
    EXPECT_NE(registry.Find(op), nullptr) << op << " has no kernel";
  }
}

}  // namespace
}  // namespace tessel::runtime
