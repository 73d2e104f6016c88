// The MPI path of `tessel run` (see mpi_run.h): setup on every rank, an agreement that every
// rank's setup worked before any collective, the run, the gather to rank 0, and one exit
// code for the whole job.
#include "tools/tessel/mpi_run.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "collectives/hierarchical/axis_assignment.h"
#include "collectives/hierarchical/hierarchical_communicator.h"
#include "collectives/mpi/abort_job.h"
#include "collectives/mpi/mpi_communicator.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"
#include "mlir/IR/OperationSupport.h"
#include "partitioner/auto/auto_sharding.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/partitioned_marker.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "runtime/element_type.h"
#include "runtime/interpreter.h"
#include "runtime/npy.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"
#include "runtime/tensor.h"
#include "support/status_macros.h"
#include "tools/tessel/check.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/program.h"
#include "tools/tessel/run_inputs.h"

namespace tessel::cli {
namespace {

using runtime::Tensor;

// The ranks' own messages (agreement, gather, exit code) on a duplicate of the world
// communicator, polled with a deadline like the collectives, so a rank that stops
// answering ends the job instead of hanging it.
class Job {
 public:
  explicit Job(absl::Duration timeout) : timeout_(timeout) {
    MPI_Comm_dup(MPI_COMM_WORLD, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~Job() { MPI_Comm_free(&comm_); }

  int rank() const { return rank_; }
  int size() const { return size_; }

  // The smallest `value` over the ranks; the ranks wait for one another up to the job's
  // timeout plus `extra` (a stage that is slow on one rank by design).
  int64_t Min(int64_t value, absl::string_view stage, absl::Duration extra = absl::ZeroDuration()) {
    int64_t result = 0;
    MPI_Request request;
    MPI_Iallreduce(&value, &result, 1, MPI_INT64_T, MPI_MIN, comm_, &request);
    Wait(request, stage, extra);
    return result;
  }

  // Rank 0's `text`, on every rank.
  std::string BroadcastText(std::string text, absl::string_view stage) {
    int64_t size = static_cast<int64_t>(text.size());
    MPI_Request request;
    MPI_Ibcast(&size, 1, MPI_INT64_T, 0, comm_, &request);
    Wait(request, stage);
    text.resize(static_cast<size_t>(size));
    // One message holds at most INT_MAX bytes: longer text goes in pieces.
    for (int64_t sent = 0; sent < size;) {
      const int piece = static_cast<int>(std::min<int64_t>(size - sent, INT_MAX));
      MPI_Ibcast(text.data() + sent, piece, MPI_CHAR, 0, comm_, &request);
      Wait(request, stage);
      sent += piece;
    }
    return text;
  }

  // Rank 0's `value`, on every rank.
  int Broadcast(int value, absl::string_view stage) {
    MPI_Request request;
    MPI_Ibcast(&value, 1, MPI_INT, 0, comm_, &request);
    Wait(request, stage);
    return value;
  }

  // Concatenates every rank's `mine` on rank 0, rank by rank; `counts` holds each rank's
  // size. Elsewhere `all` is left empty.
  void GatherToRoot(const std::vector<std::byte>& mine, const std::vector<int>& counts,
                    std::vector<std::byte>& all) {
    std::vector<int> offsets(counts.size(), 0);
    int64_t total = 0;
    for (size_t r = 0; r < counts.size(); ++r) {
      offsets[r] = static_cast<int>(total);
      total += counts[r];
    }
    if (rank_ == 0) all.resize(total);
    MPI_Request request;
    MPI_Igatherv(mine.data(), static_cast<int>(mine.size()), MPI_BYTE, all.data(), counts.data(),
                 offsets.data(), MPI_BYTE, 0, comm_, &request);
    Wait(request, "gathering the results on rank 0");
  }

 private:
  void Wait(MPI_Request& request, absl::string_view stage,
            absl::Duration extra = absl::ZeroDuration()) {
    const absl::Time deadline = absl::Now() + timeout_ + extra;
    for (int64_t polls = 0;; ++polls) {
      int done = 0;
      MPI_Test(&request, &done, MPI_STATUS_IGNORE);
      if (done) return;
      if (absl::Now() > deadline) break;
      if (polls < 1000) {
        std::this_thread::yield();
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(100));
      }
    }
    collectives::AbortMpiJob(absl::StrCat("tessel run: rank ", rank_, ": timed out after ",
                                          absl::FormatDuration(timeout_ + extra), " ", stage));
  }

  const absl::Duration timeout_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

// What every rank prepares before the first collective.
struct Setup {
  mlir::OwningOpRef<mlir::ModuleOp> module;
  mlir::OwningOpRef<mlir::ModuleOp> partitioned;
  mlir::func::FuncOp original;
  mlir::func::FuncOp function;
  ir::MeshAttr mesh;
  std::string spec;
  std::optional<collectives::DeviceAssignment> assignment;
  // The global arguments, and this rank's partitions' shards of them, by slot.
  std::vector<Tensor> inputs;
  std::vector<std::vector<Tensor>> local_inputs;
  // The mark of a file `tessel partition` wrote, which runs as it is.
  std::optional<ir::PartitionedSignature> mark;
};

// A spec whose mpi axes make `world_size` ranks, or "" if no choice of axes does.
std::string ExampleSpec(const std::vector<collectives::MeshAxis>& axes, int64_t world_size) {
  const size_t n = std::min<size_t>(axes.size(), 16);
  for (uint32_t mask = 0; mask < (1u << n); ++mask) {
    int64_t ranks = 1;
    collectives::AxisBackends spec;
    for (size_t a = 0; a < n; ++a) {
      const bool mpi = (mask >> a) & 1u;
      if (mpi) ranks *= axes[a].size;
      spec.emplace_back(axes[a].name,
                        mpi ? collectives::AxisBackend::kMpi : collectives::AxisBackend::kLocal);
    }
    if (ranks == world_size && n == axes.size()) return collectives::AxisBackendsString(spec);
  }
  return "";
}

// The program as the command line gives it: the file, with --mesh and the sharding flags
// applied.
absl::StatusOr<mlir::OwningOpRef<mlir::ModuleOp>> LoadAnnotated(const MpiRunOptions& options,
                                                                mlir::MLIRContext& context) {
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          LoadProgram(options.file, context));
  TESSEL_RETURN_IF_ERROR(ApplyMeshAxes(*module, options.mesh));
  TESSEL_RETURN_IF_ERROR(ApplyShardingAssignments(*module, options.function, options.file,
                                                  options.shardings.in, options.shardings.out));
  return module;
}

// Rank 0's part of --auto: the program with the shardings auto-sharding chose written in,
// as MLIR text with its locations, for every rank to partition alike.
absl::StatusOr<std::string> ChoosePlan(const MpiRunOptions& options, std::ostream& remarks) {
  mlir::MLIRContext context;
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          LoadAnnotated(options, context));
  if (LooksPartitioned(*module)) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.file, " is partitioned already: --auto chooses shardings for a global program"));
  }
  PipelineOptions pipeline = PipelineOptionsFromFlags(options.file);
  pipeline.auto_sharding = options.auto_sharding;
  TESSEL_RETURN_IF_ERROR(ChooseShardings(*module, remarks, pipeline));
  std::string text;
  llvm::raw_string_ostream os(text);
  (*module)->print(os, mlir::OpPrintingFlags().enableDebugInfo().assumeVerified());
  os.flush();
  return text;
}

