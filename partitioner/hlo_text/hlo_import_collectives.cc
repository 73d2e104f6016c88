// Importers of the collectives of partitioned HLO (all-reduce, all-gather, reduce-scatter,
// all-to-all, collective-permute) and partition-id. Tessel collectives name mesh axes
// rather than device lists, so the importer synthesizes one mesh for the module, one axis
// per prime factor of the device count ("axis_0"=2, "axis_1"=2, ... smallest first), and
// accepts a collective only if its device groups are exactly the groups of some of those
// axes. Example with 8 devices (mesh 2x2x2): {{0,1},{2,3},{4,5},{6,7}} → ["axis_2"];
// {{0,2,4,6},{1,3,5,7}} → ["axis_0", "axis_1"]; {{0,3},{1,2},...} → rejected.
#include <algorithm>
#include <map>
#include <set>

#include "llvm/ADT/StringSwitch.h"
#include "partitioner/hlo_text/hlo_importer.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/declared_axes.h"
#include "partitioner/sharding/existing_mesh.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::hlo_text {
namespace {

constexpr llvm::StringLiteral kMeshName = "mesh";

IntList coordinates(ir::MeshAttr mesh, int64_t device) {
  IntList coords(mesh.getAxes().size());
  for (int64_t i = coords.size() - 1; i >= 0; --i) {
    int64_t size = mesh.getAxes()[i].getSize();
    coords[i] = device % size;
    device /= size;
  }
  return coords;
}

std::string groupsText(const std::vector<IntList>& groups) {
  std::string text = "{";
  for (size_t g = 0; g < groups.size(); ++g) {
    text += g ? ",{" : "{";
    for (size_t i = 0; i < groups[g].size(); ++i) {
      text += (i ? "," : "") + std::to_string(groups[g][i]);
    }
    text += "}";
  }
  return text + "}";
}

// The axes whose device groups are `groups`, or failure (reported at `attr`).
mlir::FailureOr<llvm::SmallVector<ir::AxisRefAttr>> axesForGroups(
    Importer& im, ir::MeshAttr mesh, const std::vector<IntList>& groups, const AttrText& attr) {
  auto reject = [&]() {
    return im.error(attr) << "replica groups " << groupsText(groups)
                          << " are not the groups of any axes of the device mesh [" << [&] {
                               std::string dims;
                               for (auto axis : mesh.getAxes()) {
                                 dims += (dims.empty() ? "" : ",") + std::to_string(axis.getSize());
                               }
                               return dims;
                             }() << "]";
  };
  int64_t total = mesh.getTotalSize();
  std::set<int64_t> seen;
  for (const IntList& group : groups) {
    if (group.empty() || group.size() != groups[0].size()) return reject();
    for (int64_t d : group) {
      if (d < 0 || d >= total || !seen.insert(d).second) return reject();
    }
  }
  if (int64_t(seen.size()) != total) return reject();
  // The axes along which the first group varies, ordered by where they first change (the
  // most minor axis changes first).
  const IntList& first = groups[0];
  IntList origin = coordinates(mesh, first[0]);
  std::vector<std::pair<int64_t, size_t>> varying;  // (first change, axis)
  for (size_t a = 0; a < origin.size(); ++a) {
    for (size_t p = 1; p < first.size(); ++p) {
      if (coordinates(mesh, first[p])[a] != origin[a]) {
        varying.emplace_back(p, a);
        break;
      }
    }
  }
  std::sort(varying.rbegin(), varying.rend());
  llvm::SmallVector<ir::AxisRefAttr> axes;
  for (const auto& entry : varying) {
    axes.push_back(ir::AxisRefAttr::get(im.context(), mesh.getAxes()[entry.second].getName()));
  }
  int64_t groupSize = 1;
  for (const auto& entry : varying) groupSize *= mesh.getAxes()[entry.second].getSize();
  if (groupSize != int64_t(first.size())) return reject();
  std::vector<IntList> expected;
  for (const auto& group : ir::getDeviceGroups(mesh, axes)) expected.emplace_back(group);
  std::vector<IntList> actual = groups;
  std::sort(expected.begin(), expected.end());
  std::sort(actual.begin(), actual.end());
  if (expected != actual) return reject();
  return axes;
}

// Checks the module runs as partitions only and returns the groups of `inst`.
mlir::FailureOr<std::vector<IntList>> collectiveGroups(Importer& im, Instruction& inst,
                                                       AttrText*& groupsAttr) {
  if (im.numReplicas() > 1) {
    return im.error(inst) << "'" << inst.opcode << "' in a module with replica_count > 1 is "
                             "not supported; only partitioned (SPMD) programs are";
  }
  if (AttrText* global = im.findAttr(inst, "use_global_device_ids")) {
    if (failed(ParseBoolAttr(*global, im.context()))) return mlir::failure();
  }
  mlir::FailureOr<AttrText*> attr = im.requireAttr(inst, "replica_groups");
  if (failed(attr)) return mlir::failure();
  groupsAttr = *attr;
  if (im.numPartitions() == 0 && (*attr)->value.trim() == "{}") {
    return im.error(**attr) << "replica_groups={} needs num_partitions in the module header";
  }
  AttrText* deviceIds = im.findAttr(inst, "device_ids");
  if (deviceIds) deviceIds->used = true;
  return ParseReplicaGroups(**attr, im.numPartitions(), im.context(), deviceIds);
}

int64_t deviceCount(Importer& im, const std::vector<IntList>& groups) {
  if (im.numPartitions() > 0) return im.numPartitions();
  int64_t maxId = 0;
  for (const IntList& group : groups) {
    for (int64_t d : group) maxId = std::max(maxId, d);
  }
  return maxId + 1;
}

mlir::FailureOr<ir::ReductionKind> reductionKind(Importer& im, Instruction& inst) {
  mlir::FailureOr<Computation*> comp = im.computationAttr(inst, "to_apply");
  if (failed(comp)) return mlir::failure();
  const Instruction* rootPtr = &(*comp)->instructions[(*comp)->rootIndex];
  // Shardy's round trip may wrap the reducer's result in a Sharding annotation, and XLA's
  // partitioned modules in a copy; each stands for its operand. The walk is bounded by the
  // computation's size, so a cycle of names cannot hold it.
  for (size_t steps = 0; steps < (*comp)->instructions.size(); ++steps) {
    const AttrText* target = rootPtr->peekAttr("custom_call_target");
    const bool passThrough =
        rootPtr->operands.size() == 1 &&
        (rootPtr->opcode == "copy" ||
         (rootPtr->opcode == "custom-call" && target && target->value == "\"Sharding\""));
    if (!passThrough) break;
    const Instruction* operand = nullptr;
    for (const Instruction& inst : (*comp)->instructions) {
      if (inst.name == rootPtr->operands[0].name) operand = &inst;
    }
    if (!operand) break;
    rootPtr = operand;
  }
  const Instruction& root = *rootPtr;
  std::optional<ir::ReductionKind> kind =
      llvm::StringSwitch<std::optional<ir::ReductionKind>>(root.opcode)
          .Case("add", ir::ReductionKind::Sum)
          .Case("multiply", ir::ReductionKind::Prod)
          .Case("maximum", ir::ReductionKind::Max)
          .Case("minimum", ir::ReductionKind::Min)
          .Default(std::nullopt);
  // Over pred (false < true), or is the maximum and and the minimum.
  const bool isPred = !root.shape.isTuple && root.shape.elementType &&
                      root.shape.elementType.isInteger(1);
  if (isPred && root.opcode == "or") kind = ir::ReductionKind::Max;
  if (isPred && root.opcode == "and") kind = ir::ReductionKind::Min;
  bool onParams = root.operands.size() == 2;
  for (const OperandRef& ref : root.operands) {
    bool isParam = llvm::any_of((*comp)->instructions, [&](const Instruction& i) {
      return i.name == ref.name && i.opcode == "parameter";
    });
    onParams = onParams && isParam;
  }
  if (!kind || !onParams || root.operands[0].name == root.operands[1].name) {
    return im.error(inst) << "the reduction '" << (*comp)->name << "' of '" << inst.opcode
                          << "' must be add, multiply, maximum or minimum of its two "
                             "parameters (or and and for pred)";
  }
  return *kind;
}

// A collective without channel_id runs across replicas, within each partition. Tessel runs
// one replica, so every group is that one replica and the collective gives back its operand
// (XLA's semantics for a group of one). Returns none when `inst` has a channel_id; fails if
// its groups name another replica or its result is not its operand's type.
mlir::FailureOr<std::optional<Imported>> crossReplicaIdentity(Importer& im, Instruction& inst) {
  if (im.findAttr(inst, "channel_id") || im.numReplicas() > 1) return std::optional<Imported>();
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  if (AttrText* groups = im.findAttr(inst, "replica_groups")) {
    llvm::StringRef text = groups->value.trim();
    if (text != "{}" && text != "{{0}}") {
      return im.error(*groups) << "'" << inst.opcode << "' without channel_id groups replicas, "
                               << "and the module has one replica: replica_groups must be {} "
                                  "or {{0}}, got " << text;
    }
  }
  for (llvm::StringRef name : {"to_apply", "dimensions", "use_global_device_ids",
                               "source_target_pairs"}) {
    im.findAttr(inst, name);
  }
  mlir::FailureOr<mlir::Value> operand = im.operand(inst, 0);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(operand) || failed(type)) return mlir::failure();
  if (operand->getType() != *type) {
    return im.error(inst) << "'" << inst.opcode << "' across one replica must return its "
                             "operand's shape";
  }
  return std::optional<Imported>(Imported{{*operand}, nullptr});
}

