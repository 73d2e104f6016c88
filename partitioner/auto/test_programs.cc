// The shared auto-sharding test programs, written with the public GraphBuilder.
#include "partitioner/auto/test_programs.h"

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mesh.h"
#include "partitioner/api/sharding.h"
#include "support/status_macros.h"

namespace tessel::auto_sharding_testing {
namespace {

TensorType F32(std::vector<int64_t> dims) { return TensorType(ElementType::kF32, std::move(dims)); }

}  // namespace

// The same program with every sharding annotation removed: only the mesh is left.
absl::StatusOr<Program> WithoutShardings(const Program& program) {
  static const std::regex annotation(R"( \{tessel\.sharding = #tessel\.sharding<[^>]*>\})");
  return Program::FromMlirText(std::regex_replace(program.ToMlirText(), annotation, ""));
}

// A two-layer MLP on a data x model mesh, split Megatron's way: batch over "data", the
// hidden layer over "model".
absl::StatusOr<Program> BuildMlp(int64_t batch, int64_t features, int64_t hidden, int64_t data,
                                 int64_t model) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", data}, {"model", model}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rowsOfBatch, Sharding::Create(mesh, {"data", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({batch, features}), rowsOfBatch);
  Value w1 = b.Parameter(F32({features, hidden}), columns);
  Value w2 = b.Parameter(F32({hidden, features}), rows);
  Value h = b.MatMul(x, w1);
  Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {batch, hidden}, {});
  Value y = b.MatMul(b.Max(h, zeros), w2);
  return b.Build({y}, {rowsOfBatch});
}

// Softmax over the last dimension of a [b, h, s, t] tensor.
static Value Softmax(GraphBuilder& b, Value scores) {
  std::vector<int64_t> shape = scores.type().dimensions();
  Value max = b.Reduce(scores, ReduceKind::kMax, {3});
  Value shifted = b.Exp(b.Sub(scores, b.BroadcastInDim(max, shape, {0, 1, 2})));
  Value sum = b.Reduce(shifted, ReduceKind::kSum, {3});
  return b.Div(shifted, b.BroadcastInDim(sum, shape, {0, 1, 2}));
}

// `layers` transformer blocks (attention and MLP, each with a residual), each with its own
// weights, split Megatron's way: the batch over "data", heads and MLP hidden units over
// "model".
absl::StatusOr<Program> BuildBlock(const BlockSizes& s, int64_t data, int64_t model) {
  const int64_t features = s.heads * s.head_size;
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", data}, {"model", model}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding batch,
                          Sharding::Create(mesh, {"data", Replicated(), Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding qkv,
                          Sharding::Create(mesh, {Replicated(), "model", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding out,
                          Sharding::Create(mesh, {"model", Replicated(), Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows, Sharding::Create(mesh, {"model", Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({s.batch, s.tokens, features}), batch);
  for (int64_t layer = 0; layer < s.layers; ++layer) {
    Value wq = b.Parameter(F32({features, s.heads, s.head_size}), qkv);
    Value wk = b.Parameter(F32({features, s.heads, s.head_size}), qkv);
    Value wv = b.Parameter(F32({features, s.heads, s.head_size}), qkv);
    Value wo = b.Parameter(F32({s.heads, s.head_size, features}), out);
    Value w1 = b.Parameter(F32({features, s.hidden}), columns);
    Value w2 = b.Parameter(F32({s.hidden, features}), rows);
    DotDimensions project{{}, {}, {2}, {0}};
    Value q = b.DotGeneral(x, wq, project);
    Value k = b.DotGeneral(x, wk, project);
    Value v = b.DotGeneral(x, wv, project);
    Value scores = b.DotGeneral(q, k, DotDimensions{{0, 2}, {0, 2}, {3}, {3}});
    Value scale =
        b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 1.0 / std::sqrt(double(s.head_size))),
                         scores.type().dimensions(), {});
    Value weights = Softmax(b, b.Mul(scores, scale));
    Value context = b.DotGeneral(weights, v, DotDimensions{{0, 1}, {0, 2}, {3}, {1}});
    Value attention = b.DotGeneral(context, wo, DotDimensions{{}, {}, {1, 3}, {0, 1}});
    Value h = b.Add(x, attention);
    Value hidden = b.DotGeneral(h, w1, DotDimensions{{}, {}, {2}, {0}});
    Value zeros =
        b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), hidden.type().dimensions(), {});
    Value mlp = b.DotGeneral(b.Max(hidden, zeros), w2, DotDimensions{{}, {}, {2}, {0}});
    x = b.Add(h, mlp);
  }
  return b.Build({x}, {batch});
}

absl::StatusOr<Program> BuildScannedMlp(int64_t batch, int64_t features, int64_t hidden,
                                        int64_t layers, int64_t data, int64_t model) {
  TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", data}, {"model", model}}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rowsOfBatch, Sharding::Create(mesh, {"data", Replicated()}));
  TESSEL_ASSIGN_OR_RETURN(Sharding columns,
                          Sharding::Create(mesh, {Replicated(), Replicated(), "model"}));
  TESSEL_ASSIGN_OR_RETURN(Sharding rows,
                          Sharding::Create(mesh, {Replicated(), "model", Replicated()}));
  GraphBuilder b;
  Value x = b.Parameter(F32({batch, features}), rowsOfBatch);
  Value w1 = b.Parameter(F32({layers, features, hidden}), columns);
  Value w2 = b.Parameter(F32({layers, hidden, features}), rows);
  std::vector<Value> state = b.While(
      {b.ScalarConstant(ElementType::kS32, 0), x, w1, w2},
      [&](GraphBuilder& c, absl::Span<const Value> s) {
        Value count = c.ScalarConstant(ElementType::kS32, static_cast<double>(layers));
        return std::vector<Value>{c.Compare(s[0], count, ComparisonDirection::kLt)};
      },
      [&](GraphBuilder& c, absl::Span<const Value> s) {
        Value zero = c.ScalarConstant(ElementType::kS32, 0);
        Value up = c.Reshape(c.DynamicSlice(s[2], {s[0], zero, zero}, {1, features, hidden}),
                             {features, hidden});
        Value down = c.Reshape(c.DynamicSlice(s[3], {s[0], zero, zero}, {1, hidden, features}),
                               {hidden, features});
        Value h = c.MatMul(s[1], up);
        Value zeros =
            c.BroadcastInDim(c.ScalarConstant(ElementType::kF32, 0), {batch, hidden}, {});
        Value next = c.Add(s[1], c.MatMul(c.Max(h, zeros), down));
        Value one = c.ScalarConstant(ElementType::kS32, 1);
        return std::vector<Value>{c.Add(s[0], one), next, s[2], s[3]};
      });
  return b.Build({state[1]}, {rowsOfBatch});
}

}  // namespace tessel::auto_sharding_testing
