// The random program generator (see random_program.h). Ops are drawn until one applies to
// a randomly chosen value; each keeps every value at most kMaxElements elements and, for
// f32, keeps a bound on magnitudes below 2^22 so sums stay exact. Values of the pool all
// have the program's element type (i32 or f32); index tensors (gather and scatter indices,
// case indices, dynamic offsets) are i32 arguments with chosen values or i32 constants,
// and ops that make other types (compare, top_k indices, bitwise ops in f32 programs)
// convert back.
#include "tests/differential/random_program.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/random_inputs.h"
#include "tests/differential/random_program_generator.h"

namespace tessel::testing::random_program_internal {

RandomProgram Generator::Generate() {
  ChooseMesh();
  element_ = Chance(70) ? "i32" : "f32";
  out_ = &lines_;
  if (Chance(20)) StartTrainingStep();
  int initial = static_cast<int>(Uniform(1, 2));
  for (int i = 0; i < initial; ++i) NewArgument(RandomShape());
  int ops = static_cast<int>(Uniform(2, 8));
  for (int i = 0; i < ops; ++i) {
    // Some draws do not apply to the chosen value; a bounded number of retries keeps the
    // generator total.
    for (int attempt = 0; attempt < 50 && !EmitRandomOp(); ++attempt) {
    }
  }
  return Finish();
}

void Generator::ChooseMesh() {
  // 1 to 3 axes, up to 16 devices, uneven sizes; the small meshes more often.
  static const std::vector<std::vector<int64_t>> kMeshes = {
      {1},       {2},       {3},       {4},    {5},    {6},    {7},    {8},       {16},
      {2, 2},    {2, 3},    {3, 2},    {2, 4}, {4, 2}, {1, 3}, {4, 4}, {2, 2, 2}, {3, 2, 2},
      {2, 2, 4}, {2, 3, 2}, {2, 1, 2}, {4},    {2, 2}, {2, 3}, {3},    {2, 4}};
  mesh_ = Pick(kMeshes);
  static const char* kNames[] = {"x", "y", "z"};
  std::vector<std::string> parts;
  for (size_t i = 0; i < mesh_.size(); ++i) {
    axes_.push_back(kNames[i]);
    parts.push_back(absl::StrCat("\"", axes_.back(), "\"=", mesh_[i]));
  }
  mesh_text_ = absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
}

std::string Generator::RandomSharding(int64_t rank, ShardingUse use) {
  struct Token {
    std::string text;
    size_t axis;
  };
  std::vector<Token> tokens;
  for (size_t i = 0; i < axes_.size(); ++i) {
    std::vector<int64_t> factors;
    for (int64_t f = 2; f < mesh_[i]; ++f) {
      if (mesh_[i] % f == 0) factors.push_back(f);
    }
    std::string quoted = absl::StrCat("\"", axes_[i], "\"");
    if (factors.empty() || !Chance(25)) {
      tokens.push_back({quoted, i});
      continue;
    }
    int64_t major = Pick(factors), minor = mesh_[i] / major;
    int which = static_cast<int>(Uniform(0, 2));  // both, the major part, the minor part
    if (which != 2) tokens.push_back({absl::StrCat(quoted, ":(1)", major), i});
    if (which != 1) tokens.push_back({absl::StrCat(quoted, ":(", major, ")", minor), i});
  }
  std::vector<std::vector<Token>> dims(rank);
  std::vector<bool> used(axes_.size(), false);
  // Sub-axes of one axis keep their major-to-minor order within a dim; the order of
  // different axes is random.
  std::vector<size_t> order(tokens.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng_);
  for (size_t t : order) {
    if (rank == 0 || Chance(35)) continue;
    std::vector<Token>& dim = dims[Uniform(0, rank - 1)];
    bool same_axis = false;
    for (const Token& other : dim) same_axis |= other.axis == tokens[t].axis;
    if (same_axis) continue;  // two sub-axes of one axis in one dim: keep the first
    dim.push_back(tokens[t]);
    used[tokens[t].axis] = true;
  }
  std::vector<std::string> parts;
  for (const auto& dim : dims) {
    std::vector<std::string> names;
    for (const Token& token : dim) names.push_back(token.text);
    if (Chance(12)) names.push_back("?");
    std::string part = absl::StrCat("{", absl::StrJoin(names, ", "), "}");
    if (Chance(10)) absl::StrAppend(&part, "p", Uniform(0, 2));
    parts.push_back(part);
  }
  std::string text = absl::StrCat("<@mesh, [", absl::StrJoin(parts, ", "), "]");
  std::vector<std::string> replicated, unreduced;
  for (size_t i = 0; i < axes_.size(); ++i) {
    if (used[i]) continue;
    std::string quoted = absl::StrCat("\"", axes_[i], "\"");
    if (use == ShardingUse::kConstraint && Chance(20)) {
      unreduced.push_back(quoted);
    } else if (Chance(15)) {
      replicated.push_back(quoted);
    }
  }
  if (!replicated.empty()) {
    absl::StrAppend(&text, ", replicated={", absl::StrJoin(replicated, ", "), "}");
  }
  if (!unreduced.empty()) {
    absl::StrAppend(&text, ", unreduced={", absl::StrJoin(unreduced, ", "), "}");
  }
  return absl::StrCat(text, ">");
}

std::string Generator::Constrained(const std::string& value, const Shape& shape,
                                   const std::vector<std::pair<int64_t, size_t>>& dim_axes) {
  std::vector<std::string> dims(shape.size(), "{}");
  for (const auto& [dim, axis] : dim_axes) dims[dim] = absl::StrCat("{\"", axes_[axis], "\"}");
  std::string name = Fresh();
  Emit(absl::StrCat(name, " = tessel.sharding_constraint ", value, " <@mesh, [",
                    absl::StrJoin(dims, ", "), "]> : ", Type(shape)));
  return name;
}

Shape Generator::RandomShape() {
  Shape shape(Uniform(1, 3));
  do {
    for (int64_t& d : shape) d = Uniform(1, 8);
  } while (NumElements(shape) > kMaxElements);
  return shape;
}

const Value& Generator::NewArgument(const Shape& shape) {
  std::string name = absl::StrCat("%a", args_.size());
  Argument arg;
  arg.text = absl::StrCat(name, ": ", Type(shape), ArgumentAttr(shape.size()));
  arg.shape = shape;
  args_.push_back(arg);
  pool_.push_back(Value{name, shape, kArgumentMagnitude});
  return pool_.back();
}

std::string Generator::NewIndexArgument(const Shape& shape, std::vector<int32_t> values) {
  std::string name = absl::StrCat("%a", args_.size());
  Argument arg;
  arg.text = absl::StrCat(name, ": ", Type(shape, "i32"), ArgumentAttr(shape.size()));
  arg.shape = shape;
  arg.index = true;
  arg.values = std::move(values);
  args_.push_back(arg);
  return name;
}

std::string Generator::IndexTensor(const Shape& shape, const std::vector<int32_t>& values) {
  if (RoomForArguments() && Chance(60)) return NewIndexArgument(shape, values);
  std::string name = Fresh();
  std::string literal;
  if (shape.empty()) {
    literal = absl::StrCat(values[0]);
  } else {
    // Nested brackets, row-major.
    std::function<std::string(size_t, size_t)> nest = [&](size_t dim, size_t offset) {
      int64_t stride = 1;
      for (size_t d = dim + 1; d < shape.size(); ++d) stride *= shape[d];
      std::vector<std::string> parts;
      for (int64_t i = 0; i < shape[dim]; ++i) {
        parts.push_back(dim + 1 == shape.size() ? absl::StrCat(values[offset + i])
                                                : nest(dim + 1, offset + i * stride));
      }
      return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
    };
    literal = nest(0, 0);
  }
  Emit(absl::StrCat(name, " = hlo.constant dense<", literal, "> : ", Type(shape, "i32")));
  return name;
}

Value Generator::SameShape(const Value& not_this) {
  std::vector<const Value*> candidates;
  for (const Value& v : pool_) {
    if (v.shape == not_this.shape && v.name != not_this.name) candidates.push_back(&v);
  }
  if (!candidates.empty() && Chance(60)) return *candidates[Uniform(0, candidates.size() - 1)];
  if (RoomForArguments()) return NewArgument(not_this.shape);
  return not_this;
}

std::optional<Value> Generator::OfShape(const Shape& shape) {
  std::vector<const Value*> candidates;
  for (const Value& v : pool_) {
    if (v.shape == shape) candidates.push_back(&v);
  }
  if (!candidates.empty() && (Chance(50) || !RoomForArguments())) {
    return *candidates[Uniform(0, candidates.size() - 1)];
  }
  if (RoomForArguments()) return NewArgument(shape);
  return std::nullopt;
}

std::string Generator::Splat(int64_t value, const Shape& shape, const std::string& element) {
  std::string scalar = Constant(value, element);
  std::string name = Fresh();
  Emit(absl::StrCat(name, " = hlo.broadcast_in_dim ", scalar, ", dims = [] : (tensor<", element,
                    ">) -> ", Type(shape, element)));
  return name;
}

std::string Generator::BinaryRegion(const std::string& op, const std::string& element) {
  std::string scalar = absl::StrCat("tensor<", element, ">");
  std::string base = Fresh();
  std::string a = absl::StrCat(base, "_a"), b = absl::StrCat(base, "_b"),
              s = absl::StrCat(base, "_s");
  if (op.empty()) {
    return absl::StrCat("{\n  ^bb0(", a, ": ", scalar, ", ", b, ": ", scalar, "):\n    hlo.return ",
                        b, " : ", scalar, "\n  }");
  }
  return absl::StrCat("{\n  ^bb0(", a, ": ", scalar, ", ", b, ": ", scalar, "):\n    ", s,
                      " = hlo.", op, " ", a, ", ", b, " : ", scalar, "\n    hlo.return ", s, " : ",
                      scalar, "\n  }");
}

std::string Generator::ComparatorRegion(const std::string& direction, int operands) {
  std::string base = Fresh();
  std::vector<std::string> params;
  for (int i = 0; i < 2 * operands; ++i) {
    params.push_back(absl::StrCat(base, "_", i, ": ", Scalar()));
  }
  return absl::StrCat("{\n  ^bb0(", absl::StrJoin(params, ", "), "):\n    ", base,
                      "_p = hlo.compare ", direction, ", ", base, "_0, ", base, "_1 : ", Scalar(),
                      "\n    hlo.return ", base, "_p : tensor<i1>\n  }");
}

bool Generator::EmitRandomOp() {
  // A recent value more often than an old one, so chains grow deep.
  size_t index = Chance(60) ? pool_.size() - 1 : Uniform(0, pool_.size() - 1);
  Value x = pool_[index];
  const int64_t rank = x.shape.size();
  switch (Uniform(0, 33)) {
    case 0:
      return EmitUnary(x);
    case 1:
    case 2:
    case 3:
      return EmitBinary(x);
    case 4: {  // transpose
      if (rank < 2) return false;
      std::vector<int64_t> permutation(rank);
      for (int64_t i = 0; i < rank; ++i) permutation[i] = i;
      std::shuffle(permutation.begin(), permutation.end(), rng_);
      Shape shape(rank);
      for (int64_t i = 0; i < rank; ++i) shape[i] = x.shape[permutation[i]];
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.transpose ", x.name, ", permutation = ", List(permutation),
                          " : (", Type(x.shape), ") -> ", Type(shape)),
             {name, shape, x.magnitude});
      return true;
    }
    case 5: {  // broadcast_in_dim: one new dimension
      if (rank >= 3) return false;
      int64_t position = Uniform(0, rank);
      Shape shape = x.shape;
      shape.insert(shape.begin() + position, Uniform(1, 4));
      if (NumElements(shape) > kMaxElements) return false;
      std::vector<int64_t> dims;
      for (int64_t i = 0; i <= rank; ++i) {
        if (i != position) dims.push_back(i);
      }
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.broadcast_in_dim ", x.name, ", dims = ", List(dims), " : (",
                          Type(x.shape), ") -> ", Type(shape)),
             {name, shape, x.magnitude});
      return true;
    }
    case 6:
      return EmitReduce(x);
    case 7:
    case 8:
      return EmitDot(x);
    case 9: {  // reshape: merge two adjacent dims or split one
      Shape shape = x.shape;
      if (rank >= 2 && Chance(50)) {
        int64_t d = Uniform(0, rank - 2);
        shape[d] *= shape[d + 1];
        shape.erase(shape.begin() + d + 1);
      } else {
        if (rank < 1 || rank >= 3) return false;
        int64_t d = Uniform(0, rank - 1);
        std::vector<int64_t> factors;
        for (int64_t f = 2; f < shape[d]; ++f) {
          if (shape[d] % f == 0) factors.push_back(f);
        }
        if (factors.empty()) return false;
        int64_t f = Pick(factors);
        shape[d] /= f;
        shape.insert(shape.begin() + d, f);
      }
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.reshape ", x.name, " : (", Type(x.shape), ") -> ",
                          Type(shape)),
             {name, shape, x.magnitude});
      return true;
    }
    case 10: {  // slice along one dim
      if (rank < 1) return false;
      int64_t d = Uniform(0, rank - 1);
      if (x.shape[d] < 2) return false;
      int64_t start = Uniform(0, x.shape[d] - 1);
      int64_t limit = Uniform(start + 1, x.shape[d]);
      int64_t stride = Uniform(1, 2);
      Shape shape = x.shape;
      shape[d] = (limit - start + stride - 1) / stride;
      std::vector<std::string> ranges;
      for (int64_t i = 0; i < rank; ++i) {
        ranges.push_back(i == d ? absl::StrCat(start, ":", limit, ":", stride)
                                : absl::StrCat("0:", x.shape[i], ":1"));
      }
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.slice ", x.name, " [", absl::StrJoin(ranges, ", "), "] : (",
                          Type(x.shape), ") -> ", Type(shape)),
             {name, shape, x.magnitude});
      return true;
    }
    case 11: {  // concatenate with a value of the same shape
      if (rank < 1) return false;
      int64_t d = Uniform(0, rank - 1);
      Shape shape = x.shape;
      shape[d] *= 2;
      if (NumElements(shape) > kMaxElements) return false;
      Value y = SameShape(x);
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.concatenate ", x.name, ", ", y.name, ", dim = ", d, " : (",
                          Type(x.shape), ", ", Type(x.shape), ") -> ", Type(shape)),
             {name, shape, std::max(x.magnitude, y.magnitude)});
      return true;
    }
    case 12: {  // reverse one or two dims
      if (rank < 1) return false;
      std::vector<int64_t> dims = {Uniform(0, rank - 1)};
      if (rank >= 2 && Chance(30)) {
        int64_t other = Uniform(0, rank - 1);
        if (other != dims[0]) dims.push_back(other);
        std::sort(dims.begin(), dims.end());
      }
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.reverse ", x.name, ", dims = ", List(dims), " : ",
                          Type(x.shape)),
             {name, x.shape, x.magnitude});
      return true;
    }
    case 13: {  // pad one dim, negative padding and interior padding included
      if (rank < 1) return false;
      int64_t d = Uniform(0, rank - 1);
      std::vector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
      low[d] = Uniform(-1, 2);
      high[d] = Uniform(-1, 2);
      interior[d] = Uniform(0, 1);
      Shape shape = x.shape;
      shape[d] = low[d] + high[d] + x.shape[d] + (x.shape[d] - 1) * interior[d];
      if (shape[d] < 1 || NumElements(shape) > kMaxElements) return false;
      int64_t fill = Chance(70) ? 0 : Uniform(-3, 3);
      std::string pad = Constant(fill, element_);
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.pad ", x.name, ", ", pad, ", low = ", List(low),
                          ", high = ", List(high), ", interior = ", List(interior), " : (",
                          Type(x.shape), ", tensor<", element_, ">) -> ", Type(shape)),
             {name, shape, std::max<double>(x.magnitude, std::abs(fill))});
      return true;
    }
    case 14:
      return EmitCompareSelect(x);
    case 15: {  // iota added in
      if (rank < 1) return false;
      int64_t d = Uniform(0, rank - 1);
      std::string iota = Fresh();
      Emit(absl::StrCat(iota, " = hlo.iota dim = ", d, " : ", Type(x.shape)));
      std::string name = Fresh();
      Define(absl::StrCat(name, " = hlo.add ", x.name, ", ", iota, " : ", Type(x.shape)),
             {name, x.shape, x.magnitude + x.shape[d]});
      return true;
    }
    case 16:
    case 17: {  // a sharding constraint
      std::string name = Fresh();
      std::string sharding = RandomSharding(rank);
      Define(absl::StrCat(name, " = tessel.sharding_constraint ", x.name, " ", sharding, " : ",
                          Type(x.shape)),
             {name, x.shape, x.magnitude, sharding.find("unreduced") != std::string::npos});
      return true;
    }
    case 18:
      return EmitDynamicSlice(x);
    case 19:
      return EmitDynamicUpdateSlice(x);
    case 20:
      return EmitClamp(x);
    case 21:
      return EmitConvolution(x);
    case 22:
      return EmitReduceWindow(x);
    case 23:
      return EmitSelectAndScatter(x);
    case 24:
      return EmitGather(x);
    case 25:
      return EmitScatter(x);
    case 26:
      return EmitSort(x);
    case 27:
      return EmitTopK(x);
    case 28:
    case 29:
      return EmitWhile(x);
    case 30:
      return EmitCase(x);
    case 31:
      return EmitBarrier(x);
    case 32:
      return EmitShardingGroup(x);
    case 33:
      return EmitConvertRoundTrip(x);
  }
  return false;
}

