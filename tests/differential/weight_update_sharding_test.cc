// Weight-update sharding, end to end: a data-parallel training step (SGD with momentum), an
// Adam step, plain SGD, clipping by global norm with a LAMB-style trust ratio, a convolution
// kernel, gradient accumulation and a training loop, propagated, rewritten by --tessel-weight-update-sharding, partitioned and run
// on every standard mesh (the batch split over all its axes; 16 rows are uneven over 3 and
// 6 devices). The optimizer state comes in split as the rewritten argument shardings say.
// Each gradient is reduce-scattered, never all-reduced whole: over all the summed axes where
// a dimension divides by them, else over the part of them that divides one (and the pieces
// are all-reduced over the rest); a weight whose dims divide by nothing is split unevenly,
// padded, and gathered back.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "runtime/random_inputs.h"
#include "tests/differential/partition_harness.h"

namespace tessel {
namespace {

using runtime::ElementType;
using runtime::RandomTensor;

// The batch split over every axis of the mesh.
std::string BatchSharding(const testing::TestMesh& mesh) {
  return testing::ShardingArgAttrText({mesh.axes, {}});
}

// Microbatches [4, rows, features]: the rows split over every axis of the mesh.
std::string MicrobatchSharding(const testing::TestMesh& mesh) {
  return testing::ShardingArgAttrText({{}, mesh.axes, {}});
}

std::string Instantiate(const std::string& text, const testing::TestMesh& mesh) {
  return absl::StrReplaceAll(text, {{"MESH", mesh.text},
                                    {"BATCH", BatchSharding(mesh)},
                                    {"MICRO", MicrobatchSharding(mesh)},
                                    {"NHWC", testing::ShardingArgAttrText({mesh.axes, {}, {}, {}})}});
}

// Two layers, x [16, 24] -> [16, 8] -> [16, 24], mean squared error, the backward pass by
// hand and SGD with momentum. w1 [24, 8] is split along dim 0 (24 divides by every standard
// mesh), w2 [8, 24] along dim 0 where 8 divides and along dim 1 on 3 and 6 devices.
constexpr char kTrainingStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x24xf32> BATCH, %t: tensor<16x24xf32> BATCH,
                %w1: tensor<24x8xf32>, %w2: tensor<8x24xf32>,
                %m1: tensor<24x8xf32>, %m2: tensor<8x24xf32>)
    -> (tensor<f32>, tensor<24x8xf32>, tensor<8x24xf32>, tensor<24x8xf32>, tensor<8x24xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %h = hlo.dot_general %x, %w1, lhs_contract = [1], rhs_contract = [0] : (tensor<16x24xf32>, tensor<24x8xf32>) -> tensor<16x8xf32>
  %zh = hlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<16x8xf32>
  %act = hlo.compare GT, %h, %zh : tensor<16x8xf32>
  %a = hlo.select %act, %h, %zh : tensor<16x8xi1>, tensor<16x8xf32>
  %o = hlo.dot_general %a, %w2, lhs_contract = [1], rhs_contract = [0] : (tensor<16x8xf32>, tensor<8x24xf32>) -> tensor<16x24xf32>
  %err = hlo.sub %o, %t : tensor<16x24xf32>
  %sq = hlo.mul %err, %err : tensor<16x24xf32>
  %sum = hlo.reduce(%sq) init(%zero) dimensions = [0, 1] : (tensor<16x24xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %s = hlo.add %p, %q : tensor<f32>
    hlo.return %s : tensor<f32>
  }
  %scale = hlo.constant dense<0.0026041667> : tensor<f32>
  %loss = hlo.mul %sum, %scale : tensor<f32>
  %two = hlo.constant dense<0.0052083333> : tensor<f32>
  %twos = hlo.broadcast_in_dim %two, dims = [] : (tensor<f32>) -> tensor<16x24xf32>
  %dout = hlo.mul %err, %twos : tensor<16x24xf32>
  %g2 = hlo.dot_general %a, %dout, lhs_contract = [0], rhs_contract = [0] : (tensor<16x8xf32>, tensor<16x24xf32>) -> tensor<8x24xf32>
  %da = hlo.dot_general %dout, %w2, lhs_contract = [1], rhs_contract = [1] : (tensor<16x24xf32>, tensor<8x24xf32>) -> tensor<16x8xf32>
  %dh = hlo.select %act, %da, %zh : tensor<16x8xi1>, tensor<16x8xf32>
  %g1 = hlo.dot_general %x, %dh, lhs_contract = [0], rhs_contract = [0] : (tensor<16x24xf32>, tensor<16x8xf32>) -> tensor<24x8xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %lr = hlo.constant dense<0.1> : tensor<f32>
  %mu1 = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<24x8xf32>
  %lr1 = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<24x8xf32>
  %mm1 = hlo.mul %m1, %mu1 : tensor<24x8xf32>
  %nm1 = hlo.add %mm1, %g1 : tensor<24x8xf32>
  %st1 = hlo.mul %nm1, %lr1 : tensor<24x8xf32>
  %nw1 = hlo.sub %w1, %st1 : tensor<24x8xf32>
  %mu2 = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<8x24xf32>
  %lr2 = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<8x24xf32>
  %mm2 = hlo.mul %m2, %mu2 : tensor<8x24xf32>
  %nm2 = hlo.add %mm2, %g2 : tensor<8x24xf32>
  %st2 = hlo.mul %nm2, %lr2 : tensor<8x24xf32>
  %nw2 = hlo.sub %w2, %st2 : tensor<8x24xf32>
  return %loss, %nw1, %nw2, %nm1, %nm2 : tensor<f32>, tensor<24x8xf32>, tensor<8x24xf32>, tensor<24x8xf32>, tensor<8x24xf32>
})";

