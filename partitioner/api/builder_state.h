// The state behind a GraphBuilder, shared by the graph_builder_*.cc files (one per op family):
// the MLIR context and module being built, the table of Value handles, the region scopes, the
// sticky status, the call site that ops and errors are attributed to, and the one way every op
// is made (infer or take result types, create, verify, turn diagnostics into the sticky
// status). Internal to partitioner/api.
#ifndef TESSEL_PARTITIONER_API_BUILDER_STATE_H_
#define TESSEL_PARTITIONER_API_BUILDER_STATE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "partitioner/api/call_site.h"
#include "partitioner/api/diagnostics.h"
#include "partitioner/api/graph_builder.h"
#include "runtime/tensor.h"

namespace tessel::api_internal {

// Which element types an elementwise op takes, for call-site diagnostics.
enum class ElementClass { kAny, kFloat, kSignedOrFloat, kPredOrInt, kInt, kIntOrFloat };

class BuilderState {
 public:
  // `site`: where the GraphBuilder is made, the location of the module and entry function.
  BuilderState(GraphBuilder* self, const CallSite& site);
  ~BuilderState();

  GraphBuilder& self() { return *self_; }
  mlir::MLIRContext* context() { return context_.get(); }
  mlir::OpBuilder& builder() { return builder_; }

  // ---- Call sites ----------------------------------------------------------------------

  // Makes a call site current for as long as it lives, then restores the one before. Each
  // GraphBuilder method opens one first thing, so that the ops it makes, directly or
  // through other methods, and the error it records name the user's call. Scopes nest: a
  // region callback's calls open their own, and the enclosing op's comes back after it.
  class [[nodiscard]] SiteScope {
   public:
    SiteScope(BuilderState& state, const CallSite& site);
    ~SiteScope();
    SiteScope(const SiteScope&) = delete;
    SiteScope& operator=(const SiteScope&) = delete;

   private:
    BuilderState& state_;
    CallSite previous_site_;
    mlir::Location previous_loc_;
  };
  SiteScope At(const CallSite& site) { return SiteScope(*this, site); }

  // The current call site, for a method that makes its ops through other GraphBuilder
  // methods: it passes this on, or they would name the library's own source.
  const CallSite& site() const { return site_; }
  // The location of the current call site (file:line:col), unknown when there is none.
  mlir::Location loc() const { return loc_; }

  const absl::Status& status() const { return status_; }
  bool ok() const { return status_.ok(); }
  // Records "<site>: <op>: <message>" as the sticky error unless one is recorded already;
  // "<op>: <message>" when the call site is unknown.
  void Fail(absl::string_view op, absl::string_view message);

  // ---- Values --------------------------------------------------------------------------

  // A handle for `value`, which belongs to the innermost open region.
  Value Wrap(absl::string_view op, mlir::Value value);
  std::vector<Value> WrapAll(absl::string_view op, mlir::ValueRange values);
  // The MLIR value of `value`, or nullopt (and the sticky error) if it is invalid, comes from
  // another builder, or belongs to a region that has ended. `what` names it: "operand 1".
  std::optional<mlir::Value> Unwrap(absl::string_view op, const Value& value,
                                    absl::string_view what);
  // Unwrap for each of `values`, named "<what> <i>"; false if any fails.
  bool UnwrapAll(absl::string_view op, absl::Span<const Value> values, absl::string_view what,
                 llvm::SmallVectorImpl<mlir::Value>& out);
  // Checks that `type` has an element type of `element_class`; records the error otherwise.
  bool CheckElementClass(absl::string_view op, const TensorType& type, ElementClass element_class,
                         absl::string_view what);

  // Checks that no entry of `dimensions` (the shape of `what`) is negative.
  bool CheckDimensions(absl::string_view op, absl::Span<const int64_t> dimensions,
                       absl::string_view what);

  // ---- Making ops ----------------------------------------------------------------------

  // An OperationState filled by OpTy's builder that takes result types explicitly, without
  // result types yet: the caller adds regions' contents, then InferTypes or its own types.
  template <typename OpTy, typename... Args>
  std::unique_ptr<mlir::OperationState> NewState(Args&&... args) {
    auto state = std::make_unique<mlir::OperationState>(loc(), OpTy::getOperationName());
    // Builders of single-result ops insist on one result type; a placeholder stands in
    // until the real one is known.
    llvm::SmallVector<mlir::Type, 1> placeholder;
    if constexpr (OpTy::template hasTrait<mlir::OpTrait::OneResult>()) {
      placeholder.push_back(builder_.getNoneType());
    }
    OpTy::build(builder_, *state, mlir::TypeRange(placeholder), std::forward<Args>(args)...);
    state->types.clear();
    return state;
  }