// `plan`: rank 0's program with the chosen shardings (ChoosePlan), or empty without --auto.
absl::Status Prepare(const MpiRunOptions& options, int rank, int world_size,
                     mlir::MLIRContext& context, const std::string& plan, Setup& setup,
                     std::ostream& remarks) {
  if (plan.empty()) {
    TESSEL_ASSIGN_OR_RETURN(setup.module, LoadAnnotated(options, context));
  } else {
    TESSEL_ASSIGN_OR_RETURN(setup.module, ParseProgramText(plan, "<auto-sharding plan>",
                                                           ProgramFormat::kMlir, context));
  }
  TESSEL_ASSIGN_OR_RETURN(setup.original,
                          FindFunction(*setup.module, options.function, options.file));
  if (options.function == "main") {
    TESSEL_ASSIGN_OR_RETURN(setup.mark,
                            ir::ReadPartitionedMark(*setup.module,
                                                    setup.original.getNumArguments(),
                                                    setup.original.getNumResults()));
  }
  TESSEL_RETURN_IF_ERROR(RequireReferenceToCheck(options.file, options.check,
                                                 setup.mark.has_value(), options.reference));
  const llvm::ArrayRef<mlir::Type> input_types =
      setup.mark ? llvm::ArrayRef<mlir::Type>(setup.mark->parameter_types)
                 : llvm::ArrayRef<mlir::Type>();
  TESSEL_ASSIGN_OR_RETURN(setup.inputs,
                          options.use_inputs
                              ? ReadInputs(setup.original, options.inputs, input_types)
                              : RandomInputs(setup.original, options.seed, input_types));
  setup.partitioned = mlir::OwningOpRef<mlir::ModuleOp>(setup.module->clone());
  auto meshes = setup.partitioned->getOps<ir::MeshOp>();
  if (meshes.empty()) {
    return absl::InvalidArgumentError(
        "--backend=mpi runs the partitioned program, which needs a tessel.mesh and shardings");
  }
  setup.mesh = (*meshes.begin()).getMesh();
  if (setup.mark) {
    // Partitioned already: every partition runs the file's program.
    if (ir::ModuleDeviceCount(*setup.partitioned) != setup.mark->num_partitions) {
      return absl::InvalidArgumentError(absl::StrCat(
          options.file, " was partitioned for ", setup.mark->num_partitions,
          " devices, but its mesh has ", ir::ModuleDeviceCount(*setup.partitioned)));
    }
  } else {
    // Every rank partitions the same text the same way, so all run the same program.
    PipelineOptions pipeline = PipelineOptionsFromFlags(options.file);
    pipeline.shard_weight_update = options.shard_weight_update;
    pipeline.combine_collectives = options.combine_collectives;
    TESSEL_RETURN_IF_ERROR(PropagateAndPartition(*setup.partitioned, remarks, pipeline));
  }
  setup.function = setup.partitioned->lookupSymbol<mlir::func::FuncOp>(
      llvm::StringRef(options.function.data(), options.function.size()));

  std::vector<collectives::MeshAxis> axes;
  for (ir::MeshAxisAttr axis : setup.mesh.getAxes()) {
    axes.push_back({axis.getName().str(), axis.getSize()});
  }
  std::vector<int64_t> device_ids(setup.mesh.getDeviceIds().begin(),
                                  setup.mesh.getDeviceIds().end());
  collectives::AxisBackends spec;
  if (options.device_assignment.empty()) {
    spec = collectives::AllAxesOverMpi(axes);
  } else {
    TESSEL_ASSIGN_OR_RETURN(spec, collectives::ParseAxisBackends(options.device_assignment));
  }
  setup.spec = collectives::AxisBackendsString(spec);
  absl::StatusOr<collectives::DeviceAssignment> assignment =
      collectives::AssignByAxes(axes, device_ids, spec, world_size);
  if (!assignment.ok() && options.device_assignment.empty()) {
    std::string example = ExampleSpec(axes, world_size);
    return absl::InvalidArgumentError(absl::StrCat(
        assignment.status().message(),
        "\nhint: say which mesh axes run inside a process (local) and which across the ranks "
        "(mpi) with --device_assignment",
        example.empty() ? "" : absl::StrCat(", e.g. --device_assignment=", example)));
  }
  TESSEL_RETURN_IF_ERROR(assignment.status());
  setup.assignment = *std::move(assignment);

  for (int64_t p : setup.assignment->PartitionsOf(rank)) {
    std::vector<Tensor> shards;
    for (size_t i = 0; i < setup.inputs.size(); ++i) {
      auto sharding = setup.function.getArgAttrOfType<ir::ShardingAttr>(
          i, ir::TesselDialect::kShardingAttrName);
      TESSEL_ASSIGN_OR_RETURN(ir::MeshAttr mesh,
                              runtime::MeshOfSharding(*setup.partitioned, sharding));
      TESSEL_ASSIGN_OR_RETURN(Tensor shard,
                              runtime::ShardTensor(setup.inputs[i], sharding, mesh, p));
      shards.push_back(std::move(shard));
    }
    setup.local_inputs.push_back(std::move(shards));
  }
  return absl::OkStatus();
}

