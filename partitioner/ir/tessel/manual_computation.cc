// tessel.manual_computation (shard_map): its syntax, and the rules that tie the global types
// outside to the local types its per-device body sees.
#include <string>

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::ir {
namespace {

mlir::ParseResult parseShardingList(mlir::OpAsmParser& parser, llvm::StringRef keyword,
                                    llvm::SmallVectorImpl<mlir::Attribute>& shardings) {
  auto parseOne = [&]() -> mlir::ParseResult {
    auto sharding = llvm::dyn_cast_or_null<ShardingAttr>(ShardingAttr::parse(parser, {}));
    if (!sharding) return mlir::failure();
    shardings.push_back(sharding);
    return mlir::success();
  };
  return mlir::failure(
      parser.parseKeyword(keyword) || parser.parseEqual() ||
      parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Square, parseOne));
}

void printShardingList(mlir::OpAsmPrinter& printer, mlir::ArrayAttr shardings) {
  printer << "[";
  llvm::interleaveComma(shardings, printer, [&](mlir::Attribute sharding) {
    llvm::cast<ShardingAttr>(sharding).print(printer);
  });
  printer << "]";
}

// Returns a callback that emits an op error starting with `prefix`.
auto prefixedError(mlir::Operation* op, std::string prefix) {
  return [op, prefix]() {
    mlir::InFlightDiagnostic diag = op->emitOpError();
    diag << prefix;
    return diag;
  };
}

// Checks `sharding` on the global `type` and returns the local type the body sees: each
// dimension divided by the product of the sizes of the manual axes that split it.
mlir::FailureOr<mlir::RankedTensorType> verifyAndGetLocalType(
    mlir::Operation* op, const std::string& what, ShardingAttr sharding, mlir::Type type,
    MeshAttr mesh, const llvm::SmallSet<llvm::StringRef, 4>& manualAxes) {
  auto emitError = prefixedError(op, what + ": ");
  if (mlir::failed(verifyShardingForMesh(emitError, sharding, type, mesh))) {
    return mlir::failure();
  }
  auto globalType = llvm::cast<mlir::RankedTensorType>(type);
  llvm::SmallVector<int64_t> localShape(globalType.getShape());
  for (auto [dim, dimSharding] : llvm::enumerate(sharding.getDimShardings())) {
    int64_t manualShards = 1;
    std::optional<AxisRefAttr> firstAutomatic;
    for (AxisRefAttr axis : dimSharding.getAxes()) {
      if (!manualAxes.contains(axis.getName())) {
        if (!firstAutomatic) firstAutomatic = axis;
        continue;
      }
      // Manual axes must be major: the body's shard is then one contiguous block that the
      // remaining automatic axes split further.
      if (firstAutomatic) {
        return emitError() << "dimension " << dim << ": manual axis "
                           << axisRefToString(axis) << " comes after non-manual axis "
                           << axisRefToString(*firstAutomatic);
      }
      manualShards *= axis.getSize(mesh);
    }
    int64_t& size = localShape[dim];
    if (mlir::ShapedType::isDynamic(size)) continue;
    if (size % manualShards != 0) {
      return emitError() << "dimension " << dim << " has size " << size
                         << ", which is not divisible by " << manualShards
                         << ", the product of its manual axis sizes";
    }
    size /= manualShards;
  }
  return mlir::RankedTensorType::get(localShape, globalType.getElementType());
}

}  // namespace

mlir::ParseResult ManualComputationOp::parse(mlir::OpAsmParser& parser,
                                             mlir::OperationState& result) {
  llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand> operands;
  llvm::SmallVector<mlir::Attribute> inShardings, outShardings, manualAxes;
  llvm::SmallVector<mlir::OpAsmParser::Argument> arguments;
  mlir::Builder& builder = parser.getBuilder();
  llvm::SMLoc operandsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(operands, mlir::AsmParser::Delimiter::Paren) ||
      parseShardingList(parser, "in_shardings", inShardings) ||
      parseShardingList(parser, "out_shardings", outShardings) ||
      parser.parseKeyword("manual_axes") || parser.parseEqual() ||
      parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Braces, [&]() {
        std::string name;
        if (parser.parseString(&name)) return mlir::failure();
        manualAxes.push_back(builder.getStringAttr(name));
        return mlir::success();
      }) ||
      parser.parseArgumentList(arguments, mlir::AsmParser::Delimiter::Paren,
                               /*allowType=*/true) ||
      parser.parseRegion(*result.addRegion(), arguments) ||
      parser.parseOptionalAttrDict(result.attributes)) {
    return mlir::failure();
  }
  mlir::FunctionType type;
  if (parser.parseColonType(type) ||
      parser.resolveOperands(operands, type.getInputs(), operandsLoc, result.operands)) {
    return mlir::failure();
  }
  result.addTypes(type.getResults());
  result.addAttribute(getInShardingsAttrName(result.name), builder.getArrayAttr(inShardings));
  result.addAttribute(getOutShardingsAttrName(result.name),
                      builder.getArrayAttr(outShardings));
  result.addAttribute(getManualAxesAttrName(result.name), builder.getArrayAttr(manualAxes));
  return mlir::success();
}

