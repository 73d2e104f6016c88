// Kernel of hlo.sort. Most comparators only order one operand by a key computed from each
// element on its own (`a < b`, JAX's NaN-canonicalizing total order, `a > b` for
// descending); those are recognised, the key is computed once per element and the row is
// sorted natively, so a sort costs what std::sort costs. Any other comparator is evaluated
// per comparison, on scalars when it is made of comparator ops (scalar_region.h) and
// through the interpreter otherwise.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/element_convert.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/scalar_region.h"
#include "runtime/run_limits.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;
using hlo::ComparisonDirection;
using hlo::ComparisonType;

// Stable merge sort of `order` by `less`. std::stable_sort is not used here because its
// insertion-sort step assumes a strict weak order and may read out of bounds when the
// comparator is not one, and this comparator is user code (or a float `<` over NaNs).
template <typename Less>
void MergeSort(std::vector<int64_t>& order, std::vector<int64_t>& buffer, Less&& less) {
  int64_t n = static_cast<int64_t>(order.size());
  buffer.resize(order.size());
  StopPoller poller(64);
  for (int64_t width = 1; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      if (lo % 4096 < 2 * width) poller.Tick();
      int64_t mid = std::min(lo + width, n), hi = std::min(lo + 2 * width, n);
      int64_t i = lo, j = mid, k = lo;
      // Taking from the right only when it is strictly less keeps equal elements in order.
      while (i < mid && j < hi) buffer[k++] = less(order[j], order[i]) ? order[j++] : order[i++];
      while (i < mid) buffer[k++] = order[i++];
      while (j < hi) buffer[k++] = order[j++];
    }
    order.swap(buffer);
  }
}

// A comparator `compare(dir, f(a_k), f(b_k))` (or with f(b_k), f(a_k)), where f is the
// same computation on either parameter of operand k alone and dir is LT or GT: a sort by
// the key f(x), ascending or descending.
struct KeyComparator {
  int operand = 0;
  bool descending = false;
  ComparisonDirection direction = ComparisonDirection::LT;
  ComparisonType type = ComparisonType::FLOAT;
  ElementType keyType = ElementType::kF32;
  // Evaluates f on the scalar arguments; absent when f(x) = x.
  std::optional<ScalarRegion> keyFn;
};

// Whether `u` computes from block argument `a` exactly what `v` computes from `b`, with no
// other argument and nothing from outside `block` involved.
bool Mirrors(mlir::Value u, mlir::Value v, mlir::Value a, mlir::Value b, mlir::Block& block,
             int depth = 0) {
  if (depth > 64) return false;
  if (u == a || v == b) return u == a && v == b;
  mlir::Operation* x = u.getDefiningOp();
  mlir::Operation* y = v.getDefiningOp();
  if (!x || !y || x->getBlock() != &block || y->getBlock() != &block) return false;
  if (x->getNumRegions() != 0 || y->getNumRegions() != 0) return false;
  // One op shared by both sides is fine when it reads no argument (a constant).
  if (x == y) return x->getNumOperands() == 0;
  if (x->getName() != y->getName() || x->getAttrDictionary() != y->getAttrDictionary() ||
      x->getNumOperands() != y->getNumOperands() ||
      llvm::cast<mlir::OpResult>(u).getResultNumber() !=
          llvm::cast<mlir::OpResult>(v).getResultNumber()) {
    return false;
  }
  for (unsigned i = 0; i < x->getNumOperands(); ++i) {
    if (!Mirrors(x->getOperand(i), y->getOperand(i), a, b, block, depth + 1)) return false;
  }
  return true;
}