  // Sets the state's result types to what OpTy infers; records the inference's complaint and
  // returns false if it fails. Unlike OpBuilder::create's inferring builders, a failure here
  // is a Status, not a fatal error.
  template <typename OpTy>
  bool InferTypes(absl::string_view op, mlir::OperationState& state) {
    DiagnosticCollector diagnostics(context());
    llvm::SmallVector<mlir::Type> types;
    if (mlir::failed(OpTy::inferReturnTypes(context(), state.location, state.operands,
                                            state.attributes.getDictionary(context()),
                                            state.getRawProperties(), state.regions, types))) {
      FailWithDiagnostics(op, diagnostics, "cannot infer the result type");
      return false;
    }
    state.types.assign(types.begin(), types.end());
    return true;
  }

  // Creates the op of `state` at the insertion point and verifies it (with its regions).
  // On failure erases it, records the verifier's message and returns null.
  mlir::Operation* Finish(absl::string_view op, mlir::OperationState& state);

  // NewState + InferTypes + Finish.
  template <typename OpTy, typename... Args>
  mlir::Operation* CreateInferred(absl::string_view op, Args&&... args) {
    std::unique_ptr<mlir::OperationState> state = NewState<OpTy>(std::forward<Args>(args)...);
    if (!InferTypes<OpTy>(op, *state)) return nullptr;
    return Finish(op, *state);
  }

  // NewState with `types` as result types + Finish.
  template <typename OpTy, typename... Args>
  mlir::Operation* CreateWithTypes(absl::string_view op, mlir::TypeRange types, Args&&... args) {
    std::unique_ptr<mlir::OperationState> state = NewState<OpTy>(std::forward<Args>(args)...);
    state->types.assign(types.begin(), types.end());
    return Finish(op, *state);
  }

  // The single result of `created` as a Value; invalid if `created` is null.
  Value Result(absl::string_view op, mlir::Operation* created) {
    return created ? Wrap(op, created->getResult(0)) : Value();
  }
  // Every result of `created`; `count` invalid Values if `created` is null.
  std::vector<Value> Results(absl::string_view op, mlir::Operation* created, size_t count) {
    return created ? WrapAll(op, created->getResults()) : std::vector<Value>(count);
  }

  // Records the first error in `diagnostics` (without MLIR's "'hlo.x' op " prefix), or
  // `fallback` if there is none.
  void FailWithDiagnostics(absl::string_view op, const DiagnosticCollector& diagnostics,
                           absl::string_view fallback);

  // ---- Regions -------------------------------------------------------------------------

  // Fills `region` with one block taking `argument_types`, whose body `body` builds; ends it
  // with hlo.return of what `body` returns. `name` names the region in errors. False (with
  // the sticky error) if the body failed.
  bool BuildRegion(absl::string_view op, absl::string_view name, mlir::Region& region,
                   mlir::TypeRange argument_types, const Computation& body);

  // A reducer computing `kind` over rank-0 tensors (one accumulator, one element), whose ops
  // are attributed to `site`, the call that asked for the built-in reducer.
  static Computation Reducer(ReduceKind kind, const CallSite& site);
  // A rank-0 constant holding the identity of `kind` for `type`; invalid (with the sticky
  // error) if `kind` does not apply to `type` (kAnd on floats).
  Value Identity(absl::string_view op, ReduceKind kind, ElementType type);
  // A constant holding `tensor`, attributed to the current call site. The public
  // GraphBuilder::Constant takes a HostTensor; the library's own constants are runtime
  // tensors already.
  Value Constant(const runtime::Tensor& tensor);

  // ---- Program boundary ----------------------------------------------------------------

  Value AddParameter(const TensorType& type, const std::optional<Sharding>& sharding);
  // Declares `mesh` in the module if it is new; false (with the sticky error) if another
  // mesh of the same name was declared.
  bool UseMesh(absl::string_view op, const Mesh& mesh);
  absl::StatusOr<Program> Build(absl::Span<const Value> results,
                                absl::Span<const std::optional<Sharding>> result_shardings);

  // Whether ops are being added inside a region rather than to the entry function.
  bool InRegion() const { return scopes_.size() > 1; }

  // Records `name` as given (GraphBuilder::Named); false if it was given before.
  bool ClaimName(absl::string_view name) { return names_.insert(std::string(name)).second; }

 private:
  struct ValueInfo {
    mlir::Value value;
    int64_t scope;
  };

  GraphBuilder* self_;
  // Declared before everything that points into it, so it is destroyed last.
  std::unique_ptr<mlir::MLIRContext> context_;
  mlir::OwningOpRef<mlir::ModuleOp> module_;
  mlir::OpBuilder builder_;
  // The call site of the method running now (SiteScope), and its location in context_.
  CallSite site_;
  mlir::Location loc_;
  mlir::func::FuncOp entry_;
  std::vector<std::optional<Sharding>> parameter_shardings_;
  std::vector<Mesh> meshes_;
  std::vector<ValueInfo> values_;
  // The open regions, outermost (the entry function, scope 0) first.
  std::vector<int64_t> scopes_ = {0};
  int64_t next_scope_ = 1;
  absl::Status status_;
  bool built_ = false;
  absl::flat_hash_set<std::string> names_;
};

}  // namespace tessel::api_internal

#endif  // TESSEL_PARTITIONER_API_BUILDER_STATE_H_
