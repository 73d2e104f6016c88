// The halos sharding pictures mark on the values windowed ops read (see halo_uses.h).
#include "partitioner/spmd/halo_uses.h"

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "llvm/ADT/SmallVector.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/location.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/mlir_conversion.h"
#include "partitioner/spmd/halo_exchange.h"

namespace tessel::spmd {
namespace {

// One window dimension of an op: which dimension of the value it slides over, which
// dimension of the op's result it makes, and the window along it.
struct WindowedDim {
  int64_t value_dim = 0;
  int64_t result_dim = 0;
  spmd::WindowDim window;
};

// The layout of an op's first result, from its propagated sharding; nullopt when it has
// none (the op runs whole, nothing is exchanged) or it cannot be drawn.
std::optional<sharding::ShardingView> ResultView(mlir::Operation* op, mlir::Operation* scope) {
  auto shardings =
      op->getAttrOfType<ir::ShardingPerValueAttr>(ir::TesselDialect::kShardingAttrName);
  if (!shardings || shardings.getShardings().empty()) return std::nullopt;
  ir::ShardingAttr sharding = shardings.getShardings()[0];
  auto type = llvm::dyn_cast<mlir::RankedTensorType>(op->getResult(0).getType());
  if (!sharding || !type || !type.hasStaticShape()) return std::nullopt;
  ir::MeshAttr mesh = ir::findMesh(scope, sharding.getMeshName());
  if (!mesh) return std::nullopt;
  absl::StatusOr<sharding::ShardingView> view = sharding::ViewSharding(
      sharding::MeshFromAttr(mesh), sharding::TensorShardingFromAttr(sharding),
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()));
  if (!view.ok()) return std::nullopt;
  return *std::move(view);
}

// The window dimensions of `use`'s op over the operand `use` is, or none when the op is
// not windowed or reads the operand without a window (a convolution's kernel).
llvm::SmallVector<WindowedDim> WindowedDims(mlir::OpOperand& use) {
  llvm::SmallVector<WindowedDim> dims;
  mlir::Operation* op = use.getOwner();
  if (auto conv = llvm::dyn_cast<hlo::ConvolutionOp>(op)) {
    if (use.get() != conv.getLhs()) return dims;
    hlo::ConvDimensionNumbersAttr numbers = conv.getDimensionNumbers();
    auto kernel = llvm::cast<mlir::RankedTensorType>(conv.getRhs().getType());
    llvm::SmallVector<int64_t> sizes;
    for (int64_t k : numbers.getKernelSpatialDimensions()) sizes.push_back(kernel.getDimSize(k));
    llvm::SmallVector<spmd::WindowDim> window =
        spmd::windowDims(sizes, conv.getWindowStrides(), conv.getLhsDilation(),
                         conv.getRhsDilation(), conv.getPadding());
    for (int64_t s = 0; s < numbers.getNumSpatialDims(); ++s) {
      dims.push_back({numbers.getInputSpatialDimensions()[s],
                      numbers.getOutputSpatialDimensions()[s], window[s]});
    }
  } else if (auto reduceWindow = llvm::dyn_cast<hlo::ReduceWindowOp>(op)) {
    if (!llvm::is_contained(reduceWindow.getInputs(), use.get())) return dims;
    llvm::SmallVector<spmd::WindowDim> window = spmd::windowDims(
        reduceWindow.getWindowDimensions(), reduceWindow.getWindowStrides(),
        reduceWindow.getBaseDilations(), reduceWindow.getWindowDilations(),
        reduceWindow.getPadding());
    for (int64_t d = 0; d < static_cast<int64_t>(window.size()); ++d) {
      dims.push_back({d, d, window[d]});
    }
  } else if (auto selectAndScatter = llvm::dyn_cast<hlo::SelectAndScatterOp>(op)) {
    if (use.get() != selectAndScatter.getOperand()) return dims;
    llvm::SmallVector<spmd::WindowDim> window = spmd::windowDims(
        selectAndScatter.getWindowDimensions(), selectAndScatter.getWindowStrides(),
        std::nullopt, std::nullopt, selectAndScatter.getPadding());
    for (int64_t d = 0; d < static_cast<int64_t>(window.size()); ++d) {
      dims.push_back({d, d, window[d]});
    }
  }
  return dims;
}

std::string AxesText(const std::vector<sharding::AxisRef>& axes) {
  std::string text;
  for (const sharding::AxisRef& axis : axes) {
    absl::StrAppend(&text, text.empty() ? "" : ", ", axis.ToString());
  }
  return text;
}

}  // namespace

std::vector<sharding::HaloUse> HaloUsesOf(mlir::Value value, const sharding::ShardingView& view,
                                          mlir::Operation* scope) {
  std::vector<sharding::HaloUse> uses;
  for (mlir::OpOperand& use : value.getUses()) {
    mlir::Operation* op = use.getOwner();
    llvm::SmallVector<WindowedDim> dims = WindowedDims(use);
    if (dims.empty()) continue;
    std::optional<sharding::ShardingView> result = ResultView(op, scope);
    if (!result) continue;
    sharding::HaloUse halo_use;
    halo_use.user = absl::StrCat(op->getName().getStringRef().str(), " at ",
                                 FormatLocation(op->getLoc()));
    // An op may read one value twice (reduce_window of x and x): draw it once.
    bool seen = false;
    for (const sharding::HaloUse& earlier : uses) seen |= earlier.user == halo_use.user;
    if (seen) continue;
    for (const WindowedDim& dim : dims) {
      const sharding::DimView& out = result->dims[dim.result_dim];
      if (out.num_pieces == 1 || dim.window.isTrivial()) continue;
      const sharding::DimView& in = view.dims[dim.value_dim];
      // The partitioner first gives the operand the result's split along the dimension;
      // only when it already has it are the halos about this picture's tiles.
      if (in.axes != out.axes) {
        halo_use.dims.clear();
        halo_use.note = absl::StrCat(
            "split otherwise than its result along dim ", dim.value_dim,
            ", so the partitioner first reshards it to the result's split (over ",
            AxesText(out.axes), ") and exchanges halos between those pieces");
        break;
      }
      const int64_t n = out.num_pieces;
      spmd::ShardRanges ranges =
          llvm::isa<hlo::SelectAndScatterOp>(op)
              ? spmd::selectAndScatterOperandRanges(dim.value_dim, n, in.size,
                                                    llvm::cast<mlir::RankedTensorType>(
                                                        op->getOperand(1).getType())
                                                        .getDimSize(dim.value_dim),
                                                    dim.window)
              : spmd::windowShardRanges(dim.value_dim, dim.window, n, out.size);
      spmd::HaloSizes sizes = spmd::haloSizes(ranges, in.size);
      halo_use.dims.push_back({dim.value_dim,
                               std::vector<int64_t>(sizes.low.begin(), sizes.low.end()),
                               std::vector<int64_t>(sizes.high.begin(), sizes.high.end())});
    }
    if (halo_use.dims.empty() && halo_use.note.empty()) continue;
    uses.push_back(std::move(halo_use));
  }
  return uses;
}

}  // namespace tessel::spmd
