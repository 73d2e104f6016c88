// TileAssignment: GSPMD's array of device ids, one array dimension per tiled tensor dimension
// (plus trailing subgroup dimensions). Two encodings, as in XLA's HLO text:
//   explicit (V1)  `devices=[2,2]0,2,1,3`          the ids in row-major order;
//   iota (V2)      `devices=[4,2]<=[2,4]T(1,0)`    arange(N) reshaped to `reshape_dims`,
//                                                  transposed by `perm`, reshaped to `dims`.
// Iota forms are kept canonical: reshape dims of size 1 are dropped and reshape dims that stay
// adjacent after the transpose are merged, so `<=[2,4]T(0,1)` becomes `<=[8]`.
//
//   TESSEL_ASSIGN_OR_RETURN(TileAssignment tiles,
//                           TileAssignment::CreateIota({4, 2}, {2, 4}, {1, 0}));
//   tiles.At(3);          // 5: row 1, column 1 of [[0,4],[1,5],[2,6],[3,7]]
//   tiles.ToString();     // devices=[4,2]<=[2,4]T(1,0)
#ifndef TESSEL_PARTITIONER_SHARDING_TILE_ASSIGNMENT_H_
#define TESSEL_PARTITIONER_SHARDING_TILE_ASSIGNMENT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace tessel::sharding {

// An iota array seen as factors: arange over `reshape_dims` (finer than the canonical
// reshape dims) with each array dim made of some of them, major to minor.
struct IotaFactors {
  std::vector<int64_t> reshape_dims;
  // Per array dim, positions in `reshape_dims`; dims of size 1 have none.
  std::vector<std::vector<int>> dim_factors;
};

class TileAssignment {
 public:
  // One device: `devices=[1]<=[1]`.
  TileAssignment() : dims_{1}, reshape_dims_{1}, perm_{0} {}

  // The iota form. Errors: no dims, a dim below 1, products of `dims` and `reshape_dims`
  // differ, `perm` not a permutation of the reshape dims.
  static absl::StatusOr<TileAssignment> CreateIota(std::vector<int64_t> dims,
                                                   std::vector<int64_t> reshape_dims,
                                                   std::vector<int> perm);
  // arange(product(dims)) reshaped to `dims`. REQUIRES: every dim >= 1, at least one dim.
  static TileAssignment Iota(std::vector<int64_t> dims);
  // The explicit form. Errors: no dims, a dim below 1, `devices` not a permutation of
  // [0, product(dims)).
  static absl::StatusOr<TileAssignment> CreateExplicit(std::vector<int64_t> dims,
                                                       std::vector<int64_t> devices);

  const std::vector<int64_t>& dims() const { return dims_; }
  int64_t Rank() const { return static_cast<int64_t>(dims_.size()); }
  int64_t NumDevices() const;
  bool IsIota() const { return devices_.empty(); }
  // The canonical iota parameters. Meaningful only if IsIota().
  const std::vector<int64_t>& reshape_dims() const { return reshape_dims_; }
  const std::vector<int>& perm() const { return perm_; }

  // The device at row-major position `linear_index` of the array.
  // REQUIRES: 0 <= linear_index < NumDevices().
  int64_t At(int64_t linear_index) const;
  // Every device in row-major order of the array.
  std::vector<int64_t> Devices() const;
  // Whether the devices, in row-major order, are 0, 1, 2, ...
  bool IsArange() const;

  // The factors of an iota array: the shortest common factorization of the array dims and the
  // transposed reshape dims. nullopt when that has none, e.g. [2,3]<=[2,3]T(1,0) (dims [2,3]
  // against transposed [3,2]). An explicit array that is such an iota written out, as
  // [4,2]0,1,4,5,2,3,6,7 is [4,2]<=[2,2,2]T(1,0,2), has factors too (one run of ids per
  // factor); any other explicit array has none.
  std::optional<IotaFactors> Factors() const;
  // The iota array with dims `dims` whose dim d lists the factors `factors.dim_factors[d]`.
  // REQUIRES: each dim's factor sizes multiply to the dim; every factor used once.
  static TileAssignment FromFactors(std::vector<int64_t> dims, const IotaFactors& factors);

  // The same devices in the same row-major order, viewed with shape `dims`.
  // REQUIRES: product(dims) == NumDevices(), every dim >= 1.
  TileAssignment Reshape(std::vector<int64_t> dims) const;
  // The array with its dimensions permuted: dimension i of the result is dimension perm[i]
  // of this. Stays in iota form when the array's dims and its iota's transposed shape have a
  // common factorization; otherwise the result is explicit.
  // REQUIRES: perm is a permutation of [0, Rank()).
  TileAssignment Transpose(const std::vector<int>& perm) const;

  // `devices=[4,2]<=[2,4]T(1,0)`, `devices=[8]<=[8]`, or `devices=[2,2]0,2,1,3`.
  std::string ToString() const;

  friend bool operator==(const TileAssignment& a, const TileAssignment& b) {
    return a.dims_ == b.dims_ && a.devices_ == b.devices_ && a.reshape_dims_ == b.reshape_dims_ &&
           a.perm_ == b.perm_;
  }
  friend bool operator!=(const TileAssignment& a, const TileAssignment& b) { return !(a == b); }

 private:
  // Drops size-1 reshape dims and merges reshape dims that stay adjacent after the transpose.
  void CanonicalizeIota();

  std::vector<int64_t> dims_;
  // Explicit form: the devices, row-major. Empty for the iota form.
  std::vector<int64_t> devices_;
  // Iota form: empty for the explicit form.
  std::vector<int64_t> reshape_dims_;
  std::vector<int> perm_;
};

// Row-major multi-index of `linear_index` in `shape`, and back.
std::vector<int64_t> Unravel(int64_t linear_index, const std::vector<int64_t>& shape);
int64_t Ravel(const std::vector<int64_t>& index, const std::vector<int64_t>& shape);

}  // namespace tessel::sharding

#endif  // TESSEL_PARTITIONER_SHARDING_TILE_ASSIGNMENT_H_
