// Run(): the interpreter for single-device programs, one interpreter per device (RunSpmd)
// with the inputs cut and the results assembled for partitioned ones.
#include "partitioner/api/run.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "partitioner/api/host_tensor_access.h"
#include "partitioner/api/mlir_conversion.h"
#include "partitioner/api/program_mlir.h"
#include "partitioner/ir/tessel/sharding_verification.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/run_limits.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"
#include "support/status_macros.h"

namespace tessel {
namespace {

std::string TypeString(const HostTensor& tensor) { return tensor.ShapeString(); }

absl::Status CheckInputs(const Program& program, const std::vector<HostTensor>& inputs) {
  const std::vector<TensorType>& types = program.global_parameter_types();
  if (inputs.size() != types.size()) {
    return absl::InvalidArgumentError(absl::StrCat("the program takes ", types.size(),
                                                   " inputs but ", inputs.size(), " were given"));
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].element_type() != types[i].element_type() ||
        inputs[i].shape() != types[i].dimensions()) {
      return absl::InvalidArgumentError(absl::StrCat("input ", i, " is ", TypeString(inputs[i]),
                                                     " but parameter ", i, " is ",
                                                     types[i].ToString()));
    }
  }
  return absl::OkStatus();
}

std::vector<HostTensor> ToHost(std::vector<runtime::Tensor> tensors) {
  std::vector<HostTensor> host;
  host.reserve(tensors.size());
  for (runtime::Tensor& tensor : tensors) {
    host.push_back(HostTensorAccess::FromRuntime(std::move(tensor)));
  }
  return host;
}

absl::StatusOr<std::vector<HostTensor>> RunPartitioned(const Program& program,
                                                       mlir::func::FuncOp entry,
                                                       const std::vector<HostTensor>& inputs,
                                                       const RunOptions& options,
                                                       const runtime::RunLimits& limits) {
  mlir::ModuleOp module = GetMlirModule(program);
  int64_t num_partitions = program.num_partitions();
  auto sharding_key = ir::TesselDialect::kShardingAttrName;
  std::vector<std::vector<runtime::Tensor>> per_partition(num_partitions);
  for (size_t i = 0; i < inputs.size(); ++i) {
    auto sharding = entry.getArgAttrOfType<ir::ShardingAttr>(i, sharding_key);
    TESSEL_ASSIGN_OR_RETURN(ir::MeshAttr mesh, runtime::MeshOfSharding(module, sharding));
    for (int64_t p = 0; p < num_partitions; ++p) {
      absl::StatusOr<runtime::Tensor> local =
          runtime::ShardTensor(HostTensorAccess::Runtime(inputs[i]), sharding, mesh, p);
      if (!local.ok()) {
        return absl::Status(local.status().code(),
                            absl::StrCat("input ", i, ": ", local.status().message()));
      }
      per_partition[p].push_back(*std::move(local));
    }
  }
  runtime::SpmdOptions spmd_options;
  spmd_options.collective_timeout = options.collective_timeout;
  spmd_options.limits = limits;
  TESSEL_ASSIGN_OR_RETURN(std::vector<std::vector<runtime::Tensor>> locals,
                          runtime::RunSpmd(entry, per_partition, num_partitions, spmd_options));
  const std::vector<TensorType>& result_types = program.global_result_types();
  std::vector<runtime::Tensor> results;
  for (size_t r = 0; r < result_types.size(); ++r) {
    auto sharding = entry.getResultAttrOfType<ir::ShardingAttr>(r, sharding_key);
    TESSEL_ASSIGN_OR_RETURN(ir::MeshAttr mesh, runtime::MeshOfSharding(module, sharding));
    std::vector<runtime::Tensor> pieces;
    pieces.reserve(num_partitions);
    for (int64_t p = 0; p < num_partitions; ++p) pieces.push_back(std::move(locals[p][r]));
    absl::StatusOr<runtime::Tensor> whole =
        runtime::AssembleTensor(pieces, sharding, mesh, result_types[r].dimensions());
    if (!whole.ok()) {
      return absl::Status(whole.status().code(),
                          absl::StrCat("result ", r, ": ", whole.status().message()));
    }
    results.push_back(*std::move(whole));
  }
  return ToHost(std::move(results));
}

}  // namespace

absl::StatusOr<std::vector<HostTensor>> Run(const Program& program,
                                            const std::vector<HostTensor>& inputs,
                                            const RunOptions& options) {
  TESSEL_RETURN_IF_ERROR(CheckInputs(program, inputs));
  if (options.timeout <= absl::ZeroDuration() || options.max_while_iterations < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "RunOptions: timeout must be positive and max_while_iterations at least 0, got ",
        absl::FormatDuration(options.timeout), " and ", options.max_while_iterations));
  }
  auto entry = GetMlirModule(program).lookupSymbol<mlir::func::FuncOp>(
      api_internal::ToStringRef(program.entry_function()));
  runtime::StopSignal stop;
  runtime::Watchdog watchdog(
      stop,
      absl::Now() + options.timeout,  // infinite: InfiniteFuture, and no thread starts
      absl::DeadlineExceededError(absl::StrCat("stopped here: the run took longer than its timeout of ",
                                               absl::FormatDuration(options.timeout))));
  const runtime::RunLimits limits{&stop, options.max_while_iterations};
  if (program.is_partitioned()) return RunPartitioned(program, entry, inputs, options, limits);
  std::vector<runtime::Tensor> args;
  args.reserve(inputs.size());
  for (const HostTensor& input : inputs) args.push_back(HostTensorAccess::Runtime(input));
  runtime::Interpreter interpreter(runtime::DefaultKernelRegistry(), runtime::PartitionContext{},
                                   limits);
  TESSEL_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> results,
                          interpreter.RunFunction(entry, args));
  return ToHost(std::move(results));
}

}  // namespace tessel
