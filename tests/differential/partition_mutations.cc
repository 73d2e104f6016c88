// Breaking partitioned programs in known ways (see partition_mutations.h).
#include "tests/differential/partition_mutations.h"

#include <functional>
#include <utility>

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"

namespace tessel::testing {
namespace {

// One place a mutation can be made, and how to make it there.
using Site = std::function<void()>;

bool DependsOnPartition(mlir::Value value, llvm::DenseMap<mlir::Value, bool>& memo) {
  auto found = memo.find(value);
  if (found != memo.end()) return found->second;
  memo[value] = false;  // cycles (loop-carried values) end here
  mlir::Operation* def = value.getDefiningOp();
  bool depends = false;
  if (def) {
    if (llvm::isa<ir::PartitionIdOp>(def)) {
      depends = true;
    } else {
      for (mlir::Value operand : def->getOperands()) {
        if (DependsOnPartition(operand, memo)) {
          depends = true;
          break;
        }
      }
    }
  }
  memo[value] = depends;
  return depends;
}

// `op`'s result takes `type`, and a reshape back to the old type feeds its users.
void RetypeAndReshapeBack(mlir::Operation* op, mlir::RankedTensorType type) {
  mlir::Value result = op->getResult(0);
  auto old = llvm::cast<mlir::RankedTensorType>(result.getType());
  result.setType(type);
  mlir::OpBuilder b(op->getContext());
  b.setInsertionPointAfter(op);
  auto back = b.create<hlo::ReshapeOp>(op->getLoc(), old, result);
  result.replaceAllUsesExcept(back, back);
}

ir::MeshAttr MeshOf(mlir::ModuleOp module, mlir::Operation* op) {
  auto name = op->getAttrOfType<mlir::FlatSymbolRefAttr>("mesh_name");
  if (!name) return {};
  auto mesh = module.lookupSymbol<ir::MeshOp>(name.getValue());
  return mesh ? mesh.getMesh() : ir::MeshAttr();
}

std::vector<ir::AxisRefAttr> AxesOf(mlir::Operation* op) {
  std::vector<ir::AxisRefAttr> axes;
  if (auto array = op->getAttrOfType<mlir::ArrayAttr>("axes")) {
    for (mlir::Attribute a : array) axes.push_back(llvm::cast<ir::AxisRefAttr>(a));
  }
  return axes;
}

std::vector<Site> Sites(mlir::ModuleOp module, Mutation mutation) {
  std::vector<Site> sites;
  llvm::DenseMap<mlir::Value, bool> memo;
  module.walk([&](mlir::Operation* op) {
    switch (mutation) {
      case Mutation::kDropCollective:
        if (llvm::isa<ir::AllReduceOp, ir::CollectivePermuteOp>(op)) {
          sites.push_back([op] {
            op->getResult(0).replaceAllUsesWith(op->getOperand(0));
            op->erase();
          });
        }
        break;
      case Mutation::kShiftOffset: {
        unsigned first = llvm::isa<hlo::DynamicSliceOp>(op)         ? 1
                         : llvm::isa<hlo::DynamicUpdateSliceOp>(op) ? 2
                                                                    : 0;
        if (first == 0) break;
        auto operand = llvm::cast<mlir::RankedTensorType>(op->getOperand(0).getType());
        auto window = llvm::cast<mlir::RankedTensorType>(
            first == 1 ? op->getResult(0).getType() : op->getOperand(1).getType());
        for (unsigned i = first; i < op->getNumOperands(); ++i) {
          const int64_t dim = i - first;
          // A start that cannot move (the window covers the dimension) shifts nothing.
          if (operand.getDimSize(dim) <= window.getDimSize(dim)) continue;
          if (!DependsOnPartition(op->getOperand(i), memo)) continue;
          sites.push_back([op, i] {
            mlir::OpBuilder b(op);
            mlir::Value start = op->getOperand(i);
            auto type = llvm::cast<mlir::RankedTensorType>(start.getType());
            mlir::Value one = b.create<hlo::ConstantOp>(
                op->getLoc(), type,
                mlir::DenseElementsAttr::get(type,
                                             b.getIntegerAttr(type.getElementType(), 1)));
            op->setOperand(i, b.create<hlo::AddOp>(op->getLoc(), type, start, one));
          });
        }
        break;
      }
      case Mutation::kSkipMask:
        if (llvm::isa<hlo::SelectOp>(op) && DependsOnPartition(op->getOperand(0), memo)) {
          sites.push_back([op] {
            op->getResult(0).replaceAllUsesWith(op->getOperand(1));
            op->erase();
          });
        }
        break;
      case Mutation::kWrongAxes: {
        if (!llvm::isa<ir::AllReduceOp, ir::ReduceScatterOp>(op)) break;
        ir::MeshAttr mesh = MeshOf(module, op);
        if (!mesh) break;
        std::vector<ir::AxisRefAttr> axes = AxesOf(op);
        const int64_t group = ir::getGroupSize(mesh, axes);
        for (ir::MeshAxisAttr axis : mesh.getAxes()) {
          if (axis.getSize() < 2) continue;
          bool used = false;
          for (ir::AxisRefAttr a : axes) used |= a.getName() == axis.getName();
          if (used) continue;
          // A reduce_scatter's result size depends on its group's size: keep it.
          if (llvm::isa<ir::ReduceScatterOp>(op) && axis.getSize() != group) continue;
          mlir::Attribute replacement = mlir::ArrayAttr::get(
              op->getContext(), {ir::AxisRefAttr::get(op->getContext(), axis.getName())});
          sites.push_back([op, replacement] { op->setAttr("axes", replacement); });
        }
        break;
      }
      case Mutation::kWrongDim: {
        if (!llvm::isa<ir::AllToAllOp, ir::AllGatherOp>(op)) break;
        auto operand = llvm::dyn_cast<mlir::RankedTensorType>(op->getOperand(0).getType());
        if (!operand) break;
        ir::MeshAttr mesh = MeshOf(module, op);
        if (!mesh) break;
        const int64_t group = ir::getGroupSize(mesh, AxesOf(op));
        if (llvm::isa<ir::AllToAllOp>(op)) {
          const int64_t split = op->getAttrOfType<mlir::IntegerAttr>("split_dim").getInt();
          const int64_t concat = op->getAttrOfType<mlir::IntegerAttr>("concat_dim").getInt();
          if (split == concat || operand.getDimSize(concat) % group != 0) break;
          sites.push_back([op, operand, split, concat, group] {
            llvm::SmallVector<int64_t> shape(operand.getShape());
            shape[concat] /= group;
            shape[split] *= group;
            mlir::Builder b(op->getContext());
            op->setAttr("split_dim", b.getI64IntegerAttr(concat));
            op->setAttr("concat_dim", b.getI64IntegerAttr(split));
            RetypeAndReshapeBack(op, operand.clone(shape));
          });
        } else if (llvm::isa<ir::AllGatherOp>(op) && operand.getRank() > 1) {
          const int64_t dim = op->getAttrOfType<mlir::IntegerAttr>("dim").getInt();
          const int64_t other = (dim + 1) % operand.getRank();
          sites.push_back([op, operand, other, group] {
            llvm::SmallVector<int64_t> shape(operand.getShape());
            shape[other] *= group;
            op->setAttr("dim", mlir::Builder(op->getContext()).getI64IntegerAttr(other));
            RetypeAndReshapeBack(op, operand.clone(shape));
          });
        }
        break;
      }
    }
  });
  return sites;
}

}  // namespace

const std::vector<Mutation>& AllMutations() {
  static const std::vector<Mutation> kAll = {Mutation::kDropCollective, Mutation::kShiftOffset,
                                             Mutation::kSkipMask, Mutation::kWrongAxes,
                                             Mutation::kWrongDim};
  return kAll;
}

std::string MutationName(Mutation mutation) {
  switch (mutation) {
    case Mutation::kDropCollective: return "drop-collective";
    case Mutation::kShiftOffset: return "shift-offset";
    case Mutation::kSkipMask: return "skip-mask";
    case Mutation::kWrongAxes: return "wrong-axes";
    case Mutation::kWrongDim: return "wrong-dim";
  }
  return "";
}

std::optional<Mutation> ParseMutation(const std::string& name) {
  for (Mutation m : AllMutations()) {
    if (MutationName(m) == name) return m;
  }
  return std::nullopt;
}

bool MutatePartitioned(mlir::ModuleOp module, Mutation mutation, uint64_t seed) {
  std::vector<Site> sites = Sites(module, mutation);
  if (sites.empty()) return false;
  // A splitmix step spreads nearby seeds over the sites.
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  sites[z % sites.size()]();
  return true;
}

}  // namespace tessel::testing