// Appends the mesh and axes of the instruction's replica groups to `attrs`; returns the
// size of a group.
mlir::FailureOr<int64_t> addGroupAttrs(Importer& im, Instruction& inst,
                                       llvm::SmallVector<mlir::NamedAttribute>& attrs) {
  AttrText* groupsAttr = nullptr;
  mlir::FailureOr<std::vector<IntList>> groups = collectiveGroups(im, inst, groupsAttr);
  if (failed(groups)) return mlir::failure();
  mlir::FailureOr<mlir::Attribute> mesh = im.meshFor(inst, deviceCount(im, *groups));
  if (failed(mesh)) return mlir::failure();
  mlir::FailureOr<llvm::SmallVector<ir::AxisRefAttr>> axes =
      axesForGroups(im, mlir::cast<ir::MeshAttr>(*mesh), *groups, *groupsAttr);
  if (failed(axes)) return mlir::failure();
  llvm::SmallVector<mlir::Attribute> axisAttrs(axes->begin(), axes->end());
  attrs.push_back(im.builder().getNamedAttr(
      "mesh_name", mlir::FlatSymbolRefAttr::get(im.context(), kMeshName)));
  attrs.push_back(im.builder().getNamedAttr("axes", im.builder().getArrayAttr(axisAttrs)));
  return groups->empty() ? int64_t{0} : static_cast<int64_t>(groups->front().size());
}

