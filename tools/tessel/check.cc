// The single-device vs partitioned comparison behind `tessel run --check`.
#include "tools/tessel/check.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/api/tensor_compare.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"
#include "support/status_macros.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"

namespace tessel::cli {
namespace {

constexpr int64_t kMaxCheckPartitions = 1024;

// Compares one result and prints a line; a mismatch names the first differing element.
absl::Status Compare(const runtime::Tensor& got, const runtime::Tensor& want, size_t index,
                     std::ostream& out, const CheckTolerance& tolerance) {
  TensorComparison comparison = CompareTensors(got, want, tolerance.rtol, tolerance.atol);
  if (!comparison.matches) {
    return absl::FailedPreconditionError(
        absl::StrCat("result ", index, " of the partitioned run: ", comparison.mismatch));
  }
  out << "check: result " << index << " " << want.ShapeString();
  if (comparison.exact) {
    out << " matches exactly\n";
  } else {
    out << " matches (max abs difference " << comparison.max_abs_difference << "; tolerance "
        << comparison.absolute_bound << " + " << tolerance.rtol << " * |expected|)\n";
  }
  return absl::OkStatus();
}

std::vector<runtime::Shape> ShapesOf(const std::vector<runtime::Tensor>& tensors) {
  std::vector<runtime::Shape> shapes;
  for (const runtime::Tensor& tensor : tensors) shapes.push_back(tensor.shape());
  return shapes;
}

}  // namespace

absl::StatusOr<std::vector<runtime::Tensor>> RunOnPartitions(
    mlir::ModuleOp module, mlir::func::FuncOp function, int64_t num_partitions,
    const std::vector<runtime::Tensor>& inputs, const std::vector<runtime::Shape>& result_shapes,
    const runtime::RunLimits& limits) {
  if (inputs.size() != function.getNumArguments()) {
    return absl::InvalidArgumentError(absl::StrCat("the partitioned function takes ",
                                                   function.getNumArguments(), " arguments, got ",
                                                   inputs.size()));
  }
  if (result_shapes.size() != function.getNumResults()) {
    return absl::InvalidArgumentError(absl::StrCat("the partitioned function has ",
                                                   function.getNumResults(), " results, expected ",
                                                   result_shapes.size()));
  }
  std::vector<std::vector<runtime::Tensor>> per_partition(num_partitions);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto sharding =
        function.getArgAttrOfType<ir::ShardingAttr>(i, ir::TesselDialect::kShardingAttrName);
    TESSEL_ASSIGN_OR_RETURN(ir::MeshAttr own_mesh, runtime::MeshOfSharding(module, sharding));
    for (int64_t p = 0; p < num_partitions; ++p) {
      TESSEL_ASSIGN_OR_RETURN(runtime::Tensor local,
                              runtime::ShardTensor(inputs[i], sharding, own_mesh, p));
      per_partition[p].push_back(std::move(local));
    }
  }
  runtime::SpmdOptions spmd;
  spmd.limits = limits;
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::vector<runtime::Tensor>> results,
                          runtime::RunSpmd(function, per_partition, num_partitions, spmd));
  std::vector<runtime::Tensor> assembled;
  for (size_t r = 0; r < result_shapes.size(); ++r) {
    auto sharding =
        function.getResultAttrOfType<ir::ShardingAttr>(r, ir::TesselDialect::kShardingAttrName);
    std::vector<runtime::Tensor> locals;
    for (int64_t p = 0; p < num_partitions; ++p) locals.push_back(results[p][r]);
    TESSEL_ASSIGN_OR_RETURN(ir::MeshAttr own_mesh, runtime::MeshOfSharding(module, sharding));
    TESSEL_ASSIGN_OR_RETURN(runtime::Tensor whole,
                            runtime::AssembleTensor(locals, sharding, own_mesh, result_shapes[r]));
    assembled.push_back(std::move(whole));
  }
  return assembled;
}

