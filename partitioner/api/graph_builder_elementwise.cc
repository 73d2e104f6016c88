// GraphBuilder's elementwise ops: unary and binary arithmetic and logic, compare, select,
// clamp and convert. The call-site checks give XLA-style messages for the common mistakes
// (operand types that differ, an element type the op does not take); the hlo verifier
// checks the rest as each op is made.
#include "absl/strings/str_cat.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/graph_builder.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel {

using api_internal::BuilderState;
using api_internal::ElementClass;

namespace {

template <typename OpTy>
Value Unary(BuilderState& state, absl::string_view op, Value operand, ElementClass element_class) {
  if (!state.ok()) return Value();
  std::optional<mlir::Value> input = state.Unwrap(op, operand, "operand");
  if (!input || !state.CheckElementClass(op, operand.type(), element_class, "operand")) {
    return Value();
  }
  return state.Result(op, state.CreateInferred<OpTy>(op, *input));
}

template <typename OpTy>
Value Binary(BuilderState& state, absl::string_view op, Value lhs, Value rhs,
             ElementClass element_class) {
  if (!state.ok()) return Value();
  std::optional<mlir::Value> a = state.Unwrap(op, lhs, "lhs");
  std::optional<mlir::Value> b = a ? state.Unwrap(op, rhs, "rhs") : std::nullopt;
  if (!b) return Value();
  if (lhs.type() != rhs.type()) {
    state.Fail(op, absl::StrCat("operand shapes ", lhs.type().ToString(), " and ",
                                rhs.type().ToString(), " differ"));
    return Value();
  }
  if (!state.CheckElementClass(op, lhs.type(), element_class, "operand")) return Value();
  return state.Result(op, state.CreateInferred<OpTy>(op, *a, *b));
}

hlo::ComparisonDirection ToHlo(ComparisonDirection direction) {
  switch (direction) {
    case ComparisonDirection::kEq:
      return hlo::ComparisonDirection::EQ;
    case ComparisonDirection::kNe:
      return hlo::ComparisonDirection::NE;
    case ComparisonDirection::kGe:
      return hlo::ComparisonDirection::GE;
    case ComparisonDirection::kGt:
      return hlo::ComparisonDirection::GT;
    case ComparisonDirection::kLe:
      return hlo::ComparisonDirection::LE;
    case ComparisonDirection::kLt:
      return hlo::ComparisonDirection::LT;
  }
  return hlo::ComparisonDirection::EQ;
}

hlo::ComparisonType ToHlo(ComparisonType type) {
  switch (type) {
    case ComparisonType::kFloat:
      return hlo::ComparisonType::FLOAT;
    case ComparisonType::kTotalOrder:
      return hlo::ComparisonType::TOTALORDER;
    case ComparisonType::kSigned:
      return hlo::ComparisonType::SIGNED;
    case ComparisonType::kUnsigned:
      return hlo::ComparisonType::UNSIGNED;
  }
  return hlo::ComparisonType::FLOAT;
}

}  // namespace

#define TESSEL_UNARY(Method, OpTy, name, element_class)                           \
  Value GraphBuilder::Method(Value operand, CallSite site) {                      \
    auto at = state_->At(site);                                                   \
    return Unary<hlo::OpTy>(*state_, name, operand, ElementClass::element_class); \
  }
TESSEL_UNARY(Abs, AbsOp, "abs", kSignedOrFloat)
TESSEL_UNARY(Neg, NegOp, "neg", kSignedOrFloat)
TESSEL_UNARY(Exp, ExpOp, "exp", kFloat)
TESSEL_UNARY(Log, LogOp, "log", kFloat)
TESSEL_UNARY(Log1p, Log1pOp, "log1p", kFloat)
TESSEL_UNARY(Expm1, Expm1Op, "expm1", kFloat)
TESSEL_UNARY(Tanh, TanhOp, "tanh", kFloat)
TESSEL_UNARY(Logistic, LogisticOp, "logistic", kFloat)
TESSEL_UNARY(Sqrt, SqrtOp, "sqrt", kFloat)
TESSEL_UNARY(Rsqrt, RsqrtOp, "rsqrt", kFloat)
TESSEL_UNARY(Sin, SinOp, "sin", kFloat)
TESSEL_UNARY(Cos, CosOp, "cos", kFloat)
TESSEL_UNARY(Floor, FloorOp, "floor", kFloat)
TESSEL_UNARY(Ceil, CeilOp, "ceil", kFloat)
TESSEL_UNARY(Round, RoundOp, "round", kFloat)
TESSEL_UNARY(RoundNearestEven, RoundNearestEvenOp, "round_nearest_even", kFloat)
TESSEL_UNARY(Erf, ErfOp, "erf", kFloat)
TESSEL_UNARY(Cbrt, CbrtOp, "cbrt", kFloat)
TESSEL_UNARY(Tan, TanOp, "tan", kFloat)
TESSEL_UNARY(Popcnt, PopcntOp, "popcnt", kInt)
TESSEL_UNARY(CountLeadingZeros, CountLeadingZerosOp, "count_leading_zeros", kInt)
TESSEL_UNARY(Sign, SignOp, "sign", kSignedOrFloat)
TESSEL_UNARY(Not, NotOp, "not", kPredOrInt)
TESSEL_UNARY(IsFinite, IsFiniteOp, "is_finite", kFloat)
#undef TESSEL_UNARY

