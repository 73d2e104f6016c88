// HloSharding: the GSPMD (XLA) form of a sharding, with XLA's HLO text syntax.
//
//   {replicated}                      every device holds the whole value
//   {maximal device=3}                only device 3 holds it
//   {manual}                          per-device user code; the partitioner keeps out
//   {unreduced}                       every device holds a partial sum of the value
//   {devices=[4,2]<=[2,4]T(1,0)}      tiled: tile (i,j) lives on the device at [i,j]
//   {devices=[2,1,4]<=[8] last_tile_dim_replicate}        the last dim lists replicas
//   {devices=[2,1,4,2]<=[16] last_tile_dims={manual, replicated}}   typed trailing dims
//   {{replicated}, {devices=[2]0,1}}  a tuple: one sharding per array leaf, pre-order
//
//   TESSEL_ASSIGN_OR_RETURN(HloSharding sharding,
//                           HloSharding::Parse("{devices=[2,1,4]<=[8] last_tile_dim_replicate}"));
//   sharding.TiledDataRank();   // 2
//   sharding.ToString();        // the same text
//
// Tiled shardings are normalized on construction the way XLA normalizes them: trailing dims
// of size 1 are dropped, trailing dims of one type are merged and the types ordered manual,
// unreduced, replicated; a lone replicated trailing dim prints as last_tile_dim_replicate;
// a sharding that tiles no data dim and has one trailing type becomes {manual},
// {unreduced} or {replicated}; the devices of each replication group are listed in
// increasing order (an iota whose groups cannot be so ordered becomes a device list).
#ifndef TESSEL_PARTITIONER_SHARDING_HLO_SHARDING_H_
#define TESSEL_PARTITIONER_SHARDING_HLO_SHARDING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "partitioner/sharding/tile_assignment.h"

namespace tessel::sharding {

// What a trailing (non-data) dim of a tile assignment means. The order is the canonical
// order of trailing dims.
enum class SubgroupType { kManual, kUnreduced, kReplicated };

class HloSharding {
 public:
  enum class Kind { kReplicated, kMaximal, kManual, kUnreduced, kTiled, kTuple };

  static HloSharding Replicated() { return HloSharding(Kind::kReplicated); }
  static HloSharding Manual() { return HloSharding(Kind::kManual); }
  static HloSharding Unreduced() { return HloSharding(Kind::kUnreduced); }
  // Errors: a negative device id.
  static absl::StatusOr<HloSharding> Maximal(int64_t device);
  // Errors: a tuple element that is itself a tuple (XLA flattens tuple shardings).
  static absl::StatusOr<HloSharding> Tuple(std::vector<HloSharding> elements);
  // A tiled sharding whose last `subgroup_types.size()` dims are typed trailing dims, the
  // rest data dims. Normalizes as described at the top. Errors: more subgroup types than
  // tile assignment dims.
  static absl::StatusOr<HloSharding> Tiled(TileAssignment tiles,
                                           std::vector<SubgroupType> subgroup_types = {});

  Kind kind() const { return kind_; }
  bool IsTuple() const { return kind_ == Kind::kTuple; }
  // Meaningful for kTiled.
  const TileAssignment& tile_assignment() const { return tiles_; }
  const std::vector<SubgroupType>& subgroup_types() const { return subgroup_types_; }
  // Whether the only trailing dim is a replicated one (XLA's `last_tile_dim_replicate`).
  bool ReplicateOnLastTileDim() const {
    return subgroup_types_.size() == 1 && subgroup_types_[0] == SubgroupType::kReplicated;
  }
  // The number of data dims of a tiled sharding: the tensor rank it applies to.
  int64_t TiledDataRank() const {
    return tiles_.Rank() - static_cast<int64_t>(subgroup_types_.size());
  }
  // Meaningful for kMaximal.
  int64_t device() const { return device_; }
  // Meaningful for kTuple.
  const std::vector<HloSharding>& tuple_elements() const { return elements_; }

  // XLA's HLO text, e.g. `{devices=[4,2]<=[2,4]T(1,0)}`.
  std::string ToString() const;
  // Parses XLA's HLO text form (the forms listed at the top; `/*...*/` comments, as XLA
  // prints in long tuples, are skipped). Errors are InvalidArgumentError naming the 0-based
  // offset into `text` and what was expected there. Metadata, shard groups and {unknown}
  // are rejected as unsupported.
  static absl::StatusOr<HloSharding> Parse(absl::string_view text);

  friend bool operator==(const HloSharding& a, const HloSharding& b) {
    return a.kind_ == b.kind_ && a.device_ == b.device_ && a.tiles_ == b.tiles_ &&
           a.subgroup_types_ == b.subgroup_types_ && a.elements_ == b.elements_;
  }
  friend bool operator!=(const HloSharding& a, const HloSharding& b) { return !(a == b); }

 private:
  explicit HloSharding(Kind kind) : kind_(kind) {}

  Kind kind_;
  int64_t device_ = 0;
  TileAssignment tiles_;
  std::vector<SubgroupType> subgroup_types_;
  std::vector<HloSharding> elements_;
};

// `manual`, `unreduced`, `replicated`: the names used in `last_tile_dims={...}`.
absl::string_view SubgroupTypeName(SubgroupType type);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_HLO_SHARDING_H_