void ManualComputationOp::print(mlir::OpAsmPrinter& printer) {
  printer << "(" << getOperands() << ") in_shardings=";
  printShardingList(printer, getInShardings());
  printer << " out_shardings=";
  printShardingList(printer, getOutShardings());
  printer << " manual_axes={";
  llvm::interleaveComma(getManualAxes().getAsValueRange<mlir::StringAttr>(), printer,
                        [&](llvm::StringRef name) { printer.printString(name); });
  printer << "} (";
  llvm::interleaveComma(getBody().getArguments(), printer,
                        [&](mlir::BlockArgument arg) { printer.printRegionArgument(arg); });
  printer << ") ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
  printer.printOptionalAttrDict(
      (*this)->getAttrs(),
      {getInShardingsAttrName(), getOutShardingsAttrName(), getManualAxesAttrName()});
  printer << " : ";
  printer.printFunctionalType(getOperandTypes(), getResultTypes());
}

mlir::LogicalResult ManualComputationOp::verify() {
  mlir::ArrayAttr inShardings = getInShardings(), outShardings = getOutShardings();
  if (inShardings.size() != getNumOperands()) {
    return emitOpError() << "expects " << getNumOperands()
                         << " in_shardings (one per operand), got " << inShardings.size();
  }
  if (outShardings.size() != getNumResults()) {
    return emitOpError() << "expects " << getNumResults()
                         << " out_shardings (one per result), got " << outShardings.size();
  }
  // Manual axes are names of one mesh, so every sharding must use that mesh.
  llvm::SmallVector<ShardingAttr> all =
      llvm::to_vector(llvm::concat<const ShardingAttr>(
          llvm::to_vector(inShardings.getAsRange<ShardingAttr>()),
          llvm::to_vector(outShardings.getAsRange<ShardingAttr>())));
  if (all.empty()) {
    if (!getManualAxes().empty()) {
      return emitOpError() << "has manual axes but no shardings to take a mesh from";
    }
    return mlir::success();
  }
  mlir::FlatSymbolRefAttr meshName = all.front().getMeshName();
  for (ShardingAttr sharding : all) {
    if (sharding.getMeshName() != meshName) {
      return emitOpError() << "all shardings must use one mesh, got " << meshName << " and "
                           << sharding.getMeshName();
    }
  }
  mlir::FailureOr<MeshAttr> mesh = lookupMesh([&]() { return emitOpError(); }, *this, meshName);
  if (mlir::failed(mesh)) return mlir::failure();
  llvm::SmallSet<llvm::StringRef, 4> manualAxes;
  for (llvm::StringRef name : getManualAxes().getAsValueRange<mlir::StringAttr>()) {
    if (!mesh->findAxisSize(name)) {
      return emitOpError() << "manual axis \"" << name << "\" is not in mesh " << meshName;
    }
    if (!manualAxes.insert(name).second) {
      return emitOpError() << "manual axis \"" << name << "\" appears twice";
    }
  }

  mlir::Block& body = getBody().front();
  if (body.getNumArguments() != getNumOperands()) {
    return emitOpError() << "body has " << body.getNumArguments() << " arguments, expects "
                         << getNumOperands() << " (one per operand)";
  }
  for (auto [i, operand] : llvm::enumerate(getOperands())) {
    std::string what = "in_shardings[" + std::to_string(i) + "]";
    mlir::FailureOr<mlir::RankedTensorType> local = verifyAndGetLocalType(
        *this, what, llvm::cast<ShardingAttr>(inShardings[i]), operand.getType(), *mesh,
        manualAxes);
    if (mlir::failed(local)) return mlir::failure();
    if (body.getArgument(i).getType() != *local) {
      return emitOpError() << "body argument " << i << " has type "
                           << body.getArgument(i).getType() << ", expects local type "
                           << *local;
    }
  }
  // Runs before the body's own checks, so the block may still lack its terminator.
  auto returnOp = llvm::dyn_cast_or_null<ReturnOp>(body.empty() ? nullptr : &body.back());
  if (!returnOp) return emitOpError() << "body must end with 'tessel.return'";
  if (returnOp.getNumOperands() != getNumResults()) {
    return emitOpError() << "body returns " << returnOp.getNumOperands()
                         << " values, expects " << getNumResults() << " (one per result)";
  }
  for (auto [i, resultType] : llvm::enumerate(getResultTypes())) {
    std::string what = "out_shardings[" + std::to_string(i) + "]";
    mlir::FailureOr<mlir::RankedTensorType> local = verifyAndGetLocalType(
        *this, what, llvm::cast<ShardingAttr>(outShardings[i]), resultType, *mesh,
        manualAxes);
    if (mlir::failed(local)) return mlir::failure();
    mlir::Type returned = returnOp.getOperand(i).getType();
    if (returned != *local) {
      return emitOpError() << "body returns " << returned << " for result " << i
                           << ", expects local type " << *local;
    }
  }
  return mlir::success();
}

}  // namespace tessel::ir
