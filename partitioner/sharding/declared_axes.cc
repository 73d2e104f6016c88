// Renaming imported mesh axes after the mesh a frontend declared (declared_axes.h).
#include "partitioner/sharding/declared_axes.h"

#include <map>
#include <optional>
#include <regex>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tessel::sharding {
namespace {

bool IsIota(const std::vector<int64_t>& ids) {
  for (size_t i = 0; i < ids.size(); ++i) {
    if (ids[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// Where an imported axis lands in the declared mesh: the part [pre, pre * size) of a
// declared axis.
struct Landing {
  std::string name;
  int64_t pre = 1;
  int64_t size = 1;
};

// The imported axes' landings, or none if they do not run through the declared axes in
// order.
std::optional<std::map<std::string, Landing>> Landings(const Mesh& imported, const Mesh& declared) {
  std::map<std::string, Landing> landings;
  size_t j = 0;
  int64_t pre = 1;
  auto skipWhole = [&] {
    while (j < declared.axes.size() && pre == declared.axes[j].size) {
      ++j;
      pre = 1;
    }
  };
  skipWhole();
  for (const MeshAxis& axis : imported.axes) {
    if (j >= declared.axes.size()) return std::nullopt;
    const int64_t total = declared.axes[j].size;
    if (total % (pre * axis.size) != 0) return std::nullopt;
    landings[axis.name] = Landing{declared.axes[j].name, pre, axis.size};
    pre *= axis.size;
    skipWhole();
  }
  if (j != declared.axes.size()) return std::nullopt;
  return landings;
}

// `refs` on the declared mesh, adjacent parts of one axis joined; none if a reference is a
// sub-axis of the imported mesh or a part stays a strict sub-axis.
std::optional<std::vector<AxisRef>> Rename(const std::vector<AxisRef>& refs,
                                           const std::map<std::string, Landing>& landings,
                                           const Mesh& declared) {
  std::vector<Landing> parts;
  for (const AxisRef& ref : refs) {
    auto it = landings.find(ref.name);
    if (ref.IsSubAxis() || it == landings.end()) return std::nullopt;
    const Landing& landing = it->second;
    if (!parts.empty() && parts.back().name == landing.name &&
        parts.back().pre * parts.back().size == landing.pre) {
      parts.back().size *= landing.size;
    } else {
      parts.push_back(landing);
    }
  }
  std::vector<AxisRef> renamed;
  for (const Landing& part : parts) {
    if (part.pre != 1 || part.size != *declared.FindAxisSize(part.name)) return std::nullopt;
    renamed.push_back(AxisRef(part.name));
  }
  return renamed;
}

}  // namespace

absl::StatusOr<std::vector<DeclaredMesh>> ParseShardyMeshes(const std::string& raw) {
  const std::string text = absl::StrReplaceAll(raw, {{"\\\"", "\""}});
  static const std::regex kMesh(
      R"re(([A-Za-z_][A-Za-z0-9_.$-]*)\s*=\s*#sdy\.mesh<\s*\[([^\]]*)\]\s*(?:,\s*device_ids\s*=\s*\[([^\]]*)\]\s*)?>)re");
  static const std::regex kAxis(R"re(^\s*"([^"]+)"\s*=\s*(-?[0-9]+)\s*$)re");
  std::vector<DeclaredMesh> meshes;
  // What lies between the meshes may only be the dictionary's braces and commas.
  std::string between;
  size_t last = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), kMesh), end; it != end; ++it) {
    between += text.substr(last, it->position() - last);
    last = it->position() + it->length();
    DeclaredMesh declared;
    declared.name = (*it)[1];
    const std::string axes = (*it)[2];
    if (!absl::StripAsciiWhitespace(axes).empty()) {
      for (absl::string_view entry : absl::StrSplit(axes, ',')) {
        std::smatch match;
        const std::string piece(entry);
        int64_t size = 0;
        if (!std::regex_match(piece, match, kAxis) || !absl::SimpleAtoi(match[2].str(), &size)) {
          return absl::InvalidArgumentError(
              absl::StrCat("malformed axis '", piece, "' in Shardy mesh ", declared.name));
        }
        declared.mesh.axes.push_back(MeshAxis{match[1], size});
      }
    }
    if ((*it)[3].matched) {
      for (absl::string_view id : absl::StrSplit((*it)[3].str(), ',', absl::SkipWhitespace())) {
        int64_t value = 0;
        if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(id), &value)) {
          return absl::InvalidArgumentError(
              absl::StrCat("malformed device id '", id, "' in Shardy mesh ", declared.name));
        }
        declared.mesh.device_ids.push_back(value);
      }
    }
    meshes.push_back(std::move(declared));
  }
  if (meshes.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("no #sdy.mesh in '", raw, "'"));
  }
  between += text.substr(last);
  for (char c : between) {
    if (c != '{' && c != '}' && c != ',' && !absl::ascii_isspace(static_cast<unsigned char>(c))) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", raw, "' is not a dictionary of #sdy.mesh<[\"axis\"=size, ...]>"));
    }
  }
  return meshes;
}

bool NameAxesAsDeclared(const std::vector<DeclaredMesh>& declared, MeshShardingImport& imported) {
  if (imported.meshes.size() != 1) return false;
  const Mesh& mesh = imported.meshes[0].mesh;
  if (!IsIota(mesh.device_ids)) return false;
  for (const DeclaredMesh& candidate : declared) {
    if (!IsIota(candidate.mesh.device_ids) || !candidate.mesh.Validate().ok() ||
        candidate.mesh.NumDevices() != mesh.NumDevices()) {
      continue;
    }
    std::optional<std::map<std::string, Landing>> landings = Landings(mesh, candidate.mesh);
    if (!landings) continue;
    std::vector<ImportedSharding> renamed = imported.shardings;
    bool ok = true;
    for (ImportedSharding& sharding : renamed) {
      for (DimSharding& dim : sharding.sharding.dims) {
        std::optional<std::vector<AxisRef>> axes = Rename(dim.axes, *landings, candidate.mesh);
        ok = ok && axes.has_value();
        if (axes) dim.axes = *std::move(axes);
      }
      for (std::vector<AxisRef>* list :
           {&sharding.sharding.replicated_axes, &sharding.sharding.unreduced_axes}) {
        std::optional<std::vector<AxisRef>> axes = Rename(*list, *landings, candidate.mesh);
        ok = ok && axes.has_value();
        if (axes) *list = *std::move(axes);
      }
      std::vector<AxisRef> manual;
      for (const std::string& name : sharding.manual_axes) manual.push_back(AxisRef(name));
      std::optional<std::vector<AxisRef>> manualRenamed = Rename(manual, *landings, candidate.mesh);
      ok = ok && manualRenamed.has_value();
      if (manualRenamed) {
        sharding.manual_axes.clear();
        for (const AxisRef& ref : *manualRenamed) sharding.manual_axes.push_back(ref.name);
      }
      if (!ok) break;
    }
    if (!ok) continue;
    Mesh named;
    named.axes = candidate.mesh.axes;
    imported.meshes[0].mesh = std::move(named);
    imported.shardings = std::move(renamed);
    return true;
  }
  return false;
}

}  // namespace tessel::sharding
