// Construction and normalization of HloSharding, and its text printer (see hlo_sharding.h).
// The parser is in hlo_sharding_parser.cc.
#include "partitioner/sharding/hlo_sharding.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace tessel::sharding {

absl::string_view SubgroupTypeName(SubgroupType type) {
  switch (type) {
    case SubgroupType::kManual:
      return "manual";
    case SubgroupType::kUnreduced:
      return "unreduced";
    case SubgroupType::kReplicated:
      return "replicated";
  }
  return "replicated";
}

absl::StatusOr<HloSharding> HloSharding::Maximal(int64_t device) {
  if (device < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("maximal device ", device, " must not be negative"));
  }
  HloSharding sharding(Kind::kMaximal);
  sharding.device_ = device;
  return sharding;
}

absl::StatusOr<HloSharding> HloSharding::Tuple(std::vector<HloSharding> elements) {
  for (size_t i = 0; i < elements.size(); ++i) {
    if (elements[i].IsTuple()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "tuple element ", i, " is a tuple; a tuple sharding lists the leaves, flattened"));
    }
  }
  HloSharding sharding(Kind::kTuple);
  sharding.elements_ = std::move(elements);
  return sharding;
}

absl::StatusOr<HloSharding> HloSharding::Tiled(TileAssignment tiles,
                                               std::vector<SubgroupType> subgroup_types) {
  const int rank = static_cast<int>(tiles.Rank());
  const int num_subgroups = static_cast<int>(subgroup_types.size());
  if (num_subgroups > rank) {
    return absl::InvalidArgumentError(
        absl::StrCat(num_subgroups, " trailing dim types for a tile assignment of rank ", rank));
  }
  const int data_rank = rank - num_subgroups;
  // Trailing dims by type, in canonical type order; size-1 ones go last, to be dropped.
  constexpr SubgroupType kOrder[] = {SubgroupType::kManual, SubgroupType::kUnreduced,
                                     SubgroupType::kReplicated};
  std::vector<int> perm;
  std::vector<int64_t> shape;
  int64_t data_tiles = 1;
  for (int d = 0; d < data_rank; ++d) {
    perm.push_back(d);
    shape.push_back(tiles.dims()[d]);
    data_tiles *= tiles.dims()[d];
  }
  std::vector<SubgroupType> types;
  for (SubgroupType type : kOrder) {
    int64_t merged = 1;
    for (int i = 0; i < num_subgroups; ++i) {
      const int d = data_rank + i;
      if (subgroup_types[i] != type || tiles.dims()[d] == 1) continue;
      perm.push_back(d);
      merged *= tiles.dims()[d];
    }
    if (merged == 1) continue;
    types.push_back(type);
    shape.push_back(merged);
  }
  for (int i = 0; i < num_subgroups; ++i) {
    if (tiles.dims()[data_rank + i] == 1) perm.push_back(data_rank + i);
  }
  // A scalar whose trailing dims were all of size 1 spans one device and is not split.
  if (data_rank == 0 && types.empty()) return Replicated();
  bool is_identity = true;
  for (int i = 0; i < rank; ++i) is_identity &= perm[i] == i;
  if (!is_identity) tiles = tiles.Transpose(perm);
  tiles = tiles.Reshape(shape);

  if (data_tiles == 1 && types.size() == 1) {
    switch (types[0]) {
      case SubgroupType::kManual:
        return Manual();
      case SubgroupType::kUnreduced:
        return Unreduced();
      case SubgroupType::kReplicated:
        return Replicated();
    }
  }
  if (!types.empty() && types.back() == SubgroupType::kReplicated) {
    // Replicas of one tile are interchangeable; listing each group in increasing device order
    // gives one spelling per sharding, as in XLA. In an iota that means taking the replicated
    // dim's factors major to minor in reshape order.
    std::optional<IotaFactors> factors = tiles.IsIota() ? tiles.Factors() : std::nullopt;
    if (factors) {
      std::sort(factors->dim_factors.back().begin(), factors->dim_factors.back().end());
      tiles = TileAssignment::FromFactors(shape, *factors);
    } else {
      std::vector<int64_t> devices = tiles.Devices();
      const int64_t group = shape.back();
      for (size_t begin = 0; begin < devices.size(); begin += group) {
        std::sort(devices.begin() + begin, devices.begin() + begin + group);
      }
      absl::StatusOr<TileAssignment> sorted = TileAssignment::CreateExplicit(shape, devices);
      if (!sorted.ok()) return sorted.status();
      tiles = *std::move(sorted);
    }
  }
  HloSharding sharding(Kind::kTiled);
  sharding.tiles_ = std::move(tiles);
  sharding.subgroup_types_ = std::move(types);
  return sharding;
}

std::string HloSharding::ToString() const {
  switch (kind_) {
    case Kind::kReplicated:
      return "{replicated}";
    case Kind::kManual:
      return "{manual}";
    case Kind::kUnreduced:
      return "{unreduced}";
    case Kind::kMaximal:
      return absl::StrCat("{maximal device=", device_, "}");
    case Kind::kTuple: {
      // Like XLA, every fifth element is preceded by its index, which helps reading long
      // tuples; the parser skips these comments.
      std::string text = "{";
      for (size_t i = 0; i < elements_.size(); ++i) {
        if (i > 0) absl::StrAppend(&text, i % 5 == 0 ? absl::StrCat(", /*index=", i, "*/") : ", ");
        absl::StrAppend(&text, elements_[i].ToString());
      }
      return text + "}";
    }
    case Kind::kTiled:
      break;
  }
  std::string text = "{" + tiles_.ToString();
  if (ReplicateOnLastTileDim()) {
    text += " last_tile_dim_replicate";
  } else if (!subgroup_types_.empty()) {
    absl::StrAppend(&text, " last_tile_dims={",
                    absl::StrJoin(subgroup_types_, ", ",
                                  [](std::string* out, SubgroupType type) {
                                    absl::StrAppend(out, SubgroupTypeName(type));
                                  }),
                    "}");
  }
  return text + "}";
}

}  // namespace tessel::sharding
