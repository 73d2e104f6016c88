// hlo + tessel → StableHLO + Shardy text (see export.h).
//
// The export rewrites a copy of the module in place, innermost ops first, into ops of the
// `stablehlo`, `chlo` and `sdy` namespaces that no dialect defines here, so MLIR prints them
// in the generic form, `"stablehlo.add"(%0, %1) : (...) -> ...`, which StableHLO's parser
// reads like its pretty forms. Attributes of those dialects are written as opaque
// attributes holding their StableHLO or Shardy text: `hlo` and `tessel` attributes whose
// syntax is shared are printed and renamed, the rest spelled out here.
#include "partitioner/stablehlo/export.h"

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/OperationSupport.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/stablehlo/dialects.h"

namespace tessel::stablehlo {
namespace {

constexpr llvm::StringLiteral kSdySharding = "sdy.sharding";
constexpr llvm::StringLiteral kMhloSharding = "mhlo.sharding";

std::string printed(mlir::Attribute attr) {
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os);
  return text;
}

std::string intList(llvm::ArrayRef<int64_t> values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

class StablehloWriter {
 public:
  // `devices`: the device count of the module's meshes, for mhlo.num_partitions.
  StablehloWriter(mlir::ModuleOp module, int64_t devices)
      : module_(module), context_(module.getContext()), devices_(devices) {}

  mlir::LogicalResult run() {
    // Collectives find their mesh (and groups) through its symbol: meshes go last.
    std::vector<mlir::Operation*> ops, meshes;
    module_.walk<mlir::WalkOrder::PostOrder>([&](mlir::Operation* op) {
      if (op == module_.getOperation()) return;
      (llvm::isa<ir::MeshOp>(op) ? meshes : ops).push_back(op);
    });
    ops.insert(ops.end(), meshes.begin(), meshes.end());
    bool failed = false;
    for (mlir::Operation* op : ops) failed |= mlir::failed(convert(op));
    if (failed) return mlir::failure();
    writeModuleAttributes();
    return mlir::success();
  }

 private:
  // `#dialect.data` (or `#dialect<data>` where data is no identifier with a `<...>` tail).
  mlir::Attribute opaque(llvm::StringRef dialect, llvm::StringRef data) {
    return mlir::OpaqueAttr::get(mlir::StringAttr::get(context_, dialect), data,
                                 mlir::NoneType::get(context_));
  }

  // A `#prefix.name<...>` attribute of Tessel's as `#dialect.name<...>`: the attributes whose
  // syntax StableHLO or Shardy share.
  mlir::Attribute renamed(mlir::Attribute attr, llvm::StringRef prefix, llvm::StringRef dialect) {
    std::string text = printed(attr);
    const std::string head = absl::StrCat("#", prefix.str(), ".");
    if (!llvm::StringRef(text).starts_with(head)) return attr;
    return opaque(dialect, llvm::StringRef(text).drop_front(head.size()));
  }

  // `<@mesh, [...]>`: a Tessel sharding as it stands inside a list of them.
  std::string shardingBody(mlir::Attribute sharding) {
    std::string text = printed(sharding);
    size_t open = text.find('<');
    return open == std::string::npos ? text : text.substr(open);
  }

  mlir::Attribute shardingPerValue(llvm::ArrayRef<mlir::Attribute> shardings) {
    std::vector<std::string> bodies;
    for (mlir::Attribute sharding : shardings) bodies.push_back(shardingBody(sharding));
    return opaque("sdy", absl::StrCat("sharding_per_value<[", absl::StrJoin(bodies, ", "), "]>"));
  }

  // Tessel's sharding attributes under their Shardy names; other `tessel.` attributes have
  // no meaning to StableHLO tools (and a `#tessel` value would not even parse there).
  mlir::DictionaryAttr exported(mlir::DictionaryAttr attrs) {
    if (!attrs) return attrs;
    mlir::NamedAttrList list;
    for (mlir::NamedAttribute attr : attrs) {
      llvm::StringRef name = attr.getName().getValue();
      if (name == ir::TesselDialect::kShardingAttrName) {
        list.set(kSdySharding, renamed(attr.getValue(), "tessel", "sdy"));
      } else if (name == ir::kGspmdShardingAttr) {
        if (!attrs.get(ir::TesselDialect::kShardingAttrName)) {
          list.set(kMhloSharding, attr.getValue());
        }
      } else if (!name.starts_with("tessel.")) {
        list.set(attr.getName(), attr.getValue());
      }
    }
    return list.getDictionary(context_);
  }

  void writeDiscardable(mlir::Operation* from, mlir::OperationState& to) {
    to.addAttributes(exported(from->getDiscardableAttrDictionary()).getValue());
  }

  mlir::Operation* replace(mlir::Operation* op, llvm::StringRef name,
                           const mlir::NamedAttrList& properties, mlir::ValueRange operands) {
    mlir::OpBuilder b(op);
    mlir::OperationState state(op->getLoc(), name);
    state.addOperands(operands);
    state.addTypes(op->getResultTypes());
    if (!properties.empty()) state.propertiesAttr = properties.getDictionary(context_);
    writeDiscardable(op, state);
    for (mlir::Region& region : op->getRegions()) state.addRegion()->takeBody(region);
    mlir::Operation* replacement = b.create(state);
    op->replaceAllUsesWith(replacement);
    op->erase();
    return replacement;
  }

  // An `hlo` attribute value as StableHLO spells it.
  mlir::Attribute attributeValue(mlir::Attribute value) {
    if (auto dot = llvm::dyn_cast<hlo::DotDimensionNumbersAttr>(value)) {
      std::vector<std::string> fields;
      auto field = [&](const char* key, llvm::ArrayRef<int64_t> dims) {
        if (!dims.empty()) fields.push_back(absl::StrCat(key, " = ", intList(dims)));
      };
      field("lhs_batching_dimensions", dot.getLhsBatch());
      field("rhs_batching_dimensions", dot.getRhsBatch());
      field("lhs_contracting_dimensions", dot.getLhsContract());
      field("rhs_contracting_dimensions", dot.getRhsContract());
      return opaque("stablehlo", absl::StrCat("dot<", absl::StrJoin(fields, ", "), ">"));
    }
    if (llvm::isa<hlo::GatherDimensionNumbersAttr, hlo::ScatterDimensionNumbersAttr,
                  hlo::ConvDimensionNumbersAttr>(value)) {
      return renamed(value, "hlo", "stablehlo");
    }
    if (auto direction = llvm::dyn_cast<hlo::ComparisonDirectionAttr>(value)) {
      return opaque("stablehlo", absl::StrCat("comparison_direction ",
                                              hlo::stringifyComparisonDirection(
                                                  direction.getValue()).str()));
    }
    if (auto type = llvm::dyn_cast<hlo::ComparisonTypeAttr>(value)) {
      return opaque("stablehlo", absl::StrCat("comparison_type ",
                                              hlo::stringifyComparisonType(type.getValue()).str()));
    }
    if (auto algorithm = llvm::dyn_cast<hlo::RngAlgorithmAttr>(value)) {
      const char* spelled = "DEFAULT";
      switch (algorithm.getValue()) {
        case hlo::RngAlgorithm::DEFAULT: spelled = "DEFAULT"; break;
        case hlo::RngAlgorithm::THREE_FRY: spelled = "THREE_FRY"; break;
        case hlo::RngAlgorithm::PHILOX: spelled = "PHILOX"; break;
      }
      return opaque("stablehlo", absl::StrCat("rng_algorithm ", spelled));
    }
    // StableHLO's flags are booleans where `hlo` has unit attributes.
    if (llvm::isa<mlir::UnitAttr>(value)) return mlir::BoolAttr::get(context_, true);
    return value;
  }

  // A partition's window of a larger random stream (`window of [global] at [starts]`):
  // StableHLO draws the whole stream and slices the window out, which gives the same bits
  // and the same next state.
  void convertRngWindow(hlo::RngBitGeneratorOp rng) {
    mlir::OpBuilder b(rng);
    auto local = mlir::cast<mlir::RankedTensorType>(rng.getOutput().getType());
    auto global = mlir::RankedTensorType::get(*rng.getGlobalShape(), local.getElementType());
    mlir::OperationState draw(rng.getLoc(), "stablehlo.rng_bit_generator");
    draw.addOperands(rng.getState());
    draw.addTypes({rng.getOutputState().getType(), global});
    mlir::NamedAttrList drawProperties;
    drawProperties.set("rng_algorithm", attributeValue(rng.getAlgorithmAttr()));
    draw.propertiesAttr = drawProperties.getDictionary(context_);
    mlir::Operation* whole = b.create(draw);
    mlir::OperationState slice(rng.getLoc(), "stablehlo.dynamic_slice");
    slice.addOperands(whole->getResult(1));
    slice.addOperands(rng.getStartIndices());
    slice.addTypes(local);
    mlir::NamedAttrList sliceProperties;
    sliceProperties.set("slice_sizes", b.getDenseI64ArrayAttr(local.getShape()));
    slice.propertiesAttr = sliceProperties.getDictionary(context_);
    writeDiscardable(rng, slice);
    mlir::Operation* window = b.create(slice);
    rng.getOutputState().replaceAllUsesWith(whole->getResult(0));
    rng.getOutput().replaceAllUsesWith(window->getResult(0));
    rng.erase();
  }

  mlir::LogicalResult convertHlo(mlir::Operation* op) {
    if (auto rng = llvm::dyn_cast<hlo::RngBitGeneratorOp>(op); rng && rng.getGlobalShape()) {
      convertRngWindow(rng);
      return mlir::success();
    }
    llvm::StringRef shortName = op->getName().stripDialect();
    std::string target = stablehloElementwiseName(op->getName().getStringRef());
    if (target.empty()) {
      if (shortName == "return") {
        target = "stablehlo.return";
      } else if (shortName == "top_k") {
        target = "chlo.top_k";
      } else {
        target = ("stablehlo." + shortName).str();
      }
    }
    mlir::NamedAttrList properties;
    if (auto inherent = llvm::dyn_cast_or_null<mlir::DictionaryAttr>(
            op->getPropertiesAsAttribute())) {
      for (mlir::NamedAttribute attr : inherent) {
        llvm::StringRef name = attr.getName().getValue();
        // StableHLO's variadic ops split their operands evenly; no segment sizes.
        if (name == "operandSegmentSizes") continue;
        if (name == "smallest") {
          return op->emitError() << "'" << op->getName()
                                 << "' of the smallest elements has no StableHLO form "
                                    "(chlo.top_k takes the largest)";
        }
        properties.set(name == "algorithm" ? llvm::StringRef("rng_algorithm") : name,
                       attributeValue(attr.getValue()));
      }
    }
    replace(op, target, properties, op->getOperands());
    return mlir::success();
  }

  // The device groups of a collective over `axes` of `mesh` as StableHLO's
  // tensor<groups x size x i64>.
  mlir::DenseIntElementsAttr replicaGroups(ir::MeshAttr mesh,
                                           llvm::ArrayRef<ir::AxisRefAttr> axes) {
    auto groups = ir::getDeviceGroups(mesh, axes);
    std::vector<int64_t> flat;
    for (const auto& group : groups) flat.insert(flat.end(), group.begin(), group.end());
    const int64_t size = groups.empty() ? 0 : static_cast<int64_t>(groups.front().size());
    auto type = mlir::RankedTensorType::get({static_cast<int64_t>(groups.size()), size},
                                            mlir::IntegerType::get(context_, 64));
    return mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef<int64_t>(flat));
  }

  mlir::Attribute channel() {
    return opaque("stablehlo",
                  absl::StrCat("channel_handle<handle = ", nextChannel_++, ", type = 1>"));
  }

  // The reducer region of a reducing collective: (a, b) -> a op b on scalars.
  void addReducer(mlir::OperationState& state, mlir::Type element, ir::ReductionKind kind) {
    const char* name = "stablehlo.add";
    switch (kind) {
      case ir::ReductionKind::Sum: name = "stablehlo.add"; break;
      case ir::ReductionKind::Prod: name = "stablehlo.multiply"; break;
      case ir::ReductionKind::Max: name = "stablehlo.maximum"; break;
      case ir::ReductionKind::Min: name = "stablehlo.minimum"; break;
    }
    auto scalar = mlir::RankedTensorType::get({}, element);
    mlir::Region* region = state.addRegion();
    mlir::Block* block = new mlir::Block();
    region->push_back(block);
    mlir::Value a = block->addArgument(scalar, state.location);
    mlir::Value b = block->addArgument(scalar, state.location);
    // The region belongs to no op yet, so the builder cannot find the context through it.
    mlir::OpBuilder builder(context_);
    builder.setInsertionPointToEnd(block);
    mlir::OperationState combine(state.location, name);
    combine.addOperands({a, b});
    combine.addTypes(scalar);
    mlir::Operation* result = builder.create(combine);
    mlir::OperationState yield(state.location, "stablehlo.return");
    yield.addOperands(result->getResults());
    builder.create(yield);
  }

  template <typename OpT>
  mlir::LogicalResult convertCollective(OpT op, llvm::StringRef name,
                                        mlir::NamedAttrList properties,
                                        std::optional<ir::ReductionKind> kind) {
    ir::MeshAttr mesh = op.getMesh();
    if (!mesh) {
      return op.emitError() << "mesh @" << op.getMeshName() << " is not in the module";
    }
    llvm::SmallVector<ir::AxisRefAttr> axes;
    for (mlir::Attribute axis : op.getAxes()) axes.push_back(mlir::cast<ir::AxisRefAttr>(axis));
    properties.set("channel_handle", channel());
    if (name == "stablehlo.collective_permute") {
      std::vector<int64_t> pairs;
      for (const auto& group : ir::getDeviceGroups(mesh, axes)) {
        for (auto [source, target] : mlir::cast<ir::CollectivePermuteOp>(op.getOperation())
                                         .getSourceTargetPairs()) {
          pairs.push_back(group[source]);
          pairs.push_back(group[target]);
        }
      }
      auto type = mlir::RankedTensorType::get({static_cast<int64_t>(pairs.size() / 2), 2},
                                              mlir::IntegerType::get(context_, 64));
      properties.set("source_target_pairs",
                     mlir::DenseIntElementsAttr::get(type, llvm::ArrayRef<int64_t>(pairs)));
    } else {
      properties.set("replica_groups", replicaGroups(mesh, axes));
    }
    if (name != "stablehlo.all_to_all" && name != "stablehlo.collective_permute") {
      properties.set("use_global_device_ids", mlir::UnitAttr::get(context_));
    }
    mlir::OpBuilder b(op);
    mlir::OperationState state(op.getLoc(), name);
    state.addOperands(op->getOperands());
    state.addTypes(op->getResultTypes());
    state.propertiesAttr = properties.getDictionary(context_);
    writeDiscardable(op, state);
    if (kind) {
      auto type = mlir::cast<mlir::RankedTensorType>(op->getOperand(0).getType());
      addReducer(state, type.getElementType(), *kind);
    }
    mlir::Operation* replacement = b.create(state);
    op->replaceAllUsesWith(replacement);
    op->erase();
    return mlir::success();
  }

  mlir::LogicalResult convertTessel(mlir::Operation* op) {
    mlir::Builder b(context_);
    if (auto mesh = llvm::dyn_cast<ir::MeshOp>(op)) {
      mlir::NamedAttrList properties;
      properties.set("sym_name", mesh.getSymNameAttr());
      properties.set("mesh", renamed(mesh.getMesh(), "tessel", "sdy"));
      replace(op, "sdy.mesh", properties, {});
      return mlir::success();
    }
    if (llvm::isa<ir::ShardingConstraintOp, ir::ReshardOp>(op)) {
      mlir::NamedAttrList properties;
      properties.set("sharding", renamed(op->getAttr("sharding"), "tessel", "sdy"));
      replace(op, ("sdy." + op->getName().stripDialect()).str(), properties, op->getOperands());
      return mlir::success();
    }
    if (auto group = llvm::dyn_cast<ir::ShardingGroupOp>(op)) {
      // Shardy's sharding_group takes one value; a group of several is one op per value.
      mlir::OpBuilder builder(op);
      for (mlir::Value input : group.getInputs()) {
        mlir::OperationState state(op->getLoc(), "sdy.sharding_group");
        state.addOperands(input);
        mlir::NamedAttrList properties;
        properties.set("group_id", group.getGroupIdAttr());
        state.propertiesAttr = properties.getDictionary(context_);
        builder.create(state);
      }
      op->erase();
      return mlir::success();
    }
    if (auto manual = llvm::dyn_cast<ir::ManualComputationOp>(op)) {
      mlir::NamedAttrList properties;
      properties.set("in_shardings",
                     shardingPerValue(llvm::to_vector(manual.getInShardings().getValue())));
      properties.set("out_shardings",
                     shardingPerValue(llvm::to_vector(manual.getOutShardings().getValue())));
      std::vector<std::string> axes;
      for (mlir::Attribute axis : manual.getManualAxes()) {
        axes.push_back(absl::StrCat("\"", mlir::cast<mlir::StringAttr>(axis).getValue().str(),
                                    "\""));
      }
      properties.set("manual_axes",
                     opaque("sdy", absl::StrCat("manual_axes{", absl::StrJoin(axes, ", "), "}")));
      replace(op, "sdy.manual_computation", properties, op->getOperands());
      return mlir::success();
    }
    if (llvm::isa<ir::ReturnOp>(op)) {
      replace(op, "sdy.return", {}, op->getOperands());
      return mlir::success();
    }
    if (llvm::isa<ir::PartitionIdOp>(op)) {
      replace(op, "stablehlo.partition_id", {}, {});
      return mlir::success();
    }
    if (auto ar = llvm::dyn_cast<ir::AllReduceOp>(op)) {
      return convertCollective(ar, "stablehlo.all_reduce", {}, ar.getKind());
    }
    if (auto ag = llvm::dyn_cast<ir::AllGatherOp>(op)) {
      mlir::NamedAttrList properties;
      properties.set("all_gather_dim", b.getI64IntegerAttr(ag.getDim()));
      return convertCollective(ag, "stablehlo.all_gather", properties, std::nullopt);
    }
    if (auto rs = llvm::dyn_cast<ir::ReduceScatterOp>(op)) {
      mlir::NamedAttrList properties;
      properties.set("scatter_dimension", b.getI64IntegerAttr(rs.getDim()));
      return convertCollective(rs, "stablehlo.reduce_scatter", properties, rs.getKind());
    }
    if (auto a2a = llvm::dyn_cast<ir::AllToAllOp>(op)) {
      mlir::NamedAttrList properties;
      properties.set("split_dimension", b.getI64IntegerAttr(a2a.getSplitDim()));
      properties.set("concat_dimension", b.getI64IntegerAttr(a2a.getConcatDim()));
      properties.set("split_count", b.getI64IntegerAttr(a2a.getGroupSize()));
      return convertCollective(a2a, "stablehlo.all_to_all", properties, std::nullopt);
    }
    if (auto cp = llvm::dyn_cast<ir::CollectivePermuteOp>(op)) {
      return convertCollective(cp, "stablehlo.collective_permute", {}, std::nullopt);
    }
    return op->emitError() << "'" << op->getName() << "' has no StableHLO or Shardy form";
  }

  // Function arguments and results: Tessel's shardings under Shardy's name.
  void convertFunction(mlir::func::FuncOp function) {
    llvm::SmallVector<mlir::DictionaryAttr> args, results;
    for (unsigned i = 0; i < function.getNumArguments(); ++i) {
      args.push_back(exported(function.getArgAttrDict(i)));
    }
    for (unsigned i = 0; i < function.getNumResults(); ++i) {
      results.push_back(exported(function.getResultAttrDict(i)));
    }
    function.setAllArgAttrs(args);
    function.setAllResultAttrs(results);
    function->setDiscardableAttrs(exported(function->getDiscardableAttrDictionary()));
  }

  mlir::LogicalResult convert(mlir::Operation* op) {
    llvm::StringRef dialect = op->getName().getDialectNamespace();
    if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
      convertFunction(function);
      return mlir::success();
    }
    if (dialect == "hlo") return convertHlo(op);
    if (dialect == "tessel") return convertTessel(op);
    // Ops of other dialects (func.call) stay, with their shardings under Shardy's name.
    op->setDiscardableAttrs(exported(op->getDiscardableAttrDictionary()));
    return mlir::success();
  }

