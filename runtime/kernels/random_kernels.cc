// Kernel of hlo.rng_bit_generator: each element's bits from its position in the whole
// (global) output, so a windowed op makes exactly its box of the whole tensor.
#include <cstring>
#include <type_traits>
#include <vector>

#include "partitioner/ir/hlo/hlo_ops.h"
#include "runtime/kernels/counter_rng.h"
#include "runtime/kernels/elementwise_util.h"
#include "runtime/kernels/index_utils.h"
#include "runtime/kernels/kernels.h"
#include "support/status_macros.h"

namespace tessel::runtime {
namespace {

using KernelResult = absl::StatusOr<std::vector<Tensor>>;

KernelResult RunRngBitGenerator(hlo::RngBitGeneratorOp op, KernelArgs args) {
  const Tensor& stateTensor = *args.operands[0];
  absl::Span<const uint64_t> state = stateTensor.data<uint64_t>();
  TESSEL_ASSIGN_OR_RETURN(ElementType type,
                          ElementTypeFromMlir(op.getOutput().getType().getElementType()));
  const Shape local = ResultShape(op, 1);
  Shape global = local;
  std::vector<int64_t> start(local.size(), 0);
  if (std::optional<llvm::ArrayRef<int64_t>> window = op.getGlobalShape()) {
    global.assign(window->begin(), window->end());
    for (size_t d = 0; d < start.size(); ++d) start[d] = ReadInteger(*args.operands[1 + d], 0);
  }
  const rng::Algorithm algorithm = op.getAlgorithm() == hlo::RngAlgorithm::THREE_FRY
                                       ? rng::Algorithm::kThreeFry
                                       : rng::Algorithm::kPhilox;
  TESSEL_ASSIGN_OR_RETURN(
      rng::BitLayout layout,
      rng::BitLayout::Create(algorithm, state, global,
                             static_cast<int>(ElementTypeSize(type) * 8)));
  Tensor bits = Tensor::Zeros(type, local);
  const int64_t count = NumElements(local);
  std::vector<int64_t> index(local.size(), 0), position(local.size(), 0);
  KernelResult failed = DispatchElementType(type, [&](auto tag) -> KernelResult {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_integral_v<T> || std::is_same_v<T, bool>) {
      return UnsupportedElementType(type);
    } else {
      absl::Span<T> out = bits.data<T>();
      for (int64_t i = 0; i < count; ++i, NextIndex(local, absl::MakeSpan(index))) {
        bool inside = true;
        for (size_t d = 0; d < index.size(); ++d) {
          position[d] = start[d] + index[d];
          inside = inside && position[d] >= 0 && position[d] < global[d];
        }
        if (!inside) continue;  // stays 0
        const auto word = static_cast<std::make_unsigned_t<T>>(layout.At(position));
        std::memcpy(&out[i], &word, sizeof(T));
      }
      return std::vector<Tensor>{};
    }
  });
  if (!failed.ok()) return failed.status();
  std::vector<uint64_t> next = layout.NextState();
  std::vector<Tensor> results;
  results.push_back(Tensor::FromVector<uint64_t>({static_cast<int64_t>(next.size())}, next));
  results.push_back(std::move(bits));
  return results;
}

}  // namespace

void RegisterRandomKernels(KernelRegistry& registry) {
  registry.Register<hlo::RngBitGeneratorOp>(RunRngBitGenerator);
}

}  // namespace tessel::runtime
