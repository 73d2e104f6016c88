// The differential oracle (see partition_harness.h).
#include "tests/differential/partition_harness.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <type_traits>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "gtest/gtest.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/collective_groups.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/passes/collective_combining.h"
#include "partitioner/passes/hierarchical_all_reduce.h"
#include "partitioner/passes/weight_update_sharding.h"
#include "partitioner/propagation/propagate.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "partitioner/spmd/partition.h"
#include "runtime/element_type.h"
#include "runtime/interpreter.h"
#include "runtime/kernel_registry.h"
#include "runtime/random_inputs.h"
#include "runtime/run_limits.h"
#include "runtime/sharded_tensors.h"
#include "runtime/spmd_runner.h"

namespace tessel::testing {

using runtime::ElementType;
using runtime::Tensor;

namespace {

// Compares within a relative tolerance of 1e-4 (floats' sums may be added in another
// order); NaN must meet NaN. Complex elements compare by |got - want|. Returns the first
// difference, or "" when none.
std::string CloseDifference(const Tensor& got, const Tensor& want) {
  if (got.type() != want.type() || got.shape() != want.shape()) {
    return absl::StrCat("type or shape differs: ", got.ToString(), "\nvs\n", want.ToString());
  }
  std::string difference;
  runtime::DispatchElementType(want.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (runtime::kIsComplex<T>) {
      // The same relative tolerance on the distance |got - want| in the complex plane.
      auto g = got.data<T>(), w = want.data<T>();
      for (int64_t i = 0; i < want.num_elements() && difference.empty(); ++i) {
        std::complex<double> a(g[i].real(), g[i].imag()), b(w[i].real(), w[i].imag());
        if (std::abs(a - b) > 1e-4 * (1.0 + std::abs(b))) {
          std::ostringstream os;
          os << "element " << i << ": got " << a << ", want " << b;
          difference = os.str();
        }
      }
    } else if constexpr (!std::is_same_v<T, bool> && !std::is_integral_v<T>) {
      auto g = got.data<T>(), w = want.data<T>();
      for (int64_t i = 0; i < want.num_elements(); ++i) {
        double a = static_cast<double>(g[i]), b = static_cast<double>(w[i]);
        if (std::isnan(b) ? std::isnan(a) : a == b || std::abs(a - b) <= 1e-4 * (1.0 + std::abs(b))) {
          continue;  // infinities compare equal
        }
        difference = absl::StrCat("element ", i, ": got ", a, ", want ", b);
        break;
      }
    }
  });
  return difference;
}

// Overwrites the elements of `local` (device `linear`'s piece of a tensor of `global_shape`
// under `sharding`) that lie past the end of their dimension.
void PoisonPadding(Tensor& local, const runtime::Shape& global_shape, ir::ShardingAttr sharding,
                   ir::MeshAttr mesh, int64_t linear) {
  if (!sharding) return;
  const int64_t rank = local.rank();
  std::vector<int64_t> valid(rank);
  bool any = false;
  for (int64_t d = 0; d < rank; ++d) {
    llvm::ArrayRef<ir::AxisRefAttr> axes = sharding.getDimShardings()[d].getAxes();
    const int64_t length = local.shape()[d];
    const int64_t index = axes.empty() ? 0 : ir::getGroupPosition(mesh, axes, linear).position;
    valid[d] = std::clamp<int64_t>(global_shape[d] - index * length, 0, length);
    any |= valid[d] < length;
  }
  if (!any) return;
  runtime::DispatchElementType(local.type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T poison;
    if constexpr (std::is_same_v<T, bool>) {
      poison = true;
    } else if constexpr (std::is_integral_v<T>) {
      poison = static_cast<T>(0x5A5A5A5A);
    } else {
      poison = static_cast<T>(std::numeric_limits<float>::quiet_NaN());
    }
    absl::Span<T> values = local.data<T>();
    std::vector<int64_t> index(rank, 0);
    for (int64_t flat = 0; flat < local.num_elements(); ++flat) {
      int64_t rest = flat;
      bool padding = false;
      for (int64_t d = rank - 1; d >= 0; --d) {
        int64_t i = rest % local.shape()[d];
        rest /= local.shape()[d];
        padding |= i >= valid[d];
      }
      if (padding) values[flat] = poison;
    }
  });
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int Count(const std::string& text, const std::string& part) {
  int count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) {
    ++count;
  }
  return count;
}

