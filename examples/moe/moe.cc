// The mixture-of-experts layer built with GraphBuilder (moe.h).
#include "examples/moe/moe.h"

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::examples {
namespace {

constexpr int64_t kTokens = 16, kModel = 8, kExperts = 8, kHidden = 16, kCapacity = 4;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

// The index of the largest logit of each token (the first one on ties): [tokens] s32.
Value ArgMax(GraphBuilder& b, Value logits) {
  Value indices = b.Iota(TensorType(ElementType::kS32, {kTokens, kExperts}), 1);
  std::vector<Value> best = b.Reduce(
      {logits, indices},
      {b.ScalarConstant(ElementType::kF32, -1e30), b.ScalarConstant(ElementType::kS32, 0)},
      {1}, [](GraphBuilder& r, absl::Span<const Value> a) -> std::vector<Value> {
        // a: the accumulated (value, index), then the new (value, index).
        Value greater = r.Compare(a[2], a[0], ComparisonDirection::kGt);
        Value tie = r.And(r.Compare(a[2], a[0], ComparisonDirection::kEq),
                          r.Compare(a[3], a[1], ComparisonDirection::kLt));
        Value take = r.Or(greater, tie);
        return {r.Select(take, a[2], a[0]), r.Select(take, a[3], a[1])};
      });
  return best[1];
}

}  // namespace

absl::StatusOr<Program> BuildMoe(int64_t num_devices) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"expert", num_devices}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding token_split, Sharding::Create(mesh, {"expert", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding expert_split,
                          Sharding::Create(mesh, {"expert", Replicated(), Replicated()}));

  GraphBuilder b;
  Value tokens = b.Parameter(F32({kTokens, kModel}), token_split);
  Value gate = b.Parameter(F32({kModel, kExperts}));
  Value w_in = b.Parameter(F32({kExperts, kModel, kHidden}), expert_split);
  Value w_out = b.Parameter(F32({kExperts, kHidden, kModel}), expert_split);

  // Gate probabilities [tokens, experts] and each token's expert.
  Value logits = b.MatMul(tokens, gate);
  Value max = b.BroadcastInDim(b.Reduce(logits, ReduceKind::kMax, {1}), {kTokens, kExperts}, {0});
  Value exp = b.Exp(b.Sub(logits, max));
  Value probs = b.Div(
      exp, b.BroadcastInDim(b.Reduce(exp, ReduceKind::kSum, {1}), {kTokens, kExperts}, {0}));
  Value choice = ArgMax(b, logits);
  Value one_hot = b.Convert(
      b.Compare(b.Iota(TensorType(ElementType::kS32, {kTokens, kExperts}), 1),
                b.BroadcastInDim(choice, {kTokens, kExperts}, {0}), ComparisonDirection::kEq),
      ElementType::kF32);

  // Each token's slot in its expert: how many earlier tokens chose the same expert (a
  // running sum down the tokens). Tokens past the capacity match no slot and are dropped.
  Window running;
  running.padding = {{kTokens - 1, 0}, {0, 0}};
  Value earlier_and_self = b.ReduceWindow(one_hot, ReduceKind::kSum, {kTokens, 1}, running);
  Value slot = b.Convert(b.Sub(earlier_and_self, one_hot), ElementType::kS32);
  Value slot_one_hot = b.Convert(
      b.Compare(b.Iota(TensorType(ElementType::kS32, {kTokens, kExperts, kCapacity}), 2),
                b.BroadcastInDim(slot, {kTokens, kExperts, kCapacity}, {0, 1}),
                ComparisonDirection::kEq),
      ElementType::kF32);
  Value dispatch =
      b.Mul(b.BroadcastInDim(one_hot, {kTokens, kExperts, kCapacity}, {0, 1}), slot_one_hot);
  Value combine =
      b.Mul(dispatch, b.BroadcastInDim(probs, {kTokens, kExperts, kCapacity}, {0, 1}));

  // Dispatch: [experts, capacity, model], the experts split like their weights.
  Value expert_inputs =
      b.ShardingConstraint(b.DotGeneral(dispatch, tokens, DotDimensions{{}, {}, {0}, {0}}),
                           expert_split);
  Value hidden = b.DotGeneral(expert_inputs, w_in, DotDimensions{{0}, {0}, {2}, {1}});
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0),
                                 hidden.type().dimensions(), {});
  Value expert_outputs =
      b.DotGeneral(b.Max(hidden, zeros), w_out, DotDimensions{{0}, {0}, {2}, {1}});
  // Combine: back to [tokens, model], split by tokens again.
  Value outputs = b.ShardingConstraint(
      b.DotGeneral(combine, expert_outputs, DotDimensions{{}, {}, {1, 2}, {0, 1}}), token_split);
  return b.Build({outputs}, {token_split});
}

}  // namespace tessel::examples