// One layer and Adam: m and v (v read through abs, so that random inputs keep sqrt real),
// the gradient read twice, sqrt, div, and bias corrections computed from the step count.
constexpr char kAdamStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x24xf32> BATCH, %dy: tensor<16x6xf32> BATCH, %t: tensor<f32>,
                %w: tensor<24x6xf32>, %m: tensor<24x6xf32>, %v: tensor<24x6xf32>)
    -> (tensor<16x6xf32>, tensor<24x6xf32>, tensor<24x6xf32>, tensor<24x6xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x24xf32>, tensor<24x6xf32>) -> tensor<16x6xf32>
  %e = hlo.mul %y, %dy : tensor<16x6xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<16x24xf32>, tensor<16x6xf32>) -> tensor<24x6xf32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %b1 = hlo.constant dense<0.9> : tensor<f32>
  %b2 = hlo.constant dense<0.999> : tensor<f32>
  %lr = hlo.constant dense<0.001> : tensor<f32>
  %eps = hlo.constant dense<1.0e-8> : tensor<f32>
  %c1 = hlo.sub %one, %b1 : tensor<f32>
  %c2 = hlo.sub %one, %b2 : tensor<f32>
  %p1 = hlo.pow %b1, %t : tensor<f32>
  %p2 = hlo.pow %b2, %t : tensor<f32>
  %bc1 = hlo.sub %one, %p1 : tensor<f32>
  %bc2 = hlo.sub %one, %p2 : tensor<f32>
  %b1s = hlo.broadcast_in_dim %b1, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %b2s = hlo.broadcast_in_dim %b2, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %c1s = hlo.broadcast_in_dim %c1, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %c2s = hlo.broadcast_in_dim %c2, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %bc1s = hlo.broadcast_in_dim %bc1, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %bc2s = hlo.broadcast_in_dim %bc2, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %epss = hlo.broadcast_in_dim %eps, dims = [] : (tensor<f32>) -> tensor<24x6xf32>
  %m1 = hlo.mul %m, %b1s : tensor<24x6xf32>
  %m2 = hlo.mul %g, %c1s : tensor<24x6xf32>
  %nm = hlo.add %m1, %m2 : tensor<24x6xf32>
  %gg = hlo.mul %g, %g : tensor<24x6xf32>
  %va = hlo.abs %v : tensor<24x6xf32>
  %v1 = hlo.mul %va, %b2s : tensor<24x6xf32>
  %v2 = hlo.mul %gg, %c2s : tensor<24x6xf32>
  %nv = hlo.add %v1, %v2 : tensor<24x6xf32>
  %mhat = hlo.div %nm, %bc1s : tensor<24x6xf32>
  %vhat = hlo.div %nv, %bc2s : tensor<24x6xf32>
  %root = hlo.sqrt %vhat : tensor<24x6xf32>
  %den = hlo.add %root, %epss : tensor<24x6xf32>
  %dir = hlo.div %mhat, %den : tensor<24x6xf32>
  %step = hlo.mul %dir, %lrs : tensor<24x6xf32>
  %nw = hlo.sub %w, %step : tensor<24x6xf32>
  return %y, %nw, %nm, %nv : tensor<16x6xf32>, tensor<24x6xf32>, tensor<24x6xf32>, tensor<24x6xf32>
})";

