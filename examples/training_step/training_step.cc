// The training step built with GraphBuilder (training_step.h).
#include "examples/training_step/training_step.h"

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::examples {
namespace {

constexpr int64_t kBatch = 16, kIn = 8, kHidden = 16, kOut = 4;
constexpr double kLearningRate = 0.1, kMomentum = 0.9;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

Value Splat(GraphBuilder& b, double value, const Value& like) {
  return b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, value), like.type().dimensions(),
                          {});
}

}  // namespace

absl::StatusOr<Program> BuildTrainingStep(int64_t num_devices) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", num_devices}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding batch, Sharding::Create(mesh, {"data", Replicated()}));
  Sharding replicated = Sharding::Replicated(mesh, 2);

  GraphBuilder b;
  Value x = b.Parameter(F32({kBatch, kIn}), batch);
  Value targets = b.Parameter(F32({kBatch, kOut}), batch);
  Value w1 = b.Parameter(F32({kIn, kHidden}), replicated);
  Value w2 = b.Parameter(F32({kHidden, kOut}), replicated);
  Value m1 = b.Parameter(F32({kIn, kHidden}), replicated);
  Value m2 = b.Parameter(F32({kHidden, kOut}), replicated);

  // Forward: loss = mean((relu(x w1) w2 - targets)^2).
  Value h = b.MatMul(x, w1);
  Value active = b.Compare(h, Splat(b, 0, h), ComparisonDirection::kGt);
  Value a = b.Select(active, h, Splat(b, 0, h));
  Value error = b.Sub(b.MatMul(a, w2), targets);
  double scale = 1.0 / (kBatch * kOut);
  Value loss = b.Mul(b.Reduce(b.Mul(error, error), ReduceKind::kSum, {0, 1}),
                     b.ScalarConstant(ElementType::kF32, scale));

  // Backward. d loss / d out = 2 (out - targets) / (batch * out).
  Value d_out = b.Mul(error, Splat(b, 2 * scale, error));
  // Contracting the batch dimension: a^T d_out and x^T d_h, summed over the split batch.
  DotDimensions over_batch{{}, {}, {0}, {0}};
  Value g2 = b.DotGeneral(a, d_out, over_batch);
  Value d_a = b.DotGeneral(d_out, w2, DotDimensions{{}, {}, {1}, {1}});
  Value d_h = b.Select(active, d_a, Splat(b, 0, d_a));
  Value g1 = b.DotGeneral(x, d_h, over_batch);

  // SGD with momentum: m' = mu m + g; w' = w - lr m'.
  Value new_m1 = b.Add(b.Mul(m1, Splat(b, kMomentum, m1)), g1);
  Value new_m2 = b.Add(b.Mul(m2, Splat(b, kMomentum, m2)), g2);
  Value new_w1 = b.Sub(w1, b.Mul(new_m1, Splat(b, kLearningRate, new_m1)));
  Value new_w2 = b.Sub(w2, b.Mul(new_m2, Splat(b, kLearningRate, new_m2)));
  return b.Build({loss, new_w1, new_w2, new_m1, new_m2},
                 {Sharding::Replicated(mesh, 0), replicated, replicated, replicated, replicated});
}

}  // namespace tessel::examples
