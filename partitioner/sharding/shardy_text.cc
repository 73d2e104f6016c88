// Reading Shardy's sharding strings from HLO frontend attributes (shardy_text.h).
#include "partitioner/sharding/shardy_text.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "llvm/ADT/STLExtras.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/mlir_conversion.h"

namespace tessel::sharding {
namespace {

// `attribute` parsed by MLIR's attribute parser, with what it would report kept in the status
// rather than sent to the context's handlers (the caller knows where the text came from).
absl::StatusOr<mlir::Attribute> ParseQuietly(mlir::MLIRContext* context,
                                             const std::string& attribute) {
  std::string problem;
  mlir::Attribute attr;
  {
    mlir::ScopedDiagnosticHandler handler(context, [&](mlir::Diagnostic& diagnostic) {
      if (problem.empty()) problem = diagnostic.str();
      return mlir::success();
    });
    size_t read = 0;
    attr = mlir::parseAttribute(attribute, context, mlir::Type(), &read);
    if (attr && read != attribute.size()) {
      attr = nullptr;
      problem = "unexpected text after the sharding";
    }
  }
  if (!attr) return absl::InvalidArgumentError(problem.empty() ? "does not parse" : problem);
  return attr;
}

// A tiled sharding that splits no data dim and only replicates is `{replicated}`.
HloSharding::Kind EffectiveKind(const HloSharding& sharding) {
  if (sharding.kind() != HloSharding::Kind::kTiled) return sharding.kind();
  const std::vector<int64_t>& dims = sharding.tile_assignment().dims();
  for (int64_t i = 0; i < sharding.TiledDataRank(); ++i) {
    if (dims[i] != 1) return HloSharding::Kind::kTiled;
  }
  for (SubgroupType type : sharding.subgroup_types()) {
    if (type != SubgroupType::kReplicated) return HloSharding::Kind::kTiled;
  }
  return HloSharding::Kind::kReplicated;
}

}  // namespace

absl::StatusOr<std::vector<ir::ShardingAttr>> ParseShardyShardings(mlir::MLIRContext* context,
                                                                   llvm::StringRef text) {
  llvm::StringRef body = text.trim();
  std::vector<ir::ShardingAttr> shardings;
  if (body.consume_front("#sdy.sharding_per_value<") && body.consume_back(">")) {
    absl::StatusOr<mlir::Attribute> attr =
        ParseQuietly(context, ("#tessel.sharding_per_value<" + body + ">").str());
    if (!attr.ok()) return attr.status();
    auto perValue = llvm::dyn_cast<ir::ShardingPerValueAttr>(*attr);
    if (!perValue) return absl::InvalidArgumentError("is not a list of shardings");
    for (ir::ShardingAttr sharding : perValue.getShardings()) shardings.push_back(sharding);
    return shardings;
  }
  body = text.trim();
  if (body.consume_front("#sdy.sharding<") && body.consume_back(">")) {
    absl::StatusOr<mlir::Attribute> attr =
        ParseQuietly(context, ("#tessel.sharding<" + body + ">").str());
    if (!attr.ok()) return attr.status();
    auto sharding = llvm::dyn_cast<ir::ShardingAttr>(*attr);
    if (!sharding) return absl::InvalidArgumentError("is not a sharding");
    shardings.push_back(sharding);
    return shardings;
  }
  return absl::InvalidArgumentError(
      "is neither '#sdy.sharding<...>' nor '#sdy.sharding_per_value<[...]>'");
}

absl::StatusOr<HloSharding> ShardyShardingToHlo(const Mesh& mesh, ir::ShardingAttr sharding) {
  return MeshShardingToHlo(mesh, TensorShardingFromAttr(sharding));
}

bool SamePlacement(const HloSharding& a, const HloSharding& b) {
  const HloSharding::Kind kind = EffectiveKind(a);
  if (kind != EffectiveKind(b)) return false;
  switch (kind) {
    case HloSharding::Kind::kMaximal:
      return a.device() == b.device();
    case HloSharding::Kind::kTiled:
      return a.tile_assignment().dims() == b.tile_assignment().dims() &&
             a.subgroup_types() == b.subgroup_types() &&
             a.tile_assignment().Devices() == b.tile_assignment().Devices();
    case HloSharding::Kind::kTuple:
      return a == b;
    default:
      return true;
  }
}

}  // namespace tessel::sharding
