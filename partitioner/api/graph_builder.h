// GraphBuilder: write a Tessel program in C++, one op at a time, with shapes checked and
// inferred as you go, then Build() it into a Program.
//
//   TESSEL_ASSIGN_OR_RETURN(Mesh mesh, Mesh::Create({{"data", 4}, {"model", 2}}));
//   TESSEL_ASSIGN_OR_RETURN(Sharding batch, Sharding::Create(mesh, {"data", Replicated()}));
//   TESSEL_ASSIGN_OR_RETURN(Sharding columns, Sharding::Create(mesh, {Replicated(), "model"}));
//
//   GraphBuilder b;
//   Value x = b.Parameter(TensorType(ElementType::kF32, {16, 64}), batch);
//   Value w = b.Parameter(TensorType(ElementType::kF32, {64, 256}), columns);
//   Value h = b.MatMul(x, w);                                     // f32[16,256]
//   Value zeros = b.BroadcastInDim(b.ScalarConstant(ElementType::kF32, 0), {16, 256}, {});
//   Value relu = b.Max(h, zeros);
//   TESSEL_ASSIGN_OR_RETURN(Program program, b.Build({relu}));
//   std::cout << program.ToMlirText();
//
// Locations: every method takes a last parameter `CallSite site = CallSite::Current()`
// (call_site.h) that records where the call is written. The ops it makes, including those it
// makes on the caller's behalf (the constant of a built-in reducer's identity, the reducer's
// own ops), get that place as their MLIR location (`my_model.cc:42`, with a column where the
// compiler gives one), so PartitionResult's records, fallback warnings, explanations and
// errors point at the C++ line. Ops made in a region callback get the callback's lines.
//
// Errors: a sticky status. Every op returns a Value handle at once. The first call that
// fails (operand shapes that do not fit, a dimension out of range, an unknown mesh axis)
// records an InvalidArgument status "<call site>: <op>: <failing check>", e.g.
// "my_model.cc:42: add: operand shapes f32[4] and f32[5] differ" (the form of Tessel's other
// located messages; without the call site when it is unknown). From then on every call does
// nothing and returns invalid Values, and Build() returns that first error. Why sticky rather
// than a StatusOr per op: a program is dozens of calls whose results feed each other; checking
// each one would bury the program under error handling, and an error detected late is no
// harder to read because it names the op and the line that failed first. status() says at any
// point whether all is well, so code that wants to stop early can.
//
// Regions (reducers, comparators, loop bodies, branches) are C++ callbacks: the builder calls
// them with itself and the region's arguments, and they return the region's results. Values
// made inside a callback belong to that region and cannot be used after it returns; values
// from outside may be used inside (where the op allows it, e.g. in While and Case).
//
// Each op's shape rules follow XLA's operation semantics as the hlo dialect defines them
// (docs/ops.md). Every op is also checked by MLIR's verifier as it is made, and the whole
// program once more in Build(), so a Program never holds invalid IR.
//
// A GraphBuilder is single-use and not thread-safe: Build() hands its program over, after
// which the builder only reports errors.
#ifndef TESSEL_PARTITIONER_API_GRAPH_BUILDER_H_
#define TESSEL_PARTITIONER_API_GRAPH_BUILDER_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "partitioner/api/call_site.h"
#include "partitioner/api/host_tensor.h"
#include "partitioner/api/op_options.h"
#include "partitioner/api/program.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/tensor_type.h"

namespace tessel {

namespace api_internal {
class BuilderState;
}  // namespace api_internal

// A handle to a tensor made by a GraphBuilder: cheap to copy, meaningful only to the builder
// that made it. A default-constructed Value, and every Value a failed call returns, is
// invalid; passing one to an op is an error (or, once the builder has failed, ignored).
class Value {
 public:
  Value() = default;

  bool valid() const { return id_ >= 0; }
  // The tensor's type; f32[] for an invalid Value.
  const TensorType& type() const { return type_; }

 private:
  friend class api_internal::BuilderState;
  Value(const void* owner, int64_t id, TensorType type)
      : owner_(owner), id_(id), type_(std::move(type)) {}

