// Splitting all_reduces over several axes by axis (see hierarchical_all_reduce.h).
#include "partitioner/passes/hierarchical_all_reduce.h"

#include <algorithm>
#include <complex>
#include <string>
#include <vector>

#include "cost_model/collective_cost.h"
#include "cost_model/tensor_bytes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::passes {
namespace {

// The dimension a hierarchical all_reduce scatters along: the largest.
int64_t scatterDimOf(llvm::ArrayRef<int64_t> shape) {
  return std::max_element(shape.begin(), shape.end()) - shape.begin();
}

double collectiveSeconds(cost_model::CollectiveKind kind, double bytes, ir::MeshAttr mesh,
                         llvm::ArrayRef<ir::AxisRefAttr> axes,
                         const cost_model::HardwareSpec& spec) {
  std::vector<std::string> names;
  for (ir::AxisRefAttr axis : axes) names.push_back(axis.getName().str());
  return cost_model::EstimateCollective(kind, bytes, ir::getGroupSize(mesh, axes),
                                        cost_model::LinkForAxes(spec, names))
      .seconds;
}

// How an all_reduce over several axes is done: one ring over all their devices
// (`outer` < 0), or a reduce_scatter over axes[outer], the rest all-reduced (the same way,
// recursively) on the 1/n piece, and an all_gather over axes[outer]: the bytes of the one
// ring with the latency steps of one ring per axis. A scalar cannot be scattered: it may
// be all-reduced over one axis after the other (`outer` == kApart), a few bytes more for
// the same fewer steps.
constexpr int kApart = -2;
struct AllReducePlan {
  double seconds = 0;
  int outer = -1;
};

AllReducePlan planAllReduce(llvm::SmallVector<int64_t> shape, int64_t elementBytes,
                            ir::MeshAttr mesh, llvm::ArrayRef<ir::AxisRefAttr> axes,
                            const cost_model::HardwareSpec& spec) {
  double bytes = static_cast<double>(elementBytes);
  for (int64_t size : shape) bytes *= static_cast<double>(size);
  AllReducePlan best{collectiveSeconds(cost_model::CollectiveKind::kAllReduce, bytes, mesh,
                                       axes, spec),
                     -1};
  if (axes.size() < 2) return best;
  if (shape.empty()) {
    double apart = 0;
    for (ir::AxisRefAttr axis : axes) {
      apart += collectiveSeconds(cost_model::CollectiveKind::kAllReduce, bytes, mesh, {axis},
                                 spec);
    }
    if (apart < best.seconds * (1 - 1e-9)) best = {apart, kApart};
    return best;
  }
  const int64_t d = scatterDimOf(shape);
  for (size_t outer = 0; outer < axes.size(); ++outer) {
    const int64_t n = ir::getGroupSize(mesh, {axes[outer]});
    if (n <= 1) continue;
    llvm::SmallVector<int64_t> piece = shape;
    piece[d] = (shape[d] + n - 1) / n;
    double pieceBytes = bytes / static_cast<double>(shape[d]) * static_cast<double>(piece[d]);
    llvm::SmallVector<ir::AxisRefAttr> rest(axes.begin(), axes.end());
    rest.erase(rest.begin() + outer);
    double seconds =
        collectiveSeconds(cost_model::CollectiveKind::kReduceScatter, pieceBytes * n, mesh,
                          {axes[outer]}, spec) +
        planAllReduce(piece, elementBytes, mesh, rest, spec).seconds +
        collectiveSeconds(cost_model::CollectiveKind::kAllGather, pieceBytes, mesh,
                          {axes[outer]}, spec);
    if (seconds < best.seconds * (1 - 1e-9)) best = {seconds, static_cast<int>(outer)};
  }
  return best;
}

mlir::RankedTensorType withShape(mlir::Value value, llvm::ArrayRef<int64_t> shape) {
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  return mlir::RankedTensorType::get(shape, type.getElementType());
}

mlir::ArrayAttr axesAttr(mlir::MLIRContext* context, llvm::ArrayRef<ir::AxisRefAttr> axes) {
  return mlir::ArrayAttr::get(context,
                              llvm::SmallVector<mlir::Attribute>(axes.begin(), axes.end()));
}

// Emits the reduction of `value` with `kind` over `axes` by `plan` (recursively planning
// the inner reductions).
mlir::Value emitAllReduce(mlir::OpBuilder& builder, mlir::Value value, ir::MeshAttr mesh,
                          mlir::FlatSymbolRefAttr meshName,
                          llvm::ArrayRef<ir::AxisRefAttr> axes, ir::ReductionKind kind,
                          const cost_model::HardwareSpec& spec, mlir::Location loc) {
  mlir::MLIRContext* context = builder.getContext();
  auto type = llvm::cast<mlir::RankedTensorType>(value.getType());
  AllReducePlan plan = planAllReduce(llvm::to_vector(type.getShape()),
                                     cost_model::ElementBytes(type.getElementType()), mesh,
                                     axes, spec);
  auto single = [&](mlir::Value operand, llvm::ArrayRef<ir::AxisRefAttr> over) {
    return builder
        .create<ir::AllReduceOp>(loc, operand.getType(), operand, meshName,
                                 axesAttr(context, over), ir::ReductionKindAttr::get(context, kind))
        .getResult();
  };
  if (plan.outer == kApart) {
    for (ir::AxisRefAttr axis : axes) value = single(value, {axis});
    return value;
  }
  if (plan.outer < 0) return single(value, axes);
  // reduce_scatter over the outer axis, all_reduce the rest on the piece, all_gather back.
  ir::AxisRefAttr outer = axes[plan.outer];
  llvm::SmallVector<ir::AxisRefAttr> rest(axes.begin(), axes.end());
  rest.erase(rest.begin() + plan.outer);
  llvm::SmallVector<int64_t> shape = llvm::to_vector(type.getShape());
  const int64_t d = scatterDimOf(shape);
  const int64_t n = ir::getGroupSize(mesh, {outer});
  const int64_t size = shape[d];
  const int64_t padded = n * ((size + n - 1) / n);
  if (padded != size) {
    llvm::SmallVector<int64_t> zeros(shape.size(), 0), high(shape.size(), 0);
    high[d] = padded - size;
    shape[d] = padded;
    auto scalarType = mlir::RankedTensorType::get({}, type.getElementType());
    // getZeroAttr has no complex zero; a complex one is (0, 0).
    mlir::DenseElementsAttr zeroAttr;
    if (auto complexType = llvm::dyn_cast<mlir::ComplexType>(type.getElementType())) {
      llvm::APFloat part = llvm::APFloat::getZero(
          llvm::cast<mlir::FloatType>(complexType.getElementType()).getFloatSemantics());
      std::complex<llvm::APFloat> value(part, part);
      zeroAttr = mlir::DenseElementsAttr::get(scalarType, llvm::ArrayRef(value));
    } else {
      zeroAttr =
          mlir::DenseElementsAttr::get(scalarType, builder.getZeroAttr(type.getElementType()));
    }
    mlir::Value zero = builder.create<hlo::ConstantOp>(loc, scalarType, zeroAttr);
    value = builder.create<hlo::PadOp>(loc, withShape(value, shape), value, zero,
                                       builder.getDenseI64ArrayAttr(zeros),
                                       builder.getDenseI64ArrayAttr(high),
                                       builder.getDenseI64ArrayAttr(zeros));
  }
  shape[d] = padded / n;
  value = builder.create<ir::ReduceScatterOp>(
      loc, withShape(value, shape), value, meshName, axesAttr(context, {outer}),
      builder.getI64IntegerAttr(d), ir::ReductionKindAttr::get(context, kind));
  value = emitAllReduce(builder, value, mesh, meshName, rest, kind, spec, loc);
  shape[d] = padded;
  value = builder.create<ir::AllGatherOp>(loc, withShape(value, shape), value, meshName,
                                          axesAttr(context, {outer}),
                                          builder.getI64IntegerAttr(d));
  if (padded == size) return value;
  llvm::SmallVector<int64_t> start(shape.size(), 0), strides(shape.size(), 1);
  llvm::SmallVector<int64_t> limit = shape;
  limit[d] = size;
  shape[d] = size;
  return builder.create<hlo::SliceOp>(loc, withShape(value, shape), value,
                                      builder.getDenseI64ArrayAttr(start),
                                      builder.getDenseI64ArrayAttr(limit),
                                      builder.getDenseI64ArrayAttr(strides));
}

}  // namespace

