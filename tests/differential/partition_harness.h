// The differential oracle shared by the partitioner's tests: a module with a mesh and some
// shardings is run on the reference executor as written, then propagated, partitioned, and
// run on every device of its mesh with the inputs cut by the argument shardings; the
// assembled results must equal the single-device ones (exactly for integers and pred,
// within a relative 1e-4 for floats, whose sums may be added in another order).
//
//   std::vector<runtime::Tensor> inputs = {runtime::RandomTensor(kF32, {8, 6}, 1)};
//   ExpectPartitionedRunMatches(R"(tessel.mesh @mesh = <["x"=3]> func.func @main ...)", inputs);
//
// Also: helpers to generate shardings and meshes for parameterized cases.
#ifndef TESSEL_TESTS_DIFFERENTIAL_PARTITION_HARNESS_H_
#define TESSEL_TESTS_DIFFERENTIAL_PARTITION_HARNESS_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "runtime/tensor.h"

namespace tessel::testing {

struct HarnessOptions {
  // The function to run.
  std::string function = "main";
  // The mesh whose devices run the partitioned program.
  std::string mesh = "mesh";
  // Substrings the partitioned program must contain (e.g. "tessel.collective_permute"), and
  // ones it must not (e.g. "tessel.all_gather" where a handler should avoid a gather).
  // Checked only on meshes of several devices.
  std::vector<std::string> expect_in_program;
  std::vector<std::string> expect_not_in_program;
  // Fill the padding of uneven argument shards with poison (NaN, a large integer, true)
  // instead of zeros: the partitioned program may assume nothing about padding, so a
  // reduction that forgets to mask it shows up as a wrong result.
  bool poison_padding = true;
  // Partition with spmd::PartitionOptions::replicationIsError: the case fails if an op with
  // split operands takes the replication fallback (shows that a handler did the work).
  bool replication_is_error = false;
  // Run --tessel-weight-update-sharding between propagation and partitioning; optimizer
  // state arguments then come in split, as the rewritten argument shardings say.
  bool shard_weight_update = false;
  // Run --tessel-combine-collectives after partitioning (default limit).
  bool combine_collectives = false;
  // Then run --tessel-hierarchical-all-reduce (built-in hardware spec).
  bool hierarchical_all_reduce = false;
  // Substrings with the exact number of times the partitioned program must contain each
  // (e.g. {"tessel.all_reduce", 2}). Checked only on meshes of several devices.
  std::vector<std::pair<std::string, int>> expect_count_in_program;
  // Make the partitioner's cost-based choices at random from this seed
  // (spmd::PartitionOptions::randomChoiceSeed), so that every strategy gets exercised.
  std::optional<uint64_t> random_choice_seed;
  // Both runs fail once a while loop would start iteration max_while_iterations + 1 (0: no
  // limit), so that a program that loops for ever ends as a reference failure.
  int64_t max_while_iterations = 0;
  // Hooks for the fuzzer: the parsed input module (before propagation), every diagnostic,
  // each strategy choice, and the partitioned module (after every pass). `mutate` may
  // rewrite the partitioned module into a wrong one, to measure how often a check catches
  // a broken partitioner; it returns whether it changed anything.
  std::function<void(mlir::ModuleOp)> on_input;
  std::function<void(mlir::Diagnostic&)> on_diagnostic;
  std::function<void(mlir::Operation*, size_t chosen, size_t applicable)> on_strategy_chosen;
  std::function<bool(mlir::ModuleOp)> mutate;
  std::function<void(mlir::ModuleOp)> on_partitioned;
};

// What one check found: OK, or every difference followed by the module and the partitioned
// program, so that each failure is its own reproducer.
struct PartitionedRun {
  absl::Status status;
  std::string partitioned;  // the partitioned module's text, once partitioning succeeded
  bool mutated = false;     // whether HarnessOptions::mutate changed the program
  // How far the check got: parse, reference, propagate, partition, verify, contents, run,
  // compare; and where the first failure happened ("" when none).
  std::string stage;
  std::string failed_stage;
  bool compared = false;    // the partitioned program ran and its results were compared
};

// Runs the check described at the top.
PartitionedRun CheckPartitionedRun(const std::string& module_text,
                                   const std::vector<runtime::Tensor>& inputs,
                                   const HarnessOptions& options = HarnessOptions());

// The same as a gtest failure.
void ExpectPartitionedRunMatches(const std::string& module_text,
                                 const std::vector<runtime::Tensor>& inputs,
                                 const HarnessOptions& options = HarnessOptions());

// A mesh for generated cases.
struct TestMesh {
  std::string text;  // e.g. ["x"=2, "y"=3]
  std::vector<std::string> axes;
  int devices;
  std::vector<int> sizes;  // of `axes`, in order
};

// 1-D meshes of 1, 2, 3, 4, 6 and 8 devices and the 2x2 and 2x3 meshes.
std::vector<TestMesh> StandardMeshes();

// Every way to give the dims of a rank-`rank` tensor disjoint lists of `axes`, in order (an
// axis is unused or appended to one dim).
std::vector<std::vector<std::vector<std::string>>> DimAssignments(
    int rank, const std::vector<std::string>& axes);

// Every layout of a rank-`rank` tensor over `axes`: each axis unused or placed on one
// dimension, in every order among the axes of that dimension.
std::vector<std::vector<std::vector<std::string>>> AllLayouts(int rank,
                                                              const std::vector<std::string>& axes);

// `#tessel.sharding<@mesh, [{"x"}, {}]>` for {{"x"}, {}}.
std::string ShardingAttrText(const std::vector<std::vector<std::string>>& dims);
// `{tessel.sharding = #tessel.sharding<...>}`, for a function argument or result.
std::string ShardingArgAttrText(const std::vector<std::vector<std::string>>& dims);

// A short name for a layout in test names: "x_r" for {{"x"}, {}}.
std::string LayoutName(const std::vector<std::vector<std::string>>& dims);
// How many shards each dim of the layout `dims` has on `mesh`.
std::vector<int64_t> ShardCounts(const std::vector<std::vector<std::string>>& dims,
                                 const TestMesh& mesh);

// A generated case's module and inputs: `body` (one op or a few, ending in the op whose
// result `return` gives, typed ": ...") wrapped in @main over `mesh`. Each rank-0 shape of
// `args` is an i32 offset parameter (%i, %j), unannotated; each other is a tensor parameter
// (%a, %b) with layout `arg_layout`, of element type `element_type` (MLIR spelling
// `element_text`, which replaces T in `body`); the result gets `result_layout`. Inputs are
// random, drawn with seeds ++*seed. `replacements` are applied to the module last.
struct GeneratedModule {
  std::string module;
  std::vector<runtime::Tensor> inputs;
};
GeneratedModule GenerateModule(const std::string& body, const std::vector<runtime::Shape>& args,
                               const TestMesh& mesh,
                               const std::vector<std::vector<std::string>>& arg_layout,
                               const std::vector<std::vector<std::string>>& result_layout,
                               const std::string& element_text, runtime::ElementType element_type,
                               int* seed,
                               const std::vector<std::pair<std::string, std::string>>&
                                   replacements = {});

}  // namespace tessel::testing

#endif  // TESSEL_TESTS_DIFFERENTIAL_PARTITION_HARNESS_H_
