// --tessel-import-sharding-groups: the two ways JAX writes shard_alike, as
// tessel.sharding_group (passes.td has the contract).
#include <map>
#include <string>
#include <utility>

#include "llvm/ADT/SetVector.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/ir/gspmd_sharding_attr.h"
#include "partitioner/ir/hlo/hlo_ops.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/transforms/passes.h"

namespace tessel::sharding {

#define GEN_PASS_DEF_IMPORTSHARDINGGROUPSPASS
#include "partitioner/sharding/transforms/passes.h.inc"

namespace {

constexpr llvm::StringLiteral kHloShardingAttr = ir::kGspmdShardingAttr;
constexpr llvm::StringLiteral kFrontendAttrs = "tessel.hlo_frontend_attributes";

// Which source wrote the group: the id spaces are separate.
enum class GroupKind { kShardy, kShardAs, kShardLike };

struct Member {
  mlir::Value value;
  mlir::Location loc;
};

// The group a GSPMD sharding string names, and the string without it.
struct GspmdGroup {
  GroupKind kind;
  int64_t id;
  std::string rest;  // "" when only `unknown` is left: no sharding
};

// `{... shard_as N}` or `{... shard_like N}` (not a tuple sharding); nullopt otherwise.
std::optional<GspmdGroup> ParseGspmdGroup(llvm::StringRef text) {
  llvm::StringRef body = text.trim();
  if (!body.consume_front("{") || !body.consume_back("}") || body.contains('{')) {
    return std::nullopt;
  }
  for (auto [keyword, kind] : {std::pair{llvm::StringLiteral("shard_as"), GroupKind::kShardAs},
                               std::pair{llvm::StringLiteral("shard_like"),
                                         GroupKind::kShardLike}}) {
    size_t at = body.find(keyword);
    if (at == llvm::StringRef::npos) continue;
    llvm::StringRef number = body.drop_front(at + keyword.size()).trim();
    int64_t id = 0;
    if (number.getAsInteger(10, id)) return std::nullopt;
    llvm::StringRef before = body.take_front(at).trim();
    std::string rest = before == "unknown" || before.empty() ? "" : "{" + before.str() + "}";
    return GspmdGroup{kind, id, rest};
  }
  return std::nullopt;
}

bool isCustomCall(mlir::Operation* op, llvm::StringRef target) {
  auto call = llvm::dyn_cast<hlo::CustomCallOp>(op);
  return call && call.getCallTargetName() == target;
}

class ImportShardingGroupsPass
    : public impl::ImportShardingGroupsPassBase<ImportShardingGroupsPass> {
 public:
  void runOnOperation() override {
    std::map<std::pair<GroupKind, int64_t>, llvm::SmallVector<Member>> groups;
    llvm::SmallVector<mlir::Operation*> erase;
    bool failed = false;
    getOperation().walk<mlir::WalkOrder::PreOrder>([&](mlir::Operation* op) {
      if (isCustomCall(op, "xla.sdy.ShardingGroup")) {
        auto attrs = op->getAttrOfType<mlir::DictionaryAttr>(kFrontendAttrs);
        auto idText = attrs ? attrs.getAs<mlir::StringAttr>("xla.sdy.sharding_group_id")
                            : nullptr;
        int64_t id = 0;
        // "0 : i64": the id, then its type.
        if (!idText || op->getNumOperands() != 1 ||
            idText.getValue().split(':').first.trim().getAsInteger(10, id)) {
          op->emitError() << "'xla.sdy.ShardingGroup' needs one operand and a frontend "
                             "attribute xla.sdy.sharding_group_id=\"N : i64\"";
          failed = true;
          return;
        }
        groups[{GroupKind::kShardy, id}].push_back({op->getOperand(0), op->getLoc()});
        erase.push_back(op);
        return;
      }
      if (auto function = llvm::dyn_cast<mlir::func::FuncOp>(op)) {
        for (unsigned i = 0; i < function.getNumArguments(); ++i) {
          auto text = function.getArgAttrOfType<mlir::StringAttr>(i, kHloShardingAttr);
          std::optional<GspmdGroup> group = text ? ParseGspmdGroup(text) : std::nullopt;
          if (!group) continue;
          groups[{group->kind, group->id}].push_back(
              {function.getArgument(i), function.getArgument(i).getLoc()});
          if (group->rest.empty()) {
            function.removeArgAttr(i, kHloShardingAttr);
          } else {
            function.setArgAttr(i, kHloShardingAttr,
                                mlir::StringAttr::get(op->getContext(), group->rest));
          }
        }
        return;
      }
      auto text = op->getAttrOfType<mlir::StringAttr>(kHloShardingAttr);
      if (!text) return;
      if (text.getValue().trim() == "{unknown}") {
        op->removeAttr(kHloShardingAttr);
      } else if (std::optional<GspmdGroup> group = ParseGspmdGroup(text)) {
        if (op->getNumResults() != 1) {
          op->emitError() << "a sharding with " << (group->kind == GroupKind::kShardAs
                                                        ? "shard_as"
                                                        : "shard_like")
                          << " needs an instruction of one result";
          failed = true;
          return;
        }
        groups[{group->kind, group->id}].push_back({op->getResult(0), op->getLoc()});
        if (group->rest.empty()) {
          op->removeAttr(kHloShardingAttr);
        } else {
          op->setAttr(kHloShardingAttr, mlir::StringAttr::get(op->getContext(), group->rest));
        }
      } else {
        return;
      }
      // A Sharding call that no longer says anything is its operand.
      if (isCustomCall(op, "Sharding") && !op->hasAttr(kHloShardingAttr) &&
          op->getNumOperands() == 1 && op->getNumResults() == 1 &&
          op->getOperand(0).getType() == op->getResult(0).getType()) {
        mlir::Value operand = op->getOperand(0);
        for (auto& [key, members] : groups) {
          for (Member& member : members) {
            if (member.value == op->getResult(0)) member.value = operand;
          }
        }
        op->getResult(0).replaceAllUsesWith(operand);
        erase.push_back(op);
      }
    });
    if (failed) return signalPassFailure();
    for (mlir::Operation* op : erase) op->erase();

    for (auto& [key, members] : groups) {
      llvm::SetVector<mlir::Value> values;
      mlir::Block* block = nullptr;
      for (Member& member : members) {
        mlir::Block* home = member.value.getParentBlock();
        if (block && home != block) {
          mlir::emitError(member.loc)
              << "sharding group " << key.second
              << " joins values of different blocks; its values must be in one block";
          return signalPassFailure();
        }
        block = home;
        auto shape = llvm::cast<mlir::ShapedType>(member.value.getType()).getShape();
        auto first = llvm::cast<mlir::ShapedType>(members.front().value.getType()).getShape();
        if (shape != first) {
          mlir::emitError(member.loc)
              << "sharding group " << key.second << " joins a value of type "
              << member.value.getType() << " to one of type " << members.front().value.getType()
              << "; only values of one shape can be sharded alike";
          return signalPassFailure();
        }
        values.insert(member.value);
      }
      mlir::OpBuilder builder(block, block->getTerminator()
                                         ? mlir::Block::iterator(block->getTerminator())
                                         : block->end());
      auto group = builder.create<ir::ShardingGroupOp>(
          members.front().loc, values.getArrayRef(), builder.getI64IntegerAttr(key.second));
      if (mlir::failed(mlir::verify(group))) return signalPassFailure();
    }
  }
};

}  // namespace

}  // namespace tessel::sharding