// A 5x7 weight: no dimension divides by any mesh, so dim 0 is split unevenly; the state's
// padding rows come in as poison and must not reach the results.
constexpr char kUnevenStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x5xf32> BATCH, %dy: tensor<16x7xf32> BATCH,
                %w: tensor<5x7xf32>, %m: tensor<5x7xf32>)
    -> (tensor<5x7xf32>, tensor<5x7xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x5xf32>, tensor<5x7xf32>) -> tensor<16x7xf32>
  %e = hlo.mul %y, %dy : tensor<16x7xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<16x5xf32>, tensor<16x7xf32>) -> tensor<5x7xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<5x7xf32>
  %mm = hlo.mul %m, %mus : tensor<5x7xf32>
  %nm = hlo.add %mm, %g : tensor<5x7xf32>
  %nw = hlo.sub %w, %nm : tensor<5x7xf32>
  return %nw, %nm : tensor<5x7xf32>, tensor<5x7xf32>
})";

// The gradient as JAX emits it: the dot yields [out, in] = dy^T x and a transpose brings it
// to the weight's [in, out]. The pass folds the pair into one dot (operands swapped).
constexpr char kTransposedGradientStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x12xf32> BATCH, %dy: tensor<16x10xf32> BATCH,
                %w: tensor<12x10xf32>, %m: tensor<12x10xf32>)
    -> (tensor<16x10xf32>, tensor<12x10xf32>, tensor<12x10xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x12xf32>, tensor<12x10xf32>) -> tensor<16x10xf32>
  %gt = hlo.dot_general %dy, %x, lhs_contract = [0], rhs_contract = [0] : (tensor<16x10xf32>, tensor<16x12xf32>) -> tensor<10x12xf32>
  %g = hlo.transpose %gt, permutation = [1, 0] : (tensor<10x12xf32>) -> tensor<12x10xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
  %mm = hlo.mul %m, %mus : tensor<12x10xf32>
  %nm = hlo.add %mm, %g : tensor<12x10xf32>
  %nw = hlo.sub %w, %nm : tensor<12x10xf32>
  return %y, %nw, %nm : tensor<16x10xf32>, tensor<12x10xf32>, tensor<12x10xf32>
})";

// A bias gradient as JAX emits it: a sum over the split batch, a reshape to [1, 10] and a sum
// over that size-1 dimension. The bias has 10 entries (uneven over 3, 4, 6 and 8 devices).
constexpr char kBiasGradientStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x12xf32> BATCH, %dy: tensor<16x10xf32> BATCH,
                %w: tensor<12x10xf32>, %b: tensor<10xf32>, %mb: tensor<10xf32>)
    -> (tensor<16x10xf32>, tensor<10xf32>, tensor<10xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x12xf32>, tensor<12x10xf32>) -> tensor<16x10xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<10xf32>) -> tensor<16x10xf32>
  %out = hlo.add %y, %bb : tensor<16x10xf32>
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %s = hlo.reduce(%dy) init(%zero) dimensions = [0] : (tensor<16x10xf32>, tensor<f32>) -> tensor<10xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %r = hlo.reshape %s : (tensor<10xf32>) -> tensor<1x10xf32>
  %gb = hlo.reduce(%r) init(%zero) dimensions = [0] : (tensor<1x10xf32>, tensor<f32>) -> tensor<10xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<10xf32>
  %mm = hlo.mul %mb, %mus : tensor<10xf32>
  %nm = hlo.add %mm, %gb : tensor<10xf32>
  %nb = hlo.sub %b, %nm : tensor<10xf32>
  return %out, %nb, %nm : tensor<16x10xf32>, tensor<10xf32>, tensor<10xf32>
})";