// Builds `opName` over the axes of the instruction's groups with `extra` attributes.
mlir::FailureOr<Imported> createCollective(Importer& im, Instruction& inst, llvm::StringRef opName,
                                           llvm::SmallVector<mlir::NamedAttribute> extra) {
  mlir::FailureOr<std::optional<Imported>> identity = crossReplicaIdentity(im, inst);
  if (failed(identity)) return mlir::failure();
  if (*identity) return **identity;
  // Several operands (XLA's combiners write them): one collective per operand, over the
  // same groups, each result an element of the tuple.
  if (failed(im.expectMinOperands(inst, 1))) return mlir::failure();
  const size_t count = inst.operands.size();
  llvm::SmallVector<mlir::Type> types;
  if (count == 1) {
    mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
    if (failed(type)) return mlir::failure();
    types.push_back(*type);
  } else {
    const Shape& shape = inst.shape;
    if (!shape.isTuple || shape.elements.size() != count ||
        llvm::any_of(shape.elements, [](const Shape& e) { return e.isTuple; })) {
      return im.error(inst) << "'" << inst.opcode << "' of " << count
                            << " operands needs a tuple shape of one array per operand";
    }
    types = im.leafTypes(inst);
  }
  llvm::SmallVector<mlir::Value> inputs;
  for (size_t i = 0; i < count; ++i) {
    mlir::FailureOr<mlir::Value> input = im.operand(inst, i);
    if (failed(input)) return mlir::failure();
    inputs.push_back(*input);
  }
  if (failed(addGroupAttrs(im, inst, extra))) return mlir::failure();
  if (count == 1) return im.single(im.create(inst, opName, inputs[0], types[0], extra));
  Imported imported;
  for (size_t i = 0; i < count; ++i) {
    imported.leaves.push_back(im.create(inst, opName, inputs[i], types[i], extra)->getResult(0));
  }
  return imported;
}

