// The random program generator's elementwise ops: unary and binary ops, converts around ops
// of the other element type, compare and select, clamp (random_program_generator.h).
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

bool Generator::EmitUnary(const Value& x) {
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

bool Generator::EmitBinary(const Value& x) {
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

bool Generator::EmitConvertRoundTrip(const Value& x) {
  std::string source = x.name;
  double magnitude = x.magnitude;
  if (!IsFloat()) {
    std::string lo = Constant(-1000, "i32"), hi = Constant(1000, "i32");
    source = Fresh();
    Emit(absl::StrCat(source, " = hlo.clamp ", lo, ", ", x.name, ", ", hi, " : tensor<i32>, ",
                      Type(x.shape), ", tensor<i32>"));
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
    Emit(absl::StrCat(changed, " = hlo.", kOps[Uniform(0, 2)], " ", there, ", ", y_there, " : ",
                      Type(x.shape, other)));
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

bool Generator::EmitCompareSelect(const Value& x) {
  static const char* kDirections[] = {"EQ", "NE", "GE", "GT", "LE", "LT"};
  Value y = SameShape(x);
  std::string predicate = Fresh();
  Emit(absl::StrCat(predicate, " = hlo.compare ", kDirections[Uniform(0, 5)], ", ", x.name, ", ",
                    y.name, " : ", Type(x.shape)));
  if (Chance(30)) {
    std::string zero = Splat(0, x.shape, element_);
    std::string other = Fresh();
    Emit(absl::StrCat(other, " = hlo.compare ", kDirections[Uniform(0, 5)], ", ", x.name, ", ",
                      zero, " : ", Type(x.shape)));
    static const char* kOps[] = {"and", "or", "xor"};
    std::string joined = Fresh();
    Emit(absl::StrCat(joined, " = hlo.", kOps[Uniform(0, 2)], " ", predicate, ", ", other, " : ",
                      Type(x.shape, "i1")));
    predicate = joined;
  }
  std::string name = Fresh();
  if (Chance(25)) {
    std::string converted = Fresh();
    Emit(absl::StrCat(converted, " = hlo.convert ", predicate, " : (", Type(x.shape, "i1"), ") -> ",
                      Type(x.shape)));
    Define(absl::StrCat(name, " = hlo.add ", x.name, ", ", converted, " : ", Type(x.shape)),
           {name, x.shape, x.magnitude + 1});
    return true;
  }
  Define(absl::StrCat(name, " = hlo.select ", predicate, ", ", y.name, ", ", x.name, " : ",
                      Type(x.shape, "i1"), ", ", Type(x.shape)),
         {name, x.shape, std::max(x.magnitude, y.magnitude)});
  return true;
}

bool Generator::EmitClamp(const Value& x) {
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

}  // namespace tessel::testing::random_program_internal