// Plain SGD: no optimizer state, the new weight alone is computed on the shard.
constexpr char kPlainSgdStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x12xf32> BATCH, %dy: tensor<16x10xf32> BATCH,
                %w: tensor<12x10xf32>)
    -> (tensor<16x10xf32>, tensor<12x10xf32>) {
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x12xf32>, tensor<12x10xf32>) -> tensor<16x10xf32>
  %e = hlo.mul %y, %dy : tensor<16x10xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<16x12xf32>, tensor<16x10xf32>) -> tensor<12x10xf32>
  %lr = hlo.constant dense<0.1> : tensor<f32>
  %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
  %st = hlo.mul %g, %lrs : tensor<12x10xf32>
  %nw = hlo.sub %w, %st : tensor<12x10xf32>
  return %y, %nw : tensor<16x10xf32>, tensor<12x10xf32>
})";

// Two weights, clipping by their global norm (a sum of squares over both gradients), then a
// LAMB-style trust ratio per weight (the weight's norm over the update's norm): reductions
// of the update that are computed from its shards plus scalar all_reduces.
constexpr char kClippedTrustRatioStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x12xf32> BATCH, %dy: tensor<16x10xf32> BATCH,
                %w: tensor<12x10xf32>, %m: tensor<12x10xf32>, %b: tensor<10xf32>, %mb: tensor<10xf32>)
    -> (tensor<16x10xf32>, tensor<12x10xf32>, tensor<12x10xf32>, tensor<10xf32>, tensor<10xf32>) {
  %zero = hlo.constant dense<0.0> : tensor<f32>
  %one = hlo.constant dense<1.0> : tensor<f32>
  %y = hlo.dot_general %x, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x12xf32>, tensor<12x10xf32>) -> tensor<16x10xf32>
  %bb = hlo.broadcast_in_dim %b, dims = [1] : (tensor<10xf32>) -> tensor<16x10xf32>
  %out = hlo.add %y, %bb : tensor<16x10xf32>
  %e = hlo.mul %out, %dy : tensor<16x10xf32>
  %g = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<16x12xf32>, tensor<16x10xf32>) -> tensor<12x10xf32>
  %gb = hlo.reduce(%e) init(%zero) dimensions = [0] : (tensor<16x10xf32>, tensor<f32>) -> tensor<10xf32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %gsq = hlo.mul %g, %g : tensor<12x10xf32>
  %gsum = hlo.reduce(%gsq) init(%zero) dimensions = [0, 1] : (tensor<12x10xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %bsq = hlo.mul %gb, %gb : tensor<10xf32>
  %bsum = hlo.reduce(%bsq) init(%zero) dimensions = [0] : (tensor<10xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %total = hlo.add %gsum, %bsum : tensor<f32>
  %norm = hlo.sqrt %total : tensor<f32>
  %big = hlo.max %norm, %one : tensor<f32>
  %clip = hlo.div %one, %big : tensor<f32>
  %clipw = hlo.broadcast_in_dim %clip, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
  %clipb = hlo.broadcast_in_dim %clip, dims = [] : (tensor<f32>) -> tensor<10xf32>
  %cg = hlo.mul %g, %clipw : tensor<12x10xf32>
  %cgb = hlo.mul %gb, %clipb : tensor<10xf32>
  %nm = hlo.add %m, %cg : tensor<12x10xf32>
  %nmb = hlo.add %mb, %cgb : tensor<10xf32>
  %usq = hlo.mul %nm, %nm : tensor<12x10xf32>
  %usum = hlo.reduce(%usq) init(%one) dimensions = [0, 1] : (tensor<12x10xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %wsq = hlo.mul %w, %w : tensor<12x10xf32>
  %wsum = hlo.reduce(%wsq) init(%one) dimensions = [0, 1] : (tensor<12x10xf32>, tensor<f32>) -> tensor<f32> reducer {
  ^bb0(%p: tensor<f32>, %q: tensor<f32>):
    %a = hlo.add %p, %q : tensor<f32>
    hlo.return %a : tensor<f32>
  }
  %ratio = hlo.div %wsum, %usum : tensor<f32>
  %trust = hlo.sqrt %ratio : tensor<f32>
  %trusts = hlo.broadcast_in_dim %trust, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
  %st = hlo.mul %nm, %trusts : tensor<12x10xf32>
  %nw = hlo.sub %w, %st : tensor<12x10xf32>
  %nb = hlo.sub %b, %nmb : tensor<10xf32>
  return %out, %nw, %nm, %nb, %nmb : tensor<16x10xf32>, tensor<12x10xf32>, tensor<12x10xf32>, tensor<10xf32>, tensor<10xf32>
})";

// Gradient accumulation over 4 microbatches: each trip takes the next rows of x and dy
// (dynamic_slice of loop-invariant carries; the rows of a microbatch are spread over the
// batch split), adds the transposed dot (JAX's form) to an accumulator, and after the loop
// momentum SGD updates the weight with the mean gradient.
constexpr char kAccumulationStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<4x12x10xf32> MICRO, %dy: tensor<4x12x6xf32> MICRO,
                %w: tensor<10x6xf32>, %m: tensor<10x6xf32>)
    -> (tensor<10x6xf32>, tensor<10x6xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %acc0 = hlo.constant dense<0.0> : tensor<10x6xf32>
  %r:4 = hlo.while(%i = %zero, %xs = %x, %ds = %dy, %acc = %acc0) : tensor<i32>, tensor<4x12x10xf32>, tensor<4x12x6xf32>, tensor<10x6xf32>
  cond {
    %n = hlo.constant dense<4> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %z = hlo.constant dense<0> : tensor<i32>
    %xb = hlo.dynamic_slice %xs, %i, %z, %z, sizes = [1, 12, 10] : (tensor<4x12x10xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x12x10xf32>
    %db = hlo.dynamic_slice %ds, %i, %z, %z, sizes = [1, 12, 6] : (tensor<4x12x6xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x12x6xf32>
    %xm = hlo.reshape %xb : (tensor<1x12x10xf32>) -> tensor<12x10xf32>
    %dm = hlo.reshape %db : (tensor<1x12x6xf32>) -> tensor<12x6xf32>
    %y = hlo.dot_general %xm, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<12x10xf32>, tensor<10x6xf32>) -> tensor<12x6xf32>
    %e = hlo.mul %y, %dm : tensor<12x6xf32>
    %gt = hlo.dot_general %e, %xm, lhs_contract = [0], rhs_contract = [0] : (tensor<12x6xf32>, tensor<12x10xf32>) -> tensor<6x10xf32>
    %g = hlo.transpose %gt, permutation = [1, 0] : (tensor<6x10xf32>) -> tensor<10x6xf32>
    %a = hlo.add %acc, %g : tensor<10x6xf32>
    hlo.return %i1, %xs, %ds, %a : tensor<i32>, tensor<4x12x10xf32>, tensor<4x12x6xf32>, tensor<10x6xf32>
  }
  %quarter = hlo.constant dense<0.25> : tensor<f32>
  %qs = hlo.broadcast_in_dim %quarter, dims = [] : (tensor<f32>) -> tensor<10x6xf32>
  %mean = hlo.mul %r#3, %qs : tensor<10x6xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<10x6xf32>
  %mm = hlo.mul %m, %mus : tensor<10x6xf32>
  %nm = hlo.add %mm, %mean : tensor<10x6xf32>
  %nw = hlo.sub %w, %nm : tensor<10x6xf32>
  return %nw, %nm : tensor<10x6xf32>, tensor<10x6xf32>
})";

