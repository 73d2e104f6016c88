// Reducing a failing differential case (see program_reducer.h).
#include "tests/differential/program_reducer.h"

#include <fstream>
#include <sstream>
#include <memory>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "partitioner/ir/parse_module.h"
#include "partitioner/ir/tessel/tessel_ops.h"
#include "partitioner/rules/sharding_rule_models.h"
#include "runtime/element_type.h"
#include "runtime/random_inputs.h"

namespace tessel::testing {

using runtime::Tensor;

namespace {

constexpr int kMaxAttempts = 3000;
// Input seeds tried before a program is declared not to fail.
constexpr uint64_t kInputSeeds = 16;

struct Parsed {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

absl::StatusOr<Parsed> Parse(const std::string& text) {
  mlir::DialectRegistry registry;
  RegisterTesselDialects(registry);
  rules::registerShardingRuleModels(registry);
  Parsed parsed;
  parsed.context = std::make_unique<mlir::MLIRContext>(registry);
  parsed.context->getDiagEngine().registerHandler([](mlir::Diagnostic&) { return mlir::success(); });
  auto module = ParseModule(text, "case.mlir", *parsed.context);
  if (!module.ok()) return module.status();
  parsed.module = std::move(*module);
  return parsed;
}

std::string Print(mlir::ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  return os.str();
}

mlir::func::FuncOp MainOf(mlir::ModuleOp module) {
  return module.lookupSymbol<mlir::func::FuncOp>("main");
}

bool IsTerminator(mlir::Operation* op) { return op->hasTrait<mlir::OpTrait::IsTerminator>(); }

int CountOps(mlir::func::FuncOp main) {
  int count = 0;
  main.walk([&](mlir::Operation* op) { count += op != main && !IsTerminator(op); });
  return count;
}

// Erases ops nothing uses (last first, so chains go too) and arguments nothing uses.
void Cleanup(mlir::func::FuncOp main) {
  bool erased = true;
  while (erased) {
    erased = false;
    llvm::SmallVector<mlir::Operation*> ops;
    main.walk([&](mlir::Operation* op) { ops.push_back(op); });
    for (mlir::Operation* op : llvm::reverse(ops)) {
      if (op != main && mlir::isOpTriviallyDead(op)) {
        op->erase();
        erased = true;
      }
    }
  }
  llvm::BitVector unused(main.getNumArguments());
  for (mlir::BlockArgument arg : main.getArguments()) unused[arg.getArgNumber()] = arg.use_empty();
  main.eraseArguments(unused);
}

enum class Outcome { kNoSite, kInapplicable, kApplied };

// Every reduction step: site `k` of its kind in `module`.
using Step = Outcome (*)(mlir::ModuleOp module, int k);

Outcome KeepOneResult(mlir::ModuleOp module, int k) {
  mlir::func::FuncOp main = MainOf(module);
  const int results = main.getNumResults();
  if (results < 2 || k >= results) return Outcome::kNoSite;
  llvm::BitVector others(results, true);
  others.reset(k);
  auto ret = llvm::cast<mlir::func::ReturnOp>(main.getBody().front().getTerminator());
  for (int r = results - 1; r >= 0; --r) {
    if (r != k) ret->eraseOperand(r);
  }
  main.eraseResults(others);
  return Outcome::kApplied;
}

// Replaces every result of op k of @main's body (later ops first) by an operand of its
// type, or by a new argument, and erases it. Ops inside regions stay: a reducer or
// comparator changed that way can compute something order-dependent, which is no bug.
Outcome ReplaceOp(mlir::ModuleOp module, int k) {
  mlir::func::FuncOp main = MainOf(module);
  llvm::SmallVector<mlir::Operation*> ops;
  for (mlir::Operation& op : main.getBody().front()) {
    if (!IsTerminator(&op) && op.getNumResults() > 0) ops.push_back(&op);
  }
  if (k >= static_cast<int>(ops.size())) return Outcome::kNoSite;
  mlir::Operation* op = ops[ops.size() - 1 - k];
  llvm::SmallVector<mlir::Value> replacements;
  for (mlir::Value result : op->getResults()) {
    mlir::Value same;
    for (mlir::Value operand : op->getOperands()) {
      if (operand.getType() == result.getType()) same = operand;
    }
    if (!same) {
      const unsigned index = main.getNumArguments();
      main.insertArgument(index, result.getType(), mlir::DictionaryAttr(), op->getLoc());
      same = main.getArgument(index);
    }
    replacements.push_back(same);
  }
  op->replaceAllUsesWith(replacements);
  op->erase();
  return Outcome::kApplied;
}

// Removes a sharding: of an argument, of a result, or a constraint, reshard or group op.
Outcome DropSharding(mlir::ModuleOp module, int k) {
  mlir::func::FuncOp main = MainOf(module);
  const llvm::StringRef name = ir::TesselDialect::kShardingAttrName;
  for (unsigned i = 0; i < main.getNumArguments(); ++i) {
    if (main.getArgAttr(i, name) && k-- == 0) {
      main.removeArgAttr(i, name);
      return Outcome::kApplied;
    }
  }
  for (unsigned i = 0; i < main.getNumResults(); ++i) {
    if (main.getResultAttr(i, name) && k-- == 0) {
      main.removeResultAttr(i, mlir::StringAttr::get(module.getContext(), name));
      return Outcome::kApplied;
    }
  }
  mlir::Operation* found = nullptr;
  main.walk([&](mlir::Operation* op) {
    if (!found && llvm::isa<ir::ShardingConstraintOp, ir::ReshardOp, ir::ShardingGroupOp>(op) &&
        k-- == 0) {
      found = op;
    }
  });
  if (!found) return Outcome::kNoSite;
  if (found->getNumResults() == 1) found->getResult(0).replaceAllUsesWith(found->getOperand(0));
  found->erase();
  return Outcome::kApplied;
}

// Rebuilds mesh `meshName` with axis `axis` resized to `size` (0: removed), and every
// sharding on it without the axis when it goes.
void ResizeAxis(mlir::ModuleOp module, ir::MeshOp meshOp, llvm::StringRef axis, int64_t size) {
  mlir::MLIRContext* context = module.getContext();
  ir::MeshAttr mesh = meshOp.getMesh();
  llvm::SmallVector<ir::MeshAxisAttr> axes;
  for (ir::MeshAxisAttr a : mesh.getAxes()) {
    if (a.getName() != axis) {
      axes.push_back(a);
    } else if (size > 0) {
      axes.push_back(ir::MeshAxisAttr::get(context, a.getName(), size));
    }
  }
  const std::string axisName = axis.str(), meshName = meshOp.getSymName().str();
  meshOp.setMeshAttr(ir::MeshAttr::get(context, axes, mesh.getDeviceIds()));
  if (size > 0) return;
  auto keep = [&](llvm::ArrayRef<ir::AxisRefAttr> refs) {
    llvm::SmallVector<ir::AxisRefAttr> kept;
    for (ir::AxisRefAttr ref : refs) {
      if (ref.getName() != axisName) kept.push_back(ref);
    }
    return kept;
  };
  mlir::AttrTypeReplacer replacer;
  replacer.addReplacement([&](ir::ShardingAttr sharding) -> std::optional<mlir::Attribute> {
    if (sharding.getMeshName().getValue() != meshName) return std::nullopt;
    llvm::SmallVector<ir::DimShardingAttr> dims;
    for (ir::DimShardingAttr dim : sharding.getDimShardings()) {
      dims.push_back(ir::DimShardingAttr::get(context, keep(dim.getAxes()), dim.getIsClosed(),
                                              dim.getPriority()));
    }
    return ir::ShardingAttr::get(context, sharding.getMeshName(), dims,
                                 keep(sharding.getReplicatedAxes()),
                                 keep(sharding.getUnreducedAxes()));
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true, /*replaceLocs=*/false,
                                        /*replaceTypes=*/false);
}

llvm::SmallVector<std::pair<ir::MeshOp, ir::MeshAxisAttr>> MeshAxes(mlir::ModuleOp module) {
  llvm::SmallVector<std::pair<ir::MeshOp, ir::MeshAxisAttr>> all;
  for (ir::MeshOp mesh : module.getOps<ir::MeshOp>()) {
    if (!mesh.getMesh().getDeviceIds().empty()) continue;  // ids fix the device count
    for (ir::MeshAxisAttr axis : mesh.getMesh().getAxes()) all.push_back({mesh, axis});
  }
  return all;
}

Outcome DropMeshAxis(mlir::ModuleOp module, int k) {
  auto axes = MeshAxes(module);
  if (k >= static_cast<int>(axes.size())) return Outcome::kNoSite;
  ResizeAxis(module, axes[k].first, axes[k].second.getName(), 0);
  return Outcome::kApplied;
}

Outcome ShrinkMeshAxis(mlir::ModuleOp module, int k) {
  auto axes = MeshAxes(module);
  if (k >= static_cast<int>(axes.size())) return Outcome::kNoSite;
  const int64_t size = axes[k].second.getSize();
  if (size <= 2) return Outcome::kInapplicable;
  ResizeAxis(module, axes[k].first, axes[k].second.getName(), size - 1);
  return Outcome::kApplied;
}

// `text` with every dimension size spelled out in a `tensor<AxBx...>` type replaced by
// `map(size)`. Sizes elsewhere (slice limits, window sizes, non-splat constants) stay, so a
// change that makes them disagree gives a program that does not parse, and is not kept.
std::string MapDimensionSizes(const std::string& text,
                              const std::function<int64_t(int64_t)>& map) {
  static constexpr char kTensor[] = "tensor<";
  std::string out;
  size_t done = 0;
  for (size_t at = text.find(kTensor); at != std::string::npos;
       at = text.find(kTensor, at)) {
    size_t p = at + sizeof(kTensor) - 1;
    out.append(text, done, p - done);
    while (true) {
      size_t q = p;
      while (q < text.size() && absl::ascii_isdigit(text[q])) ++q;
      if (q == p || q >= text.size() || text[q] != 'x') break;
      int64_t size;
      if (!absl::SimpleAtoi(absl::string_view(text).substr(p, q - p), &size)) break;
      absl::StrAppend(&out, map(size), "x");
      p = q + 1;
    }
    done = at = p;
  }
  out.append(text, done, std::string::npos);
  return out;
}

// The tensor dimension sizes in `text`, largest first, each once.
std::vector<int64_t> DimensionSizes(const std::string& text) {
  std::set<int64_t, std::greater<int64_t>> sizes;
  MapDimensionSizes(text, [&](int64_t size) {
    sizes.insert(size);
    return size;
  });
  return {sizes.begin(), sizes.end()};
}

// The elements of @main's arguments: the size of the inputs a case needs.
int64_t ArgumentElements(mlir::func::FuncOp main) {
  int64_t elements = 0;
  for (mlir::Type type : main.getArgumentTypes()) {
    elements += llvm::cast<mlir::RankedTensorType>(type).getNumElements();
  }
  return elements;
}

class Reducer {
 public:
  Reducer(CaseOptions options, std::function<bool(mlir::ModuleOp)> mutate)
      : options_(options), mutate_(std::move(mutate)) {}

  // The stage `text` fails at under `options`, or "" when it passes or is not a valid case.
  std::string FailingStage(const std::string& text, const CaseOptions& options,
                           std::string* failure = nullptr) {
    ++attempts_;
    absl::StatusOr<std::vector<Tensor>> inputs = SmallIntegerInputs(text, options.input_seed);
    if (!inputs.ok()) return "";
    HarnessOptions harness = ToHarnessOptions(options);
    harness.mutate = mutate_;
    PartitionedRun run = CheckPartitionedRun(text, *inputs, harness);
    // A program the reference cannot run is not a case at all.
    if (run.status.ok() || run.failed_stage == "parse" || run.failed_stage == "reference") {
      return "";
    }
    if (failure) *failure = std::string(run.status.message());
    return run.failed_stage;
  }

  absl::StatusOr<ReducedCase> Reduce(const std::string& text) {
    ReducedCase reduced;
    const uint64_t first = options_.input_seed;
    for (uint64_t seed = first; seed < first + kInputSeeds && reduced.stage.empty(); ++seed) {
      options_.input_seed = seed;
      reduced.stage = FailingStage(text, options_);
    }
    if (reduced.stage.empty()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "the program does not fail the differential check with small-integer inputs from "
          "seeds ", first, " to ", first + kInputSeeds - 1));
    }
    std::string best = text;
    const Step steps[] = {KeepOneResult, ReplaceOp, DropSharding, DropMeshAxis, ShrinkMeshAxis};
    bool progress = true;
    while (progress && attempts_ < kMaxAttempts) {
      progress = false;
      for (Step step : steps) {
        for (int k = 0; attempts_ < kMaxAttempts;) {
          absl::StatusOr<Parsed> parsed = Parse(best);
          if (!parsed.ok()) return parsed.status();
          Outcome outcome = step(*parsed->module, k);
          if (outcome == Outcome::kNoSite) break;
          if (outcome == Outcome::kInapplicable) {
            ++k;
            continue;
          }
          Cleanup(MainOf(*parsed->module));
          std::string candidate = Print(*parsed->module);
          if (FailingStage(candidate, options_) == reduced.stage) {
            best = candidate;
            progress = true;
          } else {
            ++k;
          }
        }
      }
      // Smaller shapes: one dimension size at a time, everywhere it occurs, to 1, to half
      // or one less.
      for (bool shrunk = true; shrunk && attempts_ < kMaxAttempts;) {
        shrunk = false;
        for (int64_t size : DimensionSizes(best)) {
          std::set<int64_t> smaller = {1, size / 2, size - 1};
          for (int64_t to : smaller) {
            if (to < 1 || to >= size || attempts_ >= kMaxAttempts) continue;
            std::string candidate = MapDimensionSizes(
                best, [&](int64_t s) { return s == size ? to : s; });
            if (FailingStage(candidate, options_) != reduced.stage) continue;
            best = candidate;
            shrunk = progress = true;
            break;
          }
          if (shrunk) break;
        }
      }
      // Options the failure does not need.
      for (int option = 0; option < 4; ++option) {
        CaseOptions fewer = options_;
        bool* flags[] = {&fewer.shard_weight_update, &fewer.combine_collectives,
                         &fewer.hierarchical_all_reduce};
        if (option < 3) {
          if (!*flags[option]) continue;
          *flags[option] = false;
        } else {
          if (!fewer.random_choice_seed) continue;
          fewer.random_choice_seed.reset();
        }
        if (FailingStage(best, fewer) == reduced.stage) {
          options_ = fewer;
          progress = true;
        }
      }
    }
    reduced.module = best;
    reduced.options = options_;
    FailingStage(best, options_, &reduced.failure);
    reduced.attempts = attempts_;
    absl::StatusOr<Parsed> before = Parse(text), after = Parse(best);
    if (before.ok()) {
      reduced.ops_before = CountOps(MainOf(*before->module));
      reduced.elements_before = ArgumentElements(MainOf(*before->module));
    }
    if (after.ok()) {
      reduced.ops_after = CountOps(MainOf(*after->module));
      reduced.elements_after = ArgumentElements(MainOf(*after->module));
    }
    return reduced;
  }

