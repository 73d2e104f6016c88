// Parsers of attribute values that describe device groups and pass-through metadata:
// replica groups (explicit, iota and mesh forms), frontend attributes, tuple shardings.
#include <map>
#include <optional>
#include <numeric>

#include "llvm/ADT/STLExtras.h"
#include "partitioner/hlo_text/hlo_attr_lexing.h"
#include "partitioner/hlo_text/hlo_attr_parsers.h"

namespace tessel::hlo_text {
namespace {
using namespace attr_lexing;

// Groups are expanded to device lists; larger meshes than this are not real systems.
constexpr int64_t kMaxGroupDevices = 1 << 16;

// `[dims]T(perm)` (the transpose optional): the shape an arange is reshaped to and the
// permutation it is then transposed by. `transposeWhat` names the transpose in messages.
struct IotaForm {
  IntList dims;
  IntList perm;
};
mlir::FailureOr<IotaForm> lexIotaForm(Lexer& lex, const AttrText& attr,
                                      llvm::StringRef transposeWhat) {
  mlir::FailureOr<IntList> dims = lexBracketList(lex, attr);
  if (failed(dims)) return mlir::failure();
  IotaForm form{*dims, IntList(dims->size())};
  std::iota(form.perm.begin(), form.perm.end(), 0);
  lex.skipSpace();
  if (lex.consume('T')) {
    if (failed(lex.expect('(', "after 'T' in " + transposeWhat))) {
      return mlir::failure();
    }
    form.perm.clear();
    while (true) {
      mlir::FailureOr<int64_t> p = lexIntOrError(lex, attr);
      if (failed(p)) return mlir::failure();
      form.perm.push_back(*p);
      lex.skipSpace();
      if (lex.consume(')')) break;
      if (failed(lex.expect(',', "or ')' in " + transposeWhat))) {
        return mlir::failure();
      }
    }
  }
  return form;
}

// The number of elements of `form` (0 when a dimension is not positive or the total passes
// kMaxGroupDevices), and whether its permutation is one of its dimensions.
int64_t iotaSize(const IotaForm& form) {
  int64_t total = 1;
  for (int64_t d : form.dims) {
    if (d <= 0 || d > kMaxGroupDevices || total * d > kMaxGroupDevices) return 0;
    total *= d;
  }
  return total;
}
bool iotaPermutationOk(const IotaForm& form) {
  IntList sorted = form.perm;
  llvm::sort(sorted);
  bool ok = sorted.size() == form.dims.size();
  for (size_t i = 0; ok && i < sorted.size(); ++i) ok = sorted[i] == int64_t(i);
  return ok;
}

// arange(size) reshaped to form.dims, transposed by form.perm and flattened: element k of
// the transposed array sits at source index sum(coord[i] * stride[perm[i]]).
IntList expandIota(const IotaForm& form, int64_t total) {
  IntList strides(form.dims.size(), 1);
  for (int64_t i = int64_t(form.dims.size()) - 2; i >= 0; --i) {
    strides[i] = strides[i + 1] * form.dims[i + 1];
  }
  IntList flat;
  for (int64_t k = 0; k < total; ++k) {
    int64_t rem = k, src = 0;
    for (int64_t i = int64_t(form.perm.size()) - 1; i >= 0; --i) {
      int64_t extent = form.dims[form.perm[i]];
      src += (rem % extent) * strides[form.perm[i]];
      rem /= extent;
    }
    flat.push_back(src);
  }
  return flat;
}

// `[g,k]<=[dims]T(perm)`: rows of arange(N) reshaped to dims and transposed by perm.
mlir::FailureOr<std::vector<IntList>> parseIotaGroups(Lexer& lex, const AttrText& attr) {
  mlir::FailureOr<IntList> shape = lexBracketList(lex, attr);
  if (failed(shape)) return mlir::failure();
  lex.skipSpace();
  if (!lex.consume("<=")) return lex.error() << "expected '<=' in iota replica groups";
  lex.skipSpace();
  mlir::FailureOr<IotaForm> form = lexIotaForm(lex, attr, "iota transpose");
  if (failed(form)) return mlir::failure();
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  const int64_t total = iotaSize(*form);
  if (total == 0) {
    return mlir::emitError(lex.toLoc(attr.pos))
           << "iota replica groups '" << attr.value << "' span too many devices";
  }
  // The group shape's product is checked for overflow: its dims are any int64 the text gave.
  int64_t groupsTimesSize = 0;
  if (shape->size() != 2 || __builtin_mul_overflow((*shape)[0], (*shape)[1], &groupsTimesSize) ||
      groupsTimesSize != total || !iotaPermutationOk(*form)) {
    return mlir::emitError(lex.toLoc(attr.pos))
           << "iota replica groups '" << attr.value << "' are inconsistent";
  }
  IntList flat = expandIota(*form, total);
  std::vector<IntList> groups((*shape)[0]);
  for (int64_t k = 0; k < total; ++k) groups[k / (*shape)[1]].push_back(flat[k]);
  return groups;
}

struct MeshAxisRef {
  std::string name;
  int64_t pre = 1, size = 0;  // size 0: the whole axis
};

mlir::FailureOr<std::string> lexQuotedName(Lexer& lex, const AttrText& attr) {
  lex.skipSpace();
  if (!lex.consume('\'')) return lex.error() << "expected a quoted axis name";
  std::string name;
  while (!lex.atEnd() && lex.peek() != '\'') {
    name += lex.peek();
    lex.advance();
  }
  if (!lex.consume('\'')) return lex.error() << "unterminated axis name";
  return name;
}

mlir::FailureOr<std::vector<IntList>> parseGroupedAxes(
    Lexer& lex, const AttrText& attr, llvm::ArrayRef<std::pair<std::string, int64_t>> axes,
    int64_t total, llvm::ArrayRef<int64_t> deviceIds);

// The device list of `device_ids=(...)`: an iota form `[dims]T(perm)` (arange reshaped to
// dims and transposed by perm, then flattened) or explicit ids `0,2,4,...`, inside parens.
mlir::FailureOr<IntList> parseDeviceIds(Lexer& lex, const AttrText& attr, int64_t total) {
  lex.skipSpace();
  if (failed(lex.expect('(', "to open device_ids"))) return mlir::failure();
  lex.skipSpace();
  IntList ids;
  if (lex.peek() == '[') {
    mlir::FailureOr<IotaForm> form = lexIotaForm(lex, attr, "device_ids transpose");
    if (failed(form)) return mlir::failure();
    if (iotaSize(*form) != total || !iotaPermutationOk(*form)) {
      return lex.error() << "device_ids do not describe the " << total << " devices of the mesh";
    }
    ids = expandIota(*form, total);
  } else {
    while (true) {
      mlir::FailureOr<int64_t> id = lexIntOrError(lex, attr);
      if (failed(id)) return mlir::failure();
      ids.push_back(*id);
      lex.skipSpace();
      if (lex.peek() == ')') break;
      if (failed(lex.expect(',', "or ')' in device_ids"))) return mlir::failure();
    }
    IntList sorted = ids;
    llvm::sort(sorted);
    bool permutation = int64_t(sorted.size()) == total;
    for (size_t i = 0; permutation && i < sorted.size(); ++i) permutation = sorted[i] == int64_t(i);
    if (!permutation) {
      return lex.error() << "device_ids must list each of the " << total
                         << " devices of the mesh once";
    }
  }
  lex.skipSpace();
  if (failed(lex.expect(')', "to close device_ids"))) return mlir::failure();
  return ids;
}

// `mesh['a'=4,'b'=2] {'b'}` (sub-axes `'a':(1)2`): groups over the named axes of an iota
// mesh, ordered by those axes (the first most major). With `deviceIds` (XLA's
// `replica_groups=mesh[...], device_ids=(LIST) {AXES}`), the mesh's devices are that list
// in mesh order, and the grouped axes follow it in the device_ids attribute.
mlir::FailureOr<std::vector<IntList>> parseMeshGroups(Lexer& lex, const AttrText& attr,
                                                      const AttrText* deviceIdsAttr,
                                                      mlir::MLIRContext* context) {
  lex.consume("mesh");
  if (failed(lex.expect('[', "after 'mesh' in replica groups"))) return mlir::failure();
  std::vector<std::pair<std::string, int64_t>> axes;
  while (true) {
    mlir::FailureOr<std::string> name = lexQuotedName(lex, attr);
    if (failed(name)) return mlir::failure();
    lex.skipSpace();
    if (failed(lex.expect('=', "after mesh axis name"))) return mlir::failure();
    mlir::FailureOr<int64_t> size = lexIntOrError(lex, attr);
    if (failed(size)) return mlir::failure();
    if (*size <= 0) return lex.error() << "mesh axis '" << *name << "' has size " << *size;
    axes.emplace_back(*name, *size);
    lex.skipSpace();
    if (lex.consume(']')) break;
    if (failed(lex.expect(',', "or ']' in mesh axes"))) return mlir::failure();
  }
  int64_t total = 1;
  for (const auto& axis : axes) {
    if (axis.second > kMaxGroupDevices || total * axis.second > kMaxGroupDevices) {
      return mlir::emitError(lex.toLoc(attr.pos)) << "replica group mesh spans too many devices";
    }
    total *= axis.second;
  }
  lex.skipSpace();
  IntList deviceIds;
  std::optional<Lexer> idsLexer;
  const AttrText* groupedAttr = &attr;
  if (lex.atEnd() && deviceIdsAttr) {
    // The grouped axes come after the device list, in the device_ids attribute.
    idsLexer.emplace(lexerFor(*deviceIdsAttr, context));
    mlir::FailureOr<IntList> ids = parseDeviceIds(*idsLexer, *deviceIdsAttr, total);
    if (failed(ids)) return mlir::failure();
    deviceIds = std::move(*ids);
    groupedAttr = deviceIdsAttr;
  }
  return parseGroupedAxes(idsLexer ? *idsLexer : lex, *groupedAttr, axes, total, deviceIds);
}

// The `{'b', 'a':(1)2}` part of a mesh replica group, and the groups it makes.
mlir::FailureOr<std::vector<IntList>> parseGroupedAxes(
    Lexer& lex, const AttrText& attr, llvm::ArrayRef<std::pair<std::string, int64_t>> axes,
    int64_t total, llvm::ArrayRef<int64_t> deviceIds) {
  lex.skipSpace();
  if (failed(lex.expect('{', "to open the grouped axes"))) return mlir::failure();
  std::vector<MeshAxisRef> refs;
  lex.skipSpace();
  while (!lex.consume('}')) {
    SourcePos refPos = lex.pos();
    mlir::FailureOr<std::string> name = lexQuotedName(lex, attr);
    if (failed(name)) return mlir::failure();
    MeshAxisRef ref{*name};
    if (lex.consume(':')) {
      if (failed(lex.expect('(', "in sub-axis"))) return mlir::failure();
      mlir::FailureOr<int64_t> pre = lexIntOrError(lex, attr);
      if (failed(pre) || failed(lex.expect(')', "in sub-axis"))) return mlir::failure();
      mlir::FailureOr<int64_t> size = lexIntOrError(lex, attr);
      if (failed(size)) return mlir::failure();
      ref.pre = *pre;
      ref.size = *size;
    }
    auto it = llvm::find_if(axes, [&](const auto& axis) { return axis.first == ref.name; });
    if (it == axes.end()) {
      return mlir::emitError(lex.toLoc(refPos)) << "axis '" << ref.name << "' is not in the mesh";
    }
    if (ref.size == 0) ref.size = it->second;
    if (ref.pre <= 0 || ref.size <= 0 || it->second % (ref.pre * ref.size) != 0) {
      return mlir::emitError(lex.toLoc(refPos)) << "sub-axis of '" << ref.name
                                                << "' does not divide the axis";
    }
    refs.push_back(ref);
    lex.skipSpace();
    if (lex.consume('}')) break;
    if (failed(lex.expect(',', "or '}' in grouped axes"))) return mlir::failure();
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  // Key of a device: its coordinates with the grouped parts removed; position: the grouped
  // parts as a mixed-radix number.
  std::map<IntList, IntList> byKey;
  for (int64_t device = 0; device < total; ++device) {
    IntList coords(axes.size());
    int64_t rem = device;
    for (int64_t i = axes.size() - 1; i >= 0; --i) {
      coords[i] = rem % axes[i].second;
      rem /= axes[i].second;
    }
    IntList key = coords;
    int64_t position = 0;
    for (const MeshAxisRef& ref : refs) {
      size_t a = llvm::find_if(axes, [&](const auto& ax) { return ax.first == ref.name; }) -
                 axes.begin();
      int64_t minor = axes[a].second / (ref.pre * ref.size);
      int64_t part = (coords[a] / minor) % ref.size;
      position = position * ref.size + part;
      key[a] -= part * minor;
    }
    IntList& group = byKey[key];
    if (int64_t(group.size()) <= position) group.resize(position + 1, -1);
    group[position] = deviceIds.empty() ? device : deviceIds[device];
  }
  std::vector<IntList> groups;
  for (auto& entry : byKey) groups.push_back(entry.second);
  return groups;
}

}  // namespace

mlir::FailureOr<std::vector<IntList>> ParseReplicaGroups(const AttrText& attr,
                                                         int64_t numDevices,
                                                         mlir::MLIRContext* context,
                                                         const AttrText* deviceIds) {
  Lexer lex = lexerFor(attr, context);
  if (lex.peek() == '[') return parseIotaGroups(lex, attr);
  if (lex.rest().starts_with("mesh")) return parseMeshGroups(lex, attr, deviceIds, context);
  mlir::FailureOr<std::vector<IntList>> groups = ParseIntListList(attr, context);
  if (failed(groups)) return mlir::failure();
  if (groups->empty()) {
    IntList all(numDevices);
    std::iota(all.begin(), all.end(), 0);
    groups->push_back(all);
  }
  return groups;
}

mlir::FailureOr<std::vector<std::pair<std::string, std::string>>> ParseFrontendAttributes(
    const AttrText& attr, mlir::MLIRContext* context) {
  Lexer lex = lexerFor(attr, context);
  if (failed(lex.expect('{', "to open frontend_attributes"))) return mlir::failure();
  std::vector<std::pair<std::string, std::string>> entries;
  lex.skipSpace();
  if (lex.consume('}')) return entries;
  while (true) {
    lex.skipSpace();
    std::string key;
    if (lex.peek() == '"') {
      std::optional<std::string> quoted = lex.lexString();
      if (!quoted) return mlir::failure();
      key = *quoted;
    } else {
      key = lex.lexName().str();
    }
    if (key.empty()) return lex.error() << "expected a frontend attribute name";
    lex.skipSpace();
    if (failed(lex.expect('=', llvm::Twine("after frontend attribute '") + key + "'"))) {
      return mlir::failure();
    }
    lex.skipSpace();
    std::string value;
    if (lex.peek() == '"') {
      std::optional<std::string> quoted = lex.lexString();
      if (!quoted) return mlir::failure();
      value = *quoted;
    } else if (lex.peek() == '{') {
      std::optional<llvm::StringRef> raw = lex.lexBalanced();
      if (!raw) return mlir::failure();
      value = raw->str();
    } else {
      value = lex.lexName().str();
    }
    entries.emplace_back(key, value);
    lex.skipSpace();
    if (lex.consume('}')) break;
    if (failed(lex.expect(',', "or '}' in frontend_attributes"))) return mlir::failure();
  }
  if (failed(expectEnd(lex, attr))) return mlir::failure();
  return entries;
}

std::optional<std::vector<std::string>> SplitTupleSharding(llvm::StringRef text) {
  text = text.trim();
  if (!text.starts_with("{") || !text.ends_with("}")) return std::nullopt;
  llvm::StringRef inner = text.drop_front().drop_back().trim();
  if (!inner.empty() && !inner.starts_with("{")) return std::nullopt;
  std::vector<std::string> parts;
  int depth = 0;
  size_t begin = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    char c = inner[i];
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') --depth;
    if (c == ',' && depth == 0) {
      parts.push_back(inner.slice(begin, i).trim().str());
      begin = i + 1;
    }
  }
  if (!inner.empty()) parts.push_back(inner.drop_front(begin).trim().str());
  return parts;
}

}  // namespace tessel::hlo_text