// A training loop: three trips of a whole momentum-SGD step on one batch, the weight and
// momentum carried.
constexpr char kTrainingLoop[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x12xf32> BATCH, %dy: tensor<16x10xf32> BATCH,
                %w0: tensor<12x10xf32>, %m0: tensor<12x10xf32>)
    -> (tensor<12x10xf32>, tensor<12x10xf32>) {
  %zero = hlo.constant dense<0> : tensor<i32>
  %r:5 = hlo.while(%i = %zero, %xs = %x, %ds = %dy, %w = %w0, %m = %m0) : tensor<i32>, tensor<16x12xf32>, tensor<16x10xf32>, tensor<12x10xf32>, tensor<12x10xf32>
  cond {
    %n = hlo.constant dense<3> : tensor<i32>
    %p = hlo.compare LT, %i, %n : tensor<i32>
    hlo.return %p : tensor<i1>
  } do {
    %one = hlo.constant dense<1> : tensor<i32>
    %i1 = hlo.add %i, %one : tensor<i32>
    %y = hlo.dot_general %xs, %w, lhs_contract = [1], rhs_contract = [0] : (tensor<16x12xf32>, tensor<12x10xf32>) -> tensor<16x10xf32>
    %t = hlo.tanh %y : tensor<16x10xf32>
    %e = hlo.mul %t, %ds : tensor<16x10xf32>
    %g = hlo.dot_general %xs, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<16x12xf32>, tensor<16x10xf32>) -> tensor<12x10xf32>
    %mu = hlo.constant dense<0.9> : tensor<f32>
    %lr = hlo.constant dense<0.1> : tensor<f32>
    %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
    %lrs = hlo.broadcast_in_dim %lr, dims = [] : (tensor<f32>) -> tensor<12x10xf32>
    %mm = hlo.mul %m, %mus : tensor<12x10xf32>
    %nm = hlo.add %mm, %g : tensor<12x10xf32>
    %st = hlo.mul %nm, %lrs : tensor<12x10xf32>
    %nw = hlo.sub %w, %st : tensor<12x10xf32>
    hlo.return %i1, %xs, %ds, %nw, %nm : tensor<i32>, tensor<16x12xf32>, tensor<16x10xf32>, tensor<12x10xf32>, tensor<12x10xf32>
  }
  return %r#3, %r#4 : tensor<12x10xf32>, tensor<12x10xf32>
})";

