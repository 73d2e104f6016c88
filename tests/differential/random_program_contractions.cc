// The random program generator's dots, convolutions, reductions and windowed ops
// (reduce_window, select_and_scatter) (random_program_generator.h).
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

bool Generator::EmitReduce(const Value& x) {
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
  Define(absl::StrCat(name, " = hlo.reduce(", x.name, ") init(", init,
                      ") dimensions = ", List(dims), " : (", Type(x.shape), ", ", Scalar(), ") -> ",
                      Type(shape), " reducer ", BinaryRegion(sum ? "add" : "max", element_)),
         {name, shape, magnitude});
  return true;
}

bool Generator::EmitDot(const Value& x) {
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
  std::string dims = batch ? absl::StrCat("lhs_batch = [0], rhs_batch = [0], lhs_contract = [",
                                          contract, "], rhs_contract = [1]")
                           : absl::StrCat("lhs_contract = [", contract, "], rhs_contract = [0]");
  Define(absl::StrCat(name, " = hlo.dot_general ", lhs_name, ", ", rhs_name, ", ", dims, " : (",
                      Type(x.shape), ", ", Type(rhs), ") -> ", Type(shape)),
         {name, shape, magnitude});
  return true;
}

bool Generator::EmitConvolution(const Value& x_in) {
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
    out[i] = WindowOutput(by_role[2 + i], kernel[i], strides[i], low[i], high[i], lhs_dilation[i],
                          rhs_dilation[i]);
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
    return role == 0   ? std::string(first)
           : role == 1 ? std::string(second)
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
  Define(absl::StrCat(
             name, " = hlo.convolution ", lhs_name, ", ", kernel_name, ", dims = [",
             absl::StrJoin(lhs_labels, ", "), "]x[", absl::StrJoin(kernel_labels, ", "), "]->[",
             absl::StrJoin(out_labels, ", "), "], window_strides = ", List(strides),
             ", padding = ", Padding(low, high), ", lhs_dilation = ", List(lhs_dilation),
             ", rhs_dilation = ", List(rhs_dilation), ", feature_group_count = ", feature_groups,
             ", batch_group_count = ", batch_groups, " : (", Type(x.shape), ", ",
             Type(kernel_shape), ") -> ", Type(out_shape)),
         {name, out_shape, magnitude});
  return true;
}

bool Generator::EmitReduceWindow(const Value& x) {
  const int64_t rank = x.shape.size();
  if (rank < 1) return false;
  std::vector<int64_t> sizes(rank), strides(rank), base(rank), window(rank), low(rank), high(rank);
  Shape shape(rank);
  int64_t window_elements = 1;
  for (int64_t d = 0; d < rank; ++d) {
    sizes[d] = Chance(40) ? 1 : Uniform(1, 3);
    strides[d] = Chance(60) ? 1 : Uniform(2, 3);
    base[d] = Chance(85) ? 1 : 2;
    window[d] = Chance(85) ? 1 : 2;
    low[d] = Chance(60) ? 0 : Uniform(0, 2);
    high[d] = Chance(60) ? 0 : Uniform(0, 2);
    shape[d] = WindowOutput(x.shape[d], sizes[d], strides[d], low[d], high[d], base[d], window[d]);
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
  Define(
      absl::StrCat(name, " = hlo.reduce_window(", x.name, ") init(", init,
                   ") window_dimensions = ", List(sizes), ", window_strides = ", List(strides),
                   ", base_dilations = ", List(base), ", window_dilations = ", List(window),
                   ", padding = ", Padding(low, high), " : (", Type(x.shape), ", ", Scalar(),
                   ") -> ", Type(shape), " reducer ", BinaryRegion(sum ? "add" : "max", element_)),
      {name, shape, magnitude});
  return true;
}

bool Generator::EmitSelectAndScatter(const Value& x) {
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
  std::string select =
      absl::StrCat("{\n  ^bb0(", base, "_a: ", Scalar(), ", ", base, "_b: ", Scalar(), "):\n    ",
                   base, "_p = hlo.compare ", Chance(60) ? "GE" : "LE", ", ", base, "_a, ", base,
                   "_b : ", Scalar(), "\n    hlo.return ", base, "_p : tensor<i1>\n  }");
  std::string name = Fresh();
  Define(absl::StrCat(name, " = hlo.select_and_scatter(", x.name, ", ", source->name, ", ", init,
                      ") window_dimensions = ", List(sizes), ", window_strides = ", List(strides),
                      ", padding = ", Padding(low, high), " : (", Type(x.shape), ", ",
                      Type(source_shape), ", ", Scalar(), ") -> ", Type(x.shape), " select ",
                      select, " scatter ", BinaryRegion("add", element_)),
         {name, x.shape, magnitude});
  return true;
}

}  // namespace tessel::testing::random_program_internal