// CheckPartitionedRun's stages, filling in `run` as they go.
PartitionedRun RunStages(const std::string& module_text, const std::vector<Tensor>& inputs,
                         const HarnessOptions& options, PartitionedRun& run) {
  // Every failure says what differed and ends with the programs, so it reproduces alone.
  std::vector<std::string> failures;
  auto fail = [&](std::string what) {
    if (failures.empty()) run.failed_stage = run.stage;
    failures.push_back(std::move(what));
    run.status = absl::InternalError(absl::StrCat(
        absl::StrJoin(failures, "\n"), "\n-- input:\n", module_text,
        run.partitioned.empty() ? "" : absl::StrCat("\n-- partitioned:\n", run.partitioned)));
    return run;
  };
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  rules::registerShardingRuleModels(registry);
  mlir::MLIRContext context(registry);
  // Warnings from the fallback (and remarks) are expected; keep the log quiet. Errors go
  // into the failure message.
  std::string errors;  // error diagnostics, for the failure message
  context.getDiagEngine().registerHandler([&](mlir::Diagnostic& diagnostic) {
    if (options.on_diagnostic) options.on_diagnostic(diagnostic);
    if (diagnostic.getSeverity() == mlir::DiagnosticSeverity::Error) {
      absl::StrAppend(&errors, "\n  ", diagnostic.str());
    }
    return mlir::success();
  });
  run.stage = "parse";
  auto module = ParseModule(module_text, "case.mlir", context);
  if (!module.ok()) return fail(absl::StrCat("parse: ", module.status().ToString()));
  auto main = (*module)->lookupSymbol<mlir::func::FuncOp>(options.function);
  if (!main) return fail(absl::StrCat("no function @", options.function));
  if (options.on_input) options.on_input(**module);
  run.stage = "reference";
  runtime::RunLimits limits;
  limits.max_while_iterations = options.max_while_iterations;
  runtime::Interpreter interpreter(runtime::DefaultKernelRegistry(), runtime::PartitionContext{},
                                   limits);
  // The reference ignores shardings: run it before partitioning rewrites the function.
  auto expected = interpreter.RunFunction(main, inputs);
  if (!expected.ok()) return fail(absl::StrCat("reference run: ", expected.status().ToString()));

  run.stage = "propagate";
  if (mlir::failed(propagation::propagateShardings(**module, {}, nullptr))) {
    return fail(absl::StrCat("propagation failed:", errors));
  }
  if (options.shard_weight_update) {
    passes::shardWeightUpdates(**module, passes::WeightUpdateShardingOptions());
  }
  run.stage = "partition";
  spmd::PartitionOptions partition_options;
  partition_options.replicationIsError = options.replication_is_error;
  partition_options.randomChoiceSeed = options.random_choice_seed;
  partition_options.onStrategyChosen = options.on_strategy_chosen;
  if (mlir::failed(spmd::partitionModule(**module, partition_options))) {
    return fail(absl::StrCat("partitioning failed:", errors));
  }
  if (options.combine_collectives) {
    passes::combineCollectives(**module, passes::CollectiveCombiningOptions());
  }
  if (options.hierarchical_all_reduce) {
    passes::splitAllReducesByAxis(**module, cost_model::DefaultHardwareSpec());
  }
  if (options.mutate) run.mutated = options.mutate(**module);
  run.stage = "verify";
  if (mlir::failed(mlir::verify(**module))) return fail(absl::StrCat("the partitioned module does not verify:", errors));
  if (options.on_partitioned) options.on_partitioned(**module);
  llvm::raw_string_ostream os(run.partitioned);
  (*module)->print(os);
  os.flush();
  auto meshOp = (*module)->lookupSymbol<ir::MeshOp>(options.mesh);
  if (!meshOp) return fail(absl::StrCat("no mesh @", options.mesh));
  ir::MeshAttr mesh = meshOp.getMesh();
  const int64_t devices = mesh.getTotalSize();
  // On one device local types are the global ones and collectives fold away, so what the
  // program must or must not contain only speaks of several devices.
  run.stage = "contents";
  if (devices > 1) {
    for (const std::string& part : options.expect_in_program) {
      if (!Contains(run.partitioned, part)) fail(absl::StrCat("missing ", part));
    }
    for (const auto& [part, count] : options.expect_count_in_program) {
      const int found = Count(run.partitioned, part);
      if (found != count) fail(absl::StrCat("count of ", part, ": ", found, ", want ", count));
    }
    for (const std::string& part : options.expect_not_in_program) {
      if (Contains(run.partitioned, part)) fail(absl::StrCat("unexpected ", part));
    }
  }
  run.stage = "run";
  std::vector<std::vector<Tensor>> per_partition(devices);
  for (int64_t p = 0; p < devices; ++p) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      auto sharding =
          main.getArgAttrOfType<ir::ShardingAttr>(i, ir::TesselDialect::kShardingAttrName);
      // Each value is cut by its own mesh: meshes of one module may order the devices
      // differently, or hold one device only.
      auto own = runtime::MeshOfSharding(**module, sharding);
      if (!own.ok()) return fail(own.status().ToString());
      auto local = runtime::ShardTensor(inputs[i], sharding, *own, p);
      if (!local.ok()) return fail(local.status().ToString());
      std::optional<int64_t> linear = own->findLinearIndex(p);
      if (options.poison_padding && linear) {
        PoisonPadding(*local, inputs[i].shape(), sharding, *own, *linear);
      }
      per_partition[p].push_back(*local);
    }
  }
  runtime::SpmdOptions spmd_options;
  spmd_options.limits = limits;
  auto outputs = runtime::RunSpmd(main, per_partition, devices, spmd_options);
  if (!outputs.ok()) return fail(absl::StrCat("partitioned run: ", outputs.status().ToString()));
  run.stage = "compare";
  for (size_t r = 0; r < expected->size(); ++r) {
    std::vector<Tensor> locals;
    for (int64_t p = 0; p < devices; ++p) locals.push_back((*outputs)[p][r]);
    auto sharding =
        main.getResultAttrOfType<ir::ShardingAttr>(r, ir::TesselDialect::kShardingAttrName);
    const Tensor& want = (*expected)[r];
    auto own = runtime::MeshOfSharding(**module, sharding);
    if (!own.ok()) return fail(own.status().ToString());
    auto got = runtime::AssembleTensor(locals, sharding, *own, want.shape());
    if (!got.ok()) return fail(absl::StrCat("result ", r, ": ", got.status().ToString()));
    if (runtime::IsFloat(want.type()) || runtime::IsComplex(want.type())) {
      std::string difference = CloseDifference(*got, want);
      if (!difference.empty()) fail(absl::StrCat("result ", r, ": ", difference));
    } else if (!got->BitwiseEquals(want)) {
      fail(absl::StrCat("result ", r, ": ", got->ToString(), "\nvs\n", want.ToString()));
    }
  }
  run.compared = true;
  return run;
}

}  // namespace

