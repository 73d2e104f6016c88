// Validation of partition specs against meshes, and the printed form of shardings.
#include "partitioner/api/sharding.h"

#include <ostream>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "support/status_macros.h"

namespace tessel {
namespace {

std::string Quoted(absl::string_view axis) { return absl::StrCat("\"", absl::CEscape(axis), "\""); }

std::string AxisList(const std::vector<AxisRef>& axes) {
  return absl::StrJoin(axes, ", ", [](std::string* out, const AxisRef& axis) {
    out->append(axis.ToString());
  });
}

// Records where each part of each mesh axis is used, so that a second use names both
// places: `axis "data" is used by dimension 0 and by dimension 1`. A part is the range
// [begin, end) of the axis seen as a product of factors: the whole axis of size n is [1, n),
// the sub-axis "x":(pre)size is [pre, pre * size).
class AxisUses {
 public:
  explicit AxisUses(const Mesh& mesh) : mesh_(mesh) {}

  absl::Status Add(const AxisRef& axis, const std::string& where) {
    if (axis.name().empty())
      return absl::InvalidArgumentError(absl::StrCat(where, " names an empty axis"));
    std::optional<int64_t> size = mesh_.axis_size(axis.name());
    if (!size) {
      std::vector<std::string> names;
      for (const MeshAxis& a : mesh_.axes()) names.push_back(Quoted(a.name));
      return absl::InvalidArgumentError(absl::StrCat(where, ": axis ", Quoted(axis.name()),
                                                     " is not in mesh @", mesh_.name(),
                                                     " (axes: ", absl::StrJoin(names, ", "),
                                                     ")"));
    }
    int64_t begin = 1, end = *size;
    if (axis.is_sub_axis()) {
      TESSEL_RETURN_IF_ERROR(CheckSubAxis(axis, *size, where));
      begin = axis.pre_size();
      end = axis.pre_size() * axis.sub_size();
    }
    for (const Use& use : uses_) {
      if (use.axis.name() != axis.name()) continue;
      if (use.axis == axis) {
        return absl::InvalidArgumentError(absl::StrCat("axis ", axis.ToString(), " is used by ",
                                                       use.where, " and by ", where));
      }
      if (use.begin < end && begin < use.end) {
        return absl::InvalidArgumentError(absl::StrCat("axis ", axis.ToString(), " of ", where,
                                                       " overlaps axis ", use.axis.ToString(),
                                                       " of ", use.where));
      }
      // Disjoint parts: the later one must start where a multiple of the earlier one ends,
      // or no split of the axis has both as factors.
      bool compatible = use.begin < begin ? begin % use.end == 0 : use.begin % end == 0;
      if (!compatible) {
        return absl::InvalidArgumentError(
            absl::StrCat("sub-axes ", use.axis.ToString(), " of ", use.where, " and ",
                         axis.ToString(), " of ", where, " do not split axis ",
                         Quoted(axis.name()), " compatibly"));
      }
    }
    uses_.push_back(Use{axis, begin, end, where});
    return absl::OkStatus();
  }

 private:
  struct Use {
    AxisRef axis;
    int64_t begin;
    int64_t end;
    std::string where;
  };

  static absl::Status CheckSubAxis(const AxisRef& axis, int64_t axis_size,
                                   const std::string& where) {
    if (axis.pre_size() < 1 || axis.sub_size() < 2) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": sub-axis ", axis.ToString(),
                       " needs a pre-size of at least 1 and a size of at least 2"));
    }
    int64_t end = axis.pre_size() * axis.sub_size();
    if (axis_size % end != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          where, ": sub-axis ", axis.ToString(), ": ", axis.pre_size(), " * ", axis.sub_size(),
          " does not divide the size ", axis_size, " of axis ", Quoted(axis.name())));
    }
    if (axis.pre_size() == 1 && end == axis_size) {
      return absl::InvalidArgumentError(absl::StrCat(where, ": sub-axis ", axis.ToString(),
                                                     " is all of axis ", Quoted(axis.name()),
                                                     "; name the axis instead"));
    }
    return absl::OkStatus();
  }

  const Mesh& mesh_;
  std::vector<Use> uses_;
};

// Parses a decimal number at the front of `text` and removes it.
bool ConsumeNumber(absl::string_view& text, int64_t& value) {
  size_t digits = 0;
  while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
  if (digits == 0 || !absl::SimpleAtoi(text.substr(0, digits), &value)) return false;
  text.remove_prefix(digits);
  return true;
}

}  // namespace

std::string AxisRef::ToString() const {
  std::string text = Quoted(name_);
  if (is_sub_axis()) absl::StrAppend(&text, ":(", pre_size_, ")", size_);
  return text;
}

std::ostream& operator<<(std::ostream& os, const AxisRef& axis) { return os << axis.ToString(); }

