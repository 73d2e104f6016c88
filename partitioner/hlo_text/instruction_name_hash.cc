// See instruction_name_hash.h.
#include "partitioner/hlo_text/instruction_name_hash.h"

#include "llvm/ADT/DenseSet.h"

namespace tessel::hlo_text {

NameNumbering GuessNameNumbering(llvm::StringRef text) {
  constexpr int kNamesLooked = 64;
  // A bound on what is read, whatever the lines: the module may be one line.
  text = text.take_front(size_t{1} << 16);
  llvm::SmallDenseSet<uint64_t, 2 * kNamesLooked> numbers;
  int looked = 0;
  while (!text.empty() && looked < kNamesLooked) {
    auto [line, rest] = text.split('\n');
    text = rest;
    line = line.ltrim();
    line.consume_front("ROOT ");
    line = line.ltrim();
    line.consume_front("%");
    const llvm::StringRef name = line.take_until([](char c) { return c == ' ' || c == '='; });
    // Only instructions: `name = ...`, not a computation's `name {`.
    if (!line.drop_front(name.size()).ltrim().starts_with("=")) continue;
    const std::optional<uint64_t> number = SplitInstructionName(name).number;
    if (!number) continue;
    ++looked;
    if (!numbers.insert(*number).second) return NameNumbering::kPerStem;
  }
  return looked >= 2 ? NameNumbering::kOverModule : NameNumbering::kPerStem;
}

}  // namespace tessel::hlo_text