 private:
  CaseOptions options_;
  std::function<bool(mlir::ModuleOp)> mutate_;
  int attempts_ = 0;
};

}  // namespace

std::vector<Tensor> SmallIntegerInputs(mlir::func::FuncOp main, uint64_t seed) {
  std::vector<Tensor> inputs;
  for (unsigned i = 0; i < main.getNumArguments(); ++i) {
    auto type = llvm::cast<mlir::RankedTensorType>(main.getArgument(i).getType());
    runtime::Shape shape(type.getShape().begin(), type.getShape().end());
    absl::StatusOr<runtime::ElementType> element =
        runtime::ElementTypeFromMlir(type.getElementType());
    if (!element.ok() || !runtime::IsFloat(*element)) {
      inputs.push_back(runtime::RandomTensor(element.value_or(runtime::ElementType::kS32), shape,
                                             seed + i));
      continue;
    }
    Tensor ints = runtime::RandomTensor(runtime::ElementType::kS32, shape, seed + i);
    Tensor values = Tensor::Zeros(*element, shape);
    runtime::DispatchElementType(*element, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (!std::is_same_v<T, bool> && !runtime::kIsComplex<T>) {
        auto from = ints.data<int32_t>();
        auto to = values.data<T>();
        for (int64_t e = 0; e < values.num_elements(); ++e) to[e] = static_cast<T>(from[e]);
      }
    });
    inputs.push_back(std::move(values));
  }
  return inputs;
}