PartitionedRun CheckPartitionedRun(const std::string& module_text,
                                   const std::vector<Tensor>& inputs,
                                   const HarnessOptions& options) {
  PartitionedRun run;
  try {
    return RunStages(module_text, inputs, options, run);
  } catch (const std::bad_alloc& error) {
    // The interpreter turns its own allocations into statuses; this catches the harness's
    // (inputs cut per partition, results put together and compared) past the memory limit,
    // so that the case fails at its stage instead of ending the process.
    run.failed_stage = run.stage;
    run.status = absl::ResourceExhaustedError(
        absl::StrCat(run.stage, ": ", error.what(), "\n-- input:\n", module_text));
    return run;
  }
}

void ExpectPartitionedRunMatches(const std::string& module_text, const std::vector<Tensor>& inputs,
                                 const HarnessOptions& options) {
  PartitionedRun run = CheckPartitionedRun(module_text, inputs, options);
  if (!run.status.ok()) ADD_FAILURE() << run.status.message();
}

std::vector<TestMesh> StandardMeshes() {
  return {{R"(["x"=1])", {"x"}, 1, {1}},
          {R"(["x"=2])", {"x"}, 2, {2}},
          {R"(["x"=3])", {"x"}, 3, {3}},
          {R"(["x"=4])", {"x"}, 4, {4}},
          {R"(["x"=6])", {"x"}, 6, {6}},
          {R"(["x"=8])", {"x"}, 8, {8}},
          {R"(["x"=2, "y"=2])", {"x", "y"}, 4, {2, 2}},
          {R"(["x"=2, "y"=3])", {"x", "y"}, 6, {2, 3}}};
}

std::vector<std::vector<std::vector<std::string>>> AllLayouts(
    int rank, const std::vector<std::string>& axes) {
  using Layout = std::vector<std::vector<std::string>>;
  std::vector<Layout> out = {Layout(rank)};
  for (const std::string& axis : axes) {
    std::vector<Layout> next;
    for (const Layout& layout : out) {
      next.push_back(layout);
      for (int d = 0; d < rank; ++d) {
        for (size_t at = 0; at <= layout[d].size(); ++at) {
          Layout with = layout;
          with[d].insert(with[d].begin() + at, axis);
          next.push_back(with);
        }
      }
    }
    out = next;
  }
  return out;
}