int64_t splitAllReducesByAxis(mlir::ModuleOp module, const cost_model::HardwareSpec& spec) {
  llvm::SmallVector<ir::AllReduceOp> candidates;
  module.walk([&](ir::AllReduceOp op) {
    if (op.getAxes().size() > 1) candidates.push_back(op);
  });
  int64_t rewritten = 0;
  for (ir::AllReduceOp op : candidates) {
    auto type = llvm::dyn_cast<mlir::RankedTensorType>(op.getType());
    ir::MeshAttr mesh = op.getMesh();
    if (!type || !type.hasStaticShape() || type.getNumElements() == 0 || !mesh ||
        type.getElementType().isInteger(1)) {
      continue;
    }
    llvm::SmallVector<ir::AxisRefAttr> axes =
        llvm::to_vector(op.getAxes().getAsRange<ir::AxisRefAttr>());
    AllReducePlan plan = planAllReduce(llvm::to_vector(type.getShape()),
                                       cost_model::ElementBytes(type.getElementType()), mesh,
                                       axes, spec);
    if (plan.outer == -1) continue;
    mlir::OpBuilder builder(op);
    mlir::Value replacement =
        emitAllReduce(builder, op.getOperand(), mesh, op.getMeshNameAttr(), axes,
                      op.getKind(), spec, op.getLoc());
    op.getResult().replaceAllUsesWith(replacement);
    op.erase();
    ++rewritten;
  }
  return rewritten;
}

}  // namespace tessel::passes