absl::StatusOr<std::vector<Tensor>> SmallIntegerInputs(const std::string& module_text,
                                                        uint64_t seed) {
  absl::StatusOr<Parsed> parsed = Parse(module_text);
  if (!parsed.ok()) return parsed.status();
  mlir::func::FuncOp main = MainOf(*parsed->module);
  if (!main) return absl::InvalidArgumentError("no function @main");
  for (mlir::Type type : main.getArgumentTypes()) {
    auto tensor = llvm::dyn_cast<mlir::RankedTensorType>(type);
    if (!tensor || !tensor.hasStaticShape()) {
      return absl::InvalidArgumentError("an argument of @main is not a tensor of static shape");
    }
  }
  try {
    return SmallIntegerInputs(main, seed);
  } catch (const runtime::TensorAllocationError& error) {
    return absl::ResourceExhaustedError(error.what());
  }
}

HarnessOptions ToHarnessOptions(const CaseOptions& options) {
  HarnessOptions harness;
  harness.shard_weight_update = options.shard_weight_update;
  harness.combine_collectives = options.combine_collectives;
  harness.hierarchical_all_reduce = options.hierarchical_all_reduce;
  harness.random_choice_seed = options.random_choice_seed;
  return harness;
}

std::string FormatCaseOptions(const CaseOptions& options) {
  std::vector<std::string> words;
  if (options.shard_weight_update) words.push_back("weight-update-sharding");
  if (options.combine_collectives) words.push_back("combine-collectives");
  if (options.hierarchical_all_reduce) words.push_back("hierarchical-all-reduce");
  if (options.random_choice_seed) {
    words.push_back(absl::StrCat("random-choices=", *options.random_choice_seed));
  }
  if (options.input_seed != 1) words.push_back(absl::StrCat("inputs=", options.input_seed));
  return absl::StrJoin(words, " ");
}

