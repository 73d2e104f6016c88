// Kernels of hlo.dot_general and hlo.convolution.
//
// dot_general transposes lhs to [batch, free, contract] and rhs to [batch, contract, free]
// (converting to the accumulation type on the way) and runs one matrix product per batch
// element; the result [batch, lhs free, rhs free] is already in the op's result order.
//
// convolution is lowered to matrix products by im2col, for every attribute at once:
// the input goes to [batch, spatial..., feature] and the kernel to
// [spatial..., input feature, output feature]; for each group, every output position
// gathers its receptive field into one row of a patch matrix (window strides, padding of
// either sign, lhs dilation holes and rhs dilation all reduce to "which input element, or
// zero, sits under kernel tap k at output position p"), and the patch matrix times the
// group's kernel slice is the group's output. Feature groups take a slice of the input
// features, batch groups a slice of the input batch; each takes its slice of the output
// features. This keeps one code path, exercised by every test, and spends the time in
// Eigen's contraction; the cost is the patch matrix (output positions x taps x features).
// Feature groups too small for a matrix product to pay (depthwise convolutions) skip the
// patch matrix and accumulate directly, every group in one pass over each input row.
#include <memory>
#include <vector>

#include "absl/strings/str_cat.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "runtime/kernels/linalg_utils.h"
#include "runtime/run_limits.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

int64_t Product(const Shape& shape, llvm::ArrayRef<int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= shape[d];
  return product;
}

// Dimensions of a tensor of `rank` that are in neither list, in order.
std::vector<int64_t> FreeDims(int64_t rank, llvm::ArrayRef<int64_t> a,
                              llvm::ArrayRef<int64_t> b) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (!llvm::is_contained(a, d) && !llvm::is_contained(b, d)) free.push_back(d);
  }
  return free;
}

absl::StatusOr<std::pair<ElementType, Shape>> ResultTypeOf(mlir::Type type) {
  auto tensorType = llvm::cast<mlir::RankedTensorType>(type);
  TESSEL_ASSIGN_OR_RETURN(ElementType elementType,
                          ElementTypeFromMlir(tensorType.getElementType()));
  return std::make_pair(elementType,
                        Shape(tensorType.getShape().begin(), tensorType.getShape().end()));
}

KernelResult RunDotGeneral(hlo::DotGeneralOp op, KernelArgs args) {
  const Tensor& lhs = *args.operands[0];
  const Tensor& rhs = *args.operands[1];
  hlo::DotDimensionNumbersAttr dims = op.getDotDimensionNumbers();
  std::vector<int64_t> lhsFree = FreeDims(lhs.rank(), dims.getLhsBatch(), dims.getLhsContract());
  std::vector<int64_t> rhsFree = FreeDims(rhs.rank(), dims.getRhsBatch(), dims.getRhsContract());
  int64_t batch = Product(lhs.shape(), dims.getLhsBatch());
  int64_t m = Product(lhs.shape(), lhsFree);
  int64_t k = Product(lhs.shape(), dims.getLhsContract());
  int64_t n = Product(rhs.shape(), rhsFree);

  std::vector<int64_t> lhsPerm(dims.getLhsBatch().begin(), dims.getLhsBatch().end());
  lhsPerm.insert(lhsPerm.end(), lhsFree.begin(), lhsFree.end());
  lhsPerm.insert(lhsPerm.end(), dims.getLhsContract().begin(), dims.getLhsContract().end());
  std::vector<int64_t> rhsPerm(dims.getRhsBatch().begin(), dims.getRhsBatch().end());
  rhsPerm.insert(rhsPerm.end(), dims.getRhsContract().begin(), dims.getRhsContract().end());
  rhsPerm.insert(rhsPerm.end(), rhsFree.begin(), rhsFree.end());

  TESSEL_ASSIGN_OR_RETURN(auto resultType, ResultTypeOf(op.getType()));
  // Named members, not a structured binding: C++17 lambdas cannot capture bindings.
  const ElementType resultElementType = resultType.first;
  const Shape& resultShape = resultType.second;
  if (NumElements(resultShape) != batch * m * n) {
    return absl::InvalidArgumentError("result shape does not match the operands");
  }
  std::vector<int64_t> identity(resultShape.size());
  for (size_t d = 0; d < identity.size(); ++d) identity[d] = static_cast<int64_t>(d);

  auto multiply = [&](auto tag) {
    using C = typename decltype(tag)::type;
    ComputeOperand<C> a(lhs, lhsPerm), b(rhs, rhsPerm);
    ComputeResult<C> out(resultElementType, resultShape, identity);
    for (int64_t i = 0; i < batch; ++i) {
      PollOpStop();
      MatMul<C>(a.data() + i * m * k, b.data() + i * k * n, out.data() + i * m * n, m, k, n);
    }
    return out.Finish();
  };
  const bool complex =
      IsComplex(lhs.type()) || IsComplex(rhs.type()) || IsComplex(resultElementType);
  if (complex && !(lhs.type() == resultElementType && rhs.type() == resultElementType)) {
    return absl::InvalidArgumentError(
        "a complex dot_general needs operands and result of one type");
  }
  Tensor result =
      complex ? DispatchComplexAccumulationType(resultElementType, multiply)
              : DispatchAccumulationType(lhs.type(), rhs.type(), resultElementType, multiply);
  return OneResult(std::move(result));
}

