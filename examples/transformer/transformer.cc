// The transformer block built with GraphBuilder (transformer.h).
#include "examples/transformer/transformer.h"

#include <cmath>

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::examples {
namespace {

constexpr int64_t kBatch = 4, kTokens = 8, kFeatures = 16, kHeads = 4, kHeadSize = 4,
                  kHidden = 32;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

// Softmax over the last dimension of a [b, h, s, t] tensor.
Value Softmax(GraphBuilder& b, Value scores) {
  std::vector<int64_t> shape = scores.type().dimensions();
  Value max = b.Reduce(scores, ReduceKind::kMax, {3});
  Value shifted = b.Exp(b.Sub(scores, b.BroadcastInDim(max, shape, {0, 1, 2})));
  Value sum = b.Reduce(shifted, ReduceKind::kSum, {3});
  return b.Div(shifted, b.BroadcastInDim(sum, shape, {0, 1, 2}));
}

}  // namespace

absl::StatusOr<Mesh> TransformerMesh(int64_t num_devices) {
  int64_t data = num_devices >= 4 && num_devices % 2 == 0 ? 2 : 1;
  return Mesh::Create({{"data", data}, {"model", num_devices / data}});
}

absl::StatusOr<Program> BuildTransformer(int64_t num_devices) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, TransformerMesh(num_devices));
  TESSEL_ASSIGN_OR_RETURN(Sharding batch,
                          Sharding::Create(mesh, {"data", Replicated(), Replicated()}));
  // [features, heads, head size]: the heads split over "model".
  TESSEL_ASSIGN_OR_RETURN(Sharding qkv, Sharding::Create(mesh, {Replicated(), "model", Replicated()}));
  // [heads, head size, features].
  TESSEL_ASSIGN_OR_RETURN(Sharding out, Sharding::Create(mesh, {"model", Replicated(), Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));

  GraphBuilder b;
  Value x = b.Parameter(F32({kBatch, kTokens, kFeatures}), batch);
  Value wq = b.Parameter(F32({kFeatures, kHeads, kHeadSize}), qkv);
  Value wk = b.Parameter(F32({kFeatures, kHeads, kHeadSize}), qkv);
  Value wv = b.Parameter(F32({kFeatures, kHeads, kHeadSize}), qkv);
  Value wo = b.Parameter(F32({kHeads, kHeadSize, kFeatures}), out);
  Value w1 = b.Parameter(F32({kFeatures, kHidden}), columns);
  Value w2 = b.Parameter(F32({kHidden, kFeatures}), rows);

  // Attention. q, k, v: [batch, tokens, heads, head size].
  DotDimensions project{{}, {}, {2}, {0}};
  Value q = b.DotGeneral(x, wq, project);
  Value k = b.DotGeneral(x, wk, project);
  Value v = b.DotGeneral(x, wv, project);
  // scores: [batch, heads, query token, key token].
  Value scores = b.DotGeneral(q, k, DotDimensions{{0, 2}, {0, 2}, {3}, {3}});
  Value scale = b.BroadcastInDim(
      b.ScalarConstant(ElementType::kF32, 1.0 / std::sqrt(double{kHeadSize})),
      scores.type().dimensions(), {});
  Value weights = Softmax(b, b.Mul(scores, scale));
  // context: [batch, heads, query token, head size].
  Value context = b.DotGeneral(weights, v, DotDimensions{{0, 1}, {0, 2}, {3}, {1}});
  // Summing over the heads, which are split: partial sums over "model".
  Value attention = b.DotGeneral(context, wo, DotDimensions{{}, {}, {1, 3}, {0, 1}});
  Value h = b.Add(x, attention);

  // MLP: hidden units split over "model".
  Value hidden = b.DotGeneral(h, w1, DotDimensions{{}, {}, {2}, {0}});
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0),
                                 hidden.type().dimensions(), {});
  Value mlp = b.DotGeneral(b.Max(hidden, zeros), w2, DotDimensions{{}, {}, {2}, {0}});
  return b.Build({b.Add(h, mlp)}, {batch});
}

}  // namespace tessel::examples
