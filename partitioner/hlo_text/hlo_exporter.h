// The exporter's shared state and helpers, used by the per-family op exporters
// (hlo_export_*.cc). A computation is built as a list of instruction lines; an op exporter
// turns one op into one instruction (plus get-tuple-element lines for several results)
// through define(), and asks for computations of its regions through regionComputation().
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_EXPORTER_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_EXPORTER_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace tessel::hlo_text {

// One computation under construction.
struct CompText {
  struct Line {
    std::string name;
    std::string shape;
    std::string rest;   // opcode(operands), attributes
    std::string extra;  // sharding=..., frontend_attributes=...
  };
  std::vector<Line> lines;
  llvm::DenseMap<mlir::Value, std::string> names;
};

class Exporter;
using OpExporter = mlir::LogicalResult (*)(Exporter&, CompText&, mlir::Operation*);
using ExporterTable = llvm::StringMap<OpExporter>;

void RegisterElementwiseExporters(ExporterTable& table);
void RegisterStructuredExporters(ExporterTable& table);
void RegisterControlExporters(ExporterTable& table);
void RegisterCollectiveExporters(ExporterTable& table);

// `{size=2x2 stride=1x2 pad=0_0x1_1 lhs_dilate=.. rhs_dilate=..}` with the present fields.
std::string WindowText(llvm::ArrayRef<int64_t> size,
                       std::optional<llvm::ArrayRef<int64_t>> stride,
                       std::optional<mlir::DenseIntElementsAttr> padding,
                       std::optional<llvm::ArrayRef<int64_t>> lhsDilate,
                       std::optional<llvm::ArrayRef<int64_t>> rhsDilate);

class Exporter {
 public:
  explicit Exporter(mlir::ModuleOp module);

  // Writes the module; emits a diagnostic and fails if an op has no HLO form.
  mlir::LogicalResult run(llvm::raw_ostream& os);

  mlir::ModuleOp module() { return module_; }

  // `f32[4,8]{1,0}`; `(f32[], s32[2]{0})` for several types.
  static std::string shapeOf(mlir::Type type);
  static std::string tupleShapeOf(mlir::TypeRange types);
  // `{1,2,3}`.
  static std::string intList(llvm::ArrayRef<int64_t> values);
  // A quoted, escaped HLO string.
  static std::string quoted(llvm::StringRef text);

  // `%a, %b`: the names of `values`; fails (reporting at `user`) if one has none, i.e. it
  // is defined outside the computation being built.
  mlir::FailureOr<std::string> operandList(CompText& comp, mlir::ValueRange values,
                                           mlir::Operation* user);
  // Adds `%<hint>.N = <result shape> <rest><sharding of op>` and names the op's results
  // (through get-tuple-element lines when there is not exactly one result).
  // With `forceTuple` a single result still gets a tuple shape (while loops).
  // `extraTypes` are further tuple elements after the op's results (forces a tuple): the
  // captured values a while loop carries in its state.
  void define(CompText& comp, mlir::Operation* op, llvm::StringRef hint, std::string rest,
              bool forceTuple = false, mlir::TypeRange extraTypes = {});
  // Adds a line with the given shape and returns its name.
  std::string addLine(CompText& comp, llvm::StringRef hint, std::string shape,
                      std::string rest);

  // Exports `region` (block arguments → parameters, hlo.return → ROOT) as a computation
  // and returns its name; fails if the region uses values defined outside it.
  mlir::FailureOr<std::string> regionComputation(mlir::Region& region, mlir::Operation* user,
                                                 llvm::StringRef hint);
  // Exports the body of a case branch or loop as a computation with one tuple parameter
  // whose elements are `inputs` (bound, in order, to `boundValues`); returns its name.
  // With `tupleRoot` the root is a tuple even for one value (a while body).
  // `passedOn` (bound values) are appended to the root unchanged: the captured values a
  // while body carries along in its state.
  mlir::FailureOr<std::string> tupleParamComputation(mlir::Region& region,
                                                     mlir::ValueRange boundValues,
                                                     mlir::Operation* user,
                                                     llvm::StringRef hint, bool tupleRoot,
                                                     mlir::ValueRange passedOn = {});
  // The computation for a func.func (exported once), by its symbol name.
  mlir::FailureOr<std::string> functionComputation(mlir::func::FuncOp func);
  // Adds a computation `(a, b) -> op(a, b)` over rank-0 `elementType` and returns its name.
  std::string binaryComputation(llvm::StringRef opcode, mlir::Type elementType);

  // Records that a collective runs on `devices` devices (all must agree).
  mlir::LogicalResult noteDeviceCount(mlir::Operation* op, int64_t devices);
  int64_t nextChannelId() { return ++channelId_; }

 private:
  // Exports the ops of `block` into `comp` and returns the names of the terminator's
  // operands.
  mlir::FailureOr<std::vector<std::string>> exportBlock(CompText& comp, mlir::Block& block);
  // Marks the root (a tuple for several results) and renders the computation.
  std::string finish(CompText& comp, llvm::StringRef name, bool isEntry,
                     const std::vector<std::string>& rootNames, mlir::TypeRange rootTypes,
                     const std::vector<std::string>& rootShardings, bool tupleRoot = false);
  std::string uniqueComputationName(llvm::StringRef hint);

  mlir::ModuleOp module_;
  ExporterTable table_;
  std::vector<std::string> computations_;  // rendered, callees before callers
  std::set<std::string> computationNames_;
  std::map<std::string, std::string> functions_;  // func symbol → computation name
  int64_t counter_ = 0;
  int64_t channelId_ = 0;
  int64_t numDevices_ = 0;
};

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_EXPORTER_H_