// The partitioned function's results as empty local tensors, for their types and sizes.
absl::StatusOr<std::vector<Tensor>> LocalResultShapes(mlir::func::FuncOp function) {
  std::vector<Tensor> shapes;
  for (mlir::Type type : function.getResultTypes()) {
    auto tensor_type = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor_type || !tensor_type.hasStaticShape()) {
      return absl::InvalidArgumentError(
          "the partitioned function has a result that is not a "
          "statically shaped tensor");
    }
    TESSEL_ASSIGN_OR_RETURN(runtime::ElementType element,
                            runtime::ElementTypeFromMlir(tensor_type.getElementType()));
    shapes.push_back(Tensor::Zeros(
        element, runtime::Shape(tensor_type.getShape().begin(), tensor_type.getShape().end())));
  }
  return shapes;
}

// On rank 0: assembles, prints, saves and checks the gathered results.
absl::Status Report(const MpiRunOptions& options, Setup& setup, const std::vector<Tensor>& shapes,
                    const std::vector<std::byte>& gathered, int world_size, std::ostream& out) {
  const int64_t num_partitions = setup.assignment->num_partitions();
  // The gather holds rank 0's partitions by slot, then rank 1's, and so on.
  std::vector<std::vector<Tensor>> locals(shapes.size(), std::vector<Tensor>(num_partitions));
  int64_t offset = 0;
  for (int rank = 0; rank < world_size; ++rank) {
    for (int64_t p : setup.assignment->PartitionsOf(rank)) {
      for (size_t r = 0; r < shapes.size(); ++r) {
        Tensor local = shapes[r];
        if (local.byte_size() > 0) {
          std::memcpy(local.bytes().data(), gathered.data() + offset, local.byte_size());
        }
        offset += local.byte_size();
        locals[r][p] = std::move(local);
      }
    }
  }
  std::vector<Tensor> results;
  for (size_t r = 0; r < shapes.size(); ++r) {
    auto sharding = setup.function.getResultAttrOfType<ir::ShardingAttr>(
        r, ir::TesselDialect::kShardingAttrName);
    auto global = llvm::cast<mlir::RankedTensorType>(
        setup.mark ? setup.mark->result_types[r] : setup.original.getResultTypes()[r]);
    TESSEL_ASSIGN_OR_RETURN(ir::MeshAttr mesh,
                            runtime::MeshOfSharding(*setup.partitioned, sharding));
    TESSEL_ASSIGN_OR_RETURN(
        Tensor whole, runtime::AssembleTensor(
                          locals[r], sharding, mesh,
                          runtime::Shape(global.getShape().begin(), global.getShape().end())));
    results.push_back(std::move(whole));
  }
  out << "ran the partitioned program on " << num_partitions << " partitions over " << world_size
      << (world_size == 1 ? " MPI rank" : " MPI ranks") << " (device assignment " << setup.spec
      << ")\n";
  for (size_t r = 0; r < results.size(); ++r) {
    out << "result " << r << ": "
        << (options.print_limit == 0 ? results[r].ShapeString()
                                     : results[r].ToString(options.print_limit))
        << "\n";
  }
  if (!options.output_dir.empty()) {
    std::error_code error;
    std::filesystem::create_directories(options.output_dir, error);
    if (error) {
      return absl::InvalidArgumentError(absl::StrCat("cannot create output directory '",
                                                     options.output_dir, "': ", error.message()));
    }
    for (size_t r = 0; r < results.size(); ++r) {
      std::string path =
          (std::filesystem::path(options.output_dir) / absl::StrCat("result_", r, ".npy")).string();
      TESSEL_RETURN_IF_ERROR(runtime::WriteNpy(results[r], path));
      out << "wrote " << path << "\n";
    }
  }
  if (options.check) {
    const runtime::RunLimits limits{nullptr, options.max_while_iterations};
    std::vector<Tensor> expected;
    if (setup.mark) {
      TESSEL_ASSIGN_OR_RETURN(expected, RunReference(options.reference, options.file,
                                                     options.function, *setup.mark, setup.inputs,
                                                     *setup.module->getContext(), limits));
      out << "check: ran " << options.reference << " on one device\n";
    } else {
      runtime::Interpreter reference(runtime::DefaultKernelRegistry(),
                                     runtime::PartitionContext{}, limits);
      TESSEL_ASSIGN_OR_RETURN(expected, reference.RunFunction(setup.original, setup.inputs));
    }
    TESSEL_RETURN_IF_ERROR(CompareResults(results, expected, out, options.tolerance));
  }
  return absl::OkStatus();
}

