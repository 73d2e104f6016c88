// The importer's shared state and helpers, used by the per-family opcode importers
// (hlo_import_*.cc). Each family registers a function per opcode in an ImporterTable; the
// driver (hlo_importer.cc) walks computations, resolves operands, and after each
// instruction attaches shardings and checks that every attribute was understood.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_HLO_IMPORTER_H_
#define TESSEL_PARTITIONER_HLO_TEXT_HLO_IMPORTER_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "partitioner/hlo_text/hlo_attr_parsers.h"
#include "partitioner/hlo_text/hlo_parser.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/sharding/declared_axes.h"

namespace tessel::hlo_text {

// How deeply computations may nest (a loop body holding a loop whose body holds another,
// ...). The importer recurses once per level, and so do ir::verifyTree and MLIR's walks of
// the imported module; about 2,800 levels overflowed the stack. MLIR text is held to a
// like bound (ir::kMaxNesting).
inline constexpr int kMaxComputationNesting = 256;

// What an instruction became: the values of its flattened shape, and the op that carries
// its sharding (null for instructions that vanish: tuple, get-tuple-element, copy).
struct Imported {
  llvm::SmallVector<mlir::Value> leaves;
  mlir::Operation* op = nullptr;
};

class Importer;
using OpcodeImporter = mlir::FailureOr<Imported> (*)(Importer&, Instruction&);
using ImporterTable = llvm::StringMap<OpcodeImporter>;

// Each family adds its opcodes.
void RegisterElementwiseImporters(ImporterTable& table);
void RegisterShapeImporters(ImporterTable& table);
void RegisterComputeImporters(ImporterTable& table);
// custom-call with custom_call_target="TopK" (hlo_import_compute.cc).
mlir::FailureOr<Imported> ImportTopKCustomCall(Importer& im, Instruction& inst);
void RegisterControlImporters(ImporterTable& table);
void RegisterCollectiveImporters(ImporterTable& table);
// The asynchronous pairs (*-start/*-done, async-start/update/done), hlo_import_async.cc.
void RegisterAsyncImporters(ImporterTable& table);
// Tokens and the ops that only order (after-all, add-dependency), and the refused
// infeed/outfeed family, hlo_import_token.cc.
void RegisterTokenImporters(ImporterTable& table);
// rng, lowered to rng_bit_generator and arithmetic (hlo_import_rng.cc).
void RegisterRngImporters(ImporterTable& table);

// Attribute names under which imported pass-through data is kept.
// The header's num_partitions, on a module with values on one device: the sharding import's
// device count where no tiled sharding gives one (only `{maximal device=N}` shardings).
inline constexpr llvm::StringLiteral kHloNumPartitionsAttr = "tessel.hlo_num_partitions";
inline constexpr llvm::StringLiteral kHloShardingAttr = ir::kGspmdShardingAttr;
inline constexpr llvm::StringLiteral kFrontendAttrsAttr = "tessel.hlo_frontend_attributes";
// The module header's frontend attributes that carry a partitioned module's mark
// (partitioner/ir/partitioned_marker.h) in HLO text: the entry's global parameter and result
// shapes, as tuples, e.g. tessel.global_parameters="(f32[16,64]{1,0}, f32[64,128]{1,0})".
// The partition count is the header's num_partitions; the shardings are the entry
// parameters' and root's `sharding=`.
inline constexpr llvm::StringLiteral kGlobalParametersKey = "tessel.global_parameters";
inline constexpr llvm::StringLiteral kGlobalResultsKey = "tessel.global_results";

class Importer {
 public:
  Importer(ParsedModule& parsed, mlir::ModuleOp module);

  // Imports the whole module; emits diagnostics and fails on the first error.
  mlir::LogicalResult run();

  mlir::MLIRContext* context() { return module_.getContext(); }
  mlir::OpBuilder& builder() { return builder_; }
  mlir::Location loc(SourcePos pos);
  mlir::Location loc(const Instruction& inst) { return loc(inst.pos); }
  mlir::InFlightDiagnostic error(const Instruction& inst) {
    return mlir::emitError(loc(inst));
  }
  mlir::InFlightDiagnostic error(const AttrText& attr) { return mlir::emitError(loc(attr.pos)); }

