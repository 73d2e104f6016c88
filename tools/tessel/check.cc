// The single-device vs partitioned comparison behind `tessel run --check`.
#include "tools/tessel/check.h"

#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"
#include "support/status_macros.h"
#include "tools/tessel/pipeline.h"

namespace tessel::cli {
namespace {

constexpr double kRelativeTolerance = 1e-4;
constexpr double kAbsoluteTolerance = 1e-5;

// Compares one result; on a mismatch returns a message naming the first differing element.
absl::Status Compare(const runtime::Tensor& got, const runtime::Tensor& want, size_t index,
                     std::ostream& out) {
  if (got.type() != want.type() || got.shape() != want.shape()) {
    return absl::FailedPreconditionError(absl::StrCat("result ", index, ": partitioned run gave ",
                                                      got.ShapeString(), ", expected ",
                                                      want.ShapeString()));
  }
  if (!runtime::IsFloat(want.type())) {
    if (!got.BitwiseEquals(want)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "result ", index, " differs: ", got.ToString(16), " vs ", want.ToString(16)));
    }
    out << "check: result " << index << " " << want.ShapeString() << " matches exactly\n";
    return absl::OkStatus();
  }
  double max_error = 0;
  absl::Status status;
  runtime::DispatchElementType(want.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool> && !std::is_integral_v<T>) {
      auto g = got.data<T>(), w = want.data<T>();
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
        if (std::isnan(a) && std::isnan(b)) continue;
        double error = std::abs(a - b);
        max_error = std::max(max_error, error);
        if (!(error <= kAbsoluteTolerance + kRelativeTolerance * std::abs(b)) && status.ok()) {
          status = absl::FailedPreconditionError(absl::StrCat(
              "result ", index, " element ", i, ": partitioned run gave ", a, ", expected ", b));
        }
      }
    }
  });
  if (status.ok()) {
    out << "check: result " << index << " " << want.ShapeString()
        << " matches (max abs difference " << max_error << ")\n";
  }
  return status;
}

}  // namespace

absl::Status CompareResults(const std::vector<runtime::Tensor>& got,
                            const std::vector<runtime::Tensor>& expected, std::ostream& out) {
  if (got.size() != expected.size()) {
    return absl::FailedPreconditionError(absl::StrCat("partitioned run gave ", got.size(),
                                                      " results, expected ", expected.size()));
  }
  for (size_t r = 0; r < expected.size(); ++r) {
    TESSEL_RETURN_IF_ERROR(Compare(got[r], expected[r], r, out));
  }
  return absl::OkStatus();
}

absl::Status CheckPartitioned(mlir::ModuleOp module, absl::string_view function_name,
                              const std::vector<runtime::Tensor>& inputs,
                              const std::vector<runtime::Tensor>& expected, std::ostream& out,
                              std::ostream& remarks) {
  mlir::OwningOpRef<mlir::ModuleOp> partitioned(module.clone());
  auto meshes = partitioned->getOps<ir::MeshOp>();
  if (meshes.empty()) {
    return absl::InvalidArgumentError("--check needs a program with a tessel.mesh to partition");
  }
  ir::MeshAttr mesh = (*meshes.begin()).getMesh();
  TESSEL_RETURN_IF_ERROR(PropagateAndPartition(*partitioned, remarks));
  auto function = partitioned->lookupSymbol<mlir::func::FuncOp>(
      llvm::StringRef(function_name.data(), function_name.size()));
  int64_t num_partitions = mesh.getTotalSize();

  std::vector<std::vector<runtime::Tensor>> per_partition(num_partitions);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto sharding = function.getArgAttrOfType<ir::ShardingAttr>(
        i, ir::TesselDialect::kShardingAttrName);
    for (int64_t p = 0; p < num_partitions; ++p) {
      TESSEL_ASSIGN_OR_RETURN(runtime::Tensor local,
                              runtime::ShardTensor(inputs[i], sharding, mesh, p));
      per_partition[p].push_back(std::move(local));
    }
  }
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::vector<runtime::Tensor>> results,
                          runtime::RunSpmd(function, per_partition, num_partitions));
  out << "check: ran the partitioned program on " << num_partitions << " partitions\n";
  std::vector<runtime::Tensor> assembled;
  for (size_t r = 0; r < expected.size(); ++r) {
    auto sharding = function.getResultAttrOfType<ir::ShardingAttr>(
        r, ir::TesselDialect::kShardingAttrName);
    std::vector<runtime::Tensor> locals;
    for (int64_t p = 0; p < num_partitions; ++p) locals.push_back(results[p][r]);
    TESSEL_ASSIGN_OR_RETURN(
        runtime::Tensor whole,
        runtime::AssembleTensor(locals, sharding, mesh, expected[r].shape()));
    assembled.push_back(std::move(whole));
  }
  return CompareResults(assembled, expected, out);
}

}  // namespace tessel::cli