// A convolution layer and its kernel gradient as JAX emits it: a convolution of the input
// with the output gradient that contracts the batch (the input's batch is its feature
// dimension), windowed over the output gradient's spatial size.
constexpr char kConvKernelStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<12x6x6x3xf32> NHWC, %dy: tensor<12x6x6x4xf32> NHWC,
                %k: tensor<3x3x3x4xf32>, %m: tensor<3x3x3x4xf32>)
    -> (tensor<12x6x6x4xf32>, tensor<3x3x3x4xf32>, tensor<3x3x3x4xf32>) {
  %y = hlo.convolution %x, %k, dims = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], padding = [[1, 1], [1, 1]] : (tensor<12x6x6x3xf32>, tensor<3x3x3x4xf32>) -> tensor<12x6x6x4xf32>
  %e = hlo.mul %y, %dy : tensor<12x6x6x4xf32>
  %g = hlo.convolution %x, %e, dims = [f, 0, 1, b]x[i, 0, 1, o]->[0, 1, b, f], padding = [[1, 1], [1, 1]] : (tensor<12x6x6x3xf32>, tensor<12x6x6x4xf32>) -> tensor<3x3x3x4xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<3x3x3x4xf32>
  %mm = hlo.mul %m, %mus : tensor<3x3x3x4xf32>
  %nm = hlo.add %mm, %g : tensor<3x3x3x4xf32>
  %nk = hlo.sub %k, %nm : tensor<3x3x3x4xf32>
  return %y, %nk, %nm : tensor<12x6x6x4xf32>, tensor<3x3x3x4xf32>, tensor<3x3x3x4xf32>
})";