absl::StatusOr<CaseOptions> ParseCaseOptions(const std::string& line) {
  CaseOptions options;
  for (absl::string_view word : absl::StrSplit(line, ' ', absl::SkipEmpty())) {
    uint64_t seed;
    if (word == "weight-update-sharding") {
      options.shard_weight_update = true;
    } else if (word == "combine-collectives") {
      options.combine_collectives = true;
    } else if (word == "hierarchical-all-reduce") {
      options.hierarchical_all_reduce = true;
    } else if (absl::ConsumePrefix(&word, "random-choices=") && absl::SimpleAtoi(word, &seed)) {
      options.random_choice_seed = seed;
    } else if (absl::ConsumePrefix(&word, "inputs=") && absl::SimpleAtoi(word, &seed)) {
      options.input_seed = seed;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown case option '", word, "'"));
    }
  }
  return options;
}

absl::StatusOr<ReducedCase> ReduceFailure(const std::string& module_text,
                                          const CaseOptions& options,
                                          const std::function<bool(mlir::ModuleOp)>& mutate) {
  return Reducer(options, mutate).Reduce(module_text);
}

absl::Status WriteRegressionCase(const ReducedCase& reduced, const std::string& path,
                                 const std::string& title) {
  std::ofstream out(path);
  std::string first_line = reduced.failure.substr(0, reduced.failure.find('\n'));
  out << "// " << title << "\n// Fails at " << reduced.stage << ": " << first_line
      << "\n// options: " << FormatCaseOptions(reduced.options) << "\n"
      << reduced.module;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

absl::StatusOr<RegressionCase> ReadRegressionCase(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  RegressionCase result;
  result.module = buffer.str();
  for (absl::string_view line : absl::StrSplit(result.module, '\n')) {
    if (!absl::ConsumePrefix(&line, "// options:")) continue;
    absl::StatusOr<CaseOptions> parsed = ParseCaseOptions(std::string(line));
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ": ", parsed.status().message()));
    }
    result.options = *parsed;
  }
  return result;
}

}  // namespace tessel::testing