absl::Status CompareResults(const std::vector<runtime::Tensor>& got,
                            const std::vector<runtime::Tensor>& expected, std::ostream& out,
                            const CheckTolerance& tolerance) {
  if (got.size() != expected.size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("partitioned run gave ", got.size(), " results, expected ", expected.size()));
  }
  for (size_t r = 0; r < expected.size(); ++r) {
    TESSEL_RETURN_IF_ERROR(Compare(got[r], expected[r], r, out, tolerance));
  }
  return absl::OkStatus();
}

absl::Status RequireReferenceToCheck(const std::string& file, bool check, bool marked,
                                     const std::string& reference) {
  if (!check || !marked || !reference.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat(
      file,
      " is already partitioned: --check needs --reference=SOURCE, the program it was "
      "partitioned from, to compare with"));
}

absl::StatusOr<std::vector<runtime::Tensor>> RunReference(
    const std::string& reference, const std::string& file, const std::string& function_name,
    const ir::PartitionedSignature& mark, const std::vector<runtime::Tensor>& inputs,
    mlir::MLIRContext& context, const runtime::RunLimits& limits) {
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          LoadProgram(reference, context));
  TESSEL_ASSIGN_OR_RETURN(mlir::func::FuncOp source,
                          FindFunction(*module, function_name, reference));
  if (LooksPartitioned(*module)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--reference=", reference, " is partitioned too; give the program before partitioning"));
  }
  if (llvm::ArrayRef<mlir::Type>(source.getArgumentTypes()) !=
          llvm::ArrayRef<mlir::Type>(mark.parameter_types) ||
      llvm::ArrayRef<mlir::Type>(source.getResultTypes()) !=
          llvm::ArrayRef<mlir::Type>(mark.result_types)) {
    return absl::InvalidArgumentError(absl::StrCat("--reference=", reference, ": @",
                                                   function_name,
                                                   " does not have the global signature ", file,
                                                   " was partitioned from"));
  }
  runtime::Interpreter interpreter(runtime::DefaultKernelRegistry(), runtime::PartitionContext{},
                                   limits);
  return interpreter.RunFunction(source, inputs);
}

absl::Status CheckPartitioned(mlir::ModuleOp module, absl::string_view function_name,
                              const std::vector<runtime::Tensor>& inputs,
                              const std::vector<runtime::Tensor>& expected, std::ostream& out,
                              std::ostream& remarks, const PipelineOptions& pipeline,
                              const CheckTolerance& tolerance, const runtime::RunLimits& limits,
                              Progress* progress) {
  mlir::OwningOpRef<mlir::ModuleOp> partitioned(module.clone());
  auto meshes = partitioned->getOps<ir::MeshOp>();
  if (meshes.empty()) {
    return absl::InvalidArgumentError("--check needs a program with a tessel.mesh to partition");
  }
  // Every mesh indexes the same devices; a one-device mesh of a value placed on device 3
  // needs four of them, whatever the first mesh holds.
  const int64_t num_partitions = ir::ModuleDeviceCount(*partitioned);
  // One thread per device, each with its copy of the inputs: as for --partitions, a mesh
  // beyond what one process can run is refused up front.
  if (num_partitions > kMaxCheckPartitions) {
    return absl::InvalidArgumentError(
        absl::StrCat("--check runs one local partition (thread) per mesh device; the mesh has ",
                     num_partitions, " devices, more than ", kMaxCheckPartitions,
                     " (use --backend=mpi to spread them over processes)"));
  }
  if (progress) progress->Stage("partitioning");
  TESSEL_RETURN_IF_ERROR(PropagateAndPartition(*partitioned, remarks, pipeline));
  if (progress) progress->Stage("running the partitioned program", num_partitions);
  auto function = partitioned->lookupSymbol<mlir::func::FuncOp>(
      llvm::StringRef(function_name.data(), function_name.size()));
  TESSEL_ASSIGN_OR_RETURN(
      std::vector<runtime::Tensor> assembled,
      RunOnPartitions(*partitioned, function, num_partitions, inputs, ShapesOf(expected), limits));
  if (progress) progress->Done();
  out << "check: ran the partitioned program on " << num_partitions << " partitions\n";
  return CompareResults(assembled, expected, out, tolerance);
}

}  // namespace tessel::cli