std::optional<KeyComparator> MatchKeyComparator(mlir::Region& comparator, size_t operands) {
  if (!comparator.hasOneBlock()) return std::nullopt;
  mlir::Block& block = comparator.front();
  if (block.getNumArguments() != 2 * operands) return std::nullopt;
  auto ret = llvm::dyn_cast<hlo::ReturnOp>(block.getTerminator());
  if (!ret || ret->getNumOperands() != 1) return std::nullopt;
  auto compare = ret->getOperand(0).getDefiningOp<hlo::CompareOp>();
  if (!compare || compare->getBlock() != &block) return std::nullopt;
  ComparisonDirection direction = compare.getComparisonDirection();
  // LE, GE, EQ and NE are not strict orders; those comparators take the generic path.
  if (direction != ComparisonDirection::LT && direction != ComparisonDirection::GT) {
    return std::nullopt;
  }
  auto keyTensorType = llvm::dyn_cast<mlir::RankedTensorType>(compare.getLhs().getType());
  if (!keyTensorType || keyTensorType.getRank() != 0) return std::nullopt;
  absl::StatusOr<ElementType> keyType = ElementTypeFromMlir(keyTensorType.getElementType());
  if (!keyType.ok()) return std::nullopt;
  for (size_t k = 0; k < operands; ++k) {
    mlir::Value a = block.getArgument(2 * k), b = block.getArgument(2 * k + 1);
    for (bool swapped : {false, true}) {
      mlir::Value first = swapped ? compare.getRhs() : compare.getLhs();
      mlir::Value second = swapped ? compare.getLhs() : compare.getRhs();
      if (!Mirrors(first, second, a, b, block)) continue;
      KeyComparator match;
      match.operand = static_cast<int>(k);
      match.direction = direction;
      match.descending = (direction == ComparisonDirection::GT) != swapped;
      ComparisonType fallback = IsFloat(*keyType)       ? ComparisonType::FLOAT
                                : IsSignedInt(*keyType) ? ComparisonType::SIGNED
                                                        : ComparisonType::UNSIGNED;
      match.type = compare.getCompareType().value_or(fallback);
      match.keyType = *keyType;
      if (first != a) {
        match.keyFn = ScalarRegion::Compile(comparator, first);
        if (!match.keyFn) return std::nullopt;
      }
      return match;
    }
  }
  return std::nullopt;
}

// Sorts positions [0, keys.size()) by keys of C++ type K: ascending or descending, ties
// in position order. The result is the one every stable sort gives, since K's `<` is a
// strict weak order.
template <typename K>
void SortPositionsByKey(const std::vector<K>& keys, bool descending,
                        std::vector<int64_t>& order) {
  std::vector<std::pair<K, int64_t>> pairs(keys.size());
  for (size_t i = 0; i < keys.size(); ++i) pairs[i] = {keys[i], static_cast<int64_t>(i)};
  if (descending) {
    std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) {
      return y.first < x.first || (!(x.first < y.first) && x.second < y.second);
    });
  } else {
    std::sort(pairs.begin(), pairs.end());
  }
  for (size_t i = 0; i < pairs.size(); ++i) order[i] = pairs[i].second;
}

