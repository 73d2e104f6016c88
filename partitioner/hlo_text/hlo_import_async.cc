// Importers of XLA's asynchronous forms, which scheduled modules use to overlap collectives
// with compute. The dialect has no notion of time, so each pair becomes the synchronous op:
//   all-reduce-start (shape: the result) and all-reduce-done: the all-reduce;
//   all-gather-start (shape: (operand, result)), collective-permute-start (shape:
//   (operand, result, context...)): the collective, with the operand passed through and
//   zeros for the context scalars; their -done takes the result element;
//   async-start(operands), calls=C (shape: ((operands), result, context...)): C inlined
//   on the operands; async-update passes its operand on; async-done takes the result.
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

// A zero of `type` (a context value of an async tuple; nothing reads it).
mlir::Value zeroOf(Importer& im, const Instruction& inst, mlir::Type type) {
  auto tensor = mlir::cast<mlir::RankedTensorType>(type);
  mlir::Type element = tensor.getElementType();
  mlir::Attribute zero = llvm::isa<mlir::FloatType>(element)
                             ? mlir::Attribute(mlir::FloatAttr::get(element, 0.0))
                             : mlir::Attribute(mlir::IntegerAttr::get(element, 0));
  return im.create(inst, "hlo.constant", {}, tensor,
                   {im.builder().getNamedAttr("value", mlir::DenseElementsAttr::get(tensor, zero))})
      ->getResult(0);
}

// The leaves of the declared tuple `shape`: element 0 is `first`, element 1 is `result`,
// and any later elements are zeros.
mlir::FailureOr<Imported> asyncTuple(Importer& im, Instruction& inst,
                                     llvm::ArrayRef<mlir::Value> first, Imported result) {
  const Shape& shape = inst.shape;
  if (!shape.isTuple || shape.elements.size() < 2) {
    return im.error(inst) << "'" << inst.opcode
                          << "' must have a tuple shape of at least (operands, result)";
  }
  Imported out{llvm::SmallVector<mlir::Value>(first.begin(), first.end()), result.op};
  out.leaves.append(result.leaves.begin(), result.leaves.end());
  for (size_t i = 2; i < shape.elements.size(); ++i) {
    llvm::SmallVector<mlir::Type> types;
    shape.elements[i].appendLeafTypes(types);
    for (mlir::Type type : types) out.leaves.push_back(zeroOf(im, inst, type));
  }
  return out;
}

// `inst` imported as `syncOpcode` with the array shape `resultShape` in place of its own;
// the attributes it understood stay marked on `inst`.
mlir::FailureOr<Imported> importAsSync(Importer& im, Instruction& inst,
                                       llvm::StringRef syncOpcode, const Shape& resultShape) {
  Instruction sync = inst;
  sync.opcode = syncOpcode.str();
  sync.shape = resultShape;
  mlir::FailureOr<Imported> imported = im.importWith(syncOpcode, sync);
  for (size_t i = 0; i < inst.attrs.size(); ++i) inst.attrs[i].used |= sync.attrs[i].used;
  return imported;
}

mlir::FailureOr<Imported> importAllReduceStart(Importer& im, Instruction& inst) {
  return importAsSync(im, inst, "all-reduce", inst.shape);
}

// all-gather-start and collective-permute-start: (operand, result, context...).
mlir::FailureOr<Imported> importCollectiveStart(Importer& im, Instruction& inst) {
  llvm::StringRef sync = llvm::StringRef(inst.opcode).drop_back(llvm::StringRef("-start").size());
  if (!inst.shape.isTuple || inst.shape.elements.size() < 2 ||
      inst.shape.elements[1].isTuple) {
    return im.error(inst) << "'" << inst.opcode
                          << "' must have a tuple shape (operand, result, ...)";
  }
  Shape result = inst.shape.elements[1];
  mlir::FailureOr<Imported> imported = importAsSync(im, inst, sync, result);
  if (failed(imported)) return mlir::failure();
  return asyncTuple(im, inst, im.allOperandLeaves(inst), *imported);
}

// Every -done: the result element of its start's tuple, or the start itself (all-reduce).
mlir::FailureOr<Imported> importDone(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  im.findAttr(inst, "calls");  // async-done names the wrapped computation again
  const Shape& start = im.operandShape(inst, 0);
  llvm::SmallVector<mlir::Value> leaves = im.allOperandLeaves(inst);
  if (!start.isTuple) return Imported{leaves, nullptr};
  if (start.elements.size() < 2) {
    return im.error(inst) << "the operand of '" << inst.opcode
                          << "' is not the tuple of an async start";
  }
  const int64_t begin = start.leafOffset(1);
  const int64_t count = start.elements[1].numLeaves();
  return Imported{llvm::SmallVector<mlir::Value>(leaves.begin() + begin,
                                                 leaves.begin() + begin + count),
                  nullptr};
}

mlir::FailureOr<Imported> importAsyncStart(Importer& im, Instruction& inst) {
  mlir::FailureOr<Computation*> comp = im.computationAttr(inst, "calls");
  if (failed(comp)) return mlir::failure();
  // Where the wrapped op runs is a scheduling matter.
  im.findAttr(inst, "async_execution_thread");
  // One parameter per operand, each with its share of the flattened leaves.
  llvm::SmallVector<mlir::Value> operands = im.allOperandLeaves(inst);
  llvm::SmallVector<llvm::SmallVector<mlir::Value>> params;
  int64_t next = 0;
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    const int64_t count = im.operandShape(inst, i).numLeaves();
    params.emplace_back(operands.begin() + next, operands.begin() + next + count);
    next += count;
  }
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> result =
      im.inlineComputation(**comp, params, inst);
  if (failed(result)) return mlir::failure();
  return asyncTuple(im, inst, operands, Imported{*result, nullptr});
}

mlir::FailureOr<Imported> importAsyncUpdate(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  im.findAttr(inst, "calls");
  return Imported{im.allOperandLeaves(inst), nullptr};
}

}  // namespace

void RegisterAsyncImporters(ImporterTable& table) {
  table["all-reduce-start"] = importAllReduceStart;
  table["all-gather-start"] = importCollectiveStart;
  table["collective-permute-start"] = importCollectiveStart;
  table["all-reduce-done"] = importDone;
  table["all-gather-done"] = importDone;
  table["collective-permute-done"] = importDone;
  table["async-start"] = importAsyncStart;
  table["async-update"] = importAsyncUpdate;
  table["async-done"] = importDone;
}

}  // namespace tessel::hlo_text
