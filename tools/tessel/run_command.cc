// `tessel run FILE`: executes one function of a program on the reference executor, on one
// device, as an SPMD program on N local partitions, or partitioned across the ranks of an
// MPI job (--backend=mpi, in mpi_run.cc), and prints (and optionally saves) the results.
#include <cstdint>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/flags/flag.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "collectives/hierarchical/axis_assignment.h"
#include "mlir/IR/MLIRContext.h"
#include "partitioner/ir/module_devices.h"
#include "partitioner/ir/partitioned_marker.h"
#include "runtime/interpreter.h"
#include "runtime/kernels/linalg_utils.h"
#include "runtime/npy.h"
#include "runtime/run_limits.h"
#include "runtime/spmd_runner.h"
#include "runtime/tensor.h"
#include "support/status_macros.h"
#include "tools/tessel/check.h"
#include "tools/tessel/command_line_shardings.h"
#include "tools/tessel/common_flags.h"
#include "tools/tessel/mpi_run.h"
#include "tools/tessel/program.h"
#include "tools/tessel/progress.h"
#include "tools/tessel/pipeline.h"
#include "tools/tessel/run_inputs.h"
#include "tools/tessel/subcommands.h"

ABSL_FLAG(std::vector<std::string>, inputs, {},
          "Comma-separated .npy files, one per argument of the function, in order. Each "
          "file's dtype and shape must match its argument's type.");
ABSL_FLAG(uint64_t, seed, 0,
          "Without --inputs, argument i is drawn at random from seed N+i (see "
          "runtime/random_inputs.h). Not allowed together with --inputs.");
ABSL_FLAG(int64_t, partitions, 1,
          "Run as an SPMD program on N (at most 1024) local partitions (threads), each "
          "getting the same inputs; tessel.partition_id is the partition's number and "
          "collectives run between partitions.");
ABSL_FLAG(std::string, output_dir, "",
          "Write the results as .npy files into this directory (created if missing): "
          "result_<i>.npy, or result_p<k>_<i>.npy for partition k.");
ABSL_FLAG(bool, check, false,
          "Also partition the program (it needs a tessel.mesh and shardings), run it on one "
          "local partition per mesh device, and check it gives the single-device results.");
ABSL_FLAG(std::string, reference, "",
          "With --check on a program 'tessel partition' wrote: the program it was partitioned "
          "from, run on one device as the reference.");
ABSL_FLAG(double, rtol, 1e-4,
          "With --check: the relative tolerance for float results (at least two ulps of "
          "the type).");
ABSL_FLAG(double, atol, 1e-5,
          "With --check: the absolute tolerance for float results; 16 ulps of the largest "
          "magnitude in each result are added (reordered sums round at the size of their "
          "terms).");
ABSL_FLAG(int64_t, print_limit, 16,
          "Print at most K elements of each result; 0 prints only the shapes.");
ABSL_FLAG(std::string, backend, "local",
          "Where the partitions run: 'local' (threads of this process, see --partitions) or "
          "'mpi' (under mpirun: the program is partitioned and its partitions run on the "
          "ranks of the MPI job, placed by --device_assignment; results are gathered to "
          "rank 0, which prints them).");
ABSL_FLAG(std::string, device_assignment, "",
          "With --backend=mpi: which mesh axes run inside a process (as threads) and which "
          "across processes, as axis:local or axis:mpi for every mesh axis, e.g. "
          "'data:mpi,model:local'. The ranks are the positions over the mpi axes. Default: "
          "every axis over MPI, one partition per rank.");
ABSL_FLAG(absl::Duration, collective_timeout, absl::Seconds(60),
          "With --backend=mpi: how long a collective may wait for its partners before the "
          "job fails instead of hanging.");

ABSL_FLAG(absl::Duration, timeout, absl::InfiniteDuration(),
          "End the run with an error once it has run this long (e.g. 30s, 5m), naming the op "
          "or while loop (and its iteration) it was in; every partition stops, including "
          "those waiting in a collective. Checked between ops: one long op finishes first. "
          "Local runs only.");