// The sizes a convolution works with, read from its operands and result.
struct ConvGeometry {
  int64_t batch, features, kernelFeatures, outputFeatures;
  int64_t outputBatch, groups, featureGroups, batchGroups;
  Shape spatial, kernelSpatial, outputSpatial;
  std::vector<WindowDim> window;
  // Per spatial dimension i, entry [p * taps_i + t] is the input coordinate kernel tap t
  // reads at output position p, or -1 (padding or an lhs dilation hole): the inner loops
  // look coordinates up instead of dividing for every tap of every position.
  std::vector<std::vector<int64_t>> coordinates;
};

absl::StatusOr<ConvGeometry> ReadGeometry(hlo::ConvolutionOp op, const Tensor& lhs,
                                          const Tensor& rhs, const Shape& resultShape) {
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  ConvGeometry g;
  g.batch = lhs.shape()[dn.getInputBatchDimension()];
  g.features = lhs.shape()[dn.getInputFeatureDimension()];
  g.kernelFeatures = rhs.shape()[dn.getKernelInputFeatureDimension()];
  g.outputFeatures = rhs.shape()[dn.getKernelOutputFeatureDimension()];
  g.featureGroups = static_cast<int64_t>(op.getFeatureGroupCount());
  g.batchGroups = static_cast<int64_t>(op.getBatchGroupCount());
  g.groups = g.featureGroups * g.batchGroups;
  for (int64_t d : dn.getInputSpatialDimensions()) g.spatial.push_back(lhs.shape()[d]);
  for (int64_t d : dn.getKernelSpatialDimensions()) g.kernelSpatial.push_back(rhs.shape()[d]);
  for (int64_t d : dn.getOutputSpatialDimensions()) g.outputSpatial.push_back(resultShape[d]);
  g.outputBatch = resultShape[dn.getOutputBatchDimension()];
  g.window = MakeWindow(g.kernelSpatial, op.getWindowStrides(), op.getLhsDilation(),
                        op.getRhsDilation(), op.getPadding());
  // The verifier guarantees all of this; checking again keeps the loops below in bounds
  // whatever IR reaches the executor.
  bool consistent = g.featureGroups >= 1 && g.batchGroups >= 1 &&
                    g.features % g.featureGroups == 0 &&
                    g.features / g.featureGroups == g.kernelFeatures &&
                    g.outputFeatures % g.groups == 0 && g.batch % g.batchGroups == 0 &&
                    g.outputBatch == g.batch / g.batchGroups &&
                    resultShape[dn.getOutputFeatureDimension()] == g.outputFeatures;
  for (size_t i = 0; i < g.spatial.size(); ++i) {
    consistent = consistent && g.window[i].OutputSize(g.spatial[i]) == g.outputSpatial[i];
  }
  if (!consistent) {
    return absl::InvalidArgumentError("operand, kernel and result shapes are inconsistent");
  }
  for (size_t i = 0; i < g.spatial.size(); ++i) {
    std::vector<int64_t>& table = g.coordinates.emplace_back(g.outputSpatial[i] * g.kernelSpatial[i]);
    for (int64_t p = 0; p < g.outputSpatial[i]; ++p) {
      for (int64_t t = 0; t < g.kernelSpatial[i]; ++t) {
        table[p * g.kernelSpatial[i] + t] = g.window[i].InputCoordinate(g.spatial[i], p, t);
      }
    }
  }
  return g;
}

// Offset in x ([batch, spatial..., features]) of the input element under tap `t` at output
// position `p` (multi-indices), for batch row `b`; -1 when that is padding or a hole.
inline int64_t TapOffset(const ConvGeometry& g, absl::Span<const int64_t> xStrides,
                         int64_t b, absl::Span<const int64_t> p, absl::Span<const int64_t> t) {
  int64_t offset = b * xStrides[0];
  for (size_t i = 0; i < g.spatial.size(); ++i) {
    int64_t coordinate = g.coordinates[i][p[i] * g.kernelSpatial[i] + t[i]];
    if (coordinate < 0) return -1;
    offset += coordinate * xStrides[1 + i];
  }
  return offset;
}

