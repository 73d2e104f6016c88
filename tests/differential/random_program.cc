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
#include <random>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/random_inputs.h"

namespace tessel::testing {
namespace {

using Shape = std::vector<int64_t>;

constexpr int64_t kMaxElements = 256;
constexpr int kMaxArguments = 6;
constexpr double kMaxMagnitude = 1 << 22;
// |element| of a random argument (runtime::RandomTensor draws from [-8, 8]).
constexpr double kArgumentMagnitude = 8;

struct Value {
  std::string name;
  Shape shape;
  double magnitude;  // an upper bound on |element|
  // Constrained to be unreduced (a partial sum over some axes): a function result must not
  // be (the harness assembles whole values), so Finish reduces it first.
  bool partial = false;
};

struct Argument {
  std::string text;  // `%a0: tensor<...> {tessel.sharding = ...}`
  Shape shape;
  bool index = false;           // an i32 argument with the chosen `values`
  std::vector<int32_t> values;  // for index arguments
};

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The output size of a window of `size` dilated by `window_dilation` sliding with `stride`
// over `input` elements dilated by `base_dilation` and padded by `low` and `high`.
int64_t WindowOutput(int64_t input, int64_t size, int64_t stride, int64_t low, int64_t high,
                     int64_t base_dilation, int64_t window_dilation) {
  int64_t padded = (input - 1) * base_dilation + 1 + low + high;
  int64_t dilated = (size - 1) * window_dilation + 1;
  return padded < dilated ? 0 : (padded - dilated) / stride + 1;
}

std::string List(const std::vector<int64_t>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

std::string Padding(const std::vector<int64_t>& low, const std::vector<int64_t>& high) {
  std::vector<std::string> rows;
  for (size_t i = 0; i < low.size(); ++i) rows.push_back(absl::StrCat("[", low[i], ", ", high[i], "]"));
  return absl::StrCat("[", absl::StrJoin(rows, ", "), "]");
}

// The smallest power of two above `magnitude`: two's complement values of magnitude at
// most m lie in [-2^k, 2^k) for this 2^k, and so do their bitwise and, or and xor.
double BitwiseBound(double magnitude) {
  double bound = 1;
  while (bound <= magnitude) bound *= 2;
  return bound;
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) { program_.seed = seed; }

  RandomProgram Generate() {
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

 private:
  int64_t Uniform(int64_t lo, int64_t hi) {  // inclusive
    return lo + static_cast<int64_t>(rng_() % static_cast<uint64_t>(hi - lo + 1));
  }
  bool Chance(int percent) { return Uniform(0, 99) < percent; }
  bool IsFloat() const { return element_ == "f32"; }
  template <typename T>
  const T& Pick(const std::vector<T>& values) {
    return values[Uniform(0, values.size() - 1)];
  }

  std::string Type(const Shape& shape, const std::string& element) const {
    std::string dims;
    for (int64_t d : shape) absl::StrAppend(&dims, d, "x");
    return absl::StrCat("tensor<", dims, element, ">");
  }
  std::string Type(const Shape& shape) const { return Type(shape, element_); }
  std::string Scalar() const { return absl::StrCat("tensor<", element_, ">"); }
  std::string Fresh() { return absl::StrCat("%v", counter_++); }
  void Emit(const std::string& line) { out_->push_back(line); }

  void ChooseMesh() {
    // 1 to 3 axes, up to 16 devices, uneven sizes; the small meshes more often.
    static const std::vector<std::vector<int64_t>> kMeshes = {
        {1},    {2},    {3},    {4},    {5},    {6},       {7},       {8},       {16},
        {2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {1, 3},    {4, 4},    {2, 2, 2}, {3, 2, 2},
        {2, 2, 4}, {2, 3, 2}, {2, 1, 2}, {4}, {2, 2}, {2, 3}, {3}, {2, 4}};
    mesh_ = Pick(kMeshes);
    static const char* kNames[] = {"x", "y", "z"};
    std::vector<std::string> parts;
    for (size_t i = 0; i < mesh_.size(); ++i) {
      axes_.push_back(kNames[i]);
      parts.push_back(absl::StrCat("\"", axes_.back(), "\"=", mesh_[i]));
    }
    mesh_text_ = absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
  }

  enum class ShardingUse { kArgument, kResult, kConstraint };

  // A random sharding of a rank-`rank` tensor: each mesh axis, or each of the two sub-axes
  // an axis is sometimes cut into (`"x":(1)2` and `"x":(2)2` of "x"=4), unused or appended
  // to a dim; dims sometimes open (`?`) or with a priority; unused whole axes sometimes
  // `replicated`, and on constraints sometimes `unreduced`.
  std::string RandomSharding(int64_t rank, ShardingUse use = ShardingUse::kConstraint) {
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

  // The mesh axes' indices in a random order.
  std::vector<size_t> ShuffledAxes() {
    std::vector<size_t> axes(axes_.size());
    for (size_t i = 0; i < axes.size(); ++i) axes[i] = i;
    std::shuffle(axes.begin(), axes.end(), rng_);
    return axes;
  }

  // `value` through a sharding constraint that splits each listed dim over one mesh axis
  // (by index) and leaves the others whole; the constrained value's name.
  std::string Constrained(const std::string& value, const Shape& shape,
                          const std::vector<std::pair<int64_t, size_t>>& dim_axes) {
    std::vector<std::string> dims(shape.size(), "{}");
    for (const auto& [dim, axis] : dim_axes) dims[dim] = absl::StrCat("{\"", axes_[axis], "\"}");
    std::string name = Fresh();
    Emit(absl::StrCat(name, " = tessel.sharding_constraint ", value, " <@mesh, [",
                      absl::StrJoin(dims, ", "), "]> : ", Type(shape)));
    return name;
  }

  Shape RandomShape() {
    Shape shape(Uniform(1, 3));
    do {
      for (int64_t& d : shape) d = Uniform(1, 8);
    } while (NumElements(shape) > kMaxElements);
    return shape;
  }

  bool RoomForArguments(int count = 1) const {
    return static_cast<int>(args_.size()) + count <= kMaxArguments;
  }

  std::string ArgumentAttr(int64_t rank) {
    if (!Chance(80)) return "";
    return absl::StrCat(" {tessel.sharding = #tessel.sharding",
                        RandomSharding(rank, ShardingUse::kArgument), "}");
  }

  const Value& NewArgument(const Shape& shape) {
    std::string name = absl::StrCat("%a", args_.size());
    Argument arg;
    arg.text = absl::StrCat(name, ": ", Type(shape), ArgumentAttr(shape.size()));
    arg.shape = shape;
    args_.push_back(arg);
    pool_.push_back(Value{name, shape, kArgumentMagnitude});
    return pool_.back();
  }

  // An i32 argument holding `values` (indices, offsets): not in the pool.
  std::string NewIndexArgument(const Shape& shape, std::vector<int32_t> values) {
    std::string name = absl::StrCat("%a", args_.size());
    Argument arg;
    arg.text = absl::StrCat(name, ": ", Type(shape, "i32"), ArgumentAttr(shape.size()));
    arg.shape = shape;
    arg.index = true;
    arg.values = std::move(values);
    args_.push_back(arg);
    return name;
  }

  // `values` of `shape` as an i32 tensor: an argument while there is room (more often), else
  // a constant.
  std::string IndexTensor(const Shape& shape, const std::vector<int32_t>& values) {
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

  const Value& Define(const std::string& text, const Value& result) {
    Emit(text);
    pool_.push_back(result);
    return pool_.back();
  }

  // A value of `shape` other than `not_this` when the pool has one, else a new argument
  // while there is room, else `not_this` itself.
  Value SameShape(const Value& not_this) {
    std::vector<const Value*> candidates;
    for (const Value& v : pool_) {
      if (v.shape == not_this.shape && v.name != not_this.name) candidates.push_back(&v);
    }
    if (!candidates.empty() && Chance(60)) return *candidates[Uniform(0, candidates.size() - 1)];
    if (RoomForArguments()) return NewArgument(not_this.shape);
    return not_this;
  }

  // A value of `shape` from the pool or a new argument; nullopt when neither.
  std::optional<Value> OfShape(const Shape& shape) {
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

  std::string Constant(int64_t value, const std::string& element) {
    std::string name = Fresh();
    std::string literal = element == "f32" ? absl::StrCat(value, ".0") : absl::StrCat(value);
    Emit(absl::StrCat(name, " = hlo.constant dense<", literal, "> : tensor<", element, ">"));
    return name;
  }

  std::string FloatConstant(const std::string& literal) {
    std::string name = Fresh();
    Emit(absl::StrCat(name, " = hlo.constant dense<", literal, "> : tensor<f32>"));
    return name;
  }

  // The lowest value of the element type (the identity of max).
  std::string Lowest() {
    return IsFloat() ? FloatConstant("0xFF800000") : Constant(-2147483648LL, element_);
  }

  // `value` broadcast to `shape`.
  std::string Splat(int64_t value, const Shape& shape, const std::string& element) {
    std::string scalar = Constant(value, element);
    std::string name = Fresh();
    Emit(absl::StrCat(name, " = hlo.broadcast_in_dim ", scalar, ", dims = [] : (tensor<",
                      element, ">) -> ", Type(shape, element)));
    return name;
  }

  // A region of two rank-0 arguments that returns `op` of them (`op` empty: the second).
  std::string BinaryRegion(const std::string& op, const std::string& element) {
    std::string scalar = absl::StrCat("tensor<", element, ">");
    std::string base = Fresh();
    std::string a = absl::StrCat(base, "_a"), b = absl::StrCat(base, "_b"),
                s = absl::StrCat(base, "_s");
    if (op.empty()) {
      return absl::StrCat("{\n  ^bb0(", a, ": ", scalar, ", ", b, ": ", scalar,
                          "):\n    hlo.return ", b, " : ", scalar, "\n  }");
    }
    return absl::StrCat("{\n  ^bb0(", a, ": ", scalar, ", ", b, ": ", scalar, "):\n    ", s,
                        " = hlo.", op, " ", a, ", ", b, " : ", scalar, "\n    hlo.return ", s,
                        " : ", scalar, "\n  }");
  }

  // A comparator region over `operands` rank-0 pairs comparing the first pair.
  std::string ComparatorRegion(const std::string& direction, int operands) {
    std::string base = Fresh();
    std::vector<std::string> params;
    for (int i = 0; i < 2 * operands; ++i) {
      params.push_back(absl::StrCat(base, "_", i, ": ", Scalar()));
    }
    return absl::StrCat("{\n  ^bb0(", absl::StrJoin(params, ", "), "):\n    ", base,
                        "_p = hlo.compare ", direction, ", ", base, "_0, ", base, "_1 : ",
                        Scalar(), "\n    hlo.return ", base, "_p : tensor<i1>\n  }");
  }

  bool EmitRandomOp() {
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
        Define(absl::StrCat(name, " = hlo.transpose ", x.name, ", permutation = ",
                            List(permutation), " : (", Type(x.shape), ") -> ", Type(shape)),
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
        Define(absl::StrCat(name, " = hlo.broadcast_in_dim ", x.name, ", dims = ", List(dims),
                            " : (", Type(x.shape), ") -> ", Type(shape)),
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
        Define(absl::StrCat(name, " = hlo.slice ", x.name, " [", absl::StrJoin(ranges, ", "),
                            "] : (", Type(x.shape), ") -> ", Type(shape)),
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
        Define(absl::StrCat(name, " = hlo.concatenate ", x.name, ", ", y.name, ", dim = ", d,
                            " : (", Type(x.shape), ", ", Type(x.shape), ") -> ", Type(shape)),
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
        Define(absl::StrCat(name, " = tessel.sharding_constraint ", x.name, " ", sharding,
                            " : ", Type(x.shape)),
               {name, x.shape, x.magnitude,
                sharding.find("unreduced") != std::string::npos});
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

  bool EmitUnary(const Value& x) {
    std::vector<std::string> ops = {"neg", "abs", "sign"};
    if (IsFloat()) {
      for (const char* op : {"floor", "ceil", "round_nearest_even"}) ops.push_back(op);
    } else {
      for (const char* op : {"not", "popcnt", "count_leading_zeros"}) ops.push_back(op);
    }
    std::string op = Pick(ops);
    double magnitude = op == "sign"                                    ? 1
                       : op == "not"                                   ? x.magnitude + 1
                       : op == "popcnt" || op == "count_leading_zeros" ? 32
                                                                       : x.magnitude;
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.", op, " ", x.name, " : ", Type(x.shape)),
           {name, x.shape, magnitude});
    return true;
  }

  bool EmitBinary(const Value& x) {
    Value y = SameShape(x);
    std::vector<std::string> ops = {"add", "sub", "max", "min", "mul", "rem"};
    if (!IsFloat()) {
      for (const char* op : {"and", "or", "xor", "shift_left", "shift_right_arithmetic"}) {
        ops.push_back(op);
      }
    }
    std::string op = Pick(ops);
    std::string rhs = y.name;
    double magnitude;
    if (op == "mul") {
      magnitude = x.magnitude * y.magnitude;
    } else if (op == "add" || op == "sub") {
      magnitude = x.magnitude + y.magnitude;
    } else if (op == "max" || op == "min") {
      magnitude = std::max(x.magnitude, y.magnitude);
    } else if (op == "rem") {
      // A divisor that is never zero (nor -1): |y| + 1.
      std::string abs = Fresh(), one = Splat(1, x.shape, element_);
      Emit(absl::StrCat(abs, " = hlo.abs ", y.name, " : ", Type(x.shape)));
      rhs = Fresh();
      Emit(absl::StrCat(rhs, " = hlo.add ", abs, ", ", one, " : ", Type(x.shape)));
      magnitude = x.magnitude;
    } else if (op == "shift_left" || op == "shift_right_arithmetic") {
      rhs = Splat(Uniform(0, 3), x.shape, element_);
      magnitude = x.magnitude * 8;
    } else {
      magnitude = BitwiseBound(std::max(x.magnitude, y.magnitude));
    }
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.", op, " ", x.name, ", ", rhs, " : ", Type(x.shape)),
           {name, x.shape, magnitude});
    return true;
  }

  // A convert to the other element type and back around an op in that type: and/or/xor in
  // f32 programs (on i32), a mul by 2 in f32 for i32 programs (clamped into f32's exact
  // range first).
  bool EmitConvertRoundTrip(const Value& x) {
    std::string source = x.name;
    double magnitude = x.magnitude;
    if (!IsFloat()) {
      std::string lo = Constant(-1000, "i32"), hi = Constant(1000, "i32");
      source = Fresh();
      Emit(absl::StrCat(source, " = hlo.clamp ", lo, ", ", x.name, ", ", hi,
                        " : tensor<i32>, ", Type(x.shape), ", tensor<i32>"));
      magnitude = std::min(magnitude, 1000.0);
    }
    const std::string other = IsFloat() ? "i32" : "f32";
    std::string there = Fresh();
    Emit(absl::StrCat(there, " = hlo.convert ", source, " : (", Type(x.shape), ") -> ",
                      Type(x.shape, other)));
    std::string changed = Fresh();
    if (IsFloat()) {
      Value y = SameShape(x);
      std::string y_there = Fresh();
      Emit(absl::StrCat(y_there, " = hlo.convert ", y.name, " : (", Type(x.shape), ") -> ",
                        Type(x.shape, other)));
      static const char* kOps[] = {"and", "or", "xor"};
      Emit(absl::StrCat(changed, " = hlo.", kOps[Uniform(0, 2)], " ", there, ", ", y_there,
                        " : ", Type(x.shape, other)));
      magnitude = BitwiseBound(std::max(magnitude, y.magnitude));
    } else {
      std::string two = Splat(2, x.shape, other);
      Emit(absl::StrCat(changed, " = hlo.mul ", there, ", ", two, " : ", Type(x.shape, other)));
      magnitude *= 2;
    }
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.convert ", changed, " : (", Type(x.shape, other), ") -> ",
                        Type(x.shape)),
           {name, x.shape, magnitude});
    return true;
  }

  // compare (any direction, sometimes two compares joined by and/or/xor) and select, or the
  // predicate converted and added in.
  bool EmitCompareSelect(const Value& x) {
    static const char* kDirections[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
    Value y = SameShape(x);
    std::string predicate = Fresh();
    Emit(absl::StrCat(predicate, " = hlo.compare ", kDirections[Uniform(0, 5)], ", ", x.name,
                      ", ", y.name, " : ", Type(x.shape)));
    if (Chance(30)) {
      std::string zero = Splat(0, x.shape, element_);
      std::string other = Fresh();
      Emit(absl::StrCat(other, " = hlo.compare ", kDirections[Uniform(0, 5)], ", ", x.name,
                        ", ", zero, " : ", Type(x.shape)));
      static const char* kOps[] = {"and", "or", "xor"};
      std::string joined = Fresh();
      Emit(absl::StrCat(joined, " = hlo.", kOps[Uniform(0, 2)], " ", predicate, ", ", other,
                        " : ", Type(x.shape, "i1")));
      predicate = joined;
    }
    std::string name = Fresh();
    if (Chance(25)) {
      std::string converted = Fresh();
      Emit(absl::StrCat(converted, " = hlo.convert ", predicate, " : (", Type(x.shape, "i1"),
                        ") -> ", Type(x.shape)));
      Define(absl::StrCat(name, " = hlo.add ", x.name, ", ", converted, " : ", Type(x.shape)),
             {name, x.shape, x.magnitude + 1});
      return true;
    }
    Define(absl::StrCat(name, " = hlo.select ", predicate, ", ", y.name, ", ", x.name, " : ",
                        Type(x.shape, "i1"), ", ", Type(x.shape)),
           {name, x.shape, std::max(x.magnitude, y.magnitude)});
    return true;
  }

  bool EmitClamp(const Value& x) {
    std::string name = Fresh();
    if (Chance(50)) {
      int64_t lo = Uniform(-6, 1), hi = Uniform(-1, 6);
      std::string l = Constant(lo, element_), h = Constant(hi, element_);
      Define(absl::StrCat(name, " = hlo.clamp ", l, ", ", x.name, ", ", h, " : ", Scalar(), ", ",
                          Type(x.shape), ", ", Scalar()),
             {name, x.shape, static_cast<double>(std::max(std::abs(lo), std::abs(hi)))});
      return true;
    }
    Value lo = SameShape(x), hi = SameShape(x);
    Define(absl::StrCat(name, " = hlo.clamp ", lo.name, ", ", x.name, ", ", hi.name, " : ",
                        Type(x.shape), ", ", Type(x.shape), ", ", Type(x.shape)),
           {name, x.shape, std::max(lo.magnitude, hi.magnitude)});
    return true;
  }

  bool EmitReduce(const Value& x) {  // sum or max over some dims
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    std::vector<int64_t> dims;
    Shape shape;
    int64_t count = 1;
    for (int64_t d = 0; d < rank; ++d) {
      if (Chance(50)) {
        dims.push_back(d);
        count *= x.shape[d];
      } else {
        shape.push_back(x.shape[d]);
      }
    }
    if (dims.empty()) {
      dims.push_back(rank - 1);
      count = x.shape.back();
      shape.pop_back();
    }
    bool sum = Chance(60);
    double magnitude = sum ? x.magnitude * count : x.magnitude;
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    std::string init = sum ? Constant(0, element_) : Lowest();
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.reduce(", x.name, ") init(", init, ") dimensions = ",
                        List(dims), " : (", Type(x.shape), ", ", Scalar(), ") -> ", Type(shape),
                        " reducer ", BinaryRegion(sum ? "add" : "max", element_)),
           {name, shape, magnitude});
    return true;
  }

  // dot_general against a new or existing [K, N] (or [B, K, N]) operand.
  bool EmitDot(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1 || !RoomForArguments()) return false;
    bool batch = rank == 3;
    int64_t contract = batch ? Uniform(1, 2) : Uniform(0, rank - 1);
    int64_t n = Uniform(1, 6);
    Shape rhs = batch ? Shape{x.shape[0], x.shape[contract], n} : Shape{x.shape[contract], n};
    Shape shape;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != contract) shape.push_back(x.shape[d]);
    }
    shape.push_back(n);
    if (NumElements(shape) > kMaxElements || NumElements(rhs) > kMaxElements) return false;
    double magnitude = x.magnitude * kArgumentMagnitude * x.shape[contract];
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    Value y = NewArgument(rhs);
    // Sometimes the operands are split in conflicting ways (the lhs's contracting dim over
    // the axis that splits the rhs's N, and the other way round), which puts up to five
    // different strategies on offer; random shardings alone rarely do.
    std::string lhs_name = x.name, rhs_name = y.name;
    if (axes_.size() >= 2 && Chance(30)) {
      std::vector<size_t> axes = ShuffledAxes();
      std::vector<std::pair<int64_t, size_t>> lhs_split = {{contract, axes[0]}};
      for (int64_t d = batch ? 1 : 0; d < rank; ++d) {
        if (d != contract) {
          lhs_split.push_back({d, axes[1]});
          break;
        }
      }
      const int64_t rhs_contract = batch ? 1 : 0;
      lhs_name = Constrained(x.name, x.shape, lhs_split);
      rhs_name = Constrained(y.name, rhs, {{rhs_contract, axes[1]}, {rhs_contract + 1, axes[0]}});
    }
    std::string name = Fresh();
    std::string dims =
        batch ? absl::StrCat("lhs_batch = [0], rhs_batch = [0], lhs_contract = [", contract,
                             "], rhs_contract = [1]")
              : absl::StrCat("lhs_contract = [", contract, "], rhs_contract = [0]");
    Define(absl::StrCat(name, " = hlo.dot_general ", lhs_name, ", ", rhs_name, ", ", dims, " : (",
                        Type(x.shape), ", ", Type(rhs), ") -> ", Type(shape)),
           {name, shape, magnitude});
    return true;
  }

  // Offsets for a box of `sizes` in `shape`: i32 constants (out of range by one sometimes:
  // the ops clamp) or, sometimes, one i32 argument shared by all dims.
  std::vector<std::string> Offsets(const Shape& shape, const Shape& sizes) {
    const int64_t rank = shape.size();
    std::string shared;
    if (RoomForArguments() && Chance(25)) {
      shared = NewIndexArgument({}, {static_cast<int32_t>(Uniform(-1, 3))});
    }
    std::vector<std::string> offsets;
    for (int64_t d = 0; d < rank; ++d) {
      if (!shared.empty() && Chance(60)) {
        offsets.push_back(shared);
      } else {
        offsets.push_back(Constant(Uniform(-1, shape[d] - sizes[d] + 1), "i32"));
      }
    }
    return offsets;
  }

  bool EmitDynamicSlice(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    Shape shape = x.shape;
    for (int64_t d = 0; d < rank; ++d) shape[d] = Uniform(1, x.shape[d]);
    std::vector<std::string> offsets = Offsets(x.shape, shape);
    std::vector<std::string> offset_types(rank, "tensor<i32>");
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.dynamic_slice ", x.name, ", ", absl::StrJoin(offsets, ", "),
                        ", sizes = ", List(shape), " : (", Type(x.shape), ", ",
                        absl::StrJoin(offset_types, ", "), ") -> ", Type(shape)),
           {name, shape, x.magnitude});
    return true;
  }

  bool EmitDynamicUpdateSlice(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    // The update: a pool value that fits (other than x), else a new argument.
    std::vector<const Value*> fits;
    for (const Value& v : pool_) {
      if (v.shape.size() != x.shape.size() || v.name == x.name) continue;
      bool fit = true;
      for (int64_t d = 0; d < rank; ++d) fit &= v.shape[d] <= x.shape[d];
      if (fit) fits.push_back(&v);
    }
    Value update;
    if (!fits.empty() && (Chance(50) || !RoomForArguments())) {
      update = *fits[Uniform(0, fits.size() - 1)];
    } else if (RoomForArguments()) {
      Shape shape = x.shape;
      for (int64_t d = 0; d < rank; ++d) shape[d] = Uniform(1, x.shape[d]);
      update = NewArgument(shape);
    } else {
      return false;
    }
    std::vector<std::string> offsets = Offsets(x.shape, update.shape);
    std::vector<std::string> offset_types(rank, "tensor<i32>");
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.dynamic_update_slice ", x.name, ", ", update.name, ", ",
                        absl::StrJoin(offsets, ", "), " : (", Type(x.shape), ", ",
                        Type(update.shape), ", ", absl::StrJoin(offset_types, ", "), ") -> ",
                        Type(x.shape)),
           {name, x.shape, std::max(x.magnitude, update.magnitude)});
    return true;
  }

