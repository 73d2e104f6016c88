// The kernel of tessel.manual_computation in a single-device program (the reference of
// `run --check` for a program with shard_map): the body is per-device code, so it runs as
// it would on the mesh: every device of the mesh on its own thread, with a local
// communicator for the collectives in the body, each on its shard of the operands along the
// manual axes (whole along the others), and the results are assembled from the devices'
// local results by the out shardings along the manual axes. Devices that differ only along
// axes that are not manual compute the same values; assembling checks that they agree.
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "collectives/local/local_communicator.h"
#include "mlir/IR/SymbolTable.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/kernels.h"
#include "runtime/sharded_tensors.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

// The most devices a manual computation runs as threads, as for `tessel run --partitions`:
// each holds its shards of the operands, and a mesh of a million devices would exhaust the
// process long before it ran.
constexpr int64_t kMaxManualDevices = 1024;

// `sharding` with only the manual axes: how the region's local types divide a value.
ir::ShardingAttr ManualPart(ir::ShardingAttr sharding, mlir::ArrayAttr manualAxes) {
  auto isManual = [&](ir::AxisRefAttr axis) {
    return llvm::any_of(manualAxes, [&](mlir::Attribute name) {
      return llvm::cast<mlir::StringAttr>(name).getValue() == axis.getName();
    });
  };
  llvm::SmallVector<ir::DimShardingAttr> dims;
  for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
    llvm::SmallVector<ir::AxisRefAttr> axes;
    for (ir::AxisRefAttr axis : dim.getAxes()) {
      if (isManual(axis)) axes.push_back(axis);
    }
    dims.push_back(ir::DimShardingAttr::get(sharding.getContext(), axes, /*is_closed=*/true,
                                            std::nullopt));
  }
  return ir::ShardingAttr::get(sharding.getContext(), sharding.getMeshName(), dims);
}

KernelResult RunManualComputation(ir::ManualComputationOp op, KernelArgs args) {
  if (args.interpreter.partition().num_partitions > 1) {
    return absl::UnimplementedError(
        "a manual computation runs in a single-device program; partition the program to run "
        "it on partitions");
  }
  mlir::ArrayAttr shardings =
      !op.getInShardings().empty() ? op.getInShardings() : op.getOutShardings();
  if (shardings.empty()) return std::vector<Tensor>{};
  auto meshName = llvm::cast<ir::ShardingAttr>(shardings[0]).getMeshName();
  auto meshOp = mlir::SymbolTable::lookupNearestSymbolFrom<ir::MeshOp>(op, meshName);
  if (!meshOp) {
    return absl::InvalidArgumentError(
        absl::StrCat("mesh @", meshName.getValue().str(), " of a manual computation is not defined"));
  }
  ir::MeshAttr mesh = meshOp.getMesh();
  const int64_t devices = mesh.getTotalSize();
  if (devices > kMaxManualDevices) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "a manual computation runs one thread per device of its mesh; @",
        meshName.getValue().str(), " has ", devices, " devices, more than ", kMaxManualDevices,
        " (partition the program and run it with --backend=mpi to spread them over "
        "processes)"));
  }
  if (devices > 1 && !op->getContext()->isMultithreadingEnabled()) {
    return absl::InvalidArgumentError(
        "the MLIR context has multithreading disabled; a manual computation runs its devices "
        "concurrently");
  }

  // Every device's shard of every operand.
  std::vector<std::vector<Tensor>> inputs(devices);
  for (auto [operand, sharding] : llvm::zip_equal(args.operands, op.getInShardings())) {
    ir::ShardingAttr manual =
        ManualPart(llvm::cast<ir::ShardingAttr>(sharding), op.getManualAxes());
    for (int64_t device = 0; device < devices; ++device) {
      TESSEL_ASSIGN_OR_RETURN(Tensor local, ShardTensor(*operand, manual, mesh, device));
      inputs[device].push_back(std::move(local));
    }
  }

  collectives::LocalCommunicator communicator(devices);
  const KernelRegistry& registry = DefaultKernelRegistry();
  std::vector<std::vector<Tensor>> outputs(devices);
  std::mutex failureMu;
  absl::Status firstFailure;
  absl::Status firstCause;
  // The devices stop together: when one fails, or when the enclosing run stops (its
  // timeout), the others stop before their next op and stop waiting in collectives.
  StopSignal stop;
  StopSignal::Registration abortOnStop =
      stop.OnStop([&](const absl::Status& reason) { communicator.Abort(reason); });
  StopSignal::Registration followRun;
  if (StopSignal* outer = args.interpreter.limits().stop) {
    followRun = outer->OnStop([&](const absl::Status& reason) { stop.Stop(reason); });
  }
  RunLimits limits = args.interpreter.limits();
  limits.stop = &stop;
  std::vector<std::thread> threads;
  absl::Status startFailure;
  for (int64_t device = 0; device < devices && startFailure.ok(); ++device) {
    try {
      threads.emplace_back([&, device] {
        Interpreter interpreter(registry, PartitionContext{device, devices, &communicator},
                                limits);
        std::vector<const Tensor*> pointers;
        for (const Tensor& tensor : inputs[device]) pointers.push_back(&tensor);
        absl::StatusOr<std::vector<Tensor>> results =
            interpreter.RunRegion(op.getBody(), pointers);
        if (results.ok()) {
          outputs[device] = *std::move(results);
          return;
        }
        absl::Status failure(results.status().code(),
                             absl::StrCat("manual computation, device ", device, ": ",
                                          results.status().message()));
        {
          std::lock_guard<std::mutex> lock(failureMu);
          if (firstFailure.ok()) firstFailure = failure;
          // As in RunPartitions: a device stopped while computing names its op or loop,
          // which says more than the aborted collectives of those waiting for it.
          if (firstCause.ok() && failure.code() != absl::StatusCode::kAborted) {
            firstCause = failure;
          }
        }
        stop.Stop(failure);
      });
    } catch (const std::system_error& error) {
      // The threads that started are stopped and joined below: an unjoined std::thread
      // would end the process.
      startFailure = absl::ResourceExhaustedError(
          absl::StrCat("cannot start device ", device, " of ", devices,
                       " of a manual computation (a thread each): ", error.what()));
      stop.Stop(startFailure);
    }
  }
  for (std::thread& thread : threads) thread.join();
  if (!startFailure.ok()) return startFailure;
  if (!firstCause.ok()) return firstCause;
  if (!firstFailure.ok()) return firstFailure;

  std::vector<Tensor> results;
  for (auto [index, sharding] : llvm::enumerate(op.getOutShardings())) {
    ir::ShardingAttr manual =
        ManualPart(llvm::cast<ir::ShardingAttr>(sharding), op.getManualAxes());
    std::vector<Tensor> locals;
    for (int64_t device = 0; device < devices; ++device) {
      if (outputs[device].size() != op.getNumResults()) {
        return absl::InvalidArgumentError(
            absl::StrCat("manual computation body returned ", outputs[device].size(),
                         " values, expected ", op.getNumResults()));
      }
      locals.push_back(outputs[device][index]);
    }
    TESSEL_ASSIGN_OR_RETURN(Tensor global,
                            AssembleTensor(locals, manual, mesh, ResultShape(op, index)));
    results.push_back(std::move(global));
  }
  return results;
}

}  // namespace

void RegisterManualComputationKernel(KernelRegistry& registry) {
  registry.Register<ir::ManualComputationOp>(RunManualComputation);
}

}  // namespace tessel::runtime