// A rank-3 weight used as a matrix: the gradient's dot yields [12, 10] and a reshape gives
// the weight's [3, 4, 10].
constexpr char kReshapedGradientStep[] = R"(tessel.mesh @mesh = <MESH>
func.func @main(%x: tensor<16x12xf32> BATCH, %dy: tensor<16x10xf32> BATCH,
                %w: tensor<3x4x10xf32>, %m: tensor<3x4x10xf32>)
    -> (tensor<16x10xf32>, tensor<3x4x10xf32>, tensor<3x4x10xf32>) {
  %wm = hlo.reshape %w : (tensor<3x4x10xf32>) -> tensor<12x10xf32>
  %y = hlo.dot_general %x, %wm, lhs_contract = [1], rhs_contract = [0] : (tensor<16x12xf32>, tensor<12x10xf32>) -> tensor<16x10xf32>
  %e = hlo.mul %y, %dy : tensor<16x10xf32>
  %gm = hlo.dot_general %x, %e, lhs_contract = [0], rhs_contract = [0] : (tensor<16x12xf32>, tensor<16x10xf32>) -> tensor<12x10xf32>
  %g = hlo.reshape %gm : (tensor<12x10xf32>) -> tensor<3x4x10xf32>
  %mu = hlo.constant dense<0.9> : tensor<f32>
  %mus = hlo.broadcast_in_dim %mu, dims = [] : (tensor<f32>) -> tensor<3x4x10xf32>
  %mm = hlo.mul %m, %mus : tensor<3x4x10xf32>
  %nm = hlo.add %mm, %g : tensor<3x4x10xf32>
  %nw = hlo.sub %w, %nm : tensor<3x4x10xf32>
  return %y, %nw, %nm : tensor<16x10xf32>, tensor<3x4x10xf32>, tensor<3x4x10xf32>
})";

std::string MeshName(const testing::TestMesh& mesh) {
  return absl::StrCat(mesh.devices, "dev", mesh.axes.size(), "d");
}

class WeightUpdateShardingTest : public ::testing::TestWithParam<testing::TestMesh> {};

TEST_P(WeightUpdateShardingTest, TrainingStepReduceScattersGradients) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  // An all_reduce of either gradient (the loss, a scalar, is still all-reduced).
  options.expect_not_in_program = {"kind = sum : tensor<24x8xf32>",
                                   "kind = sum : tensor<8x24xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kTrainingStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 24}, 1), RandomTensor(ElementType::kF32, {16, 24}, 2),
       RandomTensor(ElementType::kF32, {24, 8}, 3), RandomTensor(ElementType::kF32, {8, 24}, 4),
       RandomTensor(ElementType::kF32, {24, 8}, 5), RandomTensor(ElementType::kF32, {8, 24}, 6)},
      options);
}

TEST_P(WeightUpdateShardingTest, AdamStepReduceScattersTheGradientOnce) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"tessel.all_reduce"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kAdamStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 24}, 7), RandomTensor(ElementType::kF32, {16, 6}, 8),
       RandomTensor(ElementType::kF32, {}, 9), RandomTensor(ElementType::kF32, {24, 6}, 10),
       RandomTensor(ElementType::kF32, {24, 6}, 11), RandomTensor(ElementType::kF32, {24, 6}, 12)},
      options);
}

TEST_P(WeightUpdateShardingTest, TransposedGradientAsJaxEmitsIt) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"kind = sum : tensor<12x10xf32>", "hlo.transpose"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kTransposedGradientStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 12}, 21), RandomTensor(ElementType::kF32, {16, 10}, 22),
       RandomTensor(ElementType::kF32, {12, 10}, 23), RandomTensor(ElementType::kF32, {12, 10}, 24)},
      options);
}

TEST_P(WeightUpdateShardingTest, BiasGradientFromABatchSum) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"kind = sum : tensor<10xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kBiasGradientStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 12}, 31), RandomTensor(ElementType::kF32, {16, 10}, 32),
       RandomTensor(ElementType::kF32, {12, 10}, 33), RandomTensor(ElementType::kF32, {10}, 34),
       RandomTensor(ElementType::kF32, {10}, 35)},
      options);
}

TEST_P(WeightUpdateShardingTest, UnevenWeightIsPaddedAndGathered) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.all_gather"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kUnevenStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 5}, 13), RandomTensor(ElementType::kF32, {16, 7}, 14),
       RandomTensor(ElementType::kF32, {5, 7}, 15), RandomTensor(ElementType::kF32, {5, 7}, 16)},
      options);
}

TEST_P(WeightUpdateShardingTest, PlainSgdWithoutState) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"kind = sum : tensor<12x10xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kPlainSgdStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 12}, 41), RandomTensor(ElementType::kF32, {16, 10}, 42),
       RandomTensor(ElementType::kF32, {12, 10}, 43)},
      options);
}

