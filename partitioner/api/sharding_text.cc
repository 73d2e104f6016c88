// Sharding::Parse: a sharding from its printed form, Shardy's `#sdy.sharding<...>` or
// Tessel's `#tessel.sharding<...>`, on a given mesh.
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/api/sharding.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/sharding/shardy_text.h"
#include "support/status_macros.h"

namespace tessel {

absl::StatusOr<Sharding> Sharding::Parse(Mesh mesh, absl::string_view text) {
  absl::string_view body = absl::StripAsciiWhitespace(text);
  // The bodies of both forms have one syntax; Shardy's reader takes either.
  std::string shardy(body);
  if (absl::ConsumePrefix(&body, "#tessel.sharding<")) {
    shardy = absl::StrCat("#sdy.sharding<", body);
  }
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  absl::StatusOr<std::vector<ir::ShardingAttr>> parsed =
      sharding::ParseShardyShardings(&context, api_internal::ToStringRef(shardy));
  if (!parsed.ok() || parsed->size() != 1 || !absl::StartsWith(shardy, "#sdy.sharding<")) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a sharding: ",
        parsed.ok() ? "expected '#sdy.sharding<@mesh, [...]>' or '#tessel.sharding<...>'"
                    : parsed.status().message()));
  }
  ir::ShardingAttr attr = parsed->front();
  if (attr.getMeshName().getValue() != api_internal::ToStringRef(mesh.name())) {
    return absl::InvalidArgumentError(absl::StrCat("'", text, "' names mesh @",
                                                   attr.getMeshName().getValue().str(),
                                                   " but the mesh is @", mesh.name()));
  }
  absl::StatusOr<Sharding> sharding = api_internal::FromShardingAttr(attr, mesh);
  if (!sharding.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "': ", sharding.status().message()));
  }
  return sharding;
}

}  // namespace tessel