void Generator::StartTrainingStep() {
  const int64_t b = Uniform(2, 8), k = Uniform(1, 6), n = Uniform(1, 6);
  const Value& x = NewArgument({b, k});
  training_x_ = x;
  const Value& w = NewArgument({k, n});
  training_w_ = w;
  std::string name = Fresh();
  Define(absl::StrCat(name, " = hlo.dot_general ", training_x_.name, ", ", training_w_.name,
                      ", lhs_contract = [1], rhs_contract = [0] : (", Type({b, k}), ", ",
                      Type({k, n}), ") -> ", Type({b, n})),
         {name, {b, n}, kArgumentMagnitude * kArgumentMagnitude * k});
  training_ = true;
}

std::vector<Value> Generator::FinishTrainingStep() {
  const Shape act = training_x_.shape, weight = training_w_.shape;
  const Shape out = {act[0], weight[1]};
  const Value* h = nullptr;
  for (const Value& v : pool_) {
    if (v.shape == out) h = &v;
  }
  double g_magnitude = training_x_.magnitude * h->magnitude * act[0];
  if (IsFloat() && g_magnitude * 4 > kMaxMagnitude) return {};
  std::string g = Fresh();
  Emit(absl::StrCat(g, " = hlo.dot_general ", training_x_.name, ", ", h->name,
                    ", lhs_contract = [0], rhs_contract = [0] : (", Type(act), ", ", Type(out),
                    ") -> ", Type(weight)));
  std::vector<Value> results;
  std::string step = g;
  double step_magnitude = g_magnitude;
  if (RoomForArguments() && Chance(40)) {
    std::string state = absl::StrCat("%a", args_.size());
    Argument arg;
    arg.text = absl::StrCat(state, ": ", Type(weight));
    arg.shape = weight;
    args_.push_back(arg);
    step = Fresh();
    Emit(absl::StrCat(step, " = hlo.add ", state, ", ", g, " : ", Type(weight)));
    step_magnitude += kArgumentMagnitude;
    results.push_back({step, weight, step_magnitude});
  }
  int64_t rate = Uniform(1, 2);
  std::string c = Splat(rate, weight, element_);
  std::string scaled = Fresh(), updated = Fresh();
  Emit(absl::StrCat(scaled, " = hlo.mul ", step, ", ", c, " : ", Type(weight)));
  Emit(absl::StrCat(updated, " = hlo.sub ", training_w_.name, ", ", scaled, " : ", Type(weight)));
  results.insert(results.begin(),
                 Value{updated, weight, training_w_.magnitude + rate * step_magnitude});
  return results;
}