TEST_P(WeightUpdateShardingTest, ClippingAndTrustRatioSumNormsFromShards) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  // Neither gradient is all-reduced whole; only scalar norms are.
  options.expect_not_in_program = {"kind = sum : tensor<12x10xf32>", "kind = sum : tensor<10xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kClippedTrustRatioStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 12}, 51), RandomTensor(ElementType::kF32, {16, 10}, 52),
       RandomTensor(ElementType::kF32, {12, 10}, 53), RandomTensor(ElementType::kF32, {12, 10}, 54),
       RandomTensor(ElementType::kF32, {10}, 55), RandomTensor(ElementType::kF32, {10}, 56)},
      options);
}

std::vector<runtime::Tensor> AccumulationInputs() {
  return {RandomTensor(ElementType::kF32, {4, 12, 10}, 61),
          RandomTensor(ElementType::kF32, {4, 12, 6}, 62),
          RandomTensor(ElementType::kF32, {10, 6}, 63), RandomTensor(ElementType::kF32, {10, 6}, 64)};
}

TEST_P(WeightUpdateShardingTest, AccumulatedGradientIsReducedOnceAfterTheLoop) {
  // Without the pass: the accumulator stays a partial sum through the loop and one
  // all_reduce follows it (not one per microbatch).
  testing::HarnessOptions options;
  options.expect_count_in_program = {{"tessel.all_reduce", 1}};
  testing::ExpectPartitionedRunMatches(Instantiate(kAccumulationStep, GetParam()),
                                       AccumulationInputs(), options);
}

TEST_P(WeightUpdateShardingTest, AccumulatedGradientIsReduceScatteredAfterTheLoop) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_count_in_program = {{"tessel.reduce_scatter", 1}};
  options.expect_not_in_program = {"kind = sum : tensor<10x6xf32>"};
  testing::ExpectPartitionedRunMatches(Instantiate(kAccumulationStep, GetParam()),
                                       AccumulationInputs(), options);
}

TEST_P(WeightUpdateShardingTest, TrainingLoopCarriesSplitState) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"kind = sum : tensor<12x10xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kTrainingLoop, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 12}, 71), RandomTensor(ElementType::kF32, {16, 10}, 72),
       RandomTensor(ElementType::kF32, {12, 10}, 73), RandomTensor(ElementType::kF32, {12, 10}, 74)},
      options);
}

TEST_P(WeightUpdateShardingTest, ConvolutionKernelGradient) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"kind = sum : tensor<3x3x3x4xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kConvKernelStep, GetParam()),
      {RandomTensor(ElementType::kF32, {12, 6, 6, 3}, 81),
       RandomTensor(ElementType::kF32, {12, 6, 6, 4}, 82),
       RandomTensor(ElementType::kF32, {3, 3, 3, 4}, 83), RandomTensor(ElementType::kF32, {3, 3, 3, 4}, 84)},
      options);
}

TEST_P(WeightUpdateShardingTest, GradientReshapedToTheWeight) {
  testing::HarnessOptions options;
  options.shard_weight_update = true;
  options.expect_in_program = {"tessel.reduce_scatter", "tessel.all_gather"};
  options.expect_not_in_program = {"kind = sum : tensor<12x10xf32>",
                                   "kind = sum : tensor<3x4x10xf32>"};
  testing::ExpectPartitionedRunMatches(
      Instantiate(kReshapedGradientStep, GetParam()),
      {RandomTensor(ElementType::kF32, {16, 12}, 91), RandomTensor(ElementType::kF32, {16, 10}, 92),
       RandomTensor(ElementType::kF32, {3, 4, 10}, 93), RandomTensor(ElementType::kF32, {3, 4, 10}, 94)},
      options);
}

INSTANTIATE_TEST_SUITE_P(Meshes, WeightUpdateShardingTest,
                         ::testing::ValuesIn(testing::StandardMeshes()),
                         [](const ::testing::TestParamInfo<testing::TestMesh>& info) {
                           return MeshName(info.param);
                         });

}  // namespace
}  // namespace tessel