#define TESSEL_BINARY(Method, OpTy, name, element_class)                            \
  Value GraphBuilder::Method(Value lhs, Value rhs, CallSite site) {                 \
    auto at = state_->At(site);                                                     \
    return Binary<hlo::OpTy>(*state_, name, lhs, rhs, ElementClass::element_class); \
  }
TESSEL_BINARY(Add, AddOp, "add", kAny)
TESSEL_BINARY(Sub, SubOp, "sub", kIntOrFloat)
TESSEL_BINARY(Mul, MulOp, "mul", kAny)
TESSEL_BINARY(Div, DivOp, "div", kIntOrFloat)
TESSEL_BINARY(Rem, RemOp, "rem", kIntOrFloat)
TESSEL_BINARY(Max, MaxOp, "max", kAny)
TESSEL_BINARY(Min, MinOp, "min", kAny)
TESSEL_BINARY(Pow, PowOp, "pow", kIntOrFloat)
TESSEL_BINARY(Atan2, Atan2Op, "atan2", kFloat)
TESSEL_BINARY(And, AndOp, "and", kPredOrInt)
TESSEL_BINARY(Or, OrOp, "or", kPredOrInt)
TESSEL_BINARY(Xor, XorOp, "xor", kPredOrInt)
TESSEL_BINARY(ShiftLeft, ShiftLeftOp, "shift_left", kInt)
TESSEL_BINARY(ShiftRightArithmetic, ShiftRightArithmeticOp, "shift_right_arithmetic", kInt)
TESSEL_BINARY(ShiftRightLogical, ShiftRightLogicalOp, "shift_right_logical", kInt)
#undef TESSEL_BINARY

Value GraphBuilder::Compare(Value lhs, Value rhs, ComparisonDirection direction,
                            std::optional<ComparisonType> type, CallSite site) {
  constexpr absl::string_view kOp = "compare";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> a = state_->Unwrap(kOp, lhs, "lhs");
  std::optional<mlir::Value> b = a ? state_->Unwrap(kOp, rhs, "rhs") : std::nullopt;
  if (!b) return Value();
  if (lhs.type() != rhs.type()) {
    state_->Fail(kOp, absl::StrCat("operand shapes ", lhs.type().ToString(), " and ",
                                   rhs.type().ToString(), " differ"));
    return Value();
  }
  mlir::MLIRContext* context = state_->context();
  return state_->Result(
      kOp,
      state_->CreateInferred<hlo::CompareOp>(
          kOp, *a, *b, hlo::ComparisonDirectionAttr::get(context, ToHlo(direction)),
          type ? hlo::ComparisonTypeAttr::get(context, ToHlo(*type)) : hlo::ComparisonTypeAttr()));
}

Value GraphBuilder::Select(Value pred, Value on_true, Value on_false, CallSite site) {
  constexpr absl::string_view kOp = "select";
  if (!ok()) return Value();
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, {pred, on_true, on_false}, "operand", operands)) return Value();
  if (on_true.type() != on_false.type()) {
    state_->Fail(kOp, absl::StrCat("on_true ", on_true.type().ToString(), " and on_false ",
                                   on_false.type().ToString(), " differ"));
    return Value();
  }
  if (pred.type().element_type() != ElementType::kPred) {
    state_->Fail(kOp, absl::StrCat("pred has type ", pred.type().ToString(),
                                   ", must have element type pred"));
    return Value();
  }
  if (pred.type().rank() != 0 && pred.type().dimensions() != on_true.type().dimensions()) {
    state_->Fail(kOp, absl::StrCat("pred ", pred.type().ToString(),
                                   " must be rank-0 or have the shape of on_true ",
                                   on_true.type().ToString()));
    return Value();
  }
  return state_->Result(
      kOp, state_->CreateInferred<hlo::SelectOp>(kOp, operands[0], operands[1], operands[2]));
}

Value GraphBuilder::Clamp(Value min, Value operand, Value max, CallSite site) {
  constexpr absl::string_view kOp = "clamp";
  if (!ok()) return Value();
  auto at = state_->At(site);
  llvm::SmallVector<mlir::Value> operands;
  if (!state_->UnwrapAll(kOp, {min, operand, max}, "operand", operands)) return Value();
  for (const auto& [bound, name] : {std::pair{min, "min"}, std::pair{max, "max"}}) {
    const TensorType& type = bound.type();
    if (type.element_type() != operand.type().element_type() ||
        (type.rank() != 0 && type.dimensions() != operand.type().dimensions())) {
      state_->Fail(kOp, absl::StrCat(name, " ", type.ToString(),
                                     " must be rank-0 or have the shape of operand ",
                                     operand.type().ToString(), ", with its element type"));
      return Value();
    }
  }
  return state_->Result(
      kOp, state_->CreateInferred<hlo::ClampOp>(kOp, operands[0], operands[1], operands[2]));
}

Value GraphBuilder::Convert(Value operand, ElementType type, CallSite site) {
  constexpr absl::string_view kOp = "convert";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, operand, "operand");
  if (!input) return Value();
  mlir::Type result =
      api_internal::ToMlirType(operand.type().WithElementType(type), state_->context());
  return state_->Result(kOp, state_->CreateWithTypes<hlo::ConvertOp>(kOp, {result}, *input));
}

}  // namespace tessel