ABSL_FLAG(int64_t, max_while_iterations, 0,
          "Fail a while loop whose body would run more than N times, naming the loop; 0 "
          "(the default) is no limit.");
ABSL_FLAG(std::string, max_memory, "physical",
          "The most bytes the tensors of the run may hold at once, in bytes or with a suffix "
          "K, M, G or T (binary: 4G is 4 GiB). An op whose result would pass it fails, naming "
          "the op, the shape and the bytes it asked for. 'physical' is the machine's "
          "physical memory.");

namespace tessel::cli {
namespace {

constexpr int64_t kMaxPartitions = 1024;

struct RunOptions {
  std::string file;
  // --auto: auto-sharding for --check's partitioned run (ParseAutoSharding).
  std::string auto_sharding;
  std::string function;
  std::vector<std::string> inputs;
  bool use_inputs = false;
  uint64_t seed = 0;
  int64_t partitions = 1;
  bool partitions_set = false;  // --partitions given (else manual HLO takes its mesh's)
  std::string output_dir;
  int64_t print_limit = 16;
  bool check = false;
  CheckTolerance tolerance;
  bool mpi = false;
  std::string device_assignment;
  absl::Duration collective_timeout = absl::Seconds(60);
  std::vector<MeshAxisSize> mesh;
  bool shard_weight_update = false;
  bool combine_collectives = false;
  absl::Duration timeout = absl::InfiniteDuration();
  int64_t max_while_iterations = 0;
  int64_t max_memory = 0;  // bytes; 0 where the system does not say how much it has
  bool timing = false;
  ShardingFlags shardings;
  std::string reference;  // --reference: the source of a partitioned FILE, for --check
};

// Reads the flags into options; a conflict or out-of-range value is a usage error.
absl::StatusOr<RunOptions> GetOptions(const ParsedArgs& args) {
  if (args.positional.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected one FILE, got ", args.positional.size(), " arguments"));
  }
  RunOptions options;
  options.file = args.positional[0];
  options.auto_sharding = absl::GetFlag(FLAGS_auto);
  if (absl::Status parsed = ParseAutoSharding(options.auto_sharding).status(); !parsed.ok()) {
    return parsed;
  }
  options.function = absl::GetFlag(FLAGS_function);
  options.use_inputs = args.explicitly_set.count("inputs") > 0;
  options.inputs = absl::GetFlag(FLAGS_inputs);
  options.seed = absl::GetFlag(FLAGS_seed);
  options.partitions = absl::GetFlag(FLAGS_partitions);
  options.partitions_set = args.explicitly_set.count("partitions") > 0;
  options.output_dir = absl::GetFlag(FLAGS_output_dir);
  options.print_limit = absl::GetFlag(FLAGS_print_limit);
  options.check = absl::GetFlag(FLAGS_check);
  options.reference = absl::GetFlag(FLAGS_reference);
  if (!options.reference.empty() && !options.check) {
    return absl::InvalidArgumentError("--reference needs --check");
  }
  options.tolerance = {absl::GetFlag(FLAGS_rtol), absl::GetFlag(FLAGS_atol)};
  if (!(options.tolerance.rtol >= 0) || !(options.tolerance.atol >= 0)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--rtol and --atol must not be negative, got ", options.tolerance.rtol, " and ",
        options.tolerance.atol));
  }
  if (!options.check &&
      (args.explicitly_set.count("rtol") > 0 || args.explicitly_set.count("atol") > 0)) {
    return absl::InvalidArgumentError("--rtol and --atol need --check");
  }
  options.shard_weight_update = absl::GetFlag(FLAGS_shard_weight_update);
  options.combine_collectives = absl::GetFlag(FLAGS_combine_collectives);
  options.timing = absl::GetFlag(FLAGS_timing);
  const std::string backend = absl::GetFlag(FLAGS_backend);
  if (backend != "local" && backend != "mpi") {
    return absl::InvalidArgumentError(
        absl::StrCat("--backend must be local or mpi, got '", backend, "'"));
  }
  options.mpi = backend == "mpi";
  options.device_assignment = absl::GetFlag(FLAGS_device_assignment);
  options.collective_timeout = absl::GetFlag(FLAGS_collective_timeout);
  if (options.mpi) {
    if (args.explicitly_set.count("partitions") > 0) {
      return absl::InvalidArgumentError(
          "--backend=mpi takes the partitions from the program's mesh; drop --partitions");
    }
    if (args.explicitly_set.count("device_assignment") > 0) {
      // Only the syntax here; whether it fits the mesh and the job is bad input (exit 1).
      absl::Status spec =
          collectives::ParseAxisBackends(options.device_assignment).status();
      if (!spec.ok()) return spec;
    }
    if (options.collective_timeout <= absl::ZeroDuration()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--collective_timeout must be positive, got ",
                       absl::FormatDuration(options.collective_timeout)));
    }
  } else if (args.explicitly_set.count("device_assignment") > 0 ||
             args.explicitly_set.count("collective_timeout") > 0) {
    return absl::InvalidArgumentError(
        "--device_assignment and --collective_timeout need --backend=mpi");
  }
  options.timeout = absl::GetFlag(FLAGS_timeout);
  if (options.timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError(absl::StrCat("--timeout must be positive, got ",
                                                   absl::FormatDuration(options.timeout)));
  }
  if (options.mpi && args.explicitly_set.count("timeout") > 0) {
    return absl::InvalidArgumentError(
        "--timeout applies to local runs; under --backend=mpi, --collective_timeout bounds "
        "how long a partition waits for the others");
  }
  options.max_while_iterations = absl::GetFlag(FLAGS_max_while_iterations);
  if (options.max_while_iterations < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--max_while_iterations must not be negative, got ", options.max_while_iterations));
  }
  const std::string max_memory = absl::GetFlag(FLAGS_max_memory);
  if (max_memory == "physical") {
    options.max_memory = runtime::PhysicalMemoryBytes();
  } else {
    TESSEL_ASSIGN_OR_RETURN(options.max_memory, ParseByteSize("max_memory", max_memory));
  }
  TESSEL_ASSIGN_OR_RETURN(options.mesh, ParseMeshSpec(absl::GetFlag(FLAGS_mesh)));
  TESSEL_ASSIGN_OR_RETURN(options.shardings, ParseShardingFlags());
  if (options.shard_weight_update && !options.check && !options.mpi) {
    return absl::InvalidArgumentError(
        "--shard_weight_update changes how the program is partitioned; it needs --check or "
        "--backend=mpi");
  }
  if (options.combine_collectives && !options.check && !options.mpi) {
    return absl::InvalidArgumentError(
        "--combine_collectives changes how the program is partitioned; it needs --check or "
        "--backend=mpi");
  }
  if (!options.auto_sharding.empty() && !options.check && !options.mpi) {
    return absl::InvalidArgumentError(
        "--auto changes how the program is partitioned; it needs --check or --backend=mpi");
  }
  if (options.check && options.partitions != 1) {
    return absl::InvalidArgumentError(
        "--check runs the single-device program and partitions it itself; drop --partitions");
  }
  if (options.use_inputs && args.explicitly_set.count("seed") > 0) {
    return absl::InvalidArgumentError("--inputs and --seed cannot be used together");
  }
  // Each partition is a thread holding its own copy of the inputs, so a mistyped huge
  // count would exhaust the machine instead of failing cleanly.
  if (options.partitions < 1 || options.partitions > kMaxPartitions) {
    return absl::InvalidArgumentError(absl::StrCat("--partitions must be in [1, ", kMaxPartitions,
                                                   "], got ", options.partitions));
  }
  if (options.print_limit < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("--print_limit must not be negative, got ", options.print_limit));
  }
  return options;
}

