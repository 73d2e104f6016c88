// Partition(): from a program with a few shardings to the program every device runs.
//
// Propagation first gives every value a sharding (from the parameters, results and
// ShardingConstraints the user annotated); then each op is rewritten to work on the local
// pieces, with collectives where devices must exchange data. The input program is left
// unchanged.
//
//   TESSEL_ASSIGN_OR_RETURN(PartitionResult result, Partition(program));
//   for (const ShardedValue& value : result.op_results) std::cout << value << "\n";
//   // hlo.dot_general (op 0) f32[16,256]: #tessel.sharding<@mesh, [{"data"}, {"model"}]>
//   std::cout << result.collectives << "\n";
//   // all_reduce over "model": 1 (4096 bytes per device)
//   for (const FallbackWarning& w : result.fallback_warnings) std::cout << w << "\n";
//   TESSEL_ASSIGN_OR_RETURN(std::vector<HostTensor> outputs, Run(result.program, inputs));
//
// The partitioned program's entry function takes and returns each device's local pieces;
// Run() takes the global tensors and cuts and assembles them (run.h).
#ifndef TESSEL_PARTITIONER_API_PARTITION_H_
#define TESSEL_PARTITIONER_API_PARTITION_H_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "partitioner/api/program.h"
#include "partitioner/api/sharding.h"
#include "partitioner/api/tensor_type.h"

namespace tessel {

// Auto-sharding (docs/auto_sharding.md): before propagation, shardings for the values the
// user left unannotated are chosen so that the cost model's step time on the hardware spec
// is least, within a per-device memory limit. The user's annotations are kept as hard
// constraints.
struct AutoShardingOptions {
  // Bytes each device may hold; 0 takes the hardware spec's memory capacity.
  int64_t memory_limit_bytes = 0;
  // The solver stops after this long and the best plan it found so far is used.
  double time_limit_seconds = 10;
};

struct PartitionOptions {
  // Fallback warnings become errors: Partition fails with FailedPrecondition naming the op
  // that could only be partitioned by gathering split operands whole. (A fallback whose
  // operands are replicated already gathers nothing; it stays a warning.)
  bool replication_is_error = false;
  // Propagation does not pass shardings through the dimensions that pad and slice move
  // elements along (it keeps them where the user put them).
  bool conservative_propagation = false;
  // Cross-replica weight-update sharding (docs/partitioning.md): after propagation, each
  // optimizer update fed by a gradient that sums over split batch axes runs on a 1/n shard
  // of the weight. Its gradient is reduce-scattered instead of all-reduced, the new weight
  // all-gathered, and the optimizer-state parameters and results become split over those
  // axes (PartitionResult::parameters and ::results show it): per device, a step takes
  // and returns 1/n of the state, and the caller feeds each step the state the last one
  // returned. Run() still takes and returns whole tensors. Updates that do not fit are left
  // alone.
  bool shard_weight_update = false;
  // Collective combining (docs/partitioning.md): after partitioning, independent
  // collectives of one kind over the same mesh axes (all_reduce; all_gather and
  // reduce_scatter along dimension 0) with the same reduction kind and element type run as
  // one collective of their concatenated operands, up to 32 MiB each: one collective
  // latency instead of one per op. PartitionResult's collective counts show the combined
  // program.
  bool combine_collectives = false;
  // After partitioning (and combining), split each all_reduce over several mesh axes into a
  // reduce_scatter, an all_reduce of the piece and an all_gather, one axis at a time, where
  // the cost model on `hardware_spec` finds that faster (--tessel-hierarchical-all-reduce).
  bool hierarchical_all_reduce = true;
  // The hardware the cost estimate assumes, as protobuf text of tessel.cost_model.HardwareSpec
  // (cost_model/hardware_spec.proto); empty for the built-in default (docs/cost_model.md).
  // The partitioner also prices its strategies (a dot reduce-scattered or its operands
  // resharded) on it.
  std::string hardware_spec;
  // When set, auto-sharding chooses the shardings the program leaves open (above).
  std::optional<AutoShardingOptions> auto_sharding;
};

// Where a value's sharding came from, as propagation recorded it.
struct Explanation {
  // The annotation the sharding started from: "argument 0 of @main",
  // "tessel.sharding_constraint at program.mlir:4:8", ...; empty when no sharding reached
  // the value (it is replicated).
  std::string origin;
  // The ops the sharding travelled through from there, in order: "hlo.add" or, when the op
  // has a source location, "hlo.add (program.mlir:3:8)" ("hlo.add (my_model.cc:42)" for the
  // C++ line of a GraphBuilder call; "hlo.add ('h' at my_model.cc:42)" for a named value).
  std::vector<std::string> path;

