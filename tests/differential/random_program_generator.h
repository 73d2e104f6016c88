// The random program generator's state and its op families, shared by the files that define
// them: random_program.cc (meshes, shardings, arguments, constants, the draw of the next op,
// training steps and the finished program), random_program_elementwise.cc,
// random_program_contractions.cc (dots, convolutions, reductions and windows),
// random_program_indexing.cc (slices, gather, scatter, sort, top_k) and
// random_program_control_flow.cc (while, case, barriers, sharding groups). Internal to
// random_program.h's GenerateRandomProgram.
#ifndef TESSEL_TESTS_DIFFERENTIAL_RANDOM_PROGRAM_GENERATOR_H_
#define TESSEL_TESTS_DIFFERENTIAL_RANDOM_PROGRAM_GENERATOR_H_

#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "tests/differential/random_program.h"

namespace tessel::testing::random_program_internal {

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

inline int64_t NumElements(const Shape& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// The output size of a window of `size` dilated by `window_dilation` sliding with `stride`
// over `input` elements dilated by `base_dilation` and padded by `low` and `high`.
inline int64_t WindowOutput(int64_t input, int64_t size, int64_t stride, int64_t low, int64_t high,
                            int64_t base_dilation, int64_t window_dilation) {
  int64_t padded = (input - 1) * base_dilation + 1 + low + high;
  int64_t dilated = (size - 1) * window_dilation + 1;
  return padded < dilated ? 0 : (padded - dilated) / stride + 1;
}

inline std::string List(const std::vector<int64_t>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

inline std::string Padding(const std::vector<int64_t>& low, const std::vector<int64_t>& high) {
  std::vector<std::string> rows;
  for (size_t i = 0; i < low.size(); ++i)
    rows.push_back(absl::StrCat("[", low[i], ", ", high[i], "]"));
  return absl::StrCat("[", absl::StrJoin(rows, ", "), "]");
}

// The smallest power of two above `magnitude`: two's complement values of magnitude at
// most m lie in [-2^k, 2^k) for this 2^k, and so do their bitwise and, or and xor.
inline double BitwiseBound(double magnitude) {
  double bound = 1;
  while (bound <= magnitude) bound *= 2;
  return bound;
}

class Generator {
 public:
  explicit Generator(uint64_t seed) : rng_(seed) { program_.seed = seed; }

  RandomProgram Generate();

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

  void ChooseMesh();

  enum class ShardingUse { kArgument, kResult, kConstraint };

  // A random sharding of a rank-`rank` tensor: each mesh axis, or each of the two sub-axes
  // an axis is sometimes cut into (`"x":(1)2` and `"x":(2)2` of "x"=4), unused or appended
  // to a dim; dims sometimes open (`?`) or with a priority; unused whole axes sometimes
  // `replicated`, and on constraints sometimes `unreduced`.
  std::string RandomSharding(int64_t rank, ShardingUse use = ShardingUse::kConstraint);

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
                          const std::vector<std::pair<int64_t, size_t>>& dim_axes);

  Shape RandomShape();

  bool RoomForArguments(int count = 1) const {
    return static_cast<int>(args_.size()) + count <= kMaxArguments;
  }

  std::string ArgumentAttr(int64_t rank) {
    if (!Chance(80)) return "";
    return absl::StrCat(" {tessel.sharding = #tessel.sharding",
                        RandomSharding(rank, ShardingUse::kArgument), "}");
  }

  const Value& NewArgument(const Shape& shape);

  // An i32 argument holding `values` (indices, offsets): not in the pool.
  std::string NewIndexArgument(const Shape& shape, std::vector<int32_t> values);

  // `values` of `shape` as an i32 tensor: an argument while there is room (more often), else
  // a constant.
  std::string IndexTensor(const Shape& shape, const std::vector<int32_t>& values);

  const Value& Define(const std::string& text, const Value& result) {
    Emit(text);
    pool_.push_back(result);
    return pool_.back();
  }

  // A value of `shape` other than `not_this` when the pool has one, else a new argument
  // while there is room, else `not_this` itself.
  Value SameShape(const Value& not_this);

  // A value of `shape` from the pool or a new argument; nullopt when neither.
  std::optional<Value> OfShape(const Shape& shape);

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
  std::string Splat(int64_t value, const Shape& shape, const std::string& element);

  // A region of two rank-0 arguments that returns `op` of them (`op` empty: the second).
  std::string BinaryRegion(const std::string& op, const std::string& element);

  // A comparator region over `operands` rank-0 pairs comparing the first pair.
  std::string ComparatorRegion(const std::string& direction, int operands);

  bool EmitRandomOp();

  bool EmitUnary(const Value& x);

  bool EmitBinary(const Value& x);

  // A convert to the other element type and back around an op in that type: and/or/xor in
  // f32 programs (on i32), a mul by 2 in f32 for i32 programs (clamped into f32's exact
  // range first).
  bool EmitConvertRoundTrip(const Value& x);

  // compare (any direction, sometimes two compares joined by and/or/xor) and select, or the
  // predicate converted and added in.
  bool EmitCompareSelect(const Value& x);

  bool EmitClamp(const Value& x);

  // Sum or max over some dims.
  bool EmitReduce(const Value& x);

  // dot_general against a new or existing [K, N] (or [B, K, N]) operand.
  bool EmitDot(const Value& x);

  // Offsets for a box of `sizes` in `shape`: i32 constants (out of range by one sometimes:
  // the ops clamp) or, sometimes, one i32 argument shared by all dims.
  std::vector<std::string> Offsets(const Shape& shape, const Shape& sizes);

  bool EmitDynamicSlice(const Value& x);

  bool EmitDynamicUpdateSlice(const Value& x);

  // A convolution of x (rank 3: one spatial dim) or of a new rank-4 argument (two) with a
  // new kernel: dims in random orders, random windows, strides, padding of both signs, lhs
  // and rhs dilation, and sometimes feature or batch groups.
  bool EmitConvolution(const Value& x_in);

  // reduce_window (sum or max) with random windows, strides, base and window dilations and
  // padding; init values that are not the identity sometimes.
  bool EmitReduceWindow(const Value& x);

  bool EmitSelectAndScatter(const Value& x);

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
  IndexLayout RandomIndexLayout(int64_t count, int64_t entries, int64_t batching);

  // The indices tensor for `vectors[batch position][entry]` (batch positions in row-major
  // order of batch_shape).
  std::string IndicesTensor(const IndexLayout& layout,
                            const std::vector<std::vector<int32_t>>& vectors);

  // A random subset of `dims` (in random order), of 1 to `most` elements.
  std::vector<int64_t> RandomSubset(std::vector<int64_t> dims, int64_t most) {
    std::shuffle(dims.begin(), dims.end(), rng_);
    dims.resize(Uniform(1, std::min<int64_t>(most, dims.size())));
    return dims;
  }

  // Sorted positions of `count` dims among `total`.
  std::vector<int64_t> RandomPositions(int64_t count, int64_t total);

  bool EmitGather(const Value& x);

  // scatter into x with add (indices anywhere, windows that do not fit skipped) or with
  // overwrite (windows of one element along the indexed dims at distinct in-range
  // positions, so no two updates meet and the order of updates does not matter).
  bool EmitScatter(const Value& x);

  // sort of x alone or with a second value (or an iota: argsort), LT or GT on x.
  bool EmitSort(const Value& x);

  bool EmitTopK(const Value& x);

  // One step of a loop body or a case branch on carried value `v`: a shape-keeping op with
  // values captured from above. Returns the new name and updates `magnitude` (a function
  // of the carried magnitude, `carried`).
  std::string TransformStep(const Value& v, const std::string& counter, double* magnitude);

  // A counter loop of 1 to 3 trips carrying x (and sometimes another value) that its body
  // transforms with a few ops reading values captured from above.
  bool EmitWhile(const Value& x);

  // A case of 2 or 3 branches on an index from an argument or a constant (out of range
  // sometimes: the last branch runs), each returning values computed from captured ones.
  bool EmitCase(const Value& x);

  bool EmitBarrier(const Value& x);

  bool EmitShardingGroup(const Value& x);

  // A training-like step: activations x [B, K] (usually split along B), a weight w [K, N],
  // y = x w into the pool; Finish returns w - c * g with the gradient g = x^T h for a later
  // value h of y's shape (and, sometimes, momentum state m' = m + g, w - c * m').
  void StartTrainingStep();

  // The updated weight (and state) of the training step, or nothing when the gradient's
  // bound is too large for f32.
  std::vector<Value> FinishTrainingStep();

  RandomProgram Finish();

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

}  // namespace tessel::testing::random_program_internal

#endif  // TESSEL_TESTS_DIFFERENTIAL_RANDOM_PROGRAM_GENERATOR_H_
