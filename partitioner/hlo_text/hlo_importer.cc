// The import driver: module header, ENTRY → func.func @main, called computations →
// private functions or regions, and the per-instruction bookkeeping (operand lookup, tuple
// flattening, declared-shape checks, pass-through shardings, unknown attributes).
#include "partitioner/hlo_text/hlo_importer.h"

#include <algorithm>
#include <cassert>
#include <string>
#include <vector>

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringExtras.h"
#include "partitioner/hlo_text/hlo_import.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "partitioner/ir/function_attrs.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/hlo/hlo_ops.h"

namespace tessel::hlo_text {
namespace {

// Attributes that say how XLA should compile or describe an instruction, not what it
// computes; the importer drops them.
bool isIgnoredAttribute(llvm::StringRef name) {
  static const llvm::StringSet<> kIgnored = {
      "metadata", "backend_config", "operand_precision", "precision_config", "algorithm",
      "control-predecessors", "statistics", "origin", "result_accuracy", "api_version",
      "schedule", "custom_call_schedule", "operand_layout_constraints",
      "output_to_operand_aliasing", "kind", "padding_type", "sharding", "frontend_attributes"};
  return kIgnored.contains(name);
}

// Keeps the frontend attributes Shardy needs to round-trip (`xla.sdy.*`).
mlir::DictionaryAttr shardyFrontendAttrs(const AttrText* attr, mlir::MLIRContext* context) {
  if (!attr) return {};
  auto entries = ParseFrontendAttributes(*attr, context);
  if (failed(entries)) return {};
  llvm::SmallVector<mlir::NamedAttribute> kept;
  for (const auto& [key, value] : *entries) {
    if (!llvm::StringRef(key).starts_with("xla.sdy.")) continue;
    kept.emplace_back(mlir::StringAttr::get(context, key), mlir::StringAttr::get(context, value));
  }
  if (kept.empty()) return {};
  return mlir::DictionaryAttr::get(context, kept);
}

// The sharding of each leaf of `shape` given the instruction's sharding text: a tuple
// sharding is split into its elements, any other sharding applies to every leaf.
mlir::FailureOr<std::vector<std::string>> leafShardings(Importer& importer,
                                                        const Instruction& inst) {
  const AttrText* attr = inst.peekAttr("sharding");
  int64_t leaves = inst.shape.numLeaves();
  if (!attr) return std::vector<std::string>(leaves);
  std::optional<std::vector<std::string>> parts = SplitTupleSharding(attr->value);
  if (!parts || !inst.shape.isTuple) return std::vector<std::string>(leaves, attr->value.str());
  // XLA gives a token its own element of a tuple sharding; tokens have no leaf here, so
  // their elements are dropped (a token is never sharded).
  const int64_t slots = inst.shape.numShardingLeaves();
  if (int64_t(parts->size()) != slots) {
    return importer.error(*attr) << "tuple sharding has " << parts->size()
                                 << " elements but '" << inst.name << "' has " << slots
                                 << " arrays and tokens";
  }
  std::vector<bool> isToken;
  inst.shape.appendTokenMask(isToken);
  std::vector<std::string> kept;
  for (size_t i = 0; i < parts->size(); ++i) {
    if (!isToken[i]) kept.push_back((*parts)[i]);
  }
  return kept;
}

}  // namespace

namespace {

void registerAllImporters(ImporterTable& table) {
  RegisterElementwiseImporters(table);
  RegisterShapeImporters(table);
  RegisterComputeImporters(table);
  RegisterControlImporters(table);
  RegisterCollectiveImporters(table);
  RegisterAsyncImporters(table);
  RegisterTokenImporters(table);
  RegisterRngImporters(table);
}

}  // namespace

std::vector<std::string> ImportedHloOpcodes() {
  ImporterTable table;
  registerAllImporters(table);
  std::vector<std::string> opcodes = {"parameter"};  // bound by the driver itself
  for (const auto& entry : table) opcodes.push_back(entry.getKey().str());
  std::sort(opcodes.begin(), opcodes.end());
  return opcodes;
}

Importer::Importer(ParsedModule& parsed, mlir::ModuleOp module)
    : parsed_(parsed), module_(module), builder_(module.getContext()) {
  registerAllImporters(table_);
}

mlir::Location Importer::loc(SourcePos pos) {
  return mlir::FileLineColLoc::get(pos.file, pos.line, pos.col);
}

AttrText* Importer::findAttr(Instruction& inst, llvm::StringRef name) {
  for (AttrText& attr : inst.attrs) {
    if (attr.name == name) {
      attr.used = true;
      return &attr;
    }
  }
  return nullptr;
}

mlir::FailureOr<AttrText*> Importer::requireAttr(Instruction& inst, llvm::StringRef name) {
  if (AttrText* attr = findAttr(inst, name)) return attr;
  return error(inst) << "'" << inst.opcode << "' needs attribute '" << name << "'";
}

mlir::FailureOr<IntList> Importer::intListAttr(Instruction& inst, llvm::StringRef name) {
  mlir::FailureOr<AttrText*> attr = requireAttr(inst, name);
  if (failed(attr)) return mlir::failure();
  return ParseIntList(**attr, context());
}

mlir::FailureOr<IntList> Importer::optionalIntListAttr(Instruction& inst, llvm::StringRef name) {
  AttrText* attr = findAttr(inst, name);
  if (!attr) return IntList();
  return ParseIntList(*attr, context());
}

mlir::LogicalResult Importer::expectOperands(const Instruction& inst, size_t count) {
  if (inst.operands.size() == count) return mlir::success();
  return error(inst) << "'" << inst.opcode << "' takes " << count << " operand"
                     << (count == 1 ? "" : "s") << ", got " << inst.operands.size();
}

mlir::LogicalResult Importer::expectMinOperands(const Instruction& inst, size_t count) {
  if (inst.operands.size() >= count) return mlir::success();
  return error(inst) << "'" << inst.opcode << "' takes at least " << count << " operand"
                     << (count == 1 ? "" : "s") << ", got " << inst.operands.size();
}

const Importer::ScopeEntry& Importer::entryOf(const OperandRef& ref) const {
  assert(ref.definition >= 0 && "importInstruction checked every operand");
  return scopes_.back()->entries[ref.definition];
}

mlir::FailureOr<mlir::Value> Importer::operand(const Instruction& inst, size_t i) {
  const ScopeEntry& entry = entryOf(inst.operands[i]);
  if (entry.shape->isToken) {
    return mlir::emitError(loc(inst.operands[i].pos))
           << "operand '" << inst.operands[i].name << "' of '" << inst.opcode
           << "' is a token, which orders effects and carries no data";
  }
  if (entry.leaves.size() != 1 || entry.shape->isTuple) {
    return mlir::emitError(loc(inst.operands[i].pos))
           << "operand '" << inst.operands[i].name << "' of '" << inst.opcode
           << "' must be an array, not a tuple";
  }
  return entry.leaves.front();
}

llvm::SmallVector<mlir::Value> Importer::allOperandLeaves(const Instruction& inst) {
  llvm::SmallVector<mlir::Value> leaves;
  for (const OperandRef& ref : inst.operands) {
    const ScopeEntry& entry = entryOf(ref);
    leaves.append(entry.leaves.begin(), entry.leaves.end());
  }
  return leaves;
}

const Shape& Importer::operandShape(const Instruction& inst, size_t i) {
  return *entryOf(inst.operands[i]).shape;
}

mlir::FailureOr<mlir::Type> Importer::arrayType(const Instruction& inst) {
  if (inst.shape.isTuple) {
    return error(inst) << "'" << inst.opcode << "' must have an array shape, not a tuple";
  }
  return mlir::Type(mlir::RankedTensorType::get(inst.shape.dims, inst.shape.elementType));
}

llvm::SmallVector<mlir::Type> Importer::leafTypes(const Instruction& inst) {
  llvm::SmallVector<mlir::Type> types;
  inst.shape.appendLeafTypes(types);
  return types;
}

mlir::Operation* Importer::create(const Instruction& inst, llvm::StringRef opName,
                                  mlir::ValueRange operands, mlir::TypeRange results,
                                  llvm::ArrayRef<mlir::NamedAttribute> attrs,
                                  unsigned numRegions) {
  mlir::OperationState state(loc(inst), opName);
  state.addOperands(operands);
  state.addTypes(results);
  state.addAttributes(attrs);
  for (unsigned i = 0; i < numRegions; ++i) state.addRegion();
  return builder_.create(state);
}

Computation* Importer::findComputation(llvm::StringRef name) {
  for (Computation& comp : parsed_.computations) {
    if (comp.name == name) return &comp;
  }
  return nullptr;
}

mlir::FailureOr<Computation*> Importer::computationAttr(Instruction& inst,
                                                        llvm::StringRef attrName) {
  mlir::FailureOr<AttrText*> attr = requireAttr(inst, attrName);
  if (failed(attr)) return mlir::failure();
  mlir::FailureOr<std::string> name = ParseComputationRef(**attr, context());
  if (failed(name)) return mlir::failure();
  Computation* comp = findComputation(*name);
  if (!comp) return error(**attr) << "unknown computation '" << *name << "'";
  return comp;
}

mlir::FailureOr<llvm::SmallVector<Instruction*, 4>> Importer::parametersOf(Computation& comp) {
  llvm::SmallVector<Instruction*, 4> params;
  for (Instruction& inst : comp.instructions) {
    if (inst.opcode != "parameter") continue;
    int64_t number = -1;
    if (inst.rawOperands.getAsInteger(10, number) || number < 0) {
      return mlir::emitError(loc(inst.rawOperandsPos))
             << "parameter number must be a non-negative integer, got '" << inst.rawOperands
             << "'";
    }
    if (number >= int64_t(comp.instructions.size())) {
      return error(inst) << "parameter number " << number << " exceeds the "
                         << comp.instructions.size() << " instructions of '" << comp.name << "'";
    }
    if (number >= int64_t(params.size())) params.resize(number + 1, nullptr);
    if (params[number]) return error(inst) << "parameter " << number << " is declared twice";
    params[number] = &inst;
  }
  for (size_t i = 0; i < params.size(); ++i) {
    if (!params[i]) {
      return mlir::emitError(loc(comp.pos))
             << "computation '" << comp.name << "' lacks parameter " << i;
    }
  }
  return params;
}

mlir::FailureOr<llvm::SmallVector<mlir::Value>> Importer::importBody(
    Computation& comp, llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params,
    const Instruction* user) {
  if (llvm::is_contained(inProgress_, comp.name)) {
    return mlir::emitError(user ? loc(*user) : loc(comp.pos))
           << "computation '" << comp.name << "' calls itself";
  }
  if (inProgress_.size() >= static_cast<size_t>(kMaxComputationNesting)) {
    return mlir::emitError(user ? loc(*user) : loc(comp.pos))
           << "computations nested deeper than " << kMaxComputationNesting
           << " levels (loop bodies, branches and calls inside one another)";
  }
  mlir::FailureOr<llvm::SmallVector<Instruction*, 4>> declared = parametersOf(comp);
  if (failed(declared)) return mlir::failure();
  if (declared->size() != params.size()) {
    return mlir::emitError(user ? loc(*user) : loc(comp.pos))
           << "computation '" << comp.name << "' takes " << declared->size()
           << " parameters but is given " << params.size();
  }
  // An instruction's entry fills in when it is imported; the parser resolved each operand
  // to an earlier instruction or to none.
  Scope scope;
  scope.entries.resize(comp.instructions.size());
  scopes_.push_back(&scope);
  inProgress_.push_back(comp.name);
  auto done = llvm::make_scope_exit([&] {
    scopes_.pop_back();
    inProgress_.pop_back();
  });
  for (Instruction& inst : comp.instructions) {
    if (inst.opcode == "parameter") {
      int64_t number = 0;
      inst.rawOperands.getAsInteger(10, number);
      llvm::SmallVector<mlir::Type> expected = leafTypes(inst);
      llvm::SmallVector<mlir::Type> given;
      for (mlir::Value v : params[number]) given.push_back(v.getType());
      if (expected != given) {
        return error(inst) << "parameter " << number << " of '" << comp.name
                           << "' does not match the shape of the value passed to it";
      }
      for (AttrText& attr : inst.attrs) attr.used = true;
      // The entry's parameters carry their shardings as argument attributes; in any other
      // computation a parameter's sharding pins the value the body sees.
      llvm::SmallVector<mlir::Value> leaves(params[number].begin(), params[number].end());
      if (user) {
        mlir::FailureOr<llvm::SmallVector<mlir::Value>> constrained = constrainLeaves(inst, leaves);
        if (failed(constrained)) return mlir::failure();
        leaves = std::move(*constrained);
      }
      scope.entries[&inst - comp.instructions.data()] = {&inst.shape, std::move(leaves)};
      continue;
    }
    if (failed(importInstruction(inst, &inst - comp.instructions.data()))) {
      return mlir::failure();
    }
  }
  return llvm::SmallVector<mlir::Value>(std::move(scope.entries[comp.rootIndex].leaves));
}

mlir::LogicalResult Importer::importInstruction(Instruction& inst, int64_t index) {
  Scope& scope = *scopes_.back();
  for (const OperandRef& ref : inst.operands) {
    if (ref.definition < 0 || !scope.entries[ref.definition].shape) {
      return mlir::emitError(loc(ref.pos)) << "unknown operand '" << ref.name << "' of '"
                                           << inst.name << "'";
    }
  }
  auto it = table_.find(inst.opcode);
  if (it == table_.end()) {
    auto diag = mlir::emitError(loc(inst.opcodePos))
                << "opcode '" << inst.opcode << "' is not supported";
    // Host transfers are the one thing tokens order that Tessel could not just run in order.
    if (inst.opcode == "infeed") diag << ": infeed has no data source in this executor";
    if (inst.opcode == "outfeed") diag << ": outfeed has no data sink in this executor";
    return diag;
  }
  mlir::FailureOr<Imported> imported = it->second(*this, inst);
  if (failed(imported)) return mlir::failure();
  if (!inst.shape.hasLeafTypes(mlir::ValueRange(imported->leaves).getTypes())) {
    llvm::SmallVector<mlir::Type> expected = leafTypes(inst);
    llvm::SmallVector<mlir::Type> actual;
    for (mlir::Value v : imported->leaves) actual.push_back(v.getType());
    auto diag = error(inst) << "shape of '" << inst.name << "' does not match its '"
                            << inst.opcode << "' operation: declared (";
    llvm::interleaveComma(expected, diag);
    diag << ") but the operation gives (";
    llvm::interleaveComma(actual, diag);
    return diag << ")";
  }
  if (failed(attachPassThrough(inst, imported->op))) return mlir::failure();
  // An instruction that only renames values (tuple, get-tuple-element, a copy of a tuple)
  // has no op to hold its sharding; it becomes a constraint on the values, so that no
  // sharding of the input is dropped. The entry's root is the exception: the results carry
  // its sharding.
  if (!imported->op && &inst != entryRoot_) {
    mlir::FailureOr<llvm::SmallVector<mlir::Value>> constrained =
        constrainLeaves(inst, imported->leaves);
    if (failed(constrained)) return mlir::failure();
    imported->leaves = std::move(*constrained);
  }
  for (const AttrText& attr : inst.attrs) {
    if (!attr.used && !isIgnoredAttribute(attr.name)) {
      return error(attr) << "attribute '" << attr.name << "' is not supported on '"
                         << inst.opcode << "'";
    }
  }
  scope.entries[index] = {&inst.shape, std::move(imported->leaves)};
  return mlir::success();
}

mlir::FailureOr<llvm::SmallVector<mlir::Value>> Importer::constrainLeaves(
    const Instruction& inst, llvm::ArrayRef<mlir::Value> leaves) {
  llvm::SmallVector<mlir::Value> result(leaves.begin(), leaves.end());
  if (!inst.peekAttr("sharding")) return result;
  mlir::FailureOr<std::vector<std::string>> shardings = leafShardings(*this, inst);
  if (failed(shardings)) return mlir::failure();
  if (shardings->size() != result.size()) {
    return error(inst) << "'" << inst.name << "' has " << result.size()
                       << " array values but its sharding names " << shardings->size();
  }
  for (size_t i = 0; i < result.size(); ++i) {
    if ((*shardings)[i].empty()) continue;
    mlir::Operation* constraint =
        create(inst, "hlo.custom_call", {result[i]}, {result[i].getType()},
               {builder_.getNamedAttr("call_target_name", builder_.getStringAttr("Sharding"))});
    constraint->setAttr(kHloShardingAttr, builder_.getStringAttr((*shardings)[i]));
    result[i] = constraint->getResult(0);
  }
  return result;
}

mlir::LogicalResult Importer::attachPassThrough(Instruction& inst, mlir::Operation* op) {
  if (!op) return mlir::success();
  if (const AttrText* sharding = inst.peekAttr("sharding")) {
    std::string text = sharding->value.str();
    if (inst.shape.isTuple && inst.shape.numShardingLeaves() != inst.shape.numLeaves() &&
        SplitTupleSharding(sharding->value)) {
      // The op has no results for the tokens; keep the elements of its arrays only.
      mlir::FailureOr<std::vector<std::string>> kept = leafShardings(*this, inst);
      if (failed(kept)) return mlir::failure();
      text = "{" + llvm::join(*kept, ", ") + "}";
    }
    op->setAttr(kHloShardingAttr, mlir::StringAttr::get(context(), text));
  }
  if (mlir::DictionaryAttr attrs =
          shardyFrontendAttrs(inst.peekAttr("frontend_attributes"), context())) {
    op->setAttr(kFrontendAttrsAttr, attrs);
  }
  return mlir::success();
}

mlir::LogicalResult Importer::importRegion(Computation& comp, mlir::Region& region,
                                           const Instruction& user) {
  mlir::FailureOr<llvm::SmallVector<Instruction*, 4>> declared = parametersOf(comp);
  if (failed(declared)) return mlir::failure();
  mlir::OpBuilder::InsertionGuard guard(builder_);
  mlir::Block* block = builder_.createBlock(&region);
  std::vector<llvm::SmallVector<mlir::Value>> params;
  for (Instruction* param : *declared) {
    llvm::SmallVector<mlir::Value> leaves;
    for (mlir::Type type : leafTypes(*param)) {
      leaves.push_back(block->addArgument(type, loc(*param)));
    }
    params.push_back(leaves);
  }
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> results = importBody(comp, params, &user);
  if (failed(results)) return mlir::failure();
  builder_.create<hlo::ReturnOp>(loc(comp.instructions[comp.rootIndex]), *results);
  return mlir::success();
}

mlir::FailureOr<llvm::SmallVector<mlir::Value>> Importer::inlineComputation(
    Computation& comp, llvm::ArrayRef<llvm::SmallVector<mlir::Value>> params,
    const Instruction& user) {
  return importBody(comp, params, &user);
}

mlir::FailureOr<mlir::func::FuncOp> Importer::functionFor(Computation& comp,
                                                          const Instruction& user) {
  auto found = functions_.find(comp.name);
  if (found != functions_.end()) return found->second;
  mlir::FailureOr<llvm::SmallVector<Instruction*, 4>> declared = parametersOf(comp);
  if (failed(declared)) return mlir::failure();
  llvm::SmallVector<mlir::Type> argTypes, resultTypes;
  for (Instruction* param : *declared) param->shape.appendLeafTypes(argTypes);
  comp.instructions[comp.rootIndex].shape.appendLeafTypes(resultTypes);
  mlir::OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToEnd(module_.getBody());
  auto func = builder_.create<mlir::func::FuncOp>(
      loc(comp.pos), comp.name, builder_.getFunctionType(argTypes, resultTypes));
  func.setPrivate();
  mlir::Block* block = func.addEntryBlock();
  std::vector<llvm::SmallVector<mlir::Value>> params;
  unsigned next = 0;
  ir::FunctionAttrEditor attrs(func);
  for (Instruction* param : *declared) {
    llvm::SmallVector<mlir::Value> leaves;
    for (int64_t i = 0; i < param->shape.numLeaves(); ++i) {
      block->getArgument(next).setLoc(loc(*param));
      leaves.push_back(block->getArgument(next++));
    }
    params.push_back(leaves);
  }
  builder_.setInsertionPointToEnd(block);
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> results = importBody(comp, params, &user);
  if (failed(results)) return mlir::failure();
  builder_.create<mlir::func::ReturnOp>(loc(comp.instructions[comp.rootIndex]), *results);
  functions_[comp.name] = func;
  return func;
}

void Importer::noteResultShardy(const Instruction& call, mlir::Value value) {
  if (!entryRoot_) return;
  const bool returned =
      entryRoot_ == &call ||
      (entryRoot_->opcode == "tuple" &&
       llvm::any_of(entryRoot_->operands,
                    [&](const OperandRef& operand) { return operand.name == call.name; }));
  if (!returned) return;
  if (mlir::DictionaryAttr shardy =
          shardyFrontendAttrs(call.peekAttr("frontend_attributes"), context())) {
    resultShardy_[value] = shardy;
  }
}

mlir::LogicalResult Importer::importEntry(Computation& comp) {
  mlir::FailureOr<llvm::SmallVector<Instruction*, 4>> declared = parametersOf(comp);
  if (failed(declared)) return mlir::failure();
  Instruction& root = comp.instructions[comp.rootIndex];
  llvm::SmallVector<mlir::Type> argTypes, resultTypes;
  for (Instruction* param : *declared) param->shape.appendLeafTypes(argTypes);
  root.shape.appendLeafTypes(resultTypes);
  builder_.setInsertionPointToEnd(module_.getBody());
  auto func = builder_.create<mlir::func::FuncOp>(
      loc(comp.pos), "main", builder_.getFunctionType(argTypes, resultTypes));
  mlir::Block* block = func.addEntryBlock();
  std::vector<llvm::SmallVector<mlir::Value>> params;
  unsigned next = 0;
  ir::FunctionAttrEditor attrs(func);
  for (Instruction* param : *declared) {
    mlir::FailureOr<std::vector<std::string>> shardings = leafShardings(*this, *param);
    if (failed(shardings)) return mlir::failure();
    mlir::DictionaryAttr frontend =
        shardyFrontendAttrs(param->peekAttr("frontend_attributes"), context());
    llvm::SmallVector<mlir::Value> leaves;
    for (const std::string& sharding : *shardings) {
      if (!sharding.empty()) {
        attrs.setArg(next, kHloShardingAttr, builder_.getStringAttr(sharding));
      }
      if (frontend) attrs.setArg(next, kFrontendAttrsAttr, frontend);
      // Diagnostics about an argument point at its parameter instruction.
      block->getArgument(next).setLoc(loc(*param));
      leaves.push_back(block->getArgument(next++));
    }
    params.push_back(leaves);
  }
  builder_.setInsertionPointToEnd(block);
  entryRoot_ = &root;
  mlir::FailureOr<llvm::SmallVector<mlir::Value>> results = importBody(comp, params, nullptr);
  if (failed(results)) return mlir::failure();
  mlir::FailureOr<std::vector<std::string>> shardings = leafShardings(*this, root);
  if (failed(shardings)) return mlir::failure();
  for (size_t i = 0; i < shardings->size(); ++i) {
    if (!(*shardings)[i].empty()) {
      attrs.setResult(i, kHloShardingAttr, builder_.getStringAttr((*shardings)[i]));
    }
  }
  for (auto [i, result] : llvm::enumerate(*results)) {
    if (mlir::DictionaryAttr shardy = resultShardy_.lookup(result)) {
      attrs.setResult(i, kFrontendAttrsAttr, shardy);
    }
  }
  attrs.commit();
  builder_.create<mlir::func::ReturnOp>(loc(root), *results);
  return mlir::success();
}

mlir::LogicalResult Importer::run() {
  module_.setSymName(parsed_.name);
  for (AttrText& attr : parsed_.headerAttrs) {
    if (attr.name == "num_partitions" || attr.name == "replica_count") {
      mlir::FailureOr<int64_t> value = ParseIntAttr(attr, context());
      if (failed(value)) return mlir::failure();
      if (*value < 1) return error(attr) << attr.name << " must be at least 1";
      (attr.name == "num_partitions" ? numPartitions_ : numReplicas_) = *value;

    } else if (attr.name == "frontend_attributes") {
      mlir::FailureOr<std::vector<std::pair<std::string, std::string>>> entries =
          ParseFrontendAttributes(attr, context());
      if (failed(entries)) return mlir::failure();
      if (mlir::DictionaryAttr kept = shardyFrontendAttrs(&attr, context())) {
        module_->setAttr(kFrontendAttrsAttr, kept);
      }
      for (auto& [key, value] : *entries) {
        if (key == kGlobalParametersKey || key == kGlobalResultsKey) {
          globalSignature_.emplace_back(key, value);
          globalSignatureAttr_ = &attr;
        }
      }
    }
  }
  bool placesOnOneDevice = false;
  for (const Computation& comp : parsed_.computations) {
    for (const Instruction& inst : comp.instructions) {
      const AttrText* sharding = inst.peekAttr("sharding");
      placesOnOneDevice |= sharding && sharding->value.contains("maximal");
      const AttrText* target = inst.peekAttr("custom_call_target");
      if (target && target->value == "\"xla.sdy.GlobalToLocalShape\"") {
        hasManualComputations_ = true;
      }
      if (target && target->value == "\"SPMDFullToShardShape\"") {
        hasGspmdManualComputations_ = true;
      }
    }
  }
  // Only a module with values on one device may lack a tiled sharding that tells its
  // device count; the others need not carry the header's.
  if (placesOnOneDevice && numPartitions_ > 1) {
    module_->setAttr(kHloNumPartitionsAttr, builder_.getI64IntegerAttr(numPartitions_));
  }
  if (mlir::failed(importEntry(parsed_.computations[parsed_.entryIndex]))) return mlir::failure();
  return importPartitionedMark();
}

mlir::LogicalResult Importer::importPartitionedMark() {
  if (globalSignature_.empty()) return mlir::success();
  const AttrText& attr = *globalSignatureAttr_;
  auto entry = module_.lookupSymbol<mlir::func::FuncOp>("main");
  if (!entry) return mlir::success();  // importEntry has said why
  if (numPartitions_ < 1) {
    return error(attr) << kGlobalParametersKey << " and " << kGlobalResultsKey
                       << " describe a partitioned module, which needs num_partitions";
  }
  ir::PartitionedSignature signature;
  signature.num_partitions = numPartitions_;
  bool sawParameters = false;
  bool sawResults = false;
  for (const auto& [key, value] : globalSignature_) {
    const bool parameters = key == kGlobalParametersKey;
    (parameters ? sawParameters : sawResults) = true;
    // The value's text sits somewhere inside the attribute; errors point at the attribute.
    Lexer lex(value, attr.pos, context());
    Shape shape;
    if (mlir::failed(ParseShape(lex, shape))) return mlir::failure();
    lex.skipSpace();
    if (!shape.isTuple || !lex.atEnd()) {
      return error(attr) << key << " must be a tuple of shapes, e.g. \"(f32[16,64], s32[])\"";
    }
    llvm::SmallVector<mlir::Type>& types =
        parameters ? signature.parameter_types : signature.result_types;
    for (const Shape& element : shape.elements) {
      if (element.isTuple || element.isToken) {
        return error(attr) << key << " lists arrays only, one per entry "
                           << (parameters ? "parameter" : "result");
      }
      types.push_back(mlir::RankedTensorType::get(element.dims, element.elementType));
    }
    const size_t expected = parameters ? entry.getNumArguments() : entry.getNumResults();
    if (types.size() != expected) {
      return error(attr) << key << " lists " << types.size() << " shapes; the entry computation has "
                         << expected << (parameters ? " parameters" : " results");
    }
  }
  if (!sawParameters || !sawResults) {
    return error(attr) << "a partitioned module's frontend attributes need both "
                       << kGlobalParametersKey << " and " << kGlobalResultsKey;
  }
  ir::MarkPartitioned(module_, signature);
  return mlir::success();
}

}  // namespace tessel::hlo_text