mlir::FailureOr<int64_t> singleDimension(Importer& im, Instruction& inst) {
  mlir::FailureOr<IntList> dims = im.intListAttr(inst, "dimensions");
  if (failed(dims)) return mlir::failure();
  if (dims->size() != 1) {
    return im.error(inst) << "'" << inst.opcode << "' needs exactly one dimension";
  }
  return (*dims)[0];
}

mlir::NamedAttribute i64(Importer& im, llvm::StringRef name, int64_t v) {
  return im.builder().getNamedAttr(name, im.builder().getI64IntegerAttr(v));
}

mlir::NamedAttribute kindAttr(Importer& im, ir::ReductionKind kind) {
  return im.builder().getNamedAttr("kind", ir::ReductionKindAttr::get(im.context(), kind));
}

mlir::FailureOr<Imported> importAllReduce(Importer& im, Instruction& inst) {
  mlir::FailureOr<ir::ReductionKind> kind = reductionKind(im, inst);
  if (failed(kind)) return mlir::failure();
  return createCollective(im, inst, "tessel.all_reduce", {kindAttr(im, *kind)});
}

mlir::FailureOr<Imported> importAllGather(Importer& im, Instruction& inst) {
  mlir::FailureOr<int64_t> dim = singleDimension(im, inst);
  if (failed(dim)) return mlir::failure();
  return createCollective(im, inst, "tessel.all_gather", {i64(im, "dim", *dim)});
}

mlir::FailureOr<Imported> importReduceScatter(Importer& im, Instruction& inst) {
  mlir::FailureOr<int64_t> dim = singleDimension(im, inst);
  mlir::FailureOr<ir::ReductionKind> kind =
      failed(dim) ? mlir::FailureOr<ir::ReductionKind>(mlir::failure()) : reductionKind(im, inst);
  if (failed(kind)) return mlir::failure();
  return createCollective(im, inst, "tessel.reduce_scatter",
                          {i64(im, "dim", *dim), kindAttr(im, *kind)});
}