std::vector<int64_t> InputStrides(const ConvGeometry& g) {
  Shape xShape = {g.batch};
  xShape.insert(xShape.end(), g.spatial.begin(), g.spatial.end());
  xShape.push_back(g.features);
  return RowMajorStrides(xShape);
}

// Fills `patches` ([outputBatch x output positions] x [taps x kernelFeatures]) for one
// group from x ([batch, spatial..., features]); positions outside the input are zero.
template <typename C>
void Im2Col(const ConvGeometry& g, const C* x, int64_t batchOffset, int64_t featureOffset,
            C* patches) {
  size_t s = g.spatial.size();
  std::vector<int64_t> xStrides = InputStrides(g);
  int64_t positions = NumElements(g.outputSpatial), taps = NumElements(g.kernelSpatial);
  int64_t cols = taps * g.kernelFeatures;
  std::vector<int64_t> p(s, 0), t(s, 0);
  StopPoller poller(64);
  for (int64_t b = 0; b < g.outputBatch; ++b) {
    for (int64_t pi = 0; pi < positions; ++pi, NextIndex(g.outputSpatial, absl::MakeSpan(p))) {
      poller.Tick();
      C* row = patches + (b * positions + pi) * cols;
      for (int64_t ti = 0; ti < taps; ++ti, NextIndex(g.kernelSpatial, absl::MakeSpan(t))) {
        C* cell = row + ti * g.kernelFeatures;
        int64_t offset = TapOffset(g, xStrides, batchOffset + b, p, t);
        if (offset < 0) {
          std::fill(cell, cell + g.kernelFeatures, C(0));
        } else {
          std::copy(x + offset + featureOffset, x + offset + featureOffset + g.kernelFeatures,
                    cell);
        }
      }
    }
  }
}

// Feature-grouped convolution computed directly, for groups whose own product is tiny
// (depthwise: one input and a few output features per group). im2col would build a patch
// matrix per group and run a matrix product with one or two columns; here each output
// position accumulates, tap by tap, the products of the whole input feature row with the
// tap's kernel row, a loop over all groups at once.
// x: [batch, spatial..., features], w: [taps, kernelFeatures, outputFeatures],
// y: [batch, positions, outputFeatures].
template <typename C>
void DirectGroupedConvolution(const ConvGeometry& g, const C* x, const C* w, C* y) {
  size_t s = g.spatial.size();
  std::vector<int64_t> xStrides = InputStrides(g);
  const int64_t positions = NumElements(g.outputSpatial), taps = NumElements(g.kernelSpatial);
  const int64_t groups = g.featureGroups, kf = g.kernelFeatures;
  const int64_t go = g.outputFeatures / groups, of = g.outputFeatures;
  std::vector<int64_t> p(s, 0), t(s, 0);
  StopPoller poller(64);
  for (int64_t b = 0; b < g.outputBatch; ++b) {
    for (int64_t pi = 0; pi < positions; ++pi, NextIndex(g.outputSpatial, absl::MakeSpan(p))) {
      poller.Tick();
      C* __restrict out = y + (b * positions + pi) * of;
      std::fill(out, out + of, C(0));
      for (int64_t ti = 0; ti < taps; ++ti, NextIndex(g.kernelSpatial, absl::MakeSpan(t))) {
        int64_t offset = TapOffset(g, xStrides, b, p, t);
        if (offset < 0) continue;
        const C* __restrict in = x + offset;
        const C* __restrict kernel = w + ti * kf * of;
        if (kf == 1 && go == 1) {
          // Depthwise: three contiguous rows; fixed blocks so that GCC -O2 vectorises.
          constexpr int64_t kBlock = 16;
          int64_t f = 0;
          for (; f + kBlock <= of; f += kBlock) {
            for (int64_t i = 0; i < kBlock; ++i) out[f + i] += in[f + i] * kernel[f + i];
          }
          for (; f < of; ++f) out[f] += in[f] * kernel[f];
          continue;
        }
        for (int64_t c = 0; c < kf; ++c) {
          for (int64_t o = 0; o < go; ++o) {
            const C* k = kernel + c * of + o;
            for (int64_t group = 0; group < groups; ++group) {
              out[group * go + o] += in[group * kf + c] * k[group * go];
            }
          }
        }
      }
    }
  }
}

// Groups whose kernelFeatures x outputFeatures-per-group product is at most this many
// multiply-adds per tap take the direct loop.
constexpr int64_t kMaxDirectGroupProduct = 16;