  // The attribute `name` of `inst` (marked as understood), or null.
  AttrText* findAttr(Instruction& inst, llvm::StringRef name);
  // Like findAttr but reports "'<opcode>' needs attribute '<name>'" when it is missing.
  mlir::FailureOr<AttrText*> requireAttr(Instruction& inst, llvm::StringRef name);
  // A required list attribute, or an optional one (empty when absent).
  mlir::FailureOr<IntList> intListAttr(Instruction& inst, llvm::StringRef name);
  mlir::FailureOr<IntList> optionalIntListAttr(Instruction& inst, llvm::StringRef name);

  // Fails with a located message unless `inst` has `count` operands.
  mlir::LogicalResult expectOperands(const Instruction& inst, size_t count);
  mlir::LogicalResult expectMinOperands(const Instruction& inst, size_t count);
  // The single array value of operand `i` (errors on tuples).
  mlir::FailureOr<mlir::Value> operand(const Instruction& inst, size_t i);
  // Every leaf of every operand, flattened.
  llvm::SmallVector<mlir::Value> allOperandLeaves(const Instruction& inst);
  const Shape& operandShape(const Instruction& inst, size_t i);
  // The tensor type of an array-shaped instruction (errors on tuples).
  mlir::FailureOr<mlir::Type> arrayType(const Instruction& inst);
  // The tensor types of the leaves of the instruction's shape.
  llvm::SmallVector<mlir::Type> leafTypes(const Instruction& inst);

  // Creates `opName` at the instruction's location.
  mlir::Operation* create(const Instruction& inst, llvm::StringRef opName,
                          mlir::ValueRange operands, mlir::TypeRange results,
                          llvm::ArrayRef<mlir::NamedAttribute> attrs = {},
                          unsigned numRegions = 0);
  Imported single(mlir::Operation* op) { return Imported{{op->getResult(0)}, op}; }
  Imported all(mlir::Operation* op) {
    return Imported{llvm::SmallVector<mlir::Value>(op->getResults()), op};
  }

  // Imports `inst` with the importer of `opcode` instead of its own (an async form through
  // its synchronous one). REQUIRES: `opcode` has an importer.
  mlir::FailureOr<Imported> importWith(llvm::StringRef opcode, Instruction& inst) {
    return table_.find(opcode)->second(*this, inst);
  }

  // The computation named by attribute `attrName` of `inst`.
  mlir::FailureOr<Computation*> computationAttr(Instruction& inst, llvm::StringRef attrName);
  Computation* findComputation(llvm::StringRef name);
  // Fills `region` with one block whose arguments are the leaves of the computation's
  // parameters and whose terminator (`hlo.return`) returns its root's leaves.
  mlir::LogicalResult importRegion(Computation& comp, mlir::Region& region,
                                   const Instruction& user);
  // Imports the computation's instructions at the builder's insertion point with its
  // parameters bound to `params` (one leaf list per parameter); returns the root's leaves.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> inlineComputation(
      Computation& comp, llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params,
      const Instruction& user);
  // The private func.func for a `call`/`fusion` target, imported on first use.
  mlir::FailureOr<mlir::func::FuncOp> functionFor(Computation& comp, const Instruction& user);

  // Whether the entry computation's root carries a GSPMD `sharding=` (the results' sharding).
  bool entryRootHasSharding() const {
    return entryRoot_ && entryRoot_->peekAttr("sharding") != nullptr;
  }

  // `value` is what the entry's root returns through the xla.sdy.FuncResultSharding call
  // `call`, which the import drops because the root's `sharding=` places the result: its
  // Shardy sharding goes onto that result beside the GSPMD one, so that the two can be
  // compared like any other pair (import_hlo_shardings).
  void noteResultShardy(const Instruction& call, mlir::Value value);