// The tuple form: one operand per member of a group, and member i's result j is member
// j's operand i. The operands are stacked along a new leading dimension, exchanged by the
// array form along it (member i receives every member's block i, in member order) and cut
// apart again.
mlir::FailureOr<Imported> importTupleAllToAll(Importer& im, Instruction& inst) {
  const size_t count = inst.operands.size();
  llvm::SmallVector<mlir::Value> inputs;
  for (size_t i = 0; i < count; ++i) {
    mlir::FailureOr<mlir::Value> input = im.operand(inst, i);
    if (failed(input)) return mlir::failure();
    inputs.push_back(*input);
  }
  auto type = mlir::cast<mlir::RankedTensorType>(inputs.front().getType());
  llvm::SmallVector<mlir::Type> leafTypes = im.leafTypes(inst);
  if (llvm::any_of(inputs, [&](mlir::Value v) { return v.getType() != type; }) ||
      !inst.shape.isTuple || leafTypes.size() != count ||
      llvm::any_of(leafTypes, [&](mlir::Type t) { return t != type; })) {
    return im.error(inst) << "tuple 'all-to-all' needs operands and results of one shape";
  }
  llvm::SmallVector<mlir::NamedAttribute> attrs = {i64(im, "split_dim", 0),
                                                   i64(im, "concat_dim", 0)};
  mlir::FailureOr<int64_t> groupSize = addGroupAttrs(im, inst, attrs);
  if (failed(groupSize)) return mlir::failure();
  if (*groupSize != static_cast<int64_t>(count)) {
    return im.error(inst) << "tuple 'all-to-all' needs one operand per member of a group ("
                          << *groupSize << "), got " << count;
  }
  llvm::SmallVector<int64_t> one = {1}, stacked = {static_cast<int64_t>(count)};
  one.append(type.getShape().begin(), type.getShape().end());
  stacked.append(type.getShape().begin(), type.getShape().end());
  auto oneType = mlir::RankedTensorType::get(one, type.getElementType());
  auto stackedType = mlir::RankedTensorType::get(stacked, type.getElementType());
  llvm::SmallVector<mlir::Value> rows;
  for (mlir::Value input : inputs) {
    rows.push_back(im.create(inst, "hlo.reshape", input, oneType)->getResult(0));
  }
  mlir::Value joined =
      im.create(inst, "hlo.concatenate", rows, stackedType, {i64(im, "dimension", 0)})
          ->getResult(0);
  mlir::Value exchanged =
      im.create(inst, "tessel.all_to_all", joined, stackedType, attrs)->getResult(0);
  Imported imported;
  llvm::SmallVector<int64_t> strides(one.size(), 1), limit(stacked);
  for (size_t i = 0; i < count; ++i) {
    llvm::SmallVector<int64_t> start(one.size(), 0);
    start[0] = static_cast<int64_t>(i);
    limit[0] = static_cast<int64_t>(i) + 1;
    mlir::Value row =
        im.create(inst, "hlo.slice", exchanged, oneType,
                  {im.builder().getNamedAttr("start_indices", im.builder().getDenseI64ArrayAttr(start)),
                   im.builder().getNamedAttr("limit_indices", im.builder().getDenseI64ArrayAttr(limit)),
                   im.builder().getNamedAttr("strides", im.builder().getDenseI64ArrayAttr(strides))})
            ->getResult(0);
    imported.leaves.push_back(im.create(inst, "hlo.reshape", row, type)->getResult(0));
  }
  return imported;
}

// The array form of all-to-all splits and concatenates along the same dimension.
mlir::FailureOr<Imported> importAllToAll(Importer& im, Instruction& inst) {
  if (!im.findAttr(inst, "dimensions") && inst.operands.size() != 1) {
    mlir::FailureOr<std::optional<Imported>> identity = crossReplicaIdentity(im, inst);
    if (failed(identity)) return mlir::failure();
    if (*identity) return **identity;
    return importTupleAllToAll(im, inst);
  }
  mlir::FailureOr<int64_t> dim = singleDimension(im, inst);
  if (failed(dim)) return mlir::failure();
  return createCollective(im, inst, "tessel.all_to_all",
                          {i64(im, "split_dim", *dim), i64(im, "concat_dim", *dim)});
}