RandomProgram Generator::Finish() {
  std::vector<Value> results = {pool_.back()};
  if (pool_.size() > 2 && Chance(30)) results.push_back(pool_[Uniform(0, pool_.size() - 2)]);
  if (training_) {
    for (const Value& v : FinishTrainingStep()) results.push_back(v);
  }
  for (Value& v : results) {
    if (!v.partial) continue;
    std::string name = Fresh();
    Emit(absl::StrCat(name, " = tessel.sharding_constraint ", v.name, " ",
                      RandomSharding(v.shape.size(), ShardingUse::kResult), " : ", Type(v.shape)));
    v = {name, v.shape, v.magnitude};
  }
  std::vector<std::string> result_types, names, types;
  for (const Value& v : results) {
    std::string attr;
    if (Chance(40)) {
      attr = absl::StrCat(" {tessel.sharding = #tessel.sharding",
                          RandomSharding(v.shape.size(), ShardingUse::kResult), "}");
    }
    result_types.push_back(absl::StrCat(Type(v.shape), attr));
    names.push_back(v.name);
    types.push_back(Type(v.shape));
  }
  std::vector<std::string> arg_texts;
  for (const Argument& arg : args_) arg_texts.push_back(arg.text);
  std::string body;
  for (const std::string& line : lines_) absl::StrAppend(&body, "  ", line, "\n");
  program_.module = absl::StrCat(
      "// seed ", program_.seed, "\ntessel.mesh @mesh = <", mesh_text_, ">\n", "func.func @main(",
      absl::StrJoin(arg_texts, ", "), ") -> (", absl::StrJoin(result_types, ", "), ") {\n", body,
      "  return ", absl::StrJoin(names, ", "), " : ", absl::StrJoin(types, ", "), "\n}\n");
  for (size_t i = 0; i < args_.size(); ++i) {
    const Argument& arg = args_[i];
    if (arg.index) {
      program_.inputs.push_back(runtime::Tensor::FromVector<int32_t>(arg.shape, arg.values));
      continue;
    }
    runtime::Tensor ints =
        runtime::RandomTensor(runtime::ElementType::kS32, arg.shape, program_.seed * 31 + i);
    if (!IsFloat()) {
      program_.inputs.push_back(std::move(ints));
      continue;
    }
    std::vector<float> values;
    for (int32_t v : ints.ToVector<int32_t>()) values.push_back(static_cast<float>(v));
    program_.inputs.push_back(runtime::Tensor::FromVector<float>(arg.shape, values));
  }
  return std::move(program_);
}

}  // namespace tessel::testing::random_program_internal

namespace tessel::testing {

RandomProgram GenerateRandomProgram(uint64_t seed) {
  return random_program_internal::Generator(seed).Generate();
}

}  // namespace tessel::testing
