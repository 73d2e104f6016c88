// The mixture-of-experts layer built with GraphBuilder (moe.h).
#include "examples/moe/moe.h"

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::examples {
namespace {

constexpr int64_t kGroups = kMoeGroups, kGroupSize = kMoeGroupSize, kModel = 8,
                  kExperts = kMoeExperts, kHidden = 16, kCapacity = kMoeCapacity;

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }
TensorType S32(std::vector<int64_t> dims) { return TensorType(ElementType::kS32, std::move(dims)); }

// The index of the largest logit of each token along the experts (the first one on ties):
// [groups, group size] s32.
Value ArgMax(GraphBuilder& b, Value logits) {
  Value indices = b.Iota(S32({kGroups, kGroupSize, kExperts}), 2);
  std::vector<Value> best = b.Reduce(
      {logits, indices},
      {b.ScalarConstant(ElementType::kF32, -1e30), b.ScalarConstant(ElementType::kS32, 0)},
      {2}, [](GraphBuilder& r, absl::Span<const Value> a) -> std::vector<Value> {
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
  // Groups of tokens and experts are both split over the one mesh axis.
  TESSEL_ASSIGN_OR_RETURN(Sharding group_split,
                          Sharding::Create(mesh, {"expert", Replicated(), Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding expert_split,
                          Sharding::Create(mesh, {"expert", Replicated(), Replicated()}));
  // Dimension 0 split: the groups of [groups, experts, capacity, model] as the dispatch
  // makes it, the experts of [experts, groups, capacity, model] as the experts make it.
  TESSEL_ASSIGN_OR_RETURN(
      Sharding first_dim_split,
      Sharding::Create(mesh, {"expert", Replicated(), Replicated(), Replicated()}));
  // Dimension 1 split: the experts of [groups, experts, capacity, model] after the dispatch,
  // the groups of [experts, groups, capacity, model] before the combine. Each is the far
  // side of one all-to-all.
  TESSEL_ASSIGN_OR_RETURN(
      Sharding second_dim_split,
      Sharding::Create(mesh, {Replicated(), "expert", Replicated(), Replicated()}));

  GraphBuilder b;
  Value tokens = b.Parameter(F32({kGroups, kGroupSize, kModel}), group_split);
  Value gate = b.Parameter(F32({kModel, kExperts}));
  Value w_in = b.Parameter(F32({kExperts, kModel, kHidden}), expert_split);
  Value w_out = b.Parameter(F32({kExperts, kHidden, kModel}), expert_split);

  // Gate probabilities [groups, group size, experts] and each token's expert.
  const std::vector<int64_t> gse = {kGroups, kGroupSize, kExperts};
  Value logits = b.DotGeneral(tokens, gate, DotDimensions{{}, {}, {2}, {0}});
  Value max = b.BroadcastInDim(b.Reduce(logits, ReduceKind::kMax, {2}), gse, {0, 1});
  Value exp = b.Exp(b.Sub(logits, max));
  Value probs = b.Div(exp, b.BroadcastInDim(b.Reduce(exp, ReduceKind::kSum, {2}), gse, {0, 1}));
  Value choice = ArgMax(b, logits);
  Value one_hot = b.Convert(b.Compare(b.Iota(S32(gse), 2), b.BroadcastInDim(choice, gse, {0, 1}),
                                      ComparisonDirection::kEq),
                            ElementType::kF32);

  // Each token's slot in its expert: how many earlier tokens of its group chose the same
  // expert (a running sum along the group). Tokens past the capacity match no slot and are
  // dropped.
  Window running;
  running.padding = {{0, 0}, {kGroupSize - 1, 0}, {0, 0}};
  Value earlier_and_self = b.ReduceWindow(one_hot, ReduceKind::kSum, {1, kGroupSize, 1}, running);
  Value slot = b.Convert(b.Sub(earlier_and_self, one_hot), ElementType::kS32);
  const std::vector<int64_t> gsec = {kGroups, kGroupSize, kExperts, kCapacity};
  Value slot_one_hot =
      b.Convert(b.Compare(b.Iota(S32(gsec), 3), b.BroadcastInDim(slot, gsec, {0, 1, 2}),
                          ComparisonDirection::kEq),
                ElementType::kF32);
  Value dispatch = b.Mul(b.BroadcastInDim(one_hot, gsec, {0, 1, 2}), slot_one_hot);
  Value combine = b.Mul(dispatch, b.BroadcastInDim(probs, gsec, {0, 1, 2}));

  // Dispatch inside each group (local: the groups are split): [groups, experts, capacity,
  // model]; then the experts take the split, which moves every expert's slots to the
  // device holding its weights (an all-to-all).
  // The first constraint keeps the dispatch itself split by groups (a constraint also
  // pulls shardings backwards); the second one is the move.
  Value expert_inputs = b.ShardingConstraint(
      b.ShardingConstraint(b.DotGeneral(dispatch, tokens, DotDimensions{{0}, {0}, {1}, {1}}),
                           first_dim_split),
      second_dim_split);
  // Each expert's MLP on its slots of every group: [experts, groups, capacity, hidden].
  Value hidden = b.DotGeneral(expert_inputs, w_in, DotDimensions{{1}, {0}, {3}, {1}});
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0),
                                 hidden.type().dimensions(), {});
  Value expert_outputs = b.ShardingConstraint(
      b.DotGeneral(b.Max(hidden, zeros), w_out, DotDimensions{{0}, {0}, {3}, {1}}),
      first_dim_split);
  // Back to the groups (the second all-to-all), then combine inside each group.
  Value returned = b.ShardingConstraint(expert_outputs, second_dim_split);
  Value outputs =
      b.DotGeneral(combine, returned, DotDimensions{{0}, {1}, {2, 3}, {0, 2}});
  return b.Build({outputs}, {group_split});
}

}  // namespace tessel::examples
