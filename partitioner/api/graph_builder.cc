// GraphBuilder's program boundary: construction, parameters, sharding constraints, meshes
// and Build().
#include "partitioner/api/graph_builder.h"

#include "absl/strings/str_cat.h"
#include "partitioner/api/builder_state.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/api/program_mlir.h"
#include "partitioner/ir/function_attrs.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel {

using api_internal::BuilderState;

GraphBuilder::GraphBuilder(CallSite site) : state_(std::make_unique<BuilderState>(this, site)) {}
GraphBuilder::~GraphBuilder() = default;

const absl::Status& GraphBuilder::status() const { return state_->status(); }

Value GraphBuilder::Parameter(const TensorType& type, const std::optional<Sharding>& sharding,
                              CallSite site) {
  auto at = state_->At(site);
  return state_->AddParameter(type, sharding);
}

Value GraphBuilder::Named(absl::string_view name, Value value, CallSite site) {
  constexpr absl::string_view kOp = "named";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> named = state_->Unwrap(kOp, value, "value");
  if (!named) return Value();
  if (name.empty()) {
    state_->Fail(kOp, "the name is empty");
    return Value();
  }
  if (!state_->ClaimName(name)) {
    state_->Fail(kOp, absl::StrCat("the name '", name, "' is given to another value already"));
    return Value();
  }
  // The name wraps where the value was made (not where it is named), as MLIR's own
  // `loc("h"("f.mlir":3:8))` does, so records show both; a name given before is replaced.
  auto rename = [&](mlir::Location made) -> mlir::Location {
    if (auto earlier = mlir::dyn_cast<mlir::NameLoc>(made)) made = earlier.getChildLoc();
    return mlir::NameLoc::get(
        mlir::StringAttr::get(state_->context(), api_internal::ToStringRef(name)), made);
  };
  if (auto argument = mlir::dyn_cast<mlir::BlockArgument>(*named)) {
    argument.setLoc(rename(argument.getLoc()));
  } else {
    mlir::Operation* op = named->getDefiningOp();
    // An op of several results has one location: its results are named `name#k` where the
    // tools list them.
    op->setLoc(rename(op->getLoc()));
  }
  return value;
}

Value GraphBuilder::ShardingConstraint(Value value, const Sharding& sharding, CallSite site) {
  constexpr absl::string_view kOp = "sharding_constraint";
  if (!ok()) return Value();
  auto at = state_->At(site);
  std::optional<mlir::Value> input = state_->Unwrap(kOp, value, "operand");
  if (!input) return Value();
  if (absl::Status fits = sharding.CheckFits(value.type()); !fits.ok()) {
    state_->Fail(kOp, fits.message());
    return Value();
  }
  if (!state_->UseMesh(kOp, sharding.mesh())) return Value();
  return state_->Result(kOp, state_->CreateWithTypes<ir::ShardingConstraintOp>(
                                 kOp, {input->getType()}, *input,
                                 api_internal::ToShardingAttr(sharding, state_->context())));
}

absl::StatusOr<Program> GraphBuilder::Build(
    absl::Span<const Value> results, absl::Span<const std::optional<Sharding>> result_shardings,
    CallSite site) {
  auto at = state_->At(site);
  return state_->Build(results, result_shardings);
}

namespace api_internal {

Value BuilderState::AddParameter(const TensorType& type, const std::optional<Sharding>& sharding) {
  constexpr absl::string_view kOp = "parameter";
  if (!ok()) return Value();
  if (InRegion()) {
    Fail(kOp, "parameters can only be added outside regions");
    return Value();
  }
  if (!CheckDimensions(kOp, type.dimensions(), type.ToString())) return Value();
  if (sharding) {
    if (absl::Status fits = sharding->CheckFits(type); !fits.ok()) {
      Fail(kOp, fits.message());
      return Value();
    }
    if (!UseMesh(kOp, sharding->mesh())) return Value();
  }
  parameter_shardings_.push_back(sharding);
  return Wrap(kOp, entry_.front().addArgument(ToMlirType(type, context()), loc()));
}

bool BuilderState::UseMesh(absl::string_view op, const Mesh& mesh) {
  for (const Mesh& known : meshes_) {
    if (known.name() != mesh.name()) continue;
    if (known == mesh) return true;
    Fail(op, absl::StrCat("mesh ", mesh.ToString(), " has the name of mesh ", known.ToString(),
                          " used before; give different meshes different names"));
    return false;
  }
  meshes_.push_back(mesh);
  // Meshes go before the entry function, in the order they are first used.
  mlir::OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPoint(entry_);
  builder_.create<ir::MeshOp>(loc(), mesh.name(), ToMeshAttr(mesh, context()));
  return true;
}

absl::StatusOr<Program> BuilderState::Build(
    absl::Span<const Value> results, absl::Span<const std::optional<Sharding>> result_shardings) {
  constexpr absl::string_view kOp = "build";
  if (!ok()) return status_;
  if (InRegion()) {
    Fail(kOp, "cannot build the program from inside a region");
    return status_;
  }
  llvm::SmallVector<mlir::Value> returned;
  if (!UnwrapAll(kOp, results, "result", returned)) return status_;
  if (!result_shardings.empty() && result_shardings.size() != results.size()) {
    Fail(kOp, absl::StrCat("got ", results.size(), " results but ", result_shardings.size(),
                           " result shardings"));
    return status_;
  }
  for (size_t i = 0; i < result_shardings.size(); ++i) {
    if (!result_shardings[i]) continue;
    if (absl::Status fits = result_shardings[i]->CheckFits(results[i].type()); !fits.ok()) {
      Fail(kOp, absl::StrCat("result ", i, ": ", fits.message()));
      return status_;
    }
    if (!UseMesh(kOp, result_shardings[i]->mesh())) return status_;
  }

  builder_.create<mlir::func::ReturnOp>(loc(), returned);
  mlir::Block& body = entry_.front();
  entry_.setFunctionType(
      builder_.getFunctionType(body.getArgumentTypes(), mlir::ValueRange(returned).getTypes()));
  llvm::StringRef sharding_name = ir::TesselDialect::kShardingAttrName;
  ir::FunctionAttrEditor attrs(entry_);
  for (size_t i = 0; i < parameter_shardings_.size(); ++i) {
    if (parameter_shardings_[i]) {
      attrs.setArg(i, sharding_name, ToShardingAttr(*parameter_shardings_[i], context()));
    }
  }
  for (size_t i = 0; i < result_shardings.size(); ++i) {
    if (result_shardings[i]) {
      attrs.setResult(i, sharding_name, ToShardingAttr(*result_shardings[i], context()));
    }
  }
  attrs.commit();

  built_ = true;
  status_ = absl::FailedPreconditionError(
      "graph builder: Build() was called already; start a new GraphBuilder");
  values_.clear();
  absl::StatusOr<Program> program = ProgramFromMlir(std::move(context_), std::move(module_));
  if (!program.ok()) {
    // The verifier caught what the call-site checks missed: a builder bug, reported as one.
    status_ = absl::InternalError(
        absl::StrCat("graph builder made an invalid program: ", program.status().message()));
    return status_;
  }
  return program;
}

}  // namespace api_internal
}  // namespace tessel
