// Axis-list algebra for sharding propagation (see axis_list.h).
#include "partitioner/propagation/axis_list.h"

#include <numeric>

namespace tessel::propagation {

int64_t getAxesSize(llvm::ArrayRef<AxisRefAttr> axes, MeshAttr mesh) {
  int64_t size = 1;
  for (AxisRefAttr axis : axes) size *= axis.getSize(mesh);
  return size;
}

AxisRefAttr makeAxisRef(mlir::MLIRContext* context, llvm::StringRef name, int64_t pre,
                        int64_t size, MeshAttr mesh) {
  if (pre == 1 && size == mesh.getAxisSize(name)) return AxisRefAttr::get(context, name);
  return AxisRefAttr::get(context, name, pre, size);
}

int64_t getPreSize(AxisRefAttr axis) { return axis.isSubAxis() ? axis.getPreSize() : 1; }

std::pair<AxisRefAttr, AxisRefAttr> splitAxis(AxisRefAttr axis, int64_t majorSize,
                                              MeshAttr mesh) {
  int64_t pre = getPreSize(axis);
  int64_t size = axis.getSize(mesh);
  mlir::MLIRContext* context = axis.getContext();
  return {makeAxisRef(context, axis.getName(), pre, majorSize, mesh),
          makeAxisRef(context, axis.getName(), pre * majorSize, size / majorSize, mesh)};
}

bool isMajorPartOf(AxisRefAttr part, AxisRefAttr axis, MeshAttr mesh) {
  if (part == axis) return true;
  if (part.getName() != axis.getName() || getPreSize(part) != getPreSize(axis)) return false;
  int64_t partSize = part.getSize(mesh), axisSize = axis.getSize(mesh);
  return partSize <= axisSize && axisSize % partSize == 0;
}

AxisList mergeAdjacent(llvm::ArrayRef<AxisRefAttr> axes, MeshAttr mesh) {
  AxisList merged;
  for (AxisRefAttr axis : axes) {
    if (!merged.empty()) {
      AxisRefAttr last = merged.back();
      int64_t lastEnd = getPreSize(last) * last.getSize(mesh);
      if (last.getName() == axis.getName() && getPreSize(axis) == lastEnd) {
        merged.back() = makeAxisRef(axis.getContext(), axis.getName(), getPreSize(last),
                                    last.getSize(mesh) * axis.getSize(mesh), mesh);
        continue;
      }
    }
    merged.push_back(axis);
  }
  return merged;
}

bool isPrefixOf(llvm::ArrayRef<AxisRefAttr> prefix, llvm::ArrayRef<AxisRefAttr> list,
                MeshAttr mesh) {
  if (prefix.size() > list.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    bool last = i + 1 == prefix.size();
    if (prefix[i] == list[i]) continue;
    if (!last || !isMajorPartOf(prefix[i], list[i], mesh)) return false;
  }
  return true;
}

DimProjection projectOntoFactors(llvm::ArrayRef<AxisRefAttr> axes,
                                 llvm::ArrayRef<int64_t> factorSizes, MeshAttr mesh) {
  DimProjection projection;
  projection.factorAxes.resize(factorSizes.size());
  AxisList pending(axes.begin(), axes.end());
  size_t next = 0;  // index into `pending` of the first axis not yet placed
  for (size_t f = 0; f < factorSizes.size() && next < pending.size(); ++f) {
    AxisList& taken = projection.factorAxes[f];
    if (f + 1 == factorSizes.size()) {
      // The minor-most factor takes the rest; its shards may be padded.
      taken.append(pending.begin() + next, pending.end());
      next = pending.size();
      break;
    }
    int64_t remaining = factorSizes[f];
    while (remaining > 1 && next < pending.size()) {
      AxisRefAttr axis = pending[next];
      int64_t size = axis.getSize(mesh);
      if (remaining % size == 0) {
        taken.push_back(axis);
        remaining /= size;
        ++next;
        continue;
      }
      int64_t common = std::gcd(remaining, size);
      if (common == 1) break;
      auto [major, minor] = splitAxis(axis, common, mesh);
      taken.push_back(major);
      pending[next] = minor;
      remaining /= common;
    }
    if (remaining > 1 && next < pending.size()) {
      // This factor is not full but cannot take the next axis: the axes left over cannot
      // be placed on the factors after it without skipping part of this one.
      break;
    }
  }
  projection.overflow.append(pending.begin() + next, pending.end());
  return projection;
}

AxisList compatibleMajorAxes(llvm::ArrayRef<AxisList> lists, MeshAttr mesh) {
  AxisList result;
  for (size_t k = 0;; ++k) {
    // The largest axis at position k; every other must be a major part of it.
    AxisRefAttr best;
    for (const AxisList& list : lists) {
      if (k >= list.size()) continue;
      if (!best || list[k].getSize(mesh) > best.getSize(mesh)) best = list[k];
    }
    if (!best) return result;
    AxisRefAttr smallest = best;
    bool shorterPartContinues = false;
    for (const AxisList& list : lists) {
      if (k >= list.size()) continue;
      if (!isMajorPartOf(list[k], best, mesh)) return result;
      if (list[k] != best) {
        if (k + 1 < list.size()) shorterPartContinues = true;
        if (list[k].getSize(mesh) < smallest.getSize(mesh)) smallest = list[k];
      }
    }
    if (!shorterPartContinues) {
      result.push_back(best);
      continue;
    }
    // A list that has only a major part of `best` goes on with other axes: it cannot grow
    // into `best`. What all agree on is the smallest part, if every part contains it.
    for (const AxisList& list : lists) {
      if (k < list.size() && !isMajorPartOf(smallest, list[k], mesh)) return result;
    }
    result.push_back(smallest);
    return result;
  }
}

}  // namespace tessel::propagation