std::vector<std::vector<std::vector<std::string>>> DimAssignments(
    int rank, const std::vector<std::string>& axes) {
  std::vector<std::vector<std::vector<std::string>>> out = {
      std::vector<std::vector<std::string>>(rank)};
  for (const std::string& axis : axes) {
    std::vector<std::vector<std::vector<std::string>>> next;
    for (const auto& assignment : out) {
      next.push_back(assignment);  // axis unused
      for (int d = 0; d < rank; ++d) {
        auto with = assignment;
        with[d].push_back(axis);
        next.push_back(with);
      }
    }
    out = next;
  }
  return out;
}

std::string ShardingAttrText(const std::vector<std::vector<std::string>>& dims) {
  std::vector<std::string> parts;
  for (const auto& axes : dims) {
    std::vector<std::string> quoted;
    for (const auto& axis : axes) quoted.push_back(absl::StrCat("\"", axis, "\""));
    parts.push_back(absl::StrCat("{", absl::StrJoin(quoted, ", "), "}"));
  }
  return absl::StrCat("#tessel.sharding<@mesh, [", absl::StrJoin(parts, ", "), "]>");
}

std::string ShardingArgAttrText(const std::vector<std::vector<std::string>>& dims) {
  return absl::StrCat("{tessel.sharding = ", ShardingAttrText(dims), "}");
}

std::string LayoutName(const std::vector<std::vector<std::string>>& dims) {
  std::vector<std::string> names;
  for (const auto& axes : dims) names.push_back(axes.empty() ? "r" : absl::StrJoin(axes, ""));
  return absl::StrJoin(names, "_");
}

std::vector<int64_t> ShardCounts(const std::vector<std::vector<std::string>>& dims,
                                 const TestMesh& mesh) {
  std::vector<int64_t> counts;
  for (const auto& axes : dims) {
    int64_t count = 1;
    for (const std::string& axis : axes) {
      for (size_t i = 0; i < mesh.axes.size(); ++i) {
        if (mesh.axes[i] == axis) count *= mesh.sizes[i];
      }
    }
    counts.push_back(count);
  }
  return counts;
}

GeneratedModule GenerateModule(const std::string& body, const std::vector<runtime::Shape>& args,
                               const TestMesh& mesh,
                               const std::vector<std::vector<std::string>>& arg_layout,
                               const std::vector<std::vector<std::string>>& result_layout,
                               const std::string& element_text, runtime::ElementType element_type,
                               int* seed,
                               const std::vector<std::pair<std::string, std::string>>&
                                   replacements) {
  GeneratedModule generated;
  std::string params;
  const char* tensors[] = {"a", "b", "c", "d"};
  const char* offsets[] = {"i", "j", "k", "l"};
  int num_tensors = 0, num_offsets = 0;
  for (const runtime::Shape& shape : args) {
    if (!params.empty()) params += ", ";
    if (shape.empty()) {
      params += absl::StrCat("%", offsets[num_offsets++], ": tensor<i32>");
      generated.inputs.push_back(runtime::RandomTensor(runtime::ElementType::kS32, shape, ++*seed));
      continue;
    }
    std::string dims;
    for (int64_t size : shape) absl::StrAppend(&dims, size, "x");
    params += absl::StrCat("%", tensors[num_tensors++], ": tensor<", dims, "T> ",
                           ShardingArgAttrText(arg_layout));
    generated.inputs.push_back(runtime::RandomTensor(element_type, shape, ++*seed));
  }
  const std::string result_type = body.substr(body.rfind(": ") + 2);
  generated.module = absl::StrReplaceAll(
      absl::StrCat("tessel.mesh @mesh = <MESH>\nfunc.func @main(PARAMS) -> (", result_type,
                   " RES) {\n  ", body, "\n}"),
      {{"MESH", mesh.text}, {"PARAMS", params}, {"RES", ShardingArgAttrText(result_layout)}});
  generated.module =
      absl::StrReplaceAll(generated.module, {{"xT>", absl::StrCat("x", element_text, ">")},
                                             {"<T>", absl::StrCat("<", element_text, ">")}});
  generated.module = absl::StrReplaceAll(generated.module, replacements);
  return generated;
}

}  // namespace tessel::testing