// Source-target pairs become a position rule over the axes along which any pair moves; the
// rule must be the same in every group of those axes.
mlir::FailureOr<Imported> importCollectivePermute(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 1))) return mlir::failure();
  mlir::FailureOr<mlir::Value> input = im.operand(inst, 0);
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(input) || failed(type)) return mlir::failure();
  if (im.numReplicas() > 1 || !im.findAttr(inst, "channel_id")) {
    return im.error(inst) << "'collective-permute' needs channel_id and a single replica";
  }
  mlir::FailureOr<AttrText*> pairsAttr = im.requireAttr(inst, "source_target_pairs");
  if (failed(pairsAttr)) return mlir::failure();
  mlir::FailureOr<std::vector<IntList>> pairs = ParseIntListList(**pairsAttr, im.context());
  if (failed(pairs)) return mlir::failure();
  int64_t maxId = 0;
  for (const IntList& pair : *pairs) {
    if (pair.size() != 2 || pair[0] < 0 || pair[1] < 0) {
      return im.error(**pairsAttr) << "each source-target pair needs two device ids";
    }
    maxId = std::max({maxId, pair[0], pair[1]});
  }
  int64_t devices = im.numPartitions() > 0 ? im.numPartitions() : maxId + 1;
  if (maxId >= devices) return im.error(**pairsAttr) << "device " << maxId << " is out of range";
  mlir::FailureOr<mlir::Attribute> meshAttr = im.meshFor(inst, devices);
  if (failed(meshAttr)) return mlir::failure();
  auto mesh = mlir::cast<ir::MeshAttr>(*meshAttr);
  llvm::SmallVector<bool> moves(mesh.getAxes().size(), false);
  for (const IntList& pair : *pairs) {
    IntList a = coordinates(mesh, pair[0]), b = coordinates(mesh, pair[1]);
    for (size_t i = 0; i < a.size(); ++i) moves[i] = moves[i] || a[i] != b[i];
  }
  llvm::SmallVector<ir::AxisRefAttr> movingAxes, allAxes;
  for (size_t i = 0; i < moves.size(); ++i) {
    auto axis = ir::AxisRefAttr::get(im.context(), mesh.getAxes()[i].getName());
    allAxes.push_back(axis);
    if (moves[i]) movingAxes.push_back(axis);
  }
  if (pairs->empty()) return im.error(**pairsAttr) << "source_target_pairs is empty";
  std::set<std::pair<int64_t, int64_t>> actual;
  for (const IntList& pair : *pairs) {
    if (!actual.insert({pair[0], pair[1]}).second) {
      return im.error(**pairsAttr) << "source_target_pairs lists {" << pair[0] << "," << pair[1]
                                   << "} twice";
    }
  }
  // The (source, target) positions within a group of `axes` that, applied to every group,
  // give exactly the pairs; none if no single rule does.
  auto ruleAlong = [&](llvm::ArrayRef<ir::AxisRefAttr> axes)
      -> std::optional<std::set<std::pair<int64_t, int64_t>>> {
    auto groups = ir::getDeviceGroups(mesh, axes);
    std::map<int64_t, int64_t> position;  // device → position in its group
    for (const auto& group : groups) {
      for (size_t p = 0; p < group.size(); ++p) position[group[p]] = p;
    }
    std::set<std::pair<int64_t, int64_t>> rule, expected;
    for (const IntList& pair : *pairs) rule.insert({position[pair[0]], position[pair[1]]});
    for (const auto& group : groups) {
      for (const auto& [s, t] : rule) expected.insert({group[s], group[t]});
    }
    if (expected != actual) return std::nullopt;
    return rule;
  };
  // The fewest axes that hold the moves; failing that, one group of the whole mesh, whose
  // positions are the devices themselves, holds any permutation (a reversal, a single pair).
  llvm::SmallVector<ir::AxisRefAttr> axes = movingAxes;
  std::optional<std::set<std::pair<int64_t, int64_t>>> rule;
  if (!axes.empty()) rule = ruleAlong(axes);
  if (!rule) {
    axes = allAxes;
    rule = ruleAlong(axes);
  }
  if (!rule) {
    return im.error(**pairsAttr) << "source_target_pairs send one device to two targets or "
                                    "take two sources into one device";
  }
  llvm::SmallVector<int64_t> flat;
  for (const auto& [s, t] : *rule) {
    flat.push_back(s);
    flat.push_back(t);
  }
  llvm::SmallVector<mlir::Attribute> axisAttrs(axes.begin(), axes.end());
  return im.single(im.create(
      inst, "tessel.collective_permute", *input, *type,
      {im.builder().getNamedAttr("mesh_name", mlir::FlatSymbolRefAttr::get(im.context(), kMeshName)),
       im.builder().getNamedAttr("axes", im.builder().getArrayAttr(axisAttrs)),
       im.builder().getNamedAttr("pairs", im.builder().getDenseI64ArrayAttr(flat))}));
}

