// Per-op flops and memory traffic (the formulas are listed in op_cost.h).
#include "cost_model/op_cost.h"

#include <algorithm>
#include <cmath>

#include "cost_model/tensor_bytes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::cost_model {
namespace {

double Elements(mlir::Value value) { return static_cast<double>(ElementCount(value.getType())); }

double Elements(mlir::ValueRange values) {
  double total = 0;
  for (mlir::Value value : values) total += Elements(value);
  return total;
}

double Product(llvm::ArrayRef<int64_t> sizes) {
  double product = 1;
  for (int64_t size : sizes) product *= static_cast<double>(size);
  return product;
}

llvm::ArrayRef<int64_t> ShapeOf(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType()).getShape();
}

double DotFlops(hlo::DotGeneralOp dot) {
  llvm::ArrayRef<int64_t> lhs = ShapeOf(dot.getLhs());
  double contracted = 1;
  for (int64_t dim : dot.getDotDimensionNumbers().getLhsContract()) {
    contracted *= static_cast<double>(lhs[dim]);
  }
  return 2 * Elements(dot.getResult()) * contracted;
}

double ConvolutionFlops(hlo::ConvolutionOp conv) {
  // Each output element sums over the kernel's spatial taps and its input features (the
  // features of the output's group), i.e. over the kernel's elements per output feature.
  llvm::ArrayRef<int64_t> kernel = ShapeOf(conv.getRhs());
  double output_features =
      static_cast<double>(kernel[conv.getDimensionNumbers().getKernelOutputFeatureDimension()]);
  if (output_features == 0) return 0;
  return 2 * Elements(conv.getResult()) * (Product(kernel) / output_features);
}

double SortFlops(hlo::SortOp sort) {
  mlir::Value first = sort.getInputs().front();
  double size = static_cast<double>(ShapeOf(first)[sort.getDimension()]);
  double comparisons_per_element = size > 1 ? std::ceil(std::log2(size)) : 0;
  return Elements(first) * comparisons_per_element;
}

// Flops of ops that do arithmetic; 0 for the rest.
double Flops(mlir::Operation* op) {
  if (op->hasTrait<mlir::OpTrait::Elementwise>() ||
      llvm::isa<hlo::SelectOp, hlo::ClampOp>(op)) {
    return Elements(op->getResult(0));
  }
  if (auto dot = llvm::dyn_cast<hlo::DotGeneralOp>(op)) return DotFlops(dot);
  if (auto conv = llvm::dyn_cast<hlo::ConvolutionOp>(op)) return ConvolutionFlops(conv);
  if (auto reduce = llvm::dyn_cast<hlo::ReduceOp>(op)) return Elements(reduce.getInputs());
  if (auto window = llvm::dyn_cast<hlo::ReduceWindowOp>(op)) {
    return Elements(window.getResults()) * Product(window.getWindowDimensions());
  }
  if (auto select = llvm::dyn_cast<hlo::SelectAndScatterOp>(op)) {
    return Elements(select.getSource()) * (Product(select.getWindowDimensions()) + 1);
  }
  if (auto sort = llvm::dyn_cast<hlo::SortOp>(op)) return SortFlops(sort);
  if (auto scatter = llvm::dyn_cast<hlo::ScatterOp>(op)) return Elements(scatter.getUpdates());
  return 0;
}

// Ops that cost nothing by themselves (see op_cost.h for why each is free).
bool IsFree(mlir::Operation* op) {
  return op->hasTrait<mlir::OpTrait::IsTerminator>() ||
         llvm::isa<hlo::ConstantOp, hlo::ReshapeOp, hlo::WhileOp, hlo::CaseOp,
                   mlir::func::CallOp, ir::PartitionIdOp, ir::ShardingConstraintOp,
                   ir::ReshardOp, ir::ManualComputationOp, ir::AllReduceOp, ir::AllGatherOp,
                   ir::ReduceScatterOp, ir::AllToAllOp, ir::CollectivePermuteOp>(op);
}

double Bytes(mlir::Operation* op) {
  if (auto update = llvm::dyn_cast<hlo::DynamicUpdateSliceOp>(op)) {
    // In place: the update is read and written into the operand's buffer.
    return 2 * static_cast<double>(TensorBytes(update.getUpdate().getType())) +
           static_cast<double>(TotalBytes(update.getStartIndices()));
  }
  double results = static_cast<double>(TotalBytes(op->getResults()));
  if (llvm::isa<hlo::IotaOp>(op)) return results;
  // A slice reads only the elements it returns (and a dynamic one its start indices): a
  // scan's per-trip slice of a stacked weight costs the layer, not the stack.
  if (auto slice = llvm::dyn_cast<hlo::DynamicSliceOp>(op)) {
    return 2 * results + static_cast<double>(TotalBytes(slice.getStartIndices()));
  }
  if (llvm::isa<hlo::SliceOp>(op)) return 2 * results;
  return static_cast<double>(TotalBytes(op->getOperands())) + results;
}

}  // namespace

OpCost EstimateOpCost(mlir::Operation* op) {
  if (IsFree(op)) return OpCost();
  OpCost cost;
  cost.flops = Flops(op);
  cost.bytes = Bytes(op);
  return cost;
}

double OpSeconds(const OpCost& cost, const HardwareSpec& spec) {
  return std::max(cost.flops / spec.flops_per_second(),
                  cost.bytes / spec.memory_bandwidth_bytes_per_second());
}

}  // namespace tessel::cost_model