// Whether every rank got through a stage: the lowest rank with an error prints it, and all
// ranks learn the outcome.
bool Agree(Job& job, const absl::Status& status, absl::string_view stage, std::ostream& err,
           absl::Duration extra = absl::ZeroDuration()) {
  const int64_t failing = job.Min(status.ok() ? job.size() : job.rank(), stage, extra);
  if (failing == job.size()) return true;
  if (failing == job.rank()) {
    err << "tessel run: " << (job.size() > 1 ? absl::StrCat("rank ", job.rank(), ": ") : "")
        << status.message() << "\n";
  }
  return false;
}

int RunInitialized(const MpiRunOptions& options, Job& job, std::ostream& out, std::ostream& err) {
  mlir::MLIRContext context;
  Setup setup;
  std::ostringstream ignored;
  // --auto: only rank 0 solves, since a search stopped by its time limit may stop at
  // different plans on different ranks; every rank then partitions rank 0's plan. The
  // others wait for it up to the solver's time limit past the job's timeout.
  std::string plan;
  if (!options.auto_sharding.empty()) {
    absl::StatusOr<std::optional<auto_sharding::AutoShardingOptions>> parsed =
        ParseAutoSharding(options.auto_sharding);
    const absl::Duration solving =
        parsed.ok() && *parsed ? absl::Seconds((*parsed)->timeLimitSeconds) : absl::ZeroDuration();
    absl::StatusOr<std::string> chosen =
        job.rank() == 0 ? ChoosePlan(options, err) : absl::StatusOr<std::string>(std::string());
    if (!Agree(job, chosen.status(), "choosing shardings", err, solving)) return 1;
    plan = job.BroadcastText(job.rank() == 0 ? *std::move(chosen) : std::string(),
                             "sharing the auto-sharding plan");
  }
  // Remarks from partitioning are the same on every rank: rank 0 shows them.
  absl::Status prepared;
  // The inputs and their shards are tensors, which may not fit --max_memory: every rank
  // must learn of it through Agree, not leave the job on its own.
  try {
    prepared =
        Prepare(options, job.rank(), job.size(), context, plan, setup,
                job.rank() == 0 ? err : ignored);
  } catch (const runtime::TensorAllocationError& error) {
    prepared = absl::ResourceExhaustedError(error.what());
  }
  if (!Agree(job, prepared, "setting up", err)) return 1;

  collectives::MpiCommunicator::Options mpi_options;
  mpi_options.timeout = options.timeout;
  auto mpi = collectives::MpiCommunicator::Create(*setup.assignment, mpi_options);
  if (!Agree(job, mpi.status(), "creating the MPI communicator", err)) return 1;
  collectives::HierarchicalCommunicator communicator(
      mpi->get(), collectives::HierarchicalCommunicator::Options{options.timeout});

  runtime::SpmdOptions run_options;
  run_options.limits.max_while_iterations = options.max_while_iterations;
  absl::StatusOr<std::vector<std::vector<Tensor>>> results =
      runtime::RunPartitions(setup.function, communicator.local_partitions(),
                             setup.local_inputs, communicator, run_options);
  absl::StatusOr<std::vector<Tensor>> shapes = LocalResultShapes(setup.function);
  absl::Status ran = results.ok() ? shapes.status() : results.status();
  if (!Agree(job, ran, "running", err)) return 1;

  // Every partition's results, back to back, in slot order.
  std::vector<std::byte> mine;
  for (const std::vector<Tensor>& partition : *results) {
    for (const Tensor& result : partition) {
      mine.insert(mine.end(), result.bytes().begin(), result.bytes().end());
    }
  }
  int64_t per_partition = 0;
  for (const Tensor& shape : *shapes) per_partition += shape.byte_size();
  std::vector<int> counts;
  absl::Status fits;
  for (int rank = 0; rank < job.size(); ++rank) {
    const int64_t bytes =
        per_partition * static_cast<int64_t>(setup.assignment->PartitionsOf(rank).size());
    if (bytes > INT_MAX) {
      fits = absl::InvalidArgumentError(absl::StrCat("rank ", rank, "'s results take ", bytes,
                                                     " bytes, more than one MPI message holds"));
    }
    counts.push_back(static_cast<int>(std::min<int64_t>(bytes, INT_MAX)));
  }
  if (!Agree(job, fits, "sizing the results", err)) return 1;
  std::vector<std::byte> gathered;
  job.GatherToRoot(mine, counts, gathered);

  int code = 0;
  if (job.rank() == 0) {
    absl::Status reported = Report(options, setup, *shapes, gathered, job.size(), out);
    if (!reported.ok()) {
      err << "tessel run: " << reported.message() << "\n";
      code = 1;
    }
  }
  out.flush();
  // The check's verdict is rank 0's; every rank exits with it.
  return job.Broadcast(code, "sharing the exit status");
}

}  // namespace

int RunOnMpi(const MpiRunOptions& options, std::ostream& out, std::ostream& err) {
  int provided = MPI_THREAD_SINGLE;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided) != MPI_SUCCESS) {
    err << "tessel run: MPI_Init_thread failed\n";
    return 1;
  }
  int code = 1;
  {
    Job job(options.timeout);
    code = RunInitialized(options, job, out, err);
  }
  MPI_Finalize();
  return code;
}

}  // namespace tessel::cli