// Orders one row by its keys (given as ReadScalar bits of the comparator's key type), with
// the compare op's semantics.
void SortRowByKeys(const KeyComparator& cmp, const std::vector<uint64_t>& bits,
                   std::vector<int64_t>& order, std::vector<int64_t>& buffer) {
  DispatchElementType(cmp.keyType, [&](auto tag) {
    using T = typename decltype(tag)::type;
    size_t n = bits.size();
    if constexpr (kIsComplex<T>) {
      // Unreachable: compare refuses complex operands, so no key comparator has this type.
      for (size_t i = 0; i < n; ++i) order[i] = static_cast<int64_t>(i);
    } else if constexpr (kIsFloat<T>) {
      if (cmp.type == ComparisonType::TOTALORDER) {
        using K = decltype(TotalOrderKey(T()));
        std::vector<K> keys(n);
        for (size_t i = 0; i < n; ++i) keys[i] = TotalOrderKey(ScalarAs<T>(bits[i]));
        SortPositionsByKey(keys, cmp.descending, order);
        return;
      }
      using C = ComputeType<T>;
      std::vector<C> keys(n);
      bool nan = false;
      for (size_t i = 0; i < n; ++i) {
        keys[i] = static_cast<C>(ScalarAs<T>(bits[i]));
        nan = nan || keys[i] != keys[i];
      }
      if (!nan) {
        // -0 == +0 under `<`: they are equivalent and keep their order, as in the merge.
        SortPositionsByKey(keys, cmp.descending, order);
        return;
      }
      // A NaN makes `<` no strict weak order: the safe merge with the comparator itself.
      for (size_t i = 0; i < n; ++i) order[i] = static_cast<int64_t>(i);
      MergeSort(order, buffer, [&](int64_t x, int64_t y) {
        return cmp.descending ? keys[y] < keys[x] : keys[x] < keys[y];
      });
    } else if constexpr (kIsPred<T>) {
      std::vector<uint8_t> keys(n);
      for (size_t i = 0; i < n; ++i) keys[i] = bits[i] != 0;
      SortPositionsByKey(keys, cmp.descending, order);
    } else if (cmp.type == ComparisonType::SIGNED) {
      std::vector<std::make_signed_t<T>> keys(n);
      for (size_t i = 0; i < n; ++i) keys[i] = static_cast<std::make_signed_t<T>>(ScalarAs<T>(bits[i]));
      SortPositionsByKey(keys, cmp.descending, order);
    } else {
      std::vector<std::make_unsigned_t<T>> keys(n);
      for (size_t i = 0; i < n; ++i) keys[i] = static_cast<std::make_unsigned_t<T>>(ScalarAs<T>(bits[i]));
      SortPositionsByKey(keys, cmp.descending, order);
    }
  });
}

// Reads a region's single rank-0 pred result.
absl::StatusOr<bool> PredResult(const std::vector<Tensor>& results) {
  if (results.size() != 1 || results[0].rank() != 0 ||
      results[0].type() != ElementType::kPred) {
    return absl::InvalidArgumentError("comparator must return one rank-0 pred");
  }
  return results[0].data<bool>()[0];
}

// dst[base + i * stride] = src[base + order[i] * stride] for the whole row, by element size.
void PermuteRow(const Tensor& src, Tensor& dst, int64_t base, int64_t stride,
                const std::vector<int64_t>& order) {
  auto gather = [&](auto unit) {
    using U = decltype(unit);
    const U* in = reinterpret_cast<const U*>(src.bytes().data()) + base;
    U* out = reinterpret_cast<U*>(dst.bytes().data()) + base;
    for (size_t i = 0; i < order.size(); ++i) {
      out[static_cast<int64_t>(i) * stride] = in[order[i] * stride];
    }
  };
  switch (collectives::DataTypeSize(src.type())) {
    case 1: gather(uint8_t()); break;
    case 2: gather(uint16_t()); break;
    case 4: gather(uint32_t()); break;
    default: gather(uint64_t()); break;
  }
}