KernelResult RunConvolution(hlo::ConvolutionOp op, KernelArgs args) {
  const Tensor& lhs = *args.operands[0];
  const Tensor& rhs = *args.operands[1];
  hlo::ConvDimensionNumbersAttr dn = op.getDimensionNumbers();
  TESSEL_ASSIGN_OR_RETURN(auto resultType, ResultTypeOf(op.getType()));
  // Named members, not a structured binding: C++17 lambdas cannot capture bindings.
  const ElementType resultElementType = resultType.first;
  const Shape& resultShape = resultType.second;
  // Real accumulation would drop imaginary parts; the verifier refuses complex convolutions.
  if (IsComplex(lhs.type()) || IsComplex(rhs.type()) || IsComplex(resultElementType)) {
    return UnsupportedElementType(IsComplex(lhs.type()) ? lhs.type() : resultElementType);
  }
  TESSEL_ASSIGN_OR_RETURN(ConvGeometry g, ReadGeometry(op, lhs, rhs, resultShape));
  int64_t s = static_cast<int64_t>(g.spatial.size());

  // Canonical layouts: input [batch, spatial..., feature], kernel [spatial..., in, out],
  // output [batch, spatial..., feature].
  std::vector<int64_t> lhsPerm = {dn.getInputBatchDimension()};
  lhsPerm.insert(lhsPerm.end(), dn.getInputSpatialDimensions().begin(),
                 dn.getInputSpatialDimensions().end());
  lhsPerm.push_back(dn.getInputFeatureDimension());
  std::vector<int64_t> rhsPerm(dn.getKernelSpatialDimensions().begin(),
                               dn.getKernelSpatialDimensions().end());
  rhsPerm.push_back(dn.getKernelInputFeatureDimension());
  rhsPerm.push_back(dn.getKernelOutputFeatureDimension());
  Shape canonicalOut = {g.outputBatch};
  canonicalOut.insert(canonicalOut.end(), g.outputSpatial.begin(), g.outputSpatial.end());
  canonicalOut.push_back(g.outputFeatures);
  // Result dimension r is canonical dimension outPerm[r].
  std::vector<int64_t> outPerm(s + 2);
  outPerm[dn.getOutputBatchDimension()] = 0;
  for (int64_t i = 0; i < s; ++i) outPerm[dn.getOutputSpatialDimensions()[i]] = 1 + i;
  outPerm[dn.getOutputFeatureDimension()] = s + 1;

  int64_t rows = g.outputBatch * NumElements(g.outputSpatial);
  int64_t cols = NumElements(g.kernelSpatial) * g.kernelFeatures;
  int64_t groupOut = g.outputFeatures / g.groups;
  Tensor result = DispatchAccumulationType(
      lhs.type(), rhs.type(), resultElementType, [&](auto tag) {
        using C = typename decltype(tag)::type;
        ComputeOperand<C> x(lhs, lhsPerm);
        ComputeOperand<C> w(rhs, rhsPerm);  // [cols, outputFeatures]
        ComputeResult<C> out(resultElementType, canonicalOut, outPerm);
        C* y = out.data();
        if (g.featureGroups > 1 && g.batchGroups == 1 &&
            g.kernelFeatures * groupOut <= kMaxDirectGroupProduct) {
          DirectGroupedConvolution<C>(g, x.data(), w.data(), y);
          return out.Finish();
        }
        // Every element of these is written before it is read: Im2Col fills each patch cell
        // (with zeros outside the input) and the matrix product each output element.
        std::unique_ptr<C[]> patches = UninitializedBuffer<C>(rows * cols);
        if (g.groups == 1) {
          Im2Col<C>(g, x.data(), 0, 0, patches.get());
          MatMul<C>(patches.get(), w.data(), y, rows, cols, groupOut);
          return out.Finish();
        }
        std::unique_ptr<C[]> wGroup = UninitializedBuffer<C>(cols * groupOut);
        std::unique_ptr<C[]> yGroup = UninitializedBuffer<C>(rows * groupOut);
        for (int64_t group = 0; group < g.groups; ++group) {
          int64_t batchOffset = g.batchGroups > 1 ? group * g.outputBatch : 0;
          int64_t featureOffset = g.featureGroups > 1 ? group * g.kernelFeatures : 0;
          int64_t outOffset = group * groupOut;
          Im2Col<C>(g, x.data(), batchOffset, featureOffset, patches.get());
          for (int64_t r = 0; r < cols; ++r) {
            std::copy_n(w.data() + r * g.outputFeatures + outOffset, groupOut,
                        wGroup.get() + r * groupOut);
          }
          MatMul<C>(patches.get(), wGroup.get(), yGroup.get(), rows, cols, groupOut);
          for (int64_t r = 0; r < rows; ++r) {
            std::copy_n(yGroup.get() + r * groupOut, groupOut,
                        y + r * g.outputFeatures + outOffset);
          }
        }
        return out.Finish();
      });
  return OneResult(std::move(result));
}

}  // namespace

void RegisterLinalgKernels(KernelRegistry& registry) {
  registry.Register<hlo::DotGeneralOp>(RunDotGeneral);
  registry.Register<hlo::ConvolutionOp>(RunConvolution);
}

}  // namespace tessel::runtime