std::string Describe(const runtime::Tensor& tensor, int64_t print_limit) {
  return print_limit == 0 ? tensor.ShapeString() : tensor.ToString(print_limit);
}

// Writes `results` as `<prefix><i>.npy` into `dir` and says so on `out`.
absl::Status WriteResults(const std::vector<runtime::Tensor>& results, const std::string& dir,
                          const std::string& prefix, std::ostream& out) {
  for (size_t i = 0; i < results.size(); ++i) {
    std::string path = (std::filesystem::path(dir) / absl::StrCat(prefix, i, ".npy")).string();
    TESSEL_RETURN_IF_ERROR(runtime::WriteNpy(results[i], path));
    out << "wrote " << path << "\n";
  }
  return absl::OkStatus();
}

// Collectives need partitions to talk to, so a one-device run of them fails.
bool HasCollectives(mlir::func::FuncOp function) {
  static constexpr absl::string_view kCollectives[] = {"tessel.all_gather", "tessel.all_reduce",
                                                       "tessel.reduce_scatter", "tessel.all_to_all",
                                                       "tessel.collective_permute"};
  bool found = false;
  function.walk([&](mlir::Operation* op) {
    for (absl::string_view name : kCollectives) {
      if (op->getName().getStringRef() == llvm::StringRef(name.data(), name.size())) {
        found = true;
      }
    }
  });
  return found;
}

