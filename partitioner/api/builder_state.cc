// BuilderState: value handles, region scopes, call sites, op creation with verification, and
// the built-in reducers.
#include "partitioner/api/builder_state.h"

#include <algorithm>
#include <limits>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/api/element_type_conversion.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/parse_module.h"
#include "runtime/attr_conversion.h"

namespace tessel::api_internal {
namespace {

// MLIR's op diagnostics read "'hlo.reduce' op dimensions: ..."; the API names the op itself.
absl::string_view StripOpPrefix(absl::string_view message) {
  if (message.empty() || message.front() != '\'') return message;
  size_t end = message.find("' op ");
  if (end == absl::string_view::npos) return message;
  return message.substr(end + 5);
}

std::unique_ptr<mlir::MLIRContext> NewContext() {
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  // One builder is one thread's work; MLIR's thread pool would only cost start-up time.
  auto context =
      std::make_unique<mlir::MLIRContext>(registry, mlir::MLIRContext::Threading::DISABLED);
  context->loadAllAvailableDialects();
  return context;
}

mlir::Location SiteLocation(const CallSite& site, mlir::MLIRContext* context) {
  if (!site.known()) return mlir::UnknownLoc::get(context);
  return mlir::FileLineColLoc::get(context, site.file(), static_cast<unsigned>(site.line()),
                                   static_cast<unsigned>(site.column()));
}

bool InClass(ElementType api_type, ElementClass element_class) {
  const runtime::ElementType type = ToRuntime(api_type);
  switch (element_class) {
    case ElementClass::kAny:
      return true;
    case ElementClass::kFloat:
      return runtime::IsFloat(type);
    case ElementClass::kSignedOrFloat:
      return runtime::IsFloat(type) || runtime::IsSignedInt(type);
    case ElementClass::kPredOrInt:
      return api_type == ElementType::kPred || runtime::IsSignedInt(type) ||
             runtime::IsUnsignedInt(type);
    case ElementClass::kInt:
      return runtime::IsSignedInt(type) || runtime::IsUnsignedInt(type);
    case ElementClass::kIntOrFloat:
      return api_type != ElementType::kPred;
  }
  return false;
}

absl::string_view ClassName(ElementClass element_class) {
  switch (element_class) {
    case ElementClass::kAny:
      return "any";
    case ElementClass::kFloat:
      return "a float";
    case ElementClass::kSignedOrFloat:
      return "a signed integer or float";
    case ElementClass::kPredOrInt:
      return "a pred or integer";
    case ElementClass::kInt:
      return "an integer";
    case ElementClass::kIntOrFloat:
      return "an integer or float";
  }
  return "";
}

}  // namespace

BuilderState::BuilderState(GraphBuilder* self, const CallSite& site)
    : self_(self),
      context_(NewContext()),
      builder_(context_.get()),
      loc_(builder_.getUnknownLoc()) {
  // Only the module and the function take the builder's own site; between method calls no
  // site is current, so `site` (which may point at the caller's storage) is not kept.
  mlir::Location where = SiteLocation(site, context());
  module_ = mlir::ModuleOp::create(where);
  builder_.setInsertionPointToEnd(module_->getBody());
  entry_ = builder_.create<mlir::func::FuncOp>(where, ToStringRef(Program::kEntryFunctionName),
                                               builder_.getFunctionType({}, {}));
  builder_.setInsertionPointToEnd(entry_.addEntryBlock());
}

// The module must go before the context it lives in.
BuilderState::~BuilderState() { module_ = nullptr; }

BuilderState::SiteScope::SiteScope(BuilderState& state, const CallSite& site)
    : state_(state), previous_site_(state.site_), previous_loc_(state.loc_) {
  state_.site_ = site;
  // After Build() the context belongs to the Program, and no call makes anything any more.
  if (state_.context() != nullptr) state_.loc_ = SiteLocation(site, state_.context());
}

BuilderState::SiteScope::~SiteScope() {
  state_.site_ = previous_site_;
  state_.loc_ = previous_loc_;
}

void BuilderState::Fail(absl::string_view op, absl::string_view message) {
  if (!status_.ok()) return;
  // The form of located diagnostics elsewhere ("program.mlir:3:14: ..."), so editors and
  // terminals that link file positions link this one too.
  std::string text = absl::StrCat(op, ": ", message);
  if (site_.known()) text = absl::StrCat(site_.ToString(), ": ", text);
  status_ = absl::InvalidArgumentError(text);
}

Value BuilderState::Wrap(absl::string_view op, mlir::Value value) {
  absl::StatusOr<TensorType> type = FromMlirType(value.getType());
  if (!type.ok()) {
    Fail(op, type.status().message());
    return Value();
  }
  values_.push_back({value, scopes_.back()});
  return Value(this, static_cast<int64_t>(values_.size()) - 1, *std::move(type));
}

std::vector<Value> BuilderState::WrapAll(absl::string_view op, mlir::ValueRange values) {
  std::vector<Value> wrapped;
  for (mlir::Value value : values) wrapped.push_back(Wrap(op, value));
  return wrapped;
}

std::optional<mlir::Value> BuilderState::Unwrap(absl::string_view op, const Value& value,
                                                absl::string_view what) {
  if (!value.valid()) {
    Fail(op, absl::StrCat(what,
                          " is an invalid Value (default-constructed or returned by a "
                          "failed call)"));
    return std::nullopt;
  }
  if (value.owner_ != this) {
    Fail(op, absl::StrCat(what, " was made by another GraphBuilder"));
    return std::nullopt;
  }
  const ValueInfo& info = values_[value.id_];
  if (std::find(scopes_.begin(), scopes_.end(), info.scope) == scopes_.end()) {
    Fail(op, absl::StrCat(what, " was made inside a region that has ended"));
    return std::nullopt;
  }
  return info.value;
}

bool BuilderState::UnwrapAll(absl::string_view op, absl::Span<const Value> values,
                             absl::string_view what, llvm::SmallVectorImpl<mlir::Value>& out) {
  for (size_t i = 0; i < values.size(); ++i) {
    std::optional<mlir::Value> value = Unwrap(op, values[i], absl::StrCat(what, " ", i));
    if (!value) return false;
    out.push_back(*value);
  }
  return true;
}

bool BuilderState::CheckElementClass(absl::string_view op, const TensorType& type,
                                     ElementClass element_class, absl::string_view what) {
  if (InClass(type.element_type(), element_class)) return true;
  Fail(op, absl::StrCat(what, " type ", type.ToString(), " must have ", ClassName(element_class),
                        " element type"));
  return false;
}

bool BuilderState::CheckDimensions(absl::string_view op, absl::Span<const int64_t> dimensions,
                                   absl::string_view what) {
  for (size_t d = 0; d < dimensions.size(); ++d) {
    if (dimensions[d] < 0) {
      Fail(op, absl::StrCat(what, " dimension ", d, " is negative (", dimensions[d], ")"));
      return false;
    }
  }
  return true;
}

void BuilderState::FailWithDiagnostics(absl::string_view op, const DiagnosticCollector& diagnostics,
                                       absl::string_view fallback) {
  const std::string& first = diagnostics.FirstError();
  Fail(op, first.empty() ? fallback : StripOpPrefix(first));
}

mlir::Operation* BuilderState::Finish(absl::string_view op, mlir::OperationState& state) {
  DiagnosticCollector diagnostics(context());
  mlir::Operation* created = builder_.create(state);
  if (mlir::succeeded(mlir::verify(created))) return created;
  FailWithDiagnostics(op, diagnostics, "the op does not verify");
  created->erase();
  return nullptr;
}

bool BuilderState::BuildRegion(absl::string_view op, absl::string_view name, mlir::Region& region,
                               mlir::TypeRange argument_types, const Computation& body) {
  if (!body) {
    Fail(op, absl::StrCat("the ", name, " callback is empty"));
    return false;
  }
  mlir::Block* block = new mlir::Block();
  region.push_back(block);
  for (mlir::Type type : argument_types) block->addArgument(type, loc());
  mlir::OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(block);
  scopes_.push_back(next_scope_++);
  std::vector<Value> arguments = WrapAll(op, block->getArguments());
  std::vector<Value> results = body(self(), arguments);
  llvm::SmallVector<mlir::Value> returned;
  bool success = ok() && UnwrapAll(op, results, absl::StrCat(name, " result"), returned);
  scopes_.pop_back();
  if (!success) return false;
  builder_.setInsertionPointToEnd(block);
  builder_.create<hlo::ReturnOp>(loc(), returned);
  return true;
}

Computation BuilderState::Reducer(ReduceKind kind, const CallSite& site) {
  return [kind, site](GraphBuilder& b, absl::Span<const Value> args) -> std::vector<Value> {
    switch (kind) {
      case ReduceKind::kSum:
        return {b.Add(args[0], args[1], site)};
      case ReduceKind::kProd:
        return {b.Mul(args[0], args[1], site)};
      case ReduceKind::kMax:
        return {b.Max(args[0], args[1], site)};
      case ReduceKind::kMin:
        return {b.Min(args[0], args[1], site)};
      case ReduceKind::kAnd:
        return {b.And(args[0], args[1], site)};
      case ReduceKind::kOr:
        return {b.Or(args[0], args[1], site)};
    }
    return {};
  };
}

Value BuilderState::Identity(absl::string_view op, ReduceKind kind, ElementType type) {
  if ((kind == ReduceKind::kAnd || kind == ReduceKind::kOr) &&
      !CheckElementClass(op, TensorType(type, {}), ElementClass::kPredOrInt, "reducer")) {
    return Value();
  }
  runtime::Tensor identity = runtime::DispatchElementType(ToRuntime(type), [kind](auto tag) {
    using T = typename decltype(tag)::type;
    using Limits = std::numeric_limits<T>;
    T value{};
    if constexpr (runtime::kIsComplex<T>) {
      // Unreachable for max, min, and, or: the reducers refuse complex operands first.
      return runtime::Tensor::Scalar<T>(kind == ReduceKind::kProd ? T(1) : T(0));
    } else {
      switch (kind) {
        case ReduceKind::kSum:
        case ReduceKind::kOr:
          value = static_cast<T>(0);
          break;
        case ReduceKind::kProd:
          value = static_cast<T>(1);
          break;
        case ReduceKind::kMax:
          if constexpr (Limits::has_infinity) {
            value = -Limits::infinity();
          } else {
            value = Limits::lowest();
          }
          break;
        case ReduceKind::kMin:
          if constexpr (Limits::has_infinity) {
            value = Limits::infinity();
          } else {
            value = Limits::max();
          }
          break;
        case ReduceKind::kAnd:
          // All bits set: true for pred, -1 or the maximum for integers.
          if constexpr (std::is_integral_v<T>) value = static_cast<T>(~static_cast<uint64_t>(0));
          break;
      }
      return runtime::Tensor::Scalar<T>(value);
    }
  });
  return Constant(identity);
}

Value BuilderState::Constant(const runtime::Tensor& tensor) {
  constexpr absl::string_view kOp = "constant";
  mlir::DenseElementsAttr value = runtime::TensorToElementsAttr(tensor, context());
  return Result(kOp, CreateInferred<hlo::ConstantOp>(kOp, value));
}

}  // namespace tessel::api_internal