// XLA's partition-id is a u32; hand-written modules also type it s32 (or another integer),
// which is the u32 converted.
mlir::FailureOr<Imported> importPartitionId(Importer& im, Instruction& inst) {
  if (failed(im.expectOperands(inst, 0))) return mlir::failure();
  mlir::FailureOr<mlir::Type> type = im.arrayType(inst);
  if (failed(type)) return mlir::failure();
  auto u32 = mlir::RankedTensorType::get(
      {}, mlir::IntegerType::get(im.context(), 32, mlir::IntegerType::Unsigned));
  auto tensor = mlir::cast<mlir::RankedTensorType>(*type);
  if (*type == u32 || tensor.getRank() != 0 || !tensor.getElementType().isInteger() ||
      tensor.getElementType().isInteger(1)) {
    return im.single(im.create(inst, "tessel.partition_id", {}, *type));
  }
  mlir::Value id = im.create(inst, "tessel.partition_id", {}, u32)->getResult(0);
  return im.single(im.create(inst, "hlo.convert", {id}, *type));
}

}  // namespace

// Defined here because only collectives need a mesh.
mlir::FailureOr<mlir::Attribute> Importer::meshFor(const Instruction& inst, int64_t numDevices) {
  if (mesh_) {
    auto mesh = mlir::cast<ir::MeshAttr>(mesh_);
    if (mesh.getTotalSize() != numDevices) {
      return error(inst) << "'" << inst.opcode << "' spans " << numDevices
                         << " devices but an earlier collective spans " << mesh.getTotalSize()
                         << "; set num_partitions in the module header";
    }
    return mesh_;
  }
  // Device groups are materialized below, so keep the count to what real systems have.
  constexpr int64_t kMaxDevices = 1 << 16;
  if (numDevices < 1 || numDevices > kMaxDevices) {
    return error(inst) << "device count " << numDevices << " is outside [1, " << kMaxDevices
                       << "]";
  }
  llvm::SmallVector<ir::MeshAxisAttr> axes;
  // The collectives of shard_map bodies run along the axes JAX declared: in a module with
  // Shardy's manual computations, that mesh (when its devices are in order) is the one
  // collectives name, so that the body and its in/out shardings share it.
  if (const sharding::DeclaredMesh* declared = declaredMeshFor(numDevices)) {
    for (const sharding::MeshAxis& axis : declared->mesh.axes) {
      axes.push_back(ir::MeshAxisAttr::get(context(), axis.name, axis.size));
    }
  } else if (std::optional<sharding::Mesh> derived = derivedMeshFor(numDevices)) {
    for (const sharding::MeshAxis& axis : derived->axes) {
      axes.push_back(ir::MeshAxisAttr::get(context(), axis.name, axis.size));
    }
  }
  int64_t rest = axes.empty() ? numDevices : 1;
  for (int64_t factor = 2; rest > 1; ++factor) {
    while (rest % factor == 0) {
      axes.push_back(ir::MeshAxisAttr::get(context(), "axis_" + std::to_string(axes.size()), factor));
      rest /= factor;
    }
  }
  auto mesh = ir::MeshAttr::get(context(), axes, {});
  mlir::OpBuilder::InsertionGuard guard(builder_);
  builder_.setInsertionPointToStart(module_.getBody());
  builder_.create<ir::MeshOp>(loc(parsed_.pos), kMeshName, mesh);
  mesh_ = mesh;
  return mesh_;
}

const sharding::DeclaredMesh* Importer::declaredMeshFor(int64_t numDevices) {
  if (!hasManualComputations_) return nullptr;
  auto frontend = module_->getAttrOfType<mlir::DictionaryAttr>(kFrontendAttrsAttr);
  auto text = frontend ? frontend.getAs<mlir::StringAttr>("xla.sdy.meshes") : nullptr;
  if (!text) return nullptr;
  absl::StatusOr<std::vector<sharding::DeclaredMesh>> meshes =
      sharding::ParseShardyMeshes(text.str());
  if (!meshes.ok()) return nullptr;
  declaredMeshes_ = *std::move(meshes);
  for (const sharding::DeclaredMesh& mesh : declaredMeshes_) {
    bool inOrder = true;
    for (size_t i = 0; i < mesh.mesh.device_ids.size(); ++i) {
      inOrder = inOrder && mesh.mesh.device_ids[i] == static_cast<int64_t>(i);
    }
    if (inOrder && mesh.mesh.Validate().ok() && mesh.mesh.NumDevices() == numDevices) {
      return &mesh;
    }
  }
  return nullptr;
}