  const void* owner_ = nullptr;  // the BuilderState that made it, to reject foreign Values
  int64_t id_ = -1;
  TensorType type_;
};

class GraphBuilder;

// A region body: gets the builder and the region's arguments (rank-0 tensors for reducers
// and comparators, the loop state for While) and returns the region's results.
using Computation =
    std::function<std::vector<Value>(GraphBuilder& builder, absl::Span<const Value> arguments)>;

// A branch of Case: takes no arguments (it uses values from outside) and returns its results.
using Branch = std::function<std::vector<Value>(GraphBuilder& builder)>;

class GraphBuilder {
 public:
  // `site`: where the builder is made, the location of the program's entry function.
  explicit GraphBuilder(CallSite site = CallSite::Current());
  ~GraphBuilder();
  GraphBuilder(const GraphBuilder&) = delete;
  GraphBuilder& operator=(const GraphBuilder&) = delete;

  // OK until the first error; then that error.
  const absl::Status& status() const;
  bool ok() const { return status().ok(); }

  // ---- Program boundary ----------------------------------------------------------------

  // A new parameter of the entry function, optionally with the sharding the caller will
  // pass it in. Only outside regions. Parameters are numbered in the order they are made;
  // C++ leaves the order of function arguments open, so make them in separate statements
  // when the order matters.
  Value Parameter(const TensorType& type, const std::optional<Sharding>& sharding = std::nullopt,
                  CallSite site = CallSite::Current());

  // `value`, required to have `sharding` at this point (tessel.sharding_constraint).
  Value ShardingConstraint(Value value, const Sharding& sharding,
                           CallSite site = CallSite::Current());

  // Names `value` and returns it: `Value h = b.Named("h", b.MatMul(x, w));`. The name is a
  // name location on the op that makes it (or on the parameter), wrapped around the call
  // site the op was made at, so it stays with the program: PartitionResult's records,
  // fallback warnings and errors name the value by it and its place ("'h' at my_model.cc:42").
  // Program::ToMlirText() prints no locations, so neither names nor places reach text
  // written with it. An empty name, or a name given twice, is an error (sticky, as for ops).
  Value Named(absl::string_view name, Value value, CallSite site = CallSite::Current());

  // Finishes the program: the entry function returns `results`, the i-th with
  // `result_shardings[i]` if given (empty: no result shardings; otherwise one entry per
  // result, nullopt for none). Returns the first error recorded, if any, or the verifier's
  // complaint about the module. Ends the builder: later calls fail.
  absl::StatusOr<Program> Build(absl::Span<const Value> results,
                                absl::Span<const std::optional<Sharding>> result_shardings = {},
                                CallSite site = CallSite::Current());

  // ---- Creation ------------------------------------------------------------------------

  // A constant holding `tensor`'s elements.
  Value Constant(const HostTensor& tensor, CallSite site = CallSite::Current());
  // A rank-0 constant of `type` holding `value` converted to it (as a C++ static_cast;
  // values beyond 2^53 lose precision on the way through double).
  Value ScalarConstant(ElementType type, double value, CallSite site = CallSite::Current());
  // Counts 0, 1, 2, ... along `dimension` of a tensor of `type` (integer or float).
  Value Iota(const TensorType& type, int64_t dimension, CallSite site = CallSite::Current());
  // XLA's RngBitGenerator: random bits of `output_type` (8 to 64-bit integers) from `state`
  // (u64[2], or u64[3] for Philox: key, then counter), bit for bit as XLA makes them.
  // Returns {next state, bits}.
  std::vector<Value> RngBitGenerator(Value state, const TensorType& output_type,
                                     RngAlgorithm algorithm = RngAlgorithm::kDefault,
                                     CallSite site = CallSite::Current());

  // ---- Elementwise ---------------------------------------------------------------------
  // Unary ops keep the operand's type (IsFinite gives pred). Binary ops need operands of one
  // type. Float-only ops reject integers; Not and the bitwise ops take pred or integers.

  Value Abs(Value operand, CallSite site = CallSite::Current());
  Value Neg(Value operand, CallSite site = CallSite::Current());
  Value Exp(Value operand, CallSite site = CallSite::Current());
  Value Log(Value operand, CallSite site = CallSite::Current());
  Value Log1p(Value operand, CallSite site = CallSite::Current());
  Value Expm1(Value operand, CallSite site = CallSite::Current());
  Value Tanh(Value operand, CallSite site = CallSite::Current());
  Value Logistic(Value operand, CallSite site = CallSite::Current());
  Value Sqrt(Value operand, CallSite site = CallSite::Current());
  Value Rsqrt(Value operand, CallSite site = CallSite::Current());
  Value Sin(Value operand, CallSite site = CallSite::Current());
  Value Cos(Value operand, CallSite site = CallSite::Current());
  Value Floor(Value operand, CallSite site = CallSite::Current());
  Value Ceil(Value operand, CallSite site = CallSite::Current());
  // Ties away from zero.
  Value Round(Value operand, CallSite site = CallSite::Current());
  Value RoundNearestEven(Value operand, CallSite site = CallSite::Current());
  Value Erf(Value operand, CallSite site = CallSite::Current());
  Value Cbrt(Value operand, CallSite site = CallSite::Current());
  Value Tan(Value operand, CallSite site = CallSite::Current());
  Value Sign(Value operand, CallSite site = CallSite::Current());
  // Integers only.
  Value Popcnt(Value operand, CallSite site = CallSite::Current());
  Value CountLeadingZeros(Value operand, CallSite site = CallSite::Current());
  Value Not(Value operand, CallSite site = CallSite::Current());
  Value IsFinite(Value operand, CallSite site = CallSite::Current());

