// Algebra on lists of mesh axes, the currency of sharding propagation: sizes, splitting an
// axis into sub-axes, merging them back, projecting a dimension's axes onto the factors of
// an op's sharding rule, and finding the axes several tensors agree on.
//
// Every function takes the mesh the axes belong to; none checks that the axes exist (the
// verifier has).
#ifndef TESSEL_PARTITIONER_PROPAGATION_AXIS_LIST_H_
#define TESSEL_PARTITIONER_PROPAGATION_AXIS_LIST_H_

#include <cstdint>
#include <utility>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::propagation {

using ir::AxisRefAttr;
using ir::MeshAttr;
using AxisList = llvm::SmallVector<AxisRefAttr, 2>;

// The number of devices the axes span together: the product of their sizes.
int64_t getAxesSize(llvm::ArrayRef<AxisRefAttr> axes, MeshAttr mesh);

// The (sub-)axis of `name` that starts after `pre` and has `size` devices, written as the
// whole axis when it is one ("x":(1)4 on an axis of 4 is "x").
// REQUIRES: pre * size divides the axis size.
AxisRefAttr makeAxisRef(mlir::MLIRContext* context, llvm::StringRef name, int64_t pre,
                        int64_t size, MeshAttr mesh);

// The first device-coordinate multiplier of `axis`: 1 for a whole axis, `pre` for a sub-axis.
int64_t getPreSize(AxisRefAttr axis);

// Splits `axis` into its major part of `majorSize` devices and the rest:
// "x" (size 8) split at 2 is ("x":(1)2, "x":(2)4).
// REQUIRES: 1 < majorSize < size of `axis`, and majorSize divides it.
std::pair<AxisRefAttr, AxisRefAttr> splitAxis(AxisRefAttr axis, int64_t majorSize,
                                              MeshAttr mesh);

// Whether `part` is `axis` or a major part of it: the same axis, starting at the same place,
// with a size that divides `axis`'s. "x":(1)2 is a major part of "x" and of "x":(1)4, but not
// of "x":(2)2.
bool isMajorPartOf(AxisRefAttr part, AxisRefAttr axis, MeshAttr mesh);

// Joins neighbours that are consecutive parts of one axis:
// ["x":(1)2, "x":(2)2, "y"] on x=4 gives ["x", "y"].
AxisList mergeAdjacent(llvm::ArrayRef<AxisRefAttr> axes, MeshAttr mesh);

// Whether `prefix` can grow into `list`: every element equal, except that the last element
// of `prefix` may be a major part of the element of `list` at the same place.
// [] and ["x":(1)2] are prefixes of ["x", "y"]; ["y"] is not.
bool isPrefixOf(llvm::ArrayRef<AxisRefAttr> prefix, llvm::ArrayRef<AxisRefAttr> list,
                MeshAttr mesh);

// How one dimension's axes fall onto the factors that make up the dimension.
struct DimProjection {
  // The axes of each factor, in the order of the factors passed in (major to minor).
  llvm::SmallVector<AxisList, 2> factorAxes;
  // Axes no factor could take: a non-minor factor met an axis that does not divide what is
  // left of it, so neither it nor the factors after it take anything more.
  AxisList overflow;
};

// Distributes `axes` (major to minor) over factors of sizes `factorSizes` (major to minor).
// Each factor takes axes while they divide what is left of its size, splitting an axis into
// sub-axes where only a part of it (the gcd) fits; the minor-most factor takes whatever
// remains, even if it does not divide its size (uneven shards are padded).
//
// Examples on mesh x=4, y=2:
//   ["x", "y"] onto [2, 4]  →  factors ["x":(1)2], ["x":(2)2, "y"]
//   ["x"]      onto [8]     →  ["x"]
//   ["x"]      onto [3, 5]  →  [], [] with overflow ["x"] (4 shares nothing with 3)
//   ["x"]      onto [6]     →  ["x"] (minor-most: 6 is split 4 ways, padded)
DimProjection projectOntoFactors(llvm::ArrayRef<AxisRefAttr> axes,
                                 llvm::ArrayRef<int64_t> factorSizes, MeshAttr mesh);

// The longest axis list that each of `lists` is a prefix of or can grow into, stopping
// where two lists diverge. Lists are compared position by position; where one list has a
// major part of another's axis and goes on after it, the common major part ends the result.
//
//   [["x"], ["x", "y"]]        → ["x", "y"]
//   [["x", "y"], ["x", "z"]]   → ["x"]
//   [["x":(1)2], ["x"]]        → ["x"]           (on x=4)
//   [["x":(1)2, "y"], ["x"]]   → ["x":(1)2]
//   [["y"], ["x"]]             → []
AxisList compatibleMajorAxes(llvm::ArrayRef<AxisList> lists, MeshAttr mesh);

}  // namespace tessel::propagation

#endif  // TESSEL_PARTITIONER_PROPAGATION_AXIS_LIST_H_
