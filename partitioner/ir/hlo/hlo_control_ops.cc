// Verification, type inference and custom assembly of the control flow and opaque ops:
// hlo.sort, hlo.top_k, hlo.optimization_barrier, hlo.while, hlo.case and hlo.custom_call.
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/hlo/hlo_verify_utils.h"

namespace tessel::hlo {
namespace {

mlir::Type getPredScalarType(mlir::MLIRContext* context) {
  return mlir::RankedTensorType::get({}, mlir::IntegerType::get(context, 1));
}

}  // namespace

//===----------------------------------------------------------------------===//
// TopKOp, OptimizationBarrierOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult TopKOp::inferReturnTypes(mlir::MLIRContext* context,
                                             std::optional<mlir::Location> location,
                                             Adaptor adaptor,
                                             llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter errors(context, location, getOperationName());
  auto operand = llvm::dyn_cast<mlir::RankedTensorType>(adaptor.getOperand().getType());
  if (!operand) return errors() << "operand must be a ranked tensor";
  if (operand.getRank() == 0) return errors() << "operand must have rank at least 1";
  const int64_t k = static_cast<int64_t>(adaptor.getK());
  const int64_t length = operand.getShape().back();
  if (k < 0 || k > length) {
    return errors() << "k = " << k << " must be in [0, " << length
                    << "], the size of the operand's minor dimension";
  }
  llvm::SmallVector<int64_t> shape(operand.getShape());
  shape.back() = k;
  inferred.push_back(mlir::RankedTensorType::get(shape, operand.getElementType()));
  inferred.push_back(mlir::RankedTensorType::get(shape, mlir::IntegerType::get(context, 32)));
  return mlir::success();
}

mlir::LogicalResult OptimizationBarrierOp::inferReturnTypes(
    mlir::MLIRContext*, std::optional<mlir::Location>, Adaptor adaptor,
    llvm::SmallVectorImpl<mlir::Type>& inferred) {
  llvm::append_range(inferred, adaptor.getOperands().getTypes());
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// SortOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult SortOp::inferReturnTypes(mlir::MLIRContext* context,
                                             std::optional<mlir::Location> location,
                                             Adaptor adaptor,
                                             llvm::SmallVectorImpl<mlir::Type>& inferred) {
  InferenceErrorEmitter errors(context, location, getOperationName());
  mlir::TypeRange inputs = adaptor.getInputs().getTypes();
  if (inputs.empty()) return errors() << "must have at least one input";
  auto first = llvm::cast<mlir::RankedTensorType>(inputs.front());
  for (auto [index, type] : llvm::enumerate(inputs)) {
    auto input = llvm::cast<mlir::RankedTensorType>(type);
    if (input.getShape() != first.getShape()) {
      return errors() << "input " << index << " has type " << input
                      << ", but all inputs must have the shape of input 0 (" << first << ")";
    }
  }
  int64_t dimension = adaptor.getDimension();
  if (dimension < 0 || dimension >= first.getRank()) {
    return errors() << "dimension " << dimension << " is out of range [0, " << first.getRank()
                    << ")";
  }
  inferred.append(inputs.begin(), inputs.end());
  return mlir::success();
}

mlir::LogicalResult SortOp::verifyRegions() {
  // The comparator sees the two elements being compared of every input, pairwise.
  llvm::SmallVector<mlir::Type> args;
  for (mlir::Type scalar : getScalarTensorTypes(getInputs().getTypes())) {
    args.push_back(scalar);
    args.push_back(scalar);
  }
  return verifyRegionSignature([&] { return emitOpError(); }, getComparator(), args,
                               {getPredScalarType(getContext())}, "comparator");
}

//===----------------------------------------------------------------------===//
// WhileOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult WhileOp::inferReturnTypes(mlir::MLIRContext*, std::optional<mlir::Location>,
                                              Adaptor adaptor,
                                              llvm::SmallVectorImpl<mlir::Type>& inferred) {
  llvm::append_range(inferred, adaptor.getInputs().getTypes());
  return mlir::success();
}

mlir::LogicalResult WhileOp::verifyRegions() {
  auto emitError = [&] { return emitOpError(); };
  mlir::TypeRange state = getInputs().getTypes();
  if (mlir::failed(verifyRegionSignature(emitError, getCond(), state,
                                         {getPredScalarType(getContext())}, "cond"))) {
    return mlir::failure();
  }
  return verifyRegionSignature(emitError, getBody(), state, state, "body");
}