  // XLA reads the partition count from `mhlo.num_partitions`; the partitioned mark stays
  // (its values are builtin attributes) so that Tessel runs the file on global inputs.
  void writeModuleAttributes() {
    mlir::Builder b(context_);
    for (mlir::NamedAttribute attr : module_->getDiscardableAttrs()) {
      llvm::StringRef name = attr.getName().getValue();
      if (name.starts_with("tessel.") && name != ir::kPartitionedAttrName) {
        module_->removeAttr(attr.getName());
      }
    }
    if (devices_ > 1) {
      module_->setAttr("mhlo.num_partitions",
                       b.getI32IntegerAttr(static_cast<int32_t>(devices_)));
      module_->setAttr("mhlo.num_replicas", b.getI32IntegerAttr(1));
    }
  }

  mlir::ModuleOp module_;
  mlir::MLIRContext* context_;
  const int64_t devices_;
  int64_t nextChannel_ = 1;
};

}  // namespace

absl::StatusOr<std::string> ExportStablehloText(mlir::ModuleOp module) {
  mlir::MLIRContext* context = module.getContext();
  mlir::DialectRegistry registry;
  registerStablehloDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadDialect<StablehloDialect, ChloDialect, SdyDialect>();

  mlir::OwningOpRef<mlir::ModuleOp> copy(module.clone());
  std::string errors;
  mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic& diagnostic) {
    if (diagnostic.getSeverity() != mlir::DiagnosticSeverity::Error) return mlir::success();
    absl::StrAppend(&errors, errors.empty() ? "" : "\n", FormatLocation(diagnostic.getLocation()),
                    ": error: ", diagnostic.str());
    return mlir::success();
  });
  StablehloWriter writer(*copy, ir::ModuleDeviceCount(module));
  if (mlir::failed(writer.run())) {
    return absl::InvalidArgumentError(errors.empty() ? "the StableHLO export failed" : errors);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  // The rewritten ops belong to no dialect that could verify them.
  (*copy)->print(os, mlir::OpPrintingFlags().assumeVerified());
  return text;
}

}  // namespace tessel::stablehlo