absl::Status CreateOutputDir(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot create output directory '", dir, "': ", error.message()));
  }
  return absl::OkStatus();
}

absl::Status Run(const RunOptions& options, std::ostream& out, std::ostream& err) {
  const absl::Time start = absl::Now();
  Progress progress("tessel run", ProgressMode(), err);
  progress.Stage(absl::StrCat("loading ", options.file));
  mlir::MLIRContext context;
  TESSEL_ASSIGN_OR_RETURN(mlir::OwningOpRef<mlir::ModuleOp> module,
                          LoadProgram(options.file, context));
  TESSEL_RETURN_IF_ERROR(ApplyMeshAxes(*module, options.mesh));
  TESSEL_RETURN_IF_ERROR(ApplyShardingAssignments(*module, options.function, options.file,
                                                  options.shardings.in, options.shardings.out));
  TESSEL_ASSIGN_OR_RETURN(mlir::func::FuncOp function,
                          FindFunction(*module, options.function, options.file));
  // A program `tessel partition` wrote says for how many devices and which global types:
  // it runs on global inputs, each partition taking its piece, and gives global results.
  std::optional<ir::PartitionedSignature> mark;
  if (function.getSymName() == "main") {
    TESSEL_ASSIGN_OR_RETURN(mark, ir::ReadPartitionedMark(*module, function.getNumArguments(),
                                                          function.getNumResults()));
  }
  const llvm::ArrayRef<mlir::Type> input_types =
      mark ? llvm::ArrayRef<mlir::Type>(mark->parameter_types) : llvm::ArrayRef<mlir::Type>();
  const absl::Time loaded = absl::Now();
  progress.Stage(options.use_inputs ? "reading the inputs" : "drawing the inputs");
  TESSEL_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> inputs,
                          options.use_inputs ? ReadInputs(function, options.inputs, input_types)
                                             : RandomInputs(function, options.seed, input_types));
  const absl::Time inputsReady = absl::Now();
  // The run stage ends when the results exist, before they are printed or written.
  auto reportTiming = [&] {
    if (!options.timing) return;
    const absl::Time ran = absl::Now();
    err << absl::StrFormat(
        "timing: load %.3f s, inputs %.3f s, run %.3f s; f32 products on %s\n",
        absl::ToDoubleSeconds(loaded - start), absl::ToDoubleSeconds(inputsReady - loaded),
        absl::ToDoubleSeconds(ran - inputsReady),
        runtime::MatMulIsaName(runtime::ChosenMatMulIsa()));
  };
  if (!options.output_dir.empty()) TESSEL_RETURN_IF_ERROR(CreateOutputDir(options.output_dir));
  const bool perDevice = mark.has_value() || LooksPartitioned(*module);
  TESSEL_RETURN_IF_ERROR(RequireReferenceToCheck(options.file, options.check,
                                                 mark.has_value(), options.reference));
  if (options.check && perDevice && !mark) {
    return absl::InvalidArgumentError(absl::StrCat(
        options.file,
        " is already the per-device program (it has collectives or partition_id, or every "
        "value is manual): --check compares a program with its partitioning, and this one "
        "has no single-device form; run it with --partitions=N"));
  }
  int64_t partitions = options.partitions;
  if (mark) {
    if (options.partitions_set && options.partitions != mark->num_partitions) {
      return absl::InvalidArgumentError(absl::StrCat(
          options.file, " was partitioned for ", mark->num_partitions,
          " devices; --partitions=", options.partitions,
          " would run a different number of them (drop --partitions)"));
    }
    if (mark->num_partitions > kMaxPartitions) {
      return absl::InvalidArgumentError(absl::StrCat(
          options.file, ": the program runs on ", mark->num_partitions,
          " devices, more than the ", kMaxPartitions, " partitions (threads) a local run starts"));
    }
    partitions = mark->num_partitions;
  } else if (perDevice && options.partitions_set && !(*module).getOps<ir::MeshOp>().empty() &&
             options.partitions != ir::ModuleDeviceCount(*module)) {
    // The collectives name the mesh's devices: a different count leaves some of them
    // without a partition, or partitions no collective expects.
    return absl::InvalidArgumentError(absl::StrCat(
        options.file, ": its mesh has ", ir::ModuleDeviceCount(*module),
        " devices, and the per-device program runs on exactly that many; --partitions=",
        options.partitions, " does not match"));
  }
  // HLO that is manual throughout runs on the devices its collectives name (the imported
  // mesh holds num_partitions of them) unless --partitions says otherwise.
  if ((*module)->hasAttr(ir::TesselDialect::kPerDeviceAttrName) && !options.partitions_set) {
    const int64_t devices = ir::ModuleDeviceCount(*module);
    if (devices > kMaxPartitions) {
      return absl::InvalidArgumentError(absl::StrCat(
          options.file, ": the program runs on ", devices, " devices, more than the ",
          kMaxPartitions, " partitions (threads) a local run starts; run it with --backend=mpi"));
    }
    partitions = std::max(partitions, devices);
  }

  // The timeout counts from here, once the program and its inputs are ready: it bounds
  // running, which is what can fail to end.
  runtime::StopSignal stop;
  runtime::Watchdog watchdog(
      stop,
      absl::Now() + options.timeout,  // infinite: InfiniteFuture, and no thread starts
      absl::DeadlineExceededError(
          absl::StrCat("stopped here: the run took longer than --timeout=",
                       absl::FormatDuration(options.timeout))));
  runtime::RunLimits limits{&stop, options.max_while_iterations};
  limits.counters = progress.counters();

  if (mark) {
    std::vector<runtime::Shape> result_shapes;
    for (mlir::Type type : mark->result_types) {
      auto tensor = llvm::cast<mlir::RankedTensorType>(type);
      result_shapes.emplace_back(tensor.getShape().begin(), tensor.getShape().end());
    }
    progress.Stage("running the partitioned program", partitions);
    TESSEL_ASSIGN_OR_RETURN(
        std::vector<runtime::Tensor> results,
        RunOnPartitions(*module, function, partitions, inputs, result_shapes, limits));
    progress.Done();
    reportTiming();
    out << "ran the partitioned program on " << partitions
        << " partitions; results assembled from their pieces\n";
    for (size_t i = 0; i < results.size(); ++i) {
      out << "result " << i << ": " << Describe(results[i], options.print_limit) << "\n";
    }
    if (!options.output_dir.empty()) {
      TESSEL_RETURN_IF_ERROR(WriteResults(results, options.output_dir, "result_", out));
    }
    if (options.check) {
      progress.Stage(absl::StrCat("running ", options.reference, " on one device"));
      TESSEL_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> expected,
                              RunReference(options.reference, options.file, options.function,
                                           *mark, inputs, context, limits));
      progress.Done();
      out << "check: ran " << options.reference << " on one device\n";
      TESSEL_RETURN_IF_ERROR(CompareResults(results, expected, out, options.tolerance));
    }
  } else if (partitions == 1) {
    runtime::Interpreter interpreter(runtime::DefaultKernelRegistry(), runtime::PartitionContext{},
                                     limits);
    progress.Stage("running on one device");
    absl::StatusOr<std::vector<runtime::Tensor>> run = interpreter.RunFunction(function, inputs);
    progress.Done();
    // Not after a limit stopped the run: that is about the limit, not the collectives.
    const bool limited =
        stop.stopped() || run.status().code() == absl::StatusCode::kResourceExhausted;
    if (!run.ok() && !limited && HasCollectives(function)) {
      return absl::Status(run.status().code(),
                          absl::StrCat(run.status().message(),
                                       "\nhint: the function has collectives; run it on "
                                       "several partitions with --partitions=N"));
    }
    TESSEL_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> results, std::move(run));
    reportTiming();
    for (size_t i = 0; i < results.size(); ++i) {
      out << "result " << i << ": " << Describe(results[i], options.print_limit) << "\n";
    }
    if (!options.output_dir.empty()) {
      TESSEL_RETURN_IF_ERROR(WriteResults(results, options.output_dir, "result_", out));
    }
    if (options.check) {
      PipelineOptions pipeline = PipelineOptionsFromFlags(options.file);
      pipeline.shard_weight_update = options.shard_weight_update;
      pipeline.auto_sharding = options.auto_sharding;
      pipeline.combine_collectives = options.combine_collectives;
      TESSEL_RETURN_IF_ERROR(CheckPartitioned(*module, options.function, inputs, results, out,
                                              err, pipeline, options.tolerance, limits,
                                              &progress));
    }
  } else {
    std::vector<std::vector<runtime::Tensor>> per_partition(partitions, inputs);
    runtime::SpmdOptions spmd;
    spmd.limits = limits;
    progress.Stage(absl::StrCat("running on ", partitions, " partitions"), partitions);
    TESSEL_ASSIGN_OR_RETURN(std::vector<std::vector<runtime::Tensor>> results,
                            runtime::RunSpmd(function, per_partition, partitions, spmd));
    progress.Done();
    reportTiming();
    for (size_t p = 0; p < results.size(); ++p) {
      out << "partition " << p << ":\n";
      for (size_t i = 0; i < results[p].size(); ++i) {
        out << "  result " << i << ": " << Describe(results[p][i], options.print_limit) << "\n";
      }
    }
    if (!options.output_dir.empty()) {
      for (size_t p = 0; p < results.size(); ++p) {
        TESSEL_RETURN_IF_ERROR(
            WriteResults(results[p], options.output_dir, absl::StrCat("result_p", p, "_"), out));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

Subcommand RunCommand() {
  Subcommand command;
  command.name = "run";
  command.synopsis =
      "run FILE [--function=main] [--inputs=a.npy,b.npy | --seed=N] "
      "[--partitions=N] [--output_dir=DIR] [--print_limit=K] [--check] [--mesh=NAME=SIZE,...] "
      "[--timing] [--auto[=memory_limit=16GiB]] "
      "[--shard_weight_update] [--combine_collectives] [--timeout=DURATION] "
      "[--max_while_iterations=N] [--max_memory=BYTES] "
      "[--backend=local|mpi [--device_assignment=AXIS:local|mpi,...] "
      "[--collective_timeout=DURATION]]";
  command.summary = "Run a function of a program on the reference executor.";
  command.details =
      "FILE is MLIR (.mlir; StableHLO + Shardy as JAX prints it too) or XLA HLO text\n"
      "(.hlo); other names are sniffed (HLO text starts with 'HloModule'), and '-' reads\n"
      "standard input. The function's arguments come\n"
      "from --inputs or, by default, from --seed. Each result is printed as its shape and its\n"
      "first elements; --output_dir saves them whole. --check also partitions an annotated\n"
      "program, runs it on one local partition per mesh device and compares the results:\n"
      "integers bit for bit, floats within --atol + --rtol * |expected| plus 16 ulps of the\n"
      "result's largest magnitude (a failure names the worst element and the tolerance).\n"
      "--mesh=data=4,model=2 sets the sizes of the program's mesh axes (or declares the mesh\n"
      "of a program without one) before anything runs. --shard_weight_update (with --check\n"
      "or --backend=mpi) partitions with data-parallel optimizer updates on 1/n shards of\n"
      "the weights; --combine_collectives (likewise) runs independent collectives of one\n"
      "kind over the same axes as one. --timing (local runs) prints the seconds spent loading\n"
      "the program, reading or drawing the inputs and running it (before --check), and the\n"
      "instruction set of f32 products (TESSEL_ISA=baseline|avx2|avx512 caps it).\n"
      "\n"
      "Limits: --timeout=30s ends a local run that runs longer, and --max_while_iterations=N\n"
      "a while loop whose body would run more than N times, each naming the loop or op it\n"
      "stopped in. --max_memory (default: the machine's physical memory) bounds the bytes\n"
      "the run's tensors hold at once; an op that would pass it fails with its shape and\n"
      "the bytes asked. A local run starts one thread per partition, at most 1024\n"
      "(--partitions, the mesh of --check or of a manual program); beyond that, use\n"
      "--backend=mpi.\n"
      "\n"
      "Under MPI, `mpirun -np R tessel run --backend=mpi FILE` partitions the program on\n"
      "every rank, runs each rank's partitions (as placed by --device_assignment) and prints\n"
      "the assembled results on rank 0; --check compares them there with the single-device\n"
      "run. Every rank exits with the same status.\n"
      "\n"
      "--auto[=memory_limit=16GiB] (with --check or --backend=mpi) first chooses shardings\n"
      "for the values FILE leaves open by the cost model (docs/auto_sharding.md); under MPI\n"
      "rank 0 chooses and every rank partitions its plan.\n"
      "\n"
      "Exit status: 0 on success, 1 for bad input (unreadable or invalid program, unknown\n"
      "function, inputs that do not match the signature, an op the executor cannot run, a\n"
      "device assignment that does not fit the mesh or the MPI job, a failed --check, a run\n"
      "stopped by a limit), 2 for a bad command line.\n";
  command.flags = {"function",    "inputs",      "seed",    "partitions",
                   "output_dir",  "print_limit", "check",   "mesh",
                   "backend",     "device_assignment", "collective_timeout",
                   "shard_weight_update", "combine_collectives", "rtol", "atol",
                   "timeout", "max_while_iterations", "max_memory", "timing",
                   "in_shardings", "out_shardings", "conservative", "replication_is_error",
                   "reference", "quiet", "auto"};
  command.repeatable_flags = {"in_shardings", "out_shardings"};
  command.implicit_values = {{"auto", "on"}};
  command.run = [](const ParsedArgs& args, std::ostream& out, std::ostream& err) {
    absl::StatusOr<RunOptions> options = GetOptions(args);
    if (!options.ok()) {
      err << "tessel run: " << options.status().message() << "\n"
          << "see 'tessel run --help' for usage\n";
      return static_cast<int>(kExitUsage);
    }
    // Set before anything allocates a tensor (the inputs count too), and restored after:
    // the limit is the process's, and tests run many commands in one process.
    const int64_t previous_limit = runtime::MemoryLimit();
    runtime::SetMemoryLimit(options->max_memory);
    absl::Cleanup restore_limit = [previous_limit] { runtime::SetMemoryLimit(previous_limit); };
    if (options->mpi) {
      MpiRunOptions mpi;
      mpi.file = options->file;
      mpi.function = options->function;
      mpi.use_inputs = options->use_inputs;
      mpi.inputs = options->inputs;
      mpi.seed = options->seed;
      mpi.device_assignment = options->device_assignment;
      mpi.timeout = options->collective_timeout;
      mpi.output_dir = options->output_dir;
      mpi.print_limit = options->print_limit;
      mpi.check = options->check;
      mpi.reference = options->reference;
      mpi.tolerance = options->tolerance;
      mpi.mesh = options->mesh;
      mpi.shard_weight_update = options->shard_weight_update;
      mpi.combine_collectives = options->combine_collectives;
      mpi.max_while_iterations = options->max_while_iterations;
      mpi.shardings = options->shardings;
      mpi.auto_sharding = options->auto_sharding;
      return RunOnMpi(mpi, out, err);
    }
    absl::Status status = Run(*options, out, err);
    if (!status.ok()) {
      err << "tessel run: " << status.message() << "\n";
      return static_cast<int>(kExitBadInput);
    }
    return static_cast<int>(kExitOk);
  };
  return command;
}

}  // namespace tessel::cli
