// The random program generator (see random_program.h). Ops are drawn until one applies to
// a randomly chosen value; each keeps every value at most kMaxElements elements and, for
// f32, keeps a bound on magnitudes below 2^22 so sums stay exact.
#include "tests/differential/random_program.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "runtime/random_inputs.h"

namespace tessel::testing {
namespace {

using Shape = std::vector<int64_t>;

constexpr int64_t kMaxElements = 256;
constexpr int kMaxArguments = 4;
constexpr double kMaxMagnitude = 1 << 22;

struct Value {
  std::string name;
  Shape shape;
  double magnitude;  // an upper bound on |element|
};

int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) { program_.seed = seed; }

  RandomProgram Generate() {
    ChooseMesh();
    element_ = Chance(70) ? "i32" : "f32";
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

  std::string Type(const Shape& shape, const std::string& element) const {
    std::string dims;
    for (int64_t d : shape) absl::StrAppend(&dims, d, "x");
    return absl::StrCat("tensor<", dims, element, ">");
  }
  std::string Type(const Shape& shape) const { return Type(shape, element_); }
  std::string Fresh() { return absl::StrCat("%v", counter_++); }

  void ChooseMesh() {
    static const std::vector<std::vector<int64_t>> kMeshes = {
        {1}, {2}, {3}, {4}, {5}, {6}, {8}, {2, 2}, {2, 3}, {3, 2}, {2, 4}, {4, 2}, {1, 3}};
    mesh_ = kMeshes[Uniform(0, kMeshes.size() - 1)];
    std::vector<std::string> parts;
    for (size_t i = 0; i < mesh_.size(); ++i) {
      axes_.push_back(i == 0 ? "x" : "y");
      parts.push_back(absl::StrCat("\"", axes_.back(), "\"=", mesh_[i]));
    }
    mesh_text_ = absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
  }

  // A random sharding of a rank-`rank` tensor: each axis unused or appended to a dim.
  std::string RandomSharding(int64_t rank) {
    std::vector<std::vector<std::string>> dims(rank);
    for (const std::string& axis : axes_) {
      if (rank == 0 || Chance(35)) continue;
      dims[Uniform(0, rank - 1)].push_back(absl::StrCat("\"", axis, "\""));
    }
    std::vector<std::string> parts;
    for (const auto& axes : dims) parts.push_back(absl::StrCat("{", absl::StrJoin(axes, ", "), "}"));
    return absl::StrCat("<@mesh, [", absl::StrJoin(parts, ", "), "]>");
  }

  Shape RandomShape() {
    Shape shape(Uniform(1, 3));
    do {
      for (int64_t& d : shape) d = Uniform(1, 8);
    } while (NumElements(shape) > kMaxElements);
    return shape;
  }

  const Value& NewArgument(const Shape& shape) {
    std::string name = absl::StrCat("%a", args_.size());
    std::string attr;
    if (Chance(80)) {
      attr = absl::StrCat(" {tessel.sharding = #tessel.sharding", RandomSharding(shape.size()),
                          "}");
    }
    args_.push_back(absl::StrCat(name, ": ", Type(shape), attr));
    arg_shapes_.push_back(shape);
    pool_.push_back(Value{name, shape, 8});
    return pool_.back();
  }

  const Value& Define(const std::string& text, const Value& result) {
    lines_.push_back(text);
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
    if (static_cast<int>(args_.size()) < kMaxArguments) return NewArgument(not_this.shape);
    return not_this;
  }

  std::string Constant(int64_t value, const std::string& element) {
    std::string name = Fresh();
    std::string literal = element == "f32" ? absl::StrCat(value, ".0") : absl::StrCat(value);
    lines_.push_back(absl::StrCat(name, " = hlo.constant dense<", literal, "> : tensor<",
                                  element, ">"));
    return name;
  }

  bool EmitRandomOp() {
    // A recent value more often than an old one, so chains grow deep.
    size_t index = Chance(60) ? pool_.size() - 1 : Uniform(0, pool_.size() - 1);
    Value x = pool_[index];
    const int64_t rank = x.shape.size();
    switch (Uniform(0, 15)) {
      case 0: {  // unary
        const char* op = Chance(50) ? "neg" : "abs";
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.", op, " ", x.name, " : ", Type(x.shape)),
               {name, x.shape, x.magnitude});
        return true;
      }
      case 1:
      case 2: {  // binary elementwise
        Value y = SameShape(x);
        static const char* kOps[] = {"add", "sub", "max", "min", "mul"};
        std::string op = kOps[Uniform(0, 4)];
        double magnitude = op == "mul"                  ? x.magnitude * y.magnitude
                           : op == "add" || op == "sub" ? x.magnitude + y.magnitude
                                                        : std::max(x.magnitude, y.magnitude);
        if (IsFloat() && magnitude > kMaxMagnitude) return false;
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.", op, " ", x.name, ", ", y.name, " : ",
                            Type(x.shape)),
               {name, x.shape, magnitude});
        return true;
      }
      case 3: {  // transpose
        if (rank < 2) return false;
        std::vector<int64_t> permutation(rank);
        for (int64_t i = 0; i < rank; ++i) permutation[i] = i;
        std::shuffle(permutation.begin(), permutation.end(), rng_);
        Shape shape(rank);
        for (int64_t i = 0; i < rank; ++i) shape[i] = x.shape[permutation[i]];
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.transpose ", x.name, ", permutation = [",
                            absl::StrJoin(permutation, ", "), "] : (", Type(x.shape), ") -> ",
                            Type(shape)),
               {name, shape, x.magnitude});
        return true;
      }
      case 4: {  // broadcast_in_dim: one new dimension
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
        Define(absl::StrCat(name, " = hlo.broadcast_in_dim ", x.name, ", dims = [",
                            absl::StrJoin(dims, ", "), "] : (", Type(x.shape), ") -> ",
                            Type(shape)),
               {name, shape, x.magnitude});
        return true;
      }
      case 5: {  // reduce: sum or max over some dims
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
        std::string scalar = absl::StrCat("tensor<", element_, ">");
        std::string init = sum ? Constant(0, element_)
                               : (IsFloat() ? FloatConstant("0xFF800000")
                                            : Constant(-2147483648LL, element_));
        std::string name = Fresh();
        std::string a = absl::StrCat(name, "_a"), b = absl::StrCat(name, "_b"),
                    s = absl::StrCat(name, "_s");
        Define(absl::StrCat(name, " = hlo.reduce(", x.name, ") init(", init, ") dimensions = [",
                            absl::StrJoin(dims, ", "), "] : (", Type(x.shape), ", ", scalar,
                            ") -> ", Type(shape), " reducer {\n  ^bb0(", a, ": ", scalar, ", ",
                            b, ": ", scalar, "):\n    ", s, " = hlo.", sum ? "add" : "max", " ",
                            a, ", ", b, " : ", scalar, "\n    hlo.return ", s, " : ", scalar,
                            "\n  }"),
               {name, shape, magnitude});
        return true;
      }
      case 6:
      case 7: {  // dot_general against a new or existing [K, N] (or [B, K, N]) operand
        if (rank < 1 || static_cast<int>(args_.size()) >= kMaxArguments) return false;
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
        double magnitude = x.magnitude * 8 * x.shape[contract];
        if (IsFloat() && magnitude > kMaxMagnitude) return false;
        Value y = NewArgument(rhs);
        std::string name = Fresh();
        std::string dims =
            batch ? absl::StrCat("lhs_batch = [0], rhs_batch = [0], lhs_contract = [", contract,
                                 "], rhs_contract = [1]")
                  : absl::StrCat("lhs_contract = [", contract, "], rhs_contract = [0]");
        Define(absl::StrCat(name, " = hlo.dot_general ", x.name, ", ", y.name, ", ", dims, " : (",
                            Type(x.shape), ", ", Type(rhs), ") -> ", Type(shape)),
               {name, shape, magnitude});
        return true;
      }
      case 8: {  // reshape: merge two adjacent dims or split one
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
          int64_t f = factors[Uniform(0, factors.size() - 1)];
          shape[d] /= f;
          shape.insert(shape.begin() + d, f);
        }
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.reshape ", x.name, " : (", Type(x.shape), ") -> ",
                            Type(shape)),
               {name, shape, x.magnitude});
        return true;
      }
      case 9: {  // slice along one dim
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
      case 10: {  // concatenate with a value of the same shape
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
      case 11: {  // reverse one dim
        if (rank < 1) return false;
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.reverse ", x.name, ", dims = [", Uniform(0, rank - 1),
                            "] : ", Type(x.shape)),
               {name, x.shape, x.magnitude});
        return true;
      }
      case 12: {  // pad one dim, negative padding and interior padding included
        if (rank < 1) return false;
        int64_t d = Uniform(0, rank - 1);
        std::vector<int64_t> low(rank, 0), high(rank, 0), interior(rank, 0);
        low[d] = Uniform(-1, 2);
        high[d] = Uniform(-1, 2);
        interior[d] = Uniform(0, 1);
        Shape shape = x.shape;
        shape[d] = low[d] + high[d] + x.shape[d] + (x.shape[d] - 1) * interior[d];
        if (shape[d] < 1 || NumElements(shape) > kMaxElements) return false;
        std::string pad = Constant(0, element_);
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.pad ", x.name, ", ", pad, ", low = [",
                            absl::StrJoin(low, ", "), "], high = [", absl::StrJoin(high, ", "),
                            "], interior = [", absl::StrJoin(interior, ", "), "] : (",
                            Type(x.shape), ", tensor<", element_, ">) -> ", Type(shape)),
               {name, shape, x.magnitude});
        return true;
      }
      case 13: {  // compare and select
        Value y = SameShape(x);
        std::string predicate = Fresh();
        lines_.push_back(absl::StrCat(predicate, " = hlo.compare LT, ", x.name, ", ", y.name,
                                      " : ", Type(x.shape)));
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.select ", predicate, ", ", y.name, ", ", x.name, " : ",
                            Type(x.shape, "i1"), ", ", Type(x.shape)),
               {name, x.shape, std::max(x.magnitude, y.magnitude)});
        return true;
      }
      case 14: {  // iota added in
        if (rank < 1) return false;
        int64_t d = Uniform(0, rank - 1);
        std::string iota = Fresh();
        lines_.push_back(absl::StrCat(iota, " = hlo.iota dim = ", d, " : ", Type(x.shape)));
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.add ", x.name, ", ", iota, " : ", Type(x.shape)),
               {name, x.shape, x.magnitude + x.shape[d]});
        return true;
      }
      case 15: {  // dynamic_slice or a sharding constraint
        if (Chance(50)) {
          std::string name = Fresh();
          Define(absl::StrCat(name, " = tessel.sharding_constraint ", x.name, " ",
                              RandomSharding(rank), " : ", Type(x.shape)),
                 {name, x.shape, x.magnitude});
          return true;
        }
        if (rank < 1) return false;
        Shape shape = x.shape;
        std::vector<std::string> offsets;
        for (int64_t d = 0; d < rank; ++d) {
          shape[d] = Uniform(1, x.shape[d]);
          // Offsets out of range are clamped by the op: exercise that too.
          offsets.push_back(Constant(Uniform(-1, x.shape[d] - shape[d] + 1), "i32"));
        }
        std::vector<std::string> offset_types(rank, "tensor<i32>");
        std::string name = Fresh();
        Define(absl::StrCat(name, " = hlo.dynamic_slice ", x.name, ", ",
                            absl::StrJoin(offsets, ", "), ", sizes = [",
                            absl::StrJoin(shape, ", "), "] : (", Type(x.shape), ", ",
                            absl::StrJoin(offset_types, ", "), ") -> ", Type(shape)),
               {name, shape, x.magnitude});
        return true;
      }
    }
    return false;
  }

  std::string FloatConstant(const std::string& literal) {
    std::string name = Fresh();
    lines_.push_back(absl::StrCat(name, " = hlo.constant dense<", literal, "> : tensor<f32>"));
    return name;
  }

  RandomProgram Finish() {
    std::vector<const Value*> results = {&pool_.back()};
    if (pool_.size() > 2 && Chance(30)) results.push_back(&pool_[Uniform(0, pool_.size() - 2)]);
    std::vector<std::string> result_types, names;
    for (const Value* v : results) {
      std::string attr;
      if (Chance(40)) {
        attr = absl::StrCat(" {tessel.sharding = #tessel.sharding",
                            RandomSharding(v->shape.size()), "}");
      }
      result_types.push_back(absl::StrCat(Type(v->shape), attr));
      names.push_back(v->name);
    }
    std::vector<std::string> types;
    for (const Value* v : results) types.push_back(Type(v->shape));
    std::string body;
    for (const std::string& line : lines_) absl::StrAppend(&body, "  ", line, "\n");
    program_.module = absl::StrCat(
        "// seed ", program_.seed, "\ntessel.mesh @mesh = <", mesh_text_, ">\n",
        "func.func @main(", absl::StrJoin(args_, ", "), ") -> (",
        absl::StrJoin(result_types, ", "), ") {\n", body, "  return ",
        absl::StrJoin(names, ", "), " : ", absl::StrJoin(types, ", "), "\n}\n");
    for (size_t i = 0; i < arg_shapes_.size(); ++i) {
      runtime::Tensor ints =
          runtime::RandomTensor(runtime::ElementType::kS32, arg_shapes_[i], program_.seed * 31 + i);
      if (!IsFloat()) {
        program_.inputs.push_back(std::move(ints));
        continue;
      }
      std::vector<float> values;
      for (int32_t v : ints.ToVector<int32_t>()) values.push_back(static_cast<float>(v));
      program_.inputs.push_back(runtime::Tensor::FromVector<float>(arg_shapes_[i], values));
    }
    return std::move(program_);
  }

  std::mt19937_64 rng_;
  RandomProgram program_;
  std::string element_;
  std::vector<int64_t> mesh_;
  std::vector<std::string> axes_;
  std::string mesh_text_;
  std::vector<std::string> args_;
  std::vector<Shape> arg_shapes_;
  std::vector<Value> pool_;
  std::vector<std::string> lines_;
  int counter_ = 0;
};

}  // namespace

RandomProgram GenerateRandomProgram(uint64_t seed) { return Generator(seed).Generate(); }

}  // namespace tessel::testing