  // Where each axis of the sharding came from, in dimension order. The axes of one value can
  // come from different annotations: a dot's rows split like one operand, its columns like
  // the other.
  struct Axis {
    int64_t dimension = 0;
    // "data", or "x:(1)2" for a part of axis "x".
    std::string axis;
    // As `origin` and `path` above, for this axis; the origin is empty when propagation did
    // not put the axis there (weight-update sharding did).
    std::string origin;
    std::vector<std::string> path;
  };
  std::vector<Axis> axes;

  // "argument 0 of @main via hlo.add, hlo.dot_general", or
  // "replicated: no sharding reached it".
  std::string ToString() const;
};

// A windowed op (convolution, reduce_window, select_and_scatter) that reads a value along a
// split dimension its window slides over, and the halo each piece needs from its neighbours:
// what the partitioner exchanges with collective_permutes (docs/partitioning.md).
struct HaloUse {
  // Which op: "hlo.reduce_window at program.mlir:19:8".
  std::string user;
  // Per split window dimension, for piece i of it, how many elements the holders of piece i
  // need from the pieces before it (low[i]) and after it (high[i]).
  struct Dim {
    int64_t dim = 0;
    std::vector<int64_t> low;
    std::vector<int64_t> high;
  };
  std::vector<Dim> dims;
  // Set, with `dims` empty, when the op reads the value split otherwise than its result
  // along such a dimension: the partitioner reshards it first, then exchanges halos.
  std::string note;
};

// A value of the entry function and the sharding propagation gave it.
struct ShardedValue {
  enum class Kind { kParameter, kOpResult, kResult };
  Kind kind = Kind::kParameter;
  // The parameter or result number; for an op result, the op's position among the entry
  // function's ops in program order (ops nested in while and case bodies included).
  int64_t index = 0;
  // Which result of the op (0 for parameters and results).
  int64_t result_number = 0;
  // The op's name ("hlo.dot_general"); empty for parameters and results.
  std::string op_name;
  // The name the program gives the value (GraphBuilder::Named, an MLIR name location
  // `loc("h")`, or the name in the text it was loaded from: `%h`, an HLO instruction's
  // name); empty when it has none.
  std::string source_name;
  // The op's source location: "program.mlir:4:8", or for a GraphBuilder program the C++ call
  // that made it ("my_model.cc:42", with a column where the compiler gives one); empty when
  // the program has none.
  std::string location;
  // The global type.
  TensorType type;
  // The sharding; nullopt for a value with none (replicated on every device).
  std::optional<Sharding> sharding;
  Explanation explanation;
  // The windowed ops that read the value along split dimensions, with their halos
  // (ShardingPicture draws them, visualize.h); empty for most values.
  std::vector<HaloUse> halos;

  // "parameter 0", "result 1", "hlo.dot_general (op 3)", "hlo.sort (op 2) result 1",
  // with " at <location>" when known, after "<source_name> = " when the value has a name
  // ("h = hlo.dot_general (op 3)").
  std::string name() const;
  // "<name> <type>: <sharding or replicated>".
  std::string ToString() const;
};

// An op the partitioner could only partition by replication: its split operands are
// gathered whole on every device and the result is cut again. Correct, not fast.
struct FallbackWarning {
  std::string op_name;
  // "program.mlir:7:10", "'h' at my_model.cc:42" for a named value; empty when unknown.
  std::string location;
  // The partitioner's message: "'hlo.sort' is partitioned by replication: 512 bytes of
  // split operands are gathered".
  std::string message;

  std::string ToString() const;
};

// The collectives of the partitioned program, counted statically (a collective inside a
// while body counts once).
struct CollectiveSummary {
  struct Entry {
    // "all_reduce", "all_gather", "reduce_scatter", "all_to_all", "collective_permute".
    std::string kind;
    std::string mesh;
    // The mesh axes whose device groups the collective runs over.
    std::vector<AxisRef> axes;
    int64_t count = 0;
    // The bytes of the collectives' local results on each device, summed.
    int64_t bytes_per_device = 0;
  };
  // One entry per (kind, mesh, axes), sorted by kind, then mesh, then axes.
  std::vector<Entry> entries;