// hlo.while(%a = %x, %b = %y) : type, type attr-dict cond {..} do {..}
mlir::ParseResult WhileOp::parse(mlir::OpAsmParser& parser, mlir::OperationState& result) {
  llvm::SmallVector<mlir::OpAsmParser::Argument> args;
  llvm::SmallVector<mlir::OpAsmParser::UnresolvedOperand> inputs;
  llvm::SmallVector<mlir::Type> types;
  llvm::SMLoc loc = parser.getCurrentLocation();
  auto parseBinding = [&]() -> mlir::ParseResult {
    if (parser.parseArgument(args.emplace_back()) || parser.parseEqual() ||
        parser.parseOperand(inputs.emplace_back())) {
      return mlir::failure();
    }
    return mlir::success();
  };
  if (parser.parseCommaSeparatedList(mlir::AsmParser::Delimiter::Paren, parseBinding))
    return mlir::failure();
  if (mlir::succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types))
    return mlir::failure();
  if (types.size() != inputs.size()) {
    return parser.emitError(loc) << "expected " << inputs.size() << " types, got " << types.size();
  }
  if (parser.resolveOperands(inputs, types, loc, result.operands) ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes)) {
    return mlir::failure();
  }
  for (auto [arg, type] : llvm::zip_equal(args, types)) arg.type = type;
  result.addTypes(types);
  if (parser.parseKeyword("cond") || parser.parseRegion(*result.addRegion(), args) ||
      parser.parseKeyword("do") || parser.parseRegion(*result.addRegion(), args)) {
    return mlir::failure();
  }
  return mlir::success();
}

// The regions' entry arguments are printed once, in the header, as the cond region's. This
// relies on the printer numbering sibling regions' arguments alike, which holds for the
// default `%argN` names (so the op gives its arguments no custom names).
void WhileOp::print(mlir::OpAsmPrinter& printer) {
  mlir::Block& cond = getCond().front();
  mlir::Block& body = getBody().front();
  if (cond.getNumArguments() != getInputs().size() ||
      body.getNumArguments() != getInputs().size()) {
    // The header form needs one block argument per input in each region.
    printer.printGenericOp(getOperation());
    return;
  }
  printer << "(";
  llvm::interleaveComma(llvm::zip_equal(cond.getArguments(), getInputs()), printer, [&](auto pair) {
    printer << std::get<0>(pair) << " = " << std::get<1>(pair);
  });
  printer << ")";
  if (!getInputs().empty()) printer << " : " << getInputs().getTypes();
  printer.printOptionalAttrDictWithKeyword((*this)->getAttrs());
  printer << " cond ";
  printer.printRegion(getCond(), /*printEntryBlockArgs=*/false);
  printer << " do ";
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

//===----------------------------------------------------------------------===//
// CaseOp
//===----------------------------------------------------------------------===//

mlir::LogicalResult CaseOp::verifyRegions() {
  if (getBranches().empty()) return emitOpError() << "must have at least one branch";
  for (auto [index, branch] : llvm::enumerate(getBranches())) {
    std::string name = "branch " + std::to_string(index);
    if (mlir::failed(verifyRegionSignature([&] { return emitOpError(); }, branch, {},
                                           getResultTypes(), name))) {
      return mlir::failure();
    }
  }
  return mlir::success();
}

//===----------------------------------------------------------------------===//
// CustomCallOp
//===----------------------------------------------------------------------===//

void CustomCallOp::getEffects(
    llvm::SmallVectorImpl<mlir::SideEffects::EffectInstance<mlir::MemoryEffects::Effect>>&
        effects) {
  // Without has_side_effect the call is a pure function of its operands.
  if (!getHasSideEffect()) return;
  effects.emplace_back(mlir::MemoryEffects::Read::get());
  effects.emplace_back(mlir::MemoryEffects::Write::get());
}

mlir::ParseResult parseTargetName(mlir::OpAsmParser& parser, mlir::StringAttr& name) {
  return parser.parseSymbolName(name);
}

void printTargetName(mlir::OpAsmPrinter& printer, mlir::Operation*, mlir::StringAttr name) {
  printer.printSymbolName(name.getValue());
}

}  // namespace tessel::hlo