std::optional<sharding::Mesh> Importer::derivedMeshFor(int64_t numDevices) {
  // Also a partitioned module Tessel wrote (its header carries the global shapes): its
  // collectives run along the axes of the mesh it was partitioned on, which its entry
  // shardings and groups give, where a mesh of the device count's prime factors may order
  // the axes otherwise (6 devices as 2 x 3 where groups of 2 neighbours need 3 x 2).
  if (!hasGspmdManualComputations_ && globalSignature_.empty()) return std::nullopt;
  // The shard_maps' own shardings come first: where another sharding of the module cuts the
  // devices incompatibly, they are the ones the mesh must keep.
  std::vector<sharding::HloShardingLeaf> first, rest;
  for (const Computation& comp : parsed_.computations) {
    for (const Instruction& inst : comp.instructions) {
      const AttrText* attr = inst.peekAttr("sharding");
      if (!attr) continue;
      absl::StatusOr<sharding::HloSharding> parsed = sharding::HloSharding::Parse(attr->value.str());
      if (!parsed.ok()) continue;  // the sharding import reports it
      const AttrText* target = inst.peekAttr("custom_call_target");
      const bool shardMap = target && (target->value == "\"Sharding\"" ||
                                       target->value == "\"SPMDFullToShardShape\"" ||
                                       target->value == "\"SPMDShardToFullShape\"");
      std::vector<sharding::HloSharding> leaves =
          parsed->IsTuple() ? parsed->tuple_elements() : std::vector{*parsed};
      for (const sharding::HloSharding& leaf : leaves) {
        if (leaf.kind() != sharding::HloSharding::Kind::kTiled ||
            leaf.tile_assignment().NumDevices() != numDevices) {
          continue;
        }
        (shardMap ? first : rest).push_back({leaf, leaf.TiledDataRank()});
      }
    }
  }
  // The collectives' device groups next: the mesh needs axes for them, even where the
  // shardings keep those axes together (a psum over "b" of values split over ("a", "b")).
  // Groups that do not parse are reported when the collective is imported.
  mlir::ScopedDiagnosticHandler silence(context(), [](mlir::Diagnostic&) { return mlir::success(); });
  for (Computation& comp : parsed_.computations) {
    for (Instruction& inst : comp.instructions) {
      if (!llvm::is_contained({"all-reduce", "all-gather", "reduce-scatter", "all-to-all"},
                              inst.opcode) ||
          !inst.peekAttr("channel_id")) {
        continue;
      }
      const AttrText* groupsAttr = inst.peekAttr("replica_groups");
      if (!groupsAttr) continue;
      mlir::FailureOr<std::vector<IntList>> groups =
          ParseReplicaGroups(*groupsAttr, numDevices, context(), inst.peekAttr("device_ids"));
      if (failed(groups)) continue;
      std::vector<std::vector<int64_t>> lists;
      for (const IntList& group : *groups) lists.emplace_back(group.begin(), group.end());
      if (std::optional<sharding::HloSharding> leaf =
              sharding::DeviceGroupsAsSharding(lists, numDevices)) {
        first.push_back({*leaf, leaf->TiledDataRank()});
      }
    }
  }
  first.insert(first.end(), rest.begin(), rest.end());
  absl::StatusOr<sharding::MeshShardingImport> imported =
      sharding::HloShardingsToMesh(first, numDevices);
  if (!imported.ok()) return std::nullopt;
  const sharding::Mesh* mesh = imported->FindMesh("mesh");
  if (!mesh || mesh->axes.empty()) return std::nullopt;
  return *mesh;
}

void RegisterCollectiveImporters(ImporterTable& table) {
  table["all-reduce"] = importAllReduce;
  table["all-gather"] = importAllGather;
  table["reduce-scatter"] = importReduceScatter;
  table["all-to-all"] = importAllToAll;
  table["collective-permute"] = importCollectivePermute;
  table["partition-id"] = importPartitionId;
}

}  // namespace tessel::hlo_text