absl::StatusOr<AxisRef> AxisRef::Parse(absl::string_view text) {
  absl::string_view rest = text;
  std::string name;
  if (absl::ConsumePrefix(&rest, "\"")) {
    size_t close = rest.find('"');
    if (close == absl::string_view::npos) {
      return absl::InvalidArgumentError(
          absl::StrCat("axis ", text, " has no closing quote"));
    }
    std::string error;
    if (!absl::CUnescape(rest.substr(0, close), &name, &error)) {
      return absl::InvalidArgumentError(absl::StrCat("axis ", text, ": ", error));
    }
    rest.remove_prefix(close + 1);
  } else {
    size_t colon = rest.find(':');
    name = std::string(rest.substr(0, colon));
    rest.remove_prefix(colon == absl::string_view::npos ? rest.size() : colon);
  }
  if (name.empty()) return absl::InvalidArgumentError(absl::StrCat("axis '", text, "' has no name"));
  if (rest.empty()) return AxisRef(std::move(name));
  int64_t pre_size = 0, size = 0;
  if (!absl::ConsumePrefix(&rest, ":(") || !ConsumeNumber(rest, pre_size) ||
      !absl::ConsumePrefix(&rest, ")") || !ConsumeNumber(rest, size) || !rest.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "axis '", text, "' is neither a name nor a sub-axis name:(pre-size)size"));
  }
  return Sub(std::move(name), pre_size, size);
}

absl::StatusOr<Sharding> Sharding::Create(Mesh mesh, PartitionSpec spec) {
  AxisUses uses(mesh);
  for (int64_t d = 0; d < spec.rank(); ++d) {
    const DimSpec& dim = spec.dims()[d];
    std::string where = absl::StrCat("dimension ", d);
    for (const AxisRef& axis : dim.axes()) TESSEL_RETURN_IF_ERROR(uses.Add(axis, where));
    if (dim.priority() && *dim.priority() < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ": priority ", *dim.priority(), " is negative"));
    }
  }
  for (const AxisRef& axis : spec.replicated_axes()) {
    TESSEL_RETURN_IF_ERROR(uses.Add(axis, "the replicated axes"));
  }
  for (const AxisRef& axis : spec.unreduced_axes()) {
    TESSEL_RETURN_IF_ERROR(uses.Add(axis, "the unreduced axes"));
  }
  return Sharding(std::move(mesh), std::move(spec));
}

absl::StatusOr<Sharding> Sharding::Create(Mesh mesh, PartitionSpec spec, int64_t rank) {
  if (spec.rank() != rank) {
    return absl::InvalidArgumentError(absl::StrCat("partition spec has ", spec.rank(),
                                                   " dimensions but the tensor has rank ", rank));
  }
  return Create(std::move(mesh), std::move(spec));
}

Sharding Sharding::Replicated(Mesh mesh, int64_t rank) {
  return Sharding(std::move(mesh), PartitionSpec(std::vector<DimSpec>(rank)));
}

absl::Status Sharding::CheckFits(const TensorType& type) const {
  if (type.rank() == rank()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("sharding ", ToString(), " has ", rank(),
                                                 " dimensions but ", type.ToString(), " has rank ",
                                                 type.rank()));
}

int64_t Sharding::num_shards(int64_t dim) const {
  int64_t shards = 1;
  for (const AxisRef& axis : spec_.dims()[dim].axes()) {
    shards *= axis.is_sub_axis() ? axis.sub_size() : *mesh_.axis_size(axis.name());
  }
  return shards;
}

std::vector<int64_t> Sharding::LocalShape(const TensorType& type) const {
  std::vector<int64_t> shape;
  for (int64_t d = 0; d < type.rank(); ++d) {
    int64_t shards = num_shards(d);
    shape.push_back((type.dimension(d) + shards - 1) / shards);
  }
  return shape;
}

std::string Sharding::ToString() const {
  std::string text = absl::StrCat("#tessel.sharding<@", mesh_.name(), ", [");
  for (int64_t d = 0; d < rank(); ++d) {
    const DimSpec& dim = spec_.dims()[d];
    if (d > 0) text += ", ";
    absl::StrAppend(&text, "{", AxisList(dim.axes()));
    if (dim.is_open()) text += dim.axes().empty() ? "?" : ", ?";
    text += "}";
    if (dim.priority()) absl::StrAppend(&text, "p", *dim.priority());
  }
  text += "]";
  if (!spec_.replicated_axes().empty()) {
    absl::StrAppend(&text, ", replicated={", AxisList(spec_.replicated_axes()), "}");
  }
  if (!spec_.unreduced_axes().empty()) {
    absl::StrAppend(&text, ", unreduced={", AxisList(spec_.unreduced_axes()), "}");
  }
  return text + ">";
}

std::ostream& operator<<(std::ostream& os, const Sharding& sharding) {
  return os << sharding.ToString();
}

}  // namespace tessel