  // The number of devices: num_partitions from the header, else 0 (unknown).
  int64_t numPartitions() const { return numPartitions_; }
  int64_t numReplicas() const { return numReplicas_; }
  // The module, for collectives that need to add a mesh.
  mlir::ModuleOp module() { return module_; }
  // The declared Shardy mesh of `numDevices` devices in order, where the module has manual
  // computations; null otherwise.
  const sharding::DeclaredMesh* declaredMeshFor(int64_t numDevices);
  // In a module with GSPMD's shard_map (SPMDFullToShardShape), which declares no mesh, and
  // in a partitioned module with Tessel's global shapes in its header: the
  // mesh of `numDevices` devices that the module's tiled shardings and collective device
  // groups make (HloShardingsToMesh; the shard_maps' shardings first, then the groups), so
  // that the body's collectives name the axes its in and out shardings will; none if they
  // split no device.
  std::optional<sharding::Mesh> derivedMeshFor(int64_t numDevices);
  // The synthesized device mesh used by imported collectives, created on first use.
  mlir::FailureOr<mlir::Attribute> meshFor(const Instruction& inst, int64_t numDevices);

 private:
  // The values of one computation's instructions, by instruction index, which is what the
  // parser resolved each operand to (OperandRef::definition).
  struct ScopeEntry {
    const Shape* shape = nullptr;  // null until the instruction is imported
    // Room for one leaf: most instructions have one, and a large program has a million
    // entries.
    llvm::SmallVector<mlir::Value, 1> leaves;
  };
  struct Scope {
    std::vector<ScopeEntry> entries;
  };
  const ScopeEntry& entryOf(const OperandRef& ref) const;

  mlir::LogicalResult importEntry(Computation& comp);
  // The partitioned mark from the header's tessel.global_* frontend attributes, if any.
  mlir::LogicalResult importPartitionedMark();
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> importBody(
      Computation& comp, llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params,
      const Instruction* user);
  // `inst` is instruction `index` of the computation being imported.
  mlir::LogicalResult importInstruction(Instruction& inst, int64_t index);
  // Checks the parameters of `comp` are numbered 0..n-1; returns them by number.
  mlir::FailureOr<llvm::SmallVector<Instruction*, 4>> parametersOf(Computation& comp);
  // The leaves of `inst` with its sharding applied as a constraint on each (GSPMD's Sharding
  // annotation), for instructions that become no op of their own; `leaves` unchanged when
  // it has no sharding.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> constrainLeaves(
      const Instruction& inst, llvm::ArrayRef<mlir::Value> leaves);
  mlir::LogicalResult attachPassThrough(Instruction& inst, mlir::Operation* op);

  ParsedModule& parsed_;
  mlir::ModuleOp module_;
  mlir::OpBuilder builder_;
  ImporterTable table_;
  std::vector<Scope*> scopes_;  // innermost last
  std::map<std::string, mlir::func::FuncOp> functions_;
  std::vector<std::string> inProgress_;  // computations being imported (recursion check)
  // The entry computation's root, whose sharding the results carry.
  const Instruction* entryRoot_ = nullptr;
  llvm::DenseMap<mlir::Value, mlir::DictionaryAttr> resultShardy_;
  int64_t numPartitions_ = 0;
  int64_t numReplicas_ = 1;
  mlir::Attribute mesh_;
  // Whether the module has Shardy's manual computations (shard_map); then collectives use
  // the mesh the module declares (declaredMeshFor).
  bool hasManualComputations_ = false;
  // Whether the module has GSPMD's form of shard_map (derivedMeshFor).
  bool hasGspmdManualComputations_ = false;
  std::vector<sharding::DeclaredMesh> declaredMeshes_;
  // The header's kGlobalParametersKey / kGlobalResultsKey entries and their attribute.
  std::vector<std::pair<std::string, std::string>> globalSignature_;
  const AttrText* globalSignatureAttr_ = nullptr;
};

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_HLO_IMPORTER_H_