  // A convolution of x (rank 3: one spatial dim) or of a new rank-4 argument (two) with a
  // new kernel: dims in random orders, random windows, strides, padding of both signs, lhs
  // and rhs dilation, and sometimes feature or batch groups.
  bool EmitConvolution(const Value& x_in) {
    Value x = x_in;
    if (x.shape.size() != 3 || Chance(30)) {
      if (!RoomForArguments(2)) return false;
      Shape shape = {Uniform(1, 4), Uniform(1, 7), Uniform(1, 7), Uniform(1, 4)};
      if (NumElements(shape) > kMaxElements) return false;
      x = NewArgument(shape);
    }
    if (!RoomForArguments()) return false;
    const int64_t rank = x.shape.size(), spatial = rank - 2;
    // Roles: 0 = batch (or input feature of the kernel), 1 = feature (output feature), 2 +
    // i = spatial dim i.
    auto roles = [&]() {
      std::vector<int64_t> r(rank);
      for (int64_t i = 0; i < rank; ++i) r[i] = i;
      if (Chance(60)) std::shuffle(r.begin(), r.end(), rng_);
      return r;
    };
    std::vector<int64_t> lhs_roles = roles(), kernel_roles = roles(), out_roles = roles();
    Shape by_role(rank);
    for (int64_t d = 0; d < rank; ++d) by_role[lhs_roles[d]] = x.shape[d];
    const int64_t batch = by_role[0], features = by_role[1];
    int64_t feature_groups = 1, batch_groups = 1;
    auto divisor = [&](int64_t n) {
      std::vector<int64_t> divisors;
      for (int64_t f = 2; f <= n; ++f) {
        if (n % f == 0) divisors.push_back(f);
      }
      return divisors.empty() ? int64_t{1} : Pick(divisors);
    };
    int group_kind = static_cast<int>(Uniform(0, 4));
    if (group_kind == 3) feature_groups = divisor(features);
    if (group_kind == 4) batch_groups = divisor(batch);
    const int64_t groups = feature_groups * batch_groups;
    const int64_t out_features = groups * Uniform(1, groups > 1 ? 2 : 4);
    std::vector<int64_t> kernel(spatial), strides(spatial), low(spatial), high(spatial),
        lhs_dilation(spatial), rhs_dilation(spatial), out(spatial);
    for (int64_t i = 0; i < spatial; ++i) {
      kernel[i] = Uniform(1, 3);
      strides[i] = Chance(70) ? 1 : Uniform(2, 3);
      low[i] = Chance(50) ? 0 : Uniform(-1, 2);
      high[i] = Chance(50) ? 0 : Uniform(-1, 2);
      lhs_dilation[i] = Chance(80) ? 1 : 2;
      rhs_dilation[i] = Chance(80) ? 1 : 2;
      out[i] = WindowOutput(by_role[2 + i], kernel[i], strides[i], low[i], high[i],
                            lhs_dilation[i], rhs_dilation[i]);
      if (out[i] < 1) return false;
    }
    Shape kernel_by_role = {features / feature_groups, out_features};
    Shape out_by_role = {batch / batch_groups, out_features};
    for (int64_t i = 0; i < spatial; ++i) {
      kernel_by_role.push_back(kernel[i]);
      out_by_role.push_back(out[i]);
    }
    Shape kernel_shape(rank), out_shape(rank);
    std::vector<std::string> lhs_labels(rank), kernel_labels(rank), out_labels(rank);
    auto label = [](int64_t role, const char* first, const char* second) {
      return role == 0 ? std::string(first) : role == 1 ? std::string(second)
                                                        : absl::StrCat(role - 2);
    };
    for (int64_t d = 0; d < rank; ++d) {
      kernel_shape[d] = kernel_by_role[kernel_roles[d]];
      out_shape[d] = out_by_role[out_roles[d]];
      lhs_labels[d] = label(lhs_roles[d], "b", "f");
      kernel_labels[d] = label(kernel_roles[d], "i", "o");
      out_labels[d] = label(out_roles[d], "b", "f");
    }
    if (NumElements(kernel_shape) > kMaxElements || NumElements(out_shape) > kMaxElements) {
      return false;
    }
    double magnitude = x.magnitude * kArgumentMagnitude * NumElements(kernel_shape);
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    Value k = NewArgument(kernel_shape);
    // Sometimes the input features are split, on the lhs and on the kernel over different
    // axes, so that the partitioner weighs computing without either split (partial sums)
    // against the other layouts: without this, all four of its candidates were on offer in
    // one case in ten thousand.
    std::string lhs_name = x.name, kernel_name = k.name;
    if (groups == 1 && axes_.size() >= 2 && Chance(40)) {
      std::vector<size_t> axes = ShuffledAxes();
      auto dim_of = [&](const std::vector<int64_t>& roles, int64_t role) {
        return static_cast<int64_t>(std::find(roles.begin(), roles.end(), role) - roles.begin());
      };
      lhs_name = Constrained(x.name, x.shape, {{dim_of(lhs_roles, 1), axes[0]}});
      kernel_name = Constrained(k.name, kernel_shape, {{dim_of(kernel_roles, 0), axes[1]}});
    }
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.convolution ", lhs_name, ", ", kernel_name, ", dims = [",
                        absl::StrJoin(lhs_labels, ", "), "]x[", absl::StrJoin(kernel_labels, ", "),
                        "]->[", absl::StrJoin(out_labels, ", "), "], window_strides = ",
                        List(strides), ", padding = ", Padding(low, high), ", lhs_dilation = ",
                        List(lhs_dilation), ", rhs_dilation = ", List(rhs_dilation),
                        ", feature_group_count = ", feature_groups,
                        ", batch_group_count = ", batch_groups, " : (", Type(x.shape), ", ",
                        Type(kernel_shape), ") -> ", Type(out_shape)),
           {name, out_shape, magnitude});
    return true;
  }

  // reduce_window (sum or max) with random windows, strides, base and window dilations and
  // padding; init values that are not the identity sometimes.
  bool EmitReduceWindow(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    std::vector<int64_t> sizes(rank), strides(rank), base(rank), window(rank), low(rank),
        high(rank);
    Shape shape(rank);
    int64_t window_elements = 1;
    for (int64_t d = 0; d < rank; ++d) {
      sizes[d] = Chance(40) ? 1 : Uniform(1, 3);
      strides[d] = Chance(60) ? 1 : Uniform(2, 3);
      base[d] = Chance(85) ? 1 : 2;
      window[d] = Chance(85) ? 1 : 2;
      low[d] = Chance(60) ? 0 : Uniform(0, 2);
      high[d] = Chance(60) ? 0 : Uniform(0, 2);
      shape[d] = WindowOutput(x.shape[d], sizes[d], strides[d], low[d], high[d], base[d],
                              window[d]);
      if (shape[d] < 1) return false;
      window_elements *= sizes[d];
    }
    if (NumElements(shape) > kMaxElements) return false;
    bool sum = Chance(55);
    int64_t init_value = Chance(60) ? 0 : Uniform(-3, 3);
    double magnitude =
        sum ? (window_elements + 1) * std::max<double>(x.magnitude, std::abs(init_value))
            : std::max<double>(x.magnitude, std::abs(init_value));
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    std::string init = sum || init_value != 0 ? Constant(init_value, element_) : Lowest();
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.reduce_window(", x.name, ") init(", init,
                        ") window_dimensions = ", List(sizes), ", window_strides = ",
                        List(strides), ", base_dilations = ", List(base),
                        ", window_dilations = ", List(window), ", padding = ",
                        Padding(low, high), " : (", Type(x.shape), ", ", Scalar(), ") -> ",
                        Type(shape), " reducer ", BinaryRegion(sum ? "add" : "max", element_)),
           {name, shape, magnitude});
    return true;
  }

  bool EmitSelectAndScatter(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    std::vector<int64_t> sizes(rank), strides(rank), low(rank), high(rank);
    Shape source_shape(rank);
    int64_t overlap = 1;
    for (int64_t d = 0; d < rank; ++d) {
      sizes[d] = Chance(30) ? 1 : Uniform(1, 3);
      strides[d] = Uniform(1, 3);
      low[d] = Chance(70) ? 0 : Uniform(0, 1);
      high[d] = Chance(70) ? 0 : Uniform(0, 1);
      source_shape[d] = WindowOutput(x.shape[d], sizes[d], strides[d], low[d], high[d], 1, 1);
      if (source_shape[d] < 1) return false;
      overlap *= (sizes[d] + strides[d] - 1) / strides[d];
    }
    std::optional<Value> source = OfShape(source_shape);
    if (!source) return false;
    int64_t init_value = Chance(70) ? 0 : Uniform(-2, 2);
    double magnitude = std::abs(init_value) + source->magnitude * overlap;
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    std::string init = Constant(init_value, element_);
    std::string base = Fresh();
    std::string select = absl::StrCat("{\n  ^bb0(", base, "_a: ", Scalar(), ", ", base, "_b: ", Scalar(),
                          "):\n    ", base, "_p = hlo.compare ", Chance(60) ? "GE" : "LE", ", ",
                          base, "_a, ", base, "_b : ", Scalar(), "\n    hlo.return ", base,
                          "_p : tensor<i1>\n  }");
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.select_and_scatter(", x.name, ", ", source->name, ", ",
                        init, ") window_dimensions = ", List(sizes), ", window_strides = ",
                        List(strides), ", padding = ", Padding(low, high), " : (",
                        Type(x.shape), ", ", Type(source_shape), ", ", Scalar(), ") -> ",
                        Type(x.shape), " select ", select, " scatter ",
                        BinaryRegion("add", element_)),
           {name, x.shape, magnitude});
    return true;
  }

  // Index vectors and the layout of an indices tensor shared by gather and scatter.
  struct IndexLayout {
    Shape indices_shape;
    int64_t index_vector_dim = 0;
    std::vector<int64_t> batch_shape;  // indices_shape without index_vector_dim
    int64_t batching_position = -1;    // in indices_shape; -1: none
    int64_t batching_in_batch = -1;    // in batch_shape; -1: none
  };

  // An indices layout of `count` index vectors of `entries` entries (and a batching dim of
  // `batching` positions when positive).
  IndexLayout RandomIndexLayout(int64_t count, int64_t entries, int64_t batching) {
    IndexLayout layout;
    layout.batch_shape = {count};
    int64_t batching_in_batch = -1;
    if (batching > 0) {
      batching_in_batch = Uniform(0, 1);
      layout.batch_shape.insert(layout.batch_shape.begin() + batching_in_batch, batching);
    }
    const int64_t n = layout.batch_shape.size();
    if (entries == 1 && Chance(30)) {
      layout.index_vector_dim = n;  // implicit trailing dim of size 1
      layout.indices_shape = layout.batch_shape;
    } else {
      layout.index_vector_dim = Chance(70) ? n : Uniform(0, n);
      layout.indices_shape = layout.batch_shape;
      layout.indices_shape.insert(layout.indices_shape.begin() + layout.index_vector_dim,
                                  entries);
    }
    layout.batching_in_batch = batching_in_batch;
    if (batching_in_batch >= 0) {
      layout.batching_position = batching_in_batch >= layout.index_vector_dim &&
                                         layout.indices_shape.size() > layout.batch_shape.size()
                                     ? batching_in_batch + 1
                                     : batching_in_batch;
    }
    return layout;
  }

  // The indices tensor for `vectors[batch position][entry]` (batch positions in row-major
  // order of batch_shape).
  std::string IndicesTensor(const IndexLayout& layout,
                            const std::vector<std::vector<int32_t>>& vectors) {
    std::vector<int32_t> values(NumElements(layout.indices_shape));
    const bool implicit = layout.indices_shape.size() == layout.batch_shape.size();
    const int64_t rank = layout.indices_shape.size();
    for (size_t p = 0; p < vectors.size(); ++p) {
      // The batch coordinates of position p.
      std::vector<int64_t> coords(layout.batch_shape.size());
      int64_t rest = p;
      for (int64_t d = layout.batch_shape.size() - 1; d >= 0; --d) {
        coords[d] = rest % layout.batch_shape[d];
        rest /= layout.batch_shape[d];
      }
      for (size_t e = 0; e < vectors[p].size(); ++e) {
        std::vector<int64_t> full = coords;
        if (!implicit) full.insert(full.begin() + layout.index_vector_dim, e);
        int64_t flat = 0;
        for (int64_t d = 0; d < rank; ++d) flat = flat * layout.indices_shape[d] + full[d];
        values[flat] = vectors[p][e];
      }
    }
    return IndexTensor(layout.indices_shape, values);
  }

  // A random subset of `dims` (in random order), of 1 to `most` elements.
  std::vector<int64_t> RandomSubset(std::vector<int64_t> dims, int64_t most) {
    std::shuffle(dims.begin(), dims.end(), rng_);
    dims.resize(Uniform(1, std::min<int64_t>(most, dims.size())));
    return dims;
  }

  // Sorted positions of `count` dims among `total`.
  std::vector<int64_t> RandomPositions(int64_t count, int64_t total) {
    std::vector<int64_t> all(total);
    for (int64_t i = 0; i < total; ++i) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng_);
    all.resize(count);
    std::sort(all.begin(), all.end());
    return all;
  }

  bool EmitGather(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    int64_t batching_dim = rank >= 2 && Chance(30) ? Uniform(0, rank - 1) : -1;
    std::vector<int64_t> candidates;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != batching_dim) candidates.push_back(d);
    }
    std::vector<int64_t> index_map = RandomSubset(candidates, 2);
    std::vector<int64_t> slice(rank), collapsed, offset_sizes;
    for (int64_t d = 0; d < rank; ++d) {
      bool indexed = std::count(index_map.begin(), index_map.end(), d) > 0;
      if (d == batching_dim) {
        slice[d] = 1;
      } else if (indexed && Chance(50)) {
        slice[d] = 1;
        collapsed.push_back(d);
      } else {
        slice[d] = indexed || Chance(40) ? Uniform(1, x.shape[d]) : x.shape[d];
        offset_sizes.push_back(slice[d]);
      }
    }
    IndexLayout layout = RandomIndexLayout(Uniform(1, 4), index_map.size(),
                                           batching_dim >= 0 ? x.shape[batching_dim] : 0);
    const int64_t result_rank = layout.batch_shape.size() + offset_sizes.size();
    std::vector<int64_t> offset_dims = RandomPositions(offset_sizes.size(), result_rank);
    Shape shape(result_rank);
    size_t next_offset = 0, next_batch = 0;
    for (int64_t d = 0; d < result_rank; ++d) {
      bool offset = next_offset < offset_dims.size() && offset_dims[next_offset] == d;
      shape[d] = offset ? offset_sizes[next_offset++] : layout.batch_shape[next_batch++];
    }
    if (NumElements(shape) > kMaxElements) return false;
    std::vector<std::vector<int32_t>> vectors(NumElements(layout.batch_shape));
    for (auto& vector : vectors) {
      for (int64_t d : index_map) {
        // Out of range by one sometimes: gather clamps.
        vector.push_back(static_cast<int32_t>(Uniform(-1, x.shape[d] - slice[d] + 1)));
      }
    }
    std::string indices = IndicesTensor(layout, vectors);
    std::string dims = absl::StrCat(", slice_sizes = ", List(slice));
    if (!offset_dims.empty()) absl::StrAppend(&dims, ", offset_dims = ", List(offset_dims));
    if (!collapsed.empty()) absl::StrAppend(&dims, ", collapsed_slice_dims = ", List(collapsed));
    if (batching_dim >= 0) {
      absl::StrAppend(&dims, ", operand_batching_dims = [", batching_dim,
                      "], start_indices_batching_dims = [", layout.batching_position, "]");
    }
    absl::StrAppend(&dims, ", start_index_map = ", List(index_map),
                    ", index_vector_dim = ", layout.index_vector_dim);
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.gather ", x.name, "[", indices, "]", dims, " : (",
                        Type(x.shape), ", ", Type(layout.indices_shape, "i32"), ") -> ",
                        Type(shape)),
           {name, shape, x.magnitude});
    return true;
  }

  // scatter into x with add (indices anywhere, windows that do not fit skipped) or with
  // overwrite (windows of one element along the indexed dims at distinct in-range
  // positions, so no two updates meet and the order of updates does not matter).
  bool EmitScatter(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    const bool overwrite = Chance(35);
    int64_t batching_dim = rank >= 2 && Chance(30) ? Uniform(0, rank - 1) : -1;
    std::vector<int64_t> candidates;
    for (int64_t d = 0; d < rank; ++d) {
      if (d != batching_dim) candidates.push_back(d);
    }
    std::vector<int64_t> to_operand = RandomSubset(candidates, 2);
    std::vector<int64_t> window(rank), inserted, window_sizes;
    int64_t positions = 1;  // distinct in-range index vectors
    for (int64_t d = 0; d < rank; ++d) {
      bool indexed = std::count(to_operand.begin(), to_operand.end(), d) > 0;
      if (indexed) positions *= x.shape[d];
      if (d == batching_dim) {
        window[d] = 1;
      } else if (indexed && Chance(50)) {
        window[d] = 1;
        inserted.push_back(d);
      } else {
        window[d] = indexed ? (overwrite ? 1 : Uniform(1, x.shape[d]))
                            : (Chance(60) ? x.shape[d] : Uniform(1, x.shape[d]));
        window_sizes.push_back(window[d]);
      }
    }
    int64_t count = Uniform(1, 4);
    if (overwrite) count = std::min(count, positions);
    IndexLayout layout = RandomIndexLayout(count, to_operand.size(),
                                           batching_dim >= 0 ? x.shape[batching_dim] : 0);
    const int64_t updates_rank = layout.batch_shape.size() + window_sizes.size();
    std::vector<int64_t> window_dims = RandomPositions(window_sizes.size(), updates_rank);
    Shape updates_shape(updates_rank);
    size_t next_window = 0, next_batch = 0;
    for (int64_t d = 0; d < updates_rank; ++d) {
      bool in_window = next_window < window_dims.size() && window_dims[next_window] == d;
      updates_shape[d] =
          in_window ? window_sizes[next_window++] : layout.batch_shape[next_batch++];
    }
    if (NumElements(updates_shape) > kMaxElements) return false;
    const int64_t vector_count = NumElements(layout.batch_shape);
    std::vector<std::vector<int32_t>> vectors(vector_count);
    if (overwrite) {
      // Each batching group (or the whole batch) gets `count` distinct positions.
      std::vector<std::vector<int32_t>> all;
      for (int64_t p = 0; p < positions; ++p) {
        std::vector<int32_t> vector;
        int64_t rest = p;
        for (int64_t d : to_operand) {
          vector.push_back(static_cast<int32_t>(rest % x.shape[d]));
          rest /= x.shape[d];
        }
        all.push_back(vector);
      }
      // Batch positions run row-major over batch_shape; those of one batching group share
      // the batching coordinate, and within a group the `count` positions are distinct.
      std::vector<std::vector<int32_t>> chosen;
      const int64_t groups = vector_count / count;
      for (int64_t g = 0; g < groups; ++g) {
        std::shuffle(all.begin(), all.end(), rng_);
        for (int64_t i = 0; i < count; ++i) chosen.push_back(all[i]);
      }
      // chosen[g * count + i] is for batching coordinate g and count position i.
      for (int64_t p = 0; p < vector_count; ++p) {
        int64_t g = 0, i = p;
        if (layout.batching_in_batch >= 0) {
          const int64_t size = layout.batch_shape[1];
          const int64_t a = p / size, b = p % size;
          g = layout.batching_in_batch == 0 ? a : b;
          i = layout.batching_in_batch == 0 ? b : a;
        }
        vectors[p] = chosen[g * count + i];
      }
    } else {
      for (auto& vector : vectors) {
        for (int64_t d : to_operand) {
          vector.push_back(static_cast<int32_t>(Uniform(-1, x.shape[d] - window[d] + 1)));
        }
      }
    }
    std::optional<Value> updates = OfShape(updates_shape);
    if (!updates) return false;
    double magnitude = overwrite ? std::max(x.magnitude, updates->magnitude)
                                 : x.magnitude + updates->magnitude * vector_count;
    if (IsFloat() && magnitude > kMaxMagnitude) return false;
    std::string indices = IndicesTensor(layout, vectors);
    std::string dims;
    if (!window_dims.empty()) absl::StrAppend(&dims, ", update_window_dims = ", List(window_dims));
    if (!inserted.empty()) absl::StrAppend(&dims, ", inserted_window_dims = ", List(inserted));
    if (batching_dim >= 0) {
      absl::StrAppend(&dims, ", input_batching_dims = [", batching_dim,
                      "], scatter_indices_batching_dims = [", layout.batching_position, "]");
    }
    absl::StrAppend(&dims, ", scatter_dims_to_operand_dims = ", List(to_operand),
                    ", index_vector_dim = ", layout.index_vector_dim);
    if (overwrite && Chance(50)) absl::StrAppend(&dims, " unique_indices");
    std::string name = Fresh();
    Define(absl::StrCat(name, " = hlo.scatter(", x.name, ") indices(", indices, ") updates(",
                        updates->name, ")", dims, " : (", Type(x.shape), ", ",
                        Type(layout.indices_shape, "i32"), ", ", Type(updates_shape), ") -> ",
                        Type(x.shape), " update ",
                        BinaryRegion(overwrite ? "" : "add", element_)),
           {name, x.shape, magnitude});
    return true;
  }

  // sort of x alone or with a second value (or an iota: argsort), LT or GT on x.
  bool EmitSort(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    int64_t dim = Uniform(0, rank - 1);
    const std::string direction = Chance(50) ? "LT" : "GT";
    std::string name = Fresh();
    if (Chance(50)) {
      bool stable = Chance(50);
      Define(absl::StrCat(name, " = hlo.sort(", x.name, ") dimension = ", dim,
                          stable ? " is_stable" : "", " : ", Type(x.shape), " comparator ",
                          ComparatorRegion(direction, 1)),
             {name, x.shape, x.magnitude});
      return true;
    }
    Value y;
    if (Chance(40)) {
      std::string iota = Fresh();
      Emit(absl::StrCat(iota, " = hlo.iota dim = ", dim, " : ", Type(x.shape)));
      y = {iota, x.shape, static_cast<double>(x.shape[dim])};
    } else {
      y = SameShape(x);
    }
    Emit(absl::StrCat(name, ":2 = hlo.sort(", x.name, ", ", y.name, ") dimension = ", dim,
                      " is_stable : ", Type(x.shape), ", ", Type(x.shape), " comparator ",
                      ComparatorRegion(direction, 2)));
    pool_.push_back({absl::StrCat(name, "#0"), x.shape, x.magnitude});
    pool_.push_back({absl::StrCat(name, "#1"), x.shape, y.magnitude});
    return true;
  }

  bool EmitTopK(const Value& x) {
    const int64_t rank = x.shape.size();
    if (rank < 1) return false;
    int64_t k = Uniform(1, std::min<int64_t>(x.shape.back(), 4));
    Shape shape = x.shape;
    shape.back() = k;
    std::string name = Fresh();
    Emit(absl::StrCat(name, ":2 = hlo.top_k ", x.name, ", k = ", k, Chance(30) ? " smallest" : "",
                      " : ", Type(x.shape)));
    pool_.push_back({absl::StrCat(name, "#0"), shape, x.magnitude});
    std::string indices = absl::StrCat(name, "#1");
    if (IsFloat()) {
      std::string converted = Fresh();
      Emit(absl::StrCat(converted, " = hlo.convert ", indices, " : (", Type(shape, "i32"),
                        ") -> ", Type(shape)));
      indices = converted;
    }
    pool_.push_back({indices, shape, static_cast<double>(x.shape.back())});
    return true;
  }

  // One step of a loop body or a case branch on carried value `v`: a shape-keeping op with
  // values captured from above. Returns the new name and updates `magnitude` (a function
  // of the carried magnitude, `carried`).
  std::string TransformStep(const Value& v, const std::string& counter, double* magnitude) {
    const std::string type = Type(v.shape);
    std::string name = Fresh();
    switch (Uniform(0, 6)) {
      case 0: {
        Value c = SameShape(v);
        if (c.name == v.name) c = v;
        Emit(absl::StrCat(name, " = hlo.add ", v.name, ", ", c.name, " : ", type));
        *magnitude += c.magnitude;
        return name;
      }
      case 1: {
        Value c = SameShape(v);
        if (c.name == v.name) c = v;
        Emit(absl::StrCat(name, " = hlo.", Chance(50) ? "max" : "min", " ", v.name, ", ", c.name,
                          " : ", type));
        *magnitude = std::max(*magnitude, c.magnitude);
        return name;
      }
      case 2:
        Emit(absl::StrCat(name, " = hlo.neg ", v.name, " : ", type));
        return name;
      case 3:
        if (v.shape.empty()) break;
        Emit(absl::StrCat(name, " = hlo.reverse ", v.name, ", dims = [",
                          Uniform(0, v.shape.size() - 1), "] : ", type));
        return name;
      case 4: {
        if (counter.empty()) break;
        std::string converted = counter;
        if (IsFloat()) {
          converted = Fresh();
          Emit(absl::StrCat(converted, " = hlo.convert ", counter,
                            " : (tensor<i32>) -> tensor<f32>"));
        }
        std::string splat = Fresh();
        Emit(absl::StrCat(splat, " = hlo.broadcast_in_dim ", converted, ", dims = [] : (",
                          Scalar(), ") -> ", type));
        Emit(absl::StrCat(name, " = hlo.add ", v.name, ", ", splat, " : ", type));
        *magnitude += 4;
        return name;
      }
      case 5: {  // a dot with a captured square matrix along the last dim
        if (v.shape.empty() || v.shape.back() > 6) break;
        const int64_t k = v.shape.back();
        std::optional<Value> w = OfShape({k, k});
        if (!w) break;
        const int64_t rank = v.shape.size();
        Emit(absl::StrCat(name, " = hlo.dot_general ", v.name, ", ", w->name,
                          ", lhs_contract = [", rank - 1, "], rhs_contract = [0] : (", type,
                          ", ", Type({k, k}), ") -> ", type));
        *magnitude *= w->magnitude * k;
        return name;
      }
      case 6:
        if (IsFloat()) break;
        {
          Value c = SameShape(v);
          Emit(absl::StrCat(name, " = hlo.mul ", v.name, ", ", c.name, " : ", type));
          *magnitude *= c.magnitude;
          return name;
        }
    }
    Emit(absl::StrCat(name, " = hlo.abs ", v.name, " : ", type));
    return name;
  }

  // A counter loop of 1 to 3 trips carrying x (and sometimes another value) that its body
  // transforms with a few ops reading values captured from above.
  bool EmitWhile(const Value& x) {
    std::vector<Value> carried = {x};
    if (pool_.size() > 1 && Chance(40)) {
      const Value& other = pool_[Uniform(0, pool_.size() - 1)];
      if (other.name != x.name) carried.push_back(other);
    }
    const int64_t trips = Uniform(1, 3);
    std::string name = Fresh();
    std::string counter = absl::StrCat(name, "_i");
    std::vector<std::string> header = {absl::StrCat(counter, " = ", Constant(0, "i32"))};
    std::vector<std::string> types = {"tensor<i32>"};
    std::vector<Value> inside;
    for (size_t j = 0; j < carried.size(); ++j) {
      std::string param = absl::StrCat(name, "_c", j);
      header.push_back(absl::StrCat(param, " = ", carried[j].name));
      types.push_back(Type(carried[j].shape));
      inside.push_back({param, carried[j].shape, carried[j].magnitude});
    }
    // The body, generated into its own lines; its values stay out of the pool.
    std::vector<std::string> body;
    std::vector<std::string>* outer = out_;
    out_ = &body;
    std::string one = Constant(1, "i32");
    std::string next_counter = Fresh();
    Emit(absl::StrCat(next_counter, " = hlo.add ", counter, ", ", one, " : tensor<i32>"));
    std::vector<std::string> results = {next_counter};
    std::vector<double> magnitudes;
    bool ok = true;
    for (size_t j = 0; j < inside.size(); ++j) {
      // The magnitude after `trips` trips: apply the body's bound function that often.
      Value v = inside[j];
      double magnitude = v.magnitude;
      int steps = static_cast<int>(Uniform(1, 2));
      std::vector<std::function<double(double)>> bounds;
      for (int s = 0; s < steps; ++s) {
        double probe = v.magnitude;
        std::string next = TransformStep(v, counter, &probe);
        // Steps are affine or multiplicative in the carried magnitude; bound them by
        // applying the same growth each trip: growth factor and offset from the probe.
        double factor = v.magnitude > 0 ? std::max(1.0, probe / v.magnitude) : 1.0;
        double offset = std::max(0.0, probe - v.magnitude);
        bounds.push_back([factor, offset](double m) { return m * factor + offset; });
        v = {next, v.shape, probe};
      }
      for (int64_t t = 0; t < trips; ++t) {
        for (const auto& bound : bounds) magnitude = bound(magnitude);
      }
      if (IsFloat() && magnitude > kMaxMagnitude) ok = false;
      magnitudes.push_back(magnitude);
      results.push_back(v.name);
    }
    out_ = outer;
    if (!ok) return false;  // the dead constants before it are harmless
    std::string n = Fresh(), p = Fresh();
    std::string text = absl::StrCat(
        name, ":", types.size(), " = hlo.while(", absl::StrJoin(header, ", "), ") : ",
        absl::StrJoin(types, ", "), "\n  cond {\n    ", n, " = hlo.constant dense<", trips,
        "> : tensor<i32>\n    ", p, " = hlo.compare LT, ", counter, ", ", n,
        " : tensor<i32>\n    hlo.return ", p, " : tensor<i1>\n  } do {\n");
    for (const std::string& line : body) absl::StrAppend(&text, "    ", line, "\n");
    absl::StrAppend(&text, "    hlo.return ", absl::StrJoin(results, ", "), " : ",
                    absl::StrJoin(types, ", "), "\n  }");
    Emit(text);
    for (size_t j = 0; j < carried.size(); ++j) {
      pool_.push_back({absl::StrCat(name, "#", j + 1), carried[j].shape, magnitudes[j]});
    }
    return true;
  }

  // A case of 2 or 3 branches on an index from an argument or a constant (out of range
  // sometimes: the last branch runs), each returning values computed from captured ones.
  bool EmitCase(const Value& x) {
    std::vector<Value> results = {x};
    if (pool_.size() > 1 && Chance(40)) {
      const Value& other = pool_[Uniform(0, pool_.size() - 1)];
      if (other.name != x.name) results.push_back(other);
    }
    const int64_t branches = Uniform(2, 3);
    const int32_t index_value = static_cast<int32_t>(Uniform(-1, branches));
    std::string index = RoomForArguments() && Chance(50)
                            ? NewIndexArgument({}, {index_value})
                            : Constant(index_value, "i32");
    std::vector<std::string> types;
    for (const Value& v : results) types.push_back(Type(v.shape));
    std::vector<double> magnitudes(results.size(), 0);
    std::vector<std::string> texts;
    std::vector<std::string>* outer = out_;
    for (int64_t b = 0; b < branches; ++b) {
      std::vector<std::string> lines;
      out_ = &lines;
      std::vector<std::string> names;
      for (size_t j = 0; j < results.size(); ++j) {
        double magnitude = results[j].magnitude;
        std::string value = results[j].name;
        if (Chance(75)) value = TransformStep(results[j], "", &magnitude);
        names.push_back(value);
        magnitudes[j] = std::max(magnitudes[j], magnitude);
      }
      std::string text = "{\n";
      for (const std::string& line : lines) absl::StrAppend(&text, "    ", line, "\n");
      absl::StrAppend(&text, "    hlo.return ", absl::StrJoin(names, ", "), " : ",
                      absl::StrJoin(types, ", "), "\n  }");
      texts.push_back(text);
    }
    out_ = outer;
    for (double m : magnitudes) {
      if (IsFloat() && m > kMaxMagnitude) return false;
    }
    std::string name = Fresh();
    std::string result_types = results.size() == 1
                                   ? types[0]
                                   : absl::StrCat("(", absl::StrJoin(types, ", "), ")");
    Emit(absl::StrCat(name, results.size() == 1 ? "" : absl::StrCat(":", results.size()),
                      " = hlo.case ", index, " branches ", absl::StrJoin(texts, ", "),
                      " : (tensor<i32>) -> ", result_types));
    for (size_t j = 0; j < results.size(); ++j) {
      std::string value = results.size() == 1 ? name : absl::StrCat(name, "#", j);
      pool_.push_back({value, results[j].shape, magnitudes[j]});
    }
    return true;
  }

  bool EmitBarrier(const Value& x) {
    std::vector<Value> values = {x};
    if (pool_.size() > 1 && Chance(50)) {
      const Value& other = pool_[Uniform(0, pool_.size() - 1)];
      if (other.name != x.name) values.push_back(other);
    }
    std::string name = Fresh();
    std::vector<std::string> names, types;
    for (const Value& v : values) {
      names.push_back(v.name);
      types.push_back(Type(v.shape));
    }
    Emit(absl::StrCat(name, values.size() == 1 ? "" : ":2", " = hlo.optimization_barrier ",
                      absl::StrJoin(names, ", "), " : ", absl::StrJoin(types, ", ")));
    for (size_t j = 0; j < values.size(); ++j) {
      std::string value = values.size() == 1 ? name : absl::StrCat(name, "#", j);
      pool_.push_back({value, values[j].shape, values[j].magnitude});
    }
    return true;
  }

  bool EmitShardingGroup(const Value& x) {
    Value y = SameShape(x);
    if (y.name == x.name) return false;
    Emit(absl::StrCat("tessel.sharding_group ", x.name, ", ", y.name, " group_id = ",
                      groups_++, " : ", Type(x.shape), ", ", Type(x.shape)));
    return true;
  }

  // A training-like step: activations x [B, K] (usually split along B), a weight w [K, N],
  // y = x w into the pool; Finish returns w - c * g with the gradient g = x^T h for a later
  // value h of y's shape (and, sometimes, momentum state m' = m + g, w - c * m').
  void StartTrainingStep() {
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

  // The updated weight (and state) of the training step, or nothing when the gradient's
  // bound is too large for f32.
  std::vector<Value> FinishTrainingStep() {
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
                      ", lhs_contract = [0], rhs_contract = [0] : (", Type(act), ", ",
                      Type(out), ") -> ", Type(weight)));
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
    Emit(absl::StrCat(updated, " = hlo.sub ", training_w_.name, ", ", scaled, " : ",
                      Type(weight)));
    results.insert(results.begin(),
                   Value{updated, weight, training_w_.magnitude + rate * step_magnitude});
    return results;
  }

  RandomProgram Finish() {
    std::vector<Value> results = {pool_.back()};
    if (pool_.size() > 2 && Chance(30)) results.push_back(pool_[Uniform(0, pool_.size() - 2)]);
    if (training_) {
      for (const Value& v : FinishTrainingStep()) results.push_back(v);
    }
    for (Value& v : results) {
      if (!v.partial) continue;
      std::string name = Fresh();
      Emit(absl::StrCat(name, " = tessel.sharding_constraint ", v.name, " ",
                        RandomSharding(v.shape.size(), ShardingUse::kResult), " : ",
                        Type(v.shape)));
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
        "// seed ", program_.seed, "\ntessel.mesh @mesh = <", mesh_text_, ">\n",
        "func.func @main(", absl::StrJoin(arg_texts, ", "), ") -> (",
        absl::StrJoin(result_types, ", "), ") {\n", body, "  return ",
        absl::StrJoin(names, ", "), " : ", absl::StrJoin(types, ", "), "\n}\n");
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

  std::mt19937_64 rng_;
  RandomProgram program_;
  std::string element_;
  std::vector<int64_t> mesh_;
  std::vector<std::string> axes_;
  std::string mesh_text_;
  std::vector<Argument> args_;
  std::vector<Value> pool_;
  std::vector<std::string> lines_;
  std::vector<std::string>* out_ = nullptr;
  int counter_ = 0;
  int groups_ = 0;
  bool training_ = false;
  Value training_x_, training_w_;
};

}  // namespace

RandomProgram GenerateRandomProgram(uint64_t seed) { return Generator(seed).Generate(); }

}  // namespace tessel::testing
