// Fuzz target: the sharding text readers (partitioner/sharding/). The same bytes go to each:
// GSPMD's HLO text form, Shardy's sharding attributes (read by the tessel dialect's attribute
// parser) and Shardy's mesh dictionaries. What a reader accepts must survive the round trips
// Tessel relies on.
#include <algorithm>
#include <string>
#include <vector>

#include "llvm/ADT/StringRef.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/sharding/conversion.h"
#include "partitioner/sharding/declared_axes.h"
#include "partitioner/sharding/hlo_sharding.h"
#include "partitioner/sharding/mesh.h"
#include "partitioner/sharding/shardy_text.h"
#include "tests/fuzz/fuzz_targets.h"

namespace tessel::fuzz {
namespace {

using sharding::HloSharding;

// Conversions of shardings over more devices than this are skipped: they are correct or not
// the same way at 4096 devices, and each input must stay fast.
constexpr int64_t kMaxDevices = 4096;

[[noreturn]] void ShardingFinding(const std::string& what, const HloSharding& sharding) {
  Finding("sharding_text", (what + ": " + sharding.ToString()).c_str());
}

// A non-tuple GSPMD sharding imported as a mesh sharding and exported again must place the
// same tiles on the same devices: that is what lets Tessel read and write XLA's shardings.
void CheckMeshRoundTrip(const HloSharding& leaf) {
  int64_t rank = 2, devices = 8;
  switch (leaf.kind()) {
    case HloSharding::Kind::kTiled:
      rank = leaf.TiledDataRank();
      devices = leaf.tile_assignment().NumDevices();
      break;
    case HloSharding::Kind::kMaximal:
      devices = leaf.device() + 1;
      break;
    default:
      break;
  }
  if (devices > kMaxDevices) return;
  absl::StatusOr<sharding::MeshShardingImport> imported =
      sharding::HloShardingToMesh(leaf, rank, devices);
  if (!imported.ok()) ShardingFinding("a parsed sharding does not import", leaf);
  const sharding::ImportedSharding& one = imported->shardings.at(0);
  const sharding::Mesh* mesh = imported->FindMesh(one.sharding.mesh_name);
  if (mesh == nullptr) ShardingFinding("an imported sharding names no imported mesh", leaf);
  absl::StatusOr<HloSharding> back = sharding::MeshShardingToHlo(*mesh, one.sharding, one.manual_axes);
  if (!back.ok()) ShardingFinding("an imported sharding does not export", leaf);
  if (!sharding::SamePlacement(leaf, *back)) {
    ShardingFinding("import and export moved tiles, now " + back->ToString(), leaf);
  }
}

void CheckGspmd(llvm::StringRef text) {
  absl::StatusOr<HloSharding> parsed = HloSharding::Parse(absl::string_view(text.data(), text.size()));
  if (!parsed.ok()) return;
  absl::StatusOr<HloSharding> reparsed = HloSharding::Parse(parsed->ToString());
  if (!reparsed.ok()) ShardingFinding("printed text does not parse", *parsed);
  if (*reparsed != *parsed) ShardingFinding("print and parse changed it", *parsed);
  if (parsed->IsTuple()) {
    for (const HloSharding& leaf : parsed->tuple_elements()) CheckMeshRoundTrip(leaf);
  } else {
    CheckMeshRoundTrip(*parsed);
  }
}

void CheckShardy(llvm::StringRef text) {
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.loadDialect<ir::TesselDialect>();
  // The parser reports through diagnostics as well as its status; keep them off stderr.
  mlir::ScopedDiagnosticHandler quiet(&context, [](mlir::Diagnostic&) { return mlir::success(); });
  absl::StatusOr<std::vector<ir::ShardingAttr>> shardings =
      sharding::ParseShardyShardings(&context, text);
  if (!shardings.ok()) return;
  absl::StatusOr<sharding::Mesh> mesh = sharding::Mesh::Create({{"data", 4}, {"model", 2}});
  for (ir::ShardingAttr attr : *shardings) {
    absl::StatusOr<HloSharding> gspmd = sharding::ShardyShardingToHlo(*mesh, attr);
    if (gspmd.ok()) CheckMeshRoundTrip(*gspmd);
  }
}

void CheckShardyMeshes(llvm::StringRef text) {
  absl::StatusOr<std::vector<sharding::DeclaredMesh>> meshes =
      sharding::ParseShardyMeshes(text.str());
  if (!meshes.ok()) return;
  for (const sharding::DeclaredMesh& declared : *meshes) {
    if (!declared.mesh.Validate().ok()) continue;  // read as written; judged by the caller
    // NumDevices of a valid mesh must not overflow, and the ids must be usable.
    const int64_t devices = declared.mesh.NumDevices();
    if (devices < 1) Finding("sharding_text", "a valid mesh has no devices");
    if (devices <= kMaxDevices) declared.mesh.DeviceId(devices - 1);
  }
}

}  // namespace

int FuzzShardingText(const uint8_t* data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char*>(data), size);
  CheckGspmd(text);
  CheckShardy(text);
  CheckShardyMeshes(text);
  return 0;
}

}  // namespace tessel::fuzz