  Value Add(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Sub(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Mul(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Div(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Rem(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Max(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Min(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Pow(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Atan2(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value And(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Or(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value Xor(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value ShiftLeft(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value ShiftRightArithmetic(Value lhs, Value rhs, CallSite site = CallSite::Current());
  Value ShiftRightLogical(Value lhs, Value rhs, CallSite site = CallSite::Current());

  // A pred tensor: lhs <direction> rhs, element by element.
  Value Compare(Value lhs, Value rhs, ComparisonDirection direction,
                std::optional<ComparisonType> type = std::nullopt,
                CallSite site = CallSite::Current());
  // pred ? on_true : on_false; `pred` is rank-0 or has the shape of the choices.
  Value Select(Value pred, Value on_true, Value on_false, CallSite site = CallSite::Current());
  // min(max(operand, min), max); each bound is rank-0 or has the operand's shape.
  Value Clamp(Value min, Value operand, Value max, CallSite site = CallSite::Current());
  // Each element converted to `type` (C++ static_cast rules).
  Value Convert(Value operand, ElementType type, CallSite site = CallSite::Current());

  // ---- Shape ---------------------------------------------------------------------------

  // `operand` broadcast to `result_dimensions`: operand dimension i becomes result dimension
  // broadcast_dimensions[i] (size 1 stretches).
  Value BroadcastInDim(Value operand, std::vector<int64_t> result_dimensions,
                       std::vector<int64_t> broadcast_dimensions,
                       CallSite site = CallSite::Current());
  // The same elements in row-major order with shape `dimensions`.
  Value Reshape(Value operand, std::vector<int64_t> dimensions,
                CallSite site = CallSite::Current());
  // Result dimension i is operand dimension permutation[i].
  Value Transpose(Value operand, std::vector<int64_t> permutation,
                  CallSite site = CallSite::Current());
  // Per dimension the elements start, start + stride, ... below limit. Empty strides: all 1.
  Value Slice(Value operand, std::vector<int64_t> start_indices, std::vector<int64_t> limit_indices,
              std::vector<int64_t> strides = {}, CallSite site = CallSite::Current());
  // A box of `slice_sizes` at run-time starts (one rank-0 integer per dimension, clamped).
  Value DynamicSlice(Value operand, absl::Span<const Value> start_indices,
                     std::vector<int64_t> slice_sizes, CallSite site = CallSite::Current());
  // `operand` with the box of `update`'s shape at run-time starts replaced by `update`.
  Value DynamicUpdateSlice(Value operand, Value update, absl::Span<const Value> start_indices,
                           CallSite site = CallSite::Current());
  // Padding before (low), after (high) and between (interior) elements; negative low/high
  // crops. Empty interior: no interior padding. `padding_value` is rank-0.
  Value Pad(Value operand, Value padding_value, std::vector<int64_t> low, std::vector<int64_t> high,
            std::vector<int64_t> interior = {}, CallSite site = CallSite::Current());
  // `inputs` joined along `dimension`.
  Value Concatenate(absl::Span<const Value> inputs, int64_t dimension,
                    CallSite site = CallSite::Current());
  // The order of elements reversed along `dimensions`.
  Value Reverse(Value operand, std::vector<int64_t> dimensions,
                CallSite site = CallSite::Current());

  // ---- Reductions ----------------------------------------------------------------------

  // `input` reduced over `dimensions` with a built-in reducer (its identity is the init).
  Value Reduce(Value input, ReduceKind kind, std::vector<int64_t> dimensions,
               CallSite site = CallSite::Current());
  // N inputs of one shape reduced together: the reducer gets N accumulators then N elements
  // (all rank-0) and returns N accumulators. One result per input.
  std::vector<Value> Reduce(absl::Span<const Value> inputs, absl::Span<const Value> init_values,
                            std::vector<int64_t> dimensions, const Computation& reducer,
                            CallSite site = CallSite::Current());

  // Every window of `input` (size `window_dimensions`, laid out by `window`) reduced.
  Value ReduceWindow(Value input, ReduceKind kind, std::vector<int64_t> window_dimensions,
                     const Window& window = {}, CallSite site = CallSite::Current());
  std::vector<Value> ReduceWindow(absl::Span<const Value> inputs,
                                  absl::Span<const Value> init_values,
                                  std::vector<int64_t> window_dimensions, const Window& window,
                                  const Computation& reducer, CallSite site = CallSite::Current());

  // In each window of `operand`, `select` (2 rank-0 args → rank-0 pred, true keeps the first)
  // picks one element; the window's `source` element is combined into it with `scatter`.
  // Positions start as `init_value`. Window dilations are not allowed.
  Value SelectAndScatter(Value operand, Value source, Value init_value,
                         std::vector<int64_t> window_dimensions, const Window& window,
                         const Computation& select, const Computation& scatter,
                         CallSite site = CallSite::Current());
  // The same with a comparison as select (kGe: the first maximum, as in max-pool gradients)
  // and a built-in reducer as scatter.
  Value SelectAndScatter(Value operand, Value source, Value init_value,
                         std::vector<int64_t> window_dimensions, const Window& window,
                         ComparisonDirection select, ReduceKind scatter,
                         CallSite site = CallSite::Current());

  // ---- Linear algebra ------------------------------------------------------------------

  // General contraction; the result element type is the operands' unless given.
  Value DotGeneral(Value lhs, Value rhs, const DotDimensions& dimensions,
                   std::optional<ElementType> result_element_type = std::nullopt,
                   CallSite site = CallSite::Current());
  // Matrix product of [..., m, k] and [..., k, n] (equal leading batch dimensions):
  // DotGeneral contracting lhs's last and rhs's second-to-last dimension.
  Value MatMul(Value lhs, Value rhs, CallSite site = CallSite::Current());
  // Convolution of input `lhs` with kernel `rhs`.
  Value Convolution(Value lhs, Value rhs, const ConvDimensions& dimensions,
                    const ConvolutionOptions& options = {}, CallSite site = CallSite::Current());

  // ---- Indexing ------------------------------------------------------------------------

  // Slices of `slice_sizes` gathered from `operand` at positions read from `start_indices`.
  Value Gather(Value operand, Value start_indices, const GatherDimensions& dimensions,
               std::vector<int64_t> slice_sizes, const IndexingOptions& options = {},
               CallSite site = CallSite::Current());
  // Update windows combined into N inputs at positions read from `scatter_indices`: `update`
  // gets N current values then N update values (rank-0) and returns N new values.
  std::vector<Value> Scatter(absl::Span<const Value> inputs, Value scatter_indices,
                             absl::Span<const Value> updates, const ScatterDimensions& dimensions,
                             const Computation& update, const IndexingOptions& options = {},
                             CallSite site = CallSite::Current());

  // ---- Control flow and opaque calls ---------------------------------------------------

  // N inputs of one shape sorted together along `dimension`; the comparator gets
  // (a_0, b_0, a_1, b_1, ...) and returns a rank-0 pred, true when a goes first.
  std::vector<Value> Sort(absl::Span<const Value> inputs, int64_t dimension,
                          const Computation& comparator, bool is_stable = false,
                          CallSite site = CallSite::Current());
  // `input` sorted along `dimension`: kLt ascending, kGt descending.
  Value Sort(Value input, int64_t dimension,
             ComparisonDirection direction = ComparisonDirection::kLt, bool is_stable = false,
             CallSite site = CallSite::Current());

  // Loop: while cond(state) holds, state = body(state). Returns the final state.
  std::vector<Value> While(absl::Span<const Value> initial_state, const Computation& cond,
                           const Computation& body, CallSite site = CallSite::Current());

  // Runs branches[index] (the last branch when index is out of range); `index` is a rank-0
  // s32 tensor. Every branch returns values of the same types.
  std::vector<Value> Case(Value index, const std::vector<Branch>& branches,
                          CallSite site = CallSite::Current());

  // An opaque call to `target` with results of `result_types`.
  std::vector<Value> CustomCall(absl::string_view target, absl::Span<const Value> inputs,
                                absl::Span<const TensorType> result_types,
                                const CustomCallOptions& options = {},
                                CallSite site = CallSite::Current());

 private:
  friend class api_internal::BuilderState;
  std::unique_ptr<api_internal::BuilderState> state_;
};

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_GRAPH_BUILDER_H_
