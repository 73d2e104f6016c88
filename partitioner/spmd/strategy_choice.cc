// Pricing and choosing among candidate partitionings of one op (see strategy_choice.h).
#include "partitioner/spmd/strategy_choice.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "partitioner/spmd/random_choices.h"
#include "partitioner/spmd/strategy_cost.h"

namespace tessel::spmd {
namespace {

struct Priced {
  size_t index;
  int64_t devices;
  EmittedCost cost;
};

bool faster(const EmittedCost& a, const EmittedCost& b) {
  if (a.seconds < b.seconds * (1 - 1e-9)) return true;
  if (a.seconds > b.seconds * (1 + 1e-9)) return false;
  if (a.sentBytes != b.sentBytes) return a.sentBytes < b.sentBytes;
  return a.hoistedSeconds < b.hoistedSeconds * (1 - 1e-9);
}

bool noWorse(const EmittedCost& a, const EmittedCost& b) {
  return a.seconds <= b.seconds * (1 + 1e-9) && a.sentBytes <= b.sentBytes;
}

bool prefer(const Priced& a, const Priced& b) {
  if (a.devices == b.devices) return faster(a.cost, b.cost);
  if (a.devices < b.devices) return noWorse(a.cost, b.cost) && faster(a.cost, b.cost);
  return !noWorse(b.cost, a.cost);
}

// Everything the choice depends on: the op (name and attributes, its result sharding among
// them), its operands' types and layouts and which operands are one value.
std::vector<const void*> cacheKey(mlir::Operation* op, const PartitionState& state) {
  std::vector<const void*> key = {op->getName().getAsOpaquePointer(),
                                  op->getAttrDictionary().getAsOpaquePointer()};
  for (auto [index, operand] : llvm::enumerate(op->getOperands())) {
    key.push_back(operand.getType().getAsOpaquePointer());
    key.push_back(state.local(operand).layout.toSharding(op->getContext()).getAsOpaquePointer());
    unsigned same = index;
    for (unsigned earlier = 0; earlier < index; ++earlier) {
      if (op->getOperand(earlier) == operand) same = std::min(same, earlier);
    }
    key.push_back(reinterpret_cast<const void*>(static_cast<uintptr_t>(same)));
  }
  return key;
}

}  // namespace

mlir::FailureOr<std::optional<size_t>> chooseStrategy(
    mlir::Operation* op, PartitionState& state, ir::MeshAttr mesh, size_t count,
    llvm::function_ref<mlir::FailureOr<std::optional<int64_t>>(size_t)> emit,
    llvm::function_ref<std::string(size_t)> describe, StrategyPolicy policy) {
  if (count == 0) return std::optional<size_t>();
  if (count == 1 || !mesh) return std::optional<size_t>(0);
  // Inside loops the choice also depends on what is invariant, so it is not cached; nor is
  // a random one, which should differ from op to op.
  const bool random = randomChoicesLive();
  const bool cacheable = !state.inLoopBody() && !state.options().strategyRemarks && !random;
  std::vector<const void*> key;
  if (cacheable) {
    key = cacheKey(op, state);
    auto found = state.strategyCache().find(key);
    if (found != state.strategyCache().end()) return std::optional<size_t>(found->second);
  }
  std::vector<Priced> priced;
  for (size_t index = 0; index < count; ++index) {
    SpmdBuilder::TrialScope trial(state.spmd());
    mlir::FailureOr<std::optional<int64_t>> devices = emit(index);
    if (mlir::failed(devices)) return mlir::failure();
    if (!*devices) continue;
    auto invariant = [&](mlir::Value value) { return state.isLoopInvariant(value); };
    priced.push_back({index, **devices,
                      costOfEmitted(trial.block(), mesh, state.options().hardwareSpec(),
                                    invariant)});
    const EmittedCost& cost = priced.back().cost;
    if (!random && index == 0 && cost.communicationSeconds == 0 && cost.hoistedSeconds == 0 &&
        **devices == mesh.getTotalSize()) {
      break;
    }
  }
  if (priced.empty()) return std::optional<size_t>();
  if (std::optional<int64_t> trips = state.loopTrips(); trips && *trips > 0) {
    for (Priced& p : priced) {
      p.cost.seconds += p.cost.hoistedSeconds / *trips;
      p.cost.sentBytes += p.cost.hoistedSentBytes / *trips;
    }
  }
  size_t chosen = 0;
  for (size_t i = 1; i < priced.size(); ++i) {
    if (policy == StrategyPolicy::kNoMoreBytesThanFirst &&
        priced[i].cost.sentBytes > priced[0].cost.sentBytes) {
      continue;
    }
    if (prefer(priced[i], priced[chosen])) chosen = i;
  }
  if (random) chosen = *randomChoice(priced.size());
  if (cacheable) state.strategyCache()[key] = priced[chosen].index;
  if (state.options().onStrategyChosen && priced.size() > 1) {
    state.options().onStrategyChosen(op, chosen, priced.size());
  }
  if (state.options().strategyRemarks && priced.size() > 1) {
    size_t runnerUp = chosen == 0 ? 1 : 0;
    for (size_t i = 0; i < priced.size(); ++i) {
      if (i != chosen && priced[i].cost.seconds < priced[runnerUp].cost.seconds) runnerUp = i;
    }
    auto text = [&](const Priced& p) {
      return absl::StrCat(describe(p.index), " with ", p.cost.collectives, " (",
                          absl::StrFormat("%.3g", p.cost.seconds * 1e6), " us, ",
                          static_cast<int64_t>(p.cost.sentBytes), " bytes sent)");
    };
    op->emitRemark() << "strategy: " << text(priced[chosen])
                     << "; runner-up: " << text(priced[runnerUp]);
  }
  return std::optional<size_t>(priced[chosen].index);
}

}  // namespace tessel::spmd
