// The random program generator's control flow and markers: while loops and case branches
// whose bodies take random steps, optimization barriers, sharding groups
// (random_program_generator.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <optional>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/differential/random_program_generator.h"

namespace tessel::testing::random_program_internal {

std::string Generator::TransformStep(const Value& v, const std::string& counter,
                                     double* magnitude) {
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
        Emit(
            absl::StrCat(converted, " = hlo.convert ", counter, " : (tensor<i32>) -> tensor<f32>"));
      }
      std::string splat = Fresh();
      Emit(absl::StrCat(splat, " = hlo.broadcast_in_dim ", converted, ", dims = [] : (", Scalar(),
                        ") -> ", type));
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
      Emit(absl::StrCat(name, " = hlo.dot_general ", v.name, ", ", w->name, ", lhs_contract = [",
                        rank - 1, "], rhs_contract = [0] : (", type, ", ", Type({k, k}), ") -> ",
                        type));
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

bool Generator::EmitWhile(const Value& x) {
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
      name, ":", types.size(), " = hlo.while(", absl::StrJoin(header, ", "),
      ") : ", absl::StrJoin(types, ", "), "\n  cond {\n    ", n, " = hlo.constant dense<", trips,
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

bool Generator::EmitCase(const Value& x) {
  std::vector<Value> results = {x};
  if (pool_.size() > 1 && Chance(40)) {
    const Value& other = pool_[Uniform(0, pool_.size() - 1)];
    if (other.name != x.name) results.push_back(other);
  }
  const int64_t branches = Uniform(2, 3);
  const int32_t index_value = static_cast<int32_t>(Uniform(-1, branches));
  std::string index = RoomForArguments() && Chance(50) ? NewIndexArgument({}, {index_value})
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
  std::string result_types =
      results.size() == 1 ? types[0] : absl::StrCat("(", absl::StrJoin(types, ", "), ")");
  Emit(absl::StrCat(name, results.size() == 1 ? "" : absl::StrCat(":", results.size()),
                    " = hlo.case ", index, " branches ", absl::StrJoin(texts, ", "),
                    " : (tensor<i32>) -> ", result_types));
  for (size_t j = 0; j < results.size(); ++j) {
    std::string value = results.size() == 1 ? name : absl::StrCat(name, "#", j);
    pool_.push_back({value, results[j].shape, magnitudes[j]});
  }
  return true;
}

bool Generator::EmitBarrier(const Value& x) {
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

bool Generator::EmitShardingGroup(const Value& x) {
  Value y = SameShape(x);
  if (y.name == x.name) return false;
  Emit(absl::StrCat("tessel.sharding_group ", x.name, ", ", y.name, " group_id = ", groups_++,
                    " : ", Type(x.shape), ", ", Type(x.shape)));
  return true;
}

}  // namespace tessel::testing::random_program_internal