  // Totals over every entry of `kind`, or of every kind.
  int64_t count(absl::string_view kind) const;
  int64_t bytes_per_device(absl::string_view kind) const;
  int64_t total_count() const;

  // One line per entry: `all_reduce over "model": 1 (4096 bytes per device)`; "none" when
  // there are no collectives.
  std::string ToString() const;
};

// What one device of the partitioned program costs, as the cost model estimates it from
// its local types and collectives (docs/cost_model.md); `tessel report` prints the same.
struct CostEstimate {
  std::string hardware;  // the spec's name
  int64_t argument_bytes = 0;
  int64_t peak_bytes = 0;  // the most bytes live at once
  double flops = 0;
  double compute_seconds = 0;
  double communication_seconds = 0;
  // Compute plus communication, assuming they do not overlap.
  double step_seconds = 0;
  // The whole report as a readable table.
  std::string table;
};

// What auto-sharding chose and what the solver estimated for it.
struct AutoShardingSummary {
  // The solver's estimate of the step time (compute plus communication) of its plan; the
  // CostEstimate of the partitioned program is the cost model's figure for the same plan.
  double estimated_step_seconds = 0;
  double compute_seconds = 0;
  double communication_seconds = 0;
  // Whether the plan is proven optimal under the solver's model (false when the time
  // limit ended the search first).
  bool optimal = false;
  double solve_seconds = 0;
  int64_t memory_limit_bytes = 0;
  // The solver's memory model at its plan's peak (values live at once, reshard buffers
  // and partial results included): at least what `cost.peak_bytes` reports.
  int64_t estimated_peak_bytes = 0;
  // The part of communication_seconds spent resharding values between ops.
  double reshard_seconds = 0;
  // Per parameter and op, what was chosen: "parameter 0: [{"data"}, {}]".
  std::vector<std::string> choices;
  // Identical consecutive layers found and made to take the same strategies, so that they
  // were solved as one (1: none found). `optimal` is then among such plans.
  int64_t repeated_layers = 1;
  // The copies of each run of identical layers, the longest first (an encoder's and a
  // decoder's are two runs); empty when nothing repeats.
  std::vector<int64_t> repeated_layer_runs;
  // Ops the plan cannot split, priced on whole tensors (ops without a sharding rule, such as
  // custom calls): "hlo.custom_call (model.hlo:30:5)". The bodies of while loops and the
  // branches of case are planned op by op and are not listed.
  std::vector<std::string> whole_ops;
};

struct PartitionResult {
  // The program every device runs; Run() executes it on num_partitions partitions.
  Program program;
  // The number of devices of the program's mesh (1 for a program without a mesh).
  int64_t num_partitions = 1;
  // Every parameter, op result (in program order) and result of the entry function, with
  // the sharding propagation gave it.
  std::vector<ShardedValue> parameters;
  std::vector<ShardedValue> op_results;
  std::vector<ShardedValue> results;
  std::vector<FallbackWarning> fallback_warnings;
  CollectiveSummary collectives;
  CostEstimate cost;
  // Set when PartitionOptions::auto_sharding was.
  std::optional<AutoShardingSummary> auto_sharding;
};

// Propagates shardings through a copy of `program` and partitions it.
// Fails with InvalidArgument carrying the located diagnostics if propagation or partitioning
// fails, InvalidArgument if the program's meshes have different numbers of devices or the
// hardware spec does not parse,
// FailedPrecondition naming a fallback op under `replication_is_error`, and
// FailedPrecondition for a program that is partitioned already. With auto_sharding, also
// ResourceExhausted when no plan fits the memory limit, DeadlineExceeded when the solver
// found none in time, FailedPrecondition for a program without exactly one mesh.
absl::StatusOr<PartitionResult> Partition(const Program& program,
                                          const PartitionOptions& options = PartitionOptions());

std::ostream& operator<<(std::ostream& os, const ShardedValue& value);
std::ostream& operator<<(std::ostream& os, const FallbackWarning& warning);
std::ostream& operator<<(std::ostream& os, const CollectiveSummary& summary);

}  // namespace tessel

#endif  // TESSEL_PARTITIONER_API_PARTITION_H_