// Sorts every 1-D slice along `dimension`. The comparator gets (a_0, b_0, a_1, b_1, ...)
// and returns true when a goes before b. The sort is always stable, which is also a valid
// answer when is_stable is absent, and makes every path give the same permutation for a
// comparator that is a strict weak order.
KernelResult RunSort(hlo::SortOp op, KernelArgs args) {
  absl::Span<const Tensor* const> inputs = args.operands;
  size_t n = inputs.size();
  const Shape& shape = inputs[0]->shape();
  int64_t dimension = static_cast<int64_t>(op.getDimension());
  int64_t length = shape[dimension];
  int64_t stride = RowMajorStrides(shape)[dimension];
  std::vector<Tensor> results;
  for (const Tensor* input : inputs) results.push_back(Tensor::Uninitialized(input->type(), input->shape()));
  if (length <= 1 || NumElements(shape) == 0) {
    for (size_t k = 0; k < n; ++k) results[k] = *inputs[k];
    return results;
  }

  mlir::Region& comparator = op.getComparator();
  const std::optional<KeyComparator> byKey = MatchKeyComparator(comparator, n);
  const std::optional<ScalarRegion> scalar =
      byKey ? std::nullopt : ScalarRegion::Compile(comparator);
  std::vector<Scalar> scalarArgs(2 * n);
  std::vector<std::vector<Scalar>> row(n, std::vector<Scalar>(length));
  std::vector<uint64_t> keyBits(length);
  absl::Status status = absl::OkStatus();
  int64_t base = 0;  // position of the slice's first element

  // Only the interpreted comparator builds tensors; it is the path of last resort.
  auto interpretedLess = [&](int64_t x, int64_t y) {
    if (!status.ok()) return false;  // after a failure, finish quickly; the error wins
    std::vector<Tensor> scalars;
    scalars.reserve(2 * n);
    for (const Tensor* input : inputs) {
      scalars.push_back(ElementAsScalar(*input, base + x * stride));
      scalars.push_back(ElementAsScalar(*input, base + y * stride));
    }
    std::vector<const Tensor*> pointers;
    for (const Tensor& s : scalars) pointers.push_back(&s);
    absl::StatusOr<std::vector<Tensor>> out = args.interpreter.RunRegion(comparator, pointers);
    absl::StatusOr<bool> result = out.ok() ? PredResult(*out) : absl::StatusOr<bool>(out.status());
    if (!result.ok()) {
      status = result.status();
      return false;
    }
    return *result;
  };

  // Every slice starts at an index whose `dimension` coordinate is 0.
  Shape outerShape = shape;
  outerShape[dimension] = 1;
  std::vector<int64_t> strides = RowMajorStrides(shape);
  std::vector<int64_t> outer(shape.size(), 0);
  std::vector<int64_t> order(length), buffer(length);
  for (int64_t s = 0; s < NumElements(outerShape);
       ++s, NextIndex(outerShape, absl::MakeSpan(outer))) {
    PollOpStop();
    base = Linearize(outer, strides);
    if (byKey) {
      const Tensor& keys = *inputs[byKey->operand];
      for (int64_t i = 0; i < length; ++i) {
        Scalar element = ReadScalar(keys, base + i * stride);
        if (byKey->keyFn) {
          // f reads only its own parameter; the others may hold anything of their type.
          for (size_t k = 0; k < n; ++k) {
            scalarArgs[2 * k] = scalarArgs[2 * k + 1] = Scalar{inputs[k]->type(), 0};
          }
          scalarArgs[2 * byKey->operand] = element;
          element = byKey->keyFn->Run(scalarArgs);
        }
        keyBits[i] = element.bits;
      }
      SortRowByKeys(*byKey, keyBits, order, buffer);
    } else if (scalar) {
      // Each element is read once per row, not once per comparison.
      for (size_t k = 0; k < n; ++k) {
        for (int64_t i = 0; i < length; ++i) row[k][i] = ReadScalar(*inputs[k], base + i * stride);
      }
      for (int64_t i = 0; i < length; ++i) order[i] = i;
      MergeSort(order, buffer, [&](int64_t x, int64_t y) {
        for (size_t k = 0; k < n; ++k) {
          scalarArgs[2 * k] = row[k][x];
          scalarArgs[2 * k + 1] = row[k][y];
        }
        return scalar->Run(scalarArgs).bits != 0;
      });
    } else {
      for (int64_t i = 0; i < length; ++i) order[i] = i;
      MergeSort(order, buffer, interpretedLess);
      TESSEL_RETURN_IF_ERROR(status);
    }
    for (size_t k = 0; k < n; ++k) PermuteRow(*inputs[k], results[k], base, stride, order);
  }
  return results;
}

}  // namespace

void RegisterSortKernel(KernelRegistry& registry) {
  registry.Register<hlo::SortOp>(RunSort);
}

}  // namespace tessel::runtime
