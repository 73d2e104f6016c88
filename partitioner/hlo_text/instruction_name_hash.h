// A hash for HLO instruction names that keeps names with neighbouring numbers in
// neighbouring buckets of a hash table.
//
// XLA names an instruction by a stem and a number (`add.123`, `dot_general.5`). JAX's HLO
// numbers each stem on its own (`add.5`, `add.6`, `mul.5`), XlaBuilder counts over the
// whole module (`x.1`, `zero.2`, `sum.3`), and either way the numbers mostly rise down the
// text. With a hash that scatters every name, each insertion into a parser's name table of
// a large computation, far bigger than the caches, reads and writes a line no recent
// access brought in. Here the low bits of the hash are the name's number within a block
// of 64 numbers, and the block's index (mixed with the stem where each stem counts on its
// own) places the block: consecutive names fill a run of buckets, so their insertions
// share lines and pages. Runs are no longer than a block, so two runs that meet cost a
// few probes, not a walk along a long run.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_INSTRUCTION_NAME_HASH_H_
#define TESSEL_PARTITIONER_HLO_TEXT_INSTRUCTION_NAME_HASH_H_

#include <cstdint>
#include <optional>

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace tessel::hlo_text {

constexpr int kNameBlockBits = 6;
// Over the module, the hash bits that may pick a bucket (tables of up to 2^24 buckets);
// the byte above them fingerprints the stem.
constexpr uint32_t kOverModulePlaceMask = (uint32_t{1} << 24) - 1;

// How a module's names are numbered: each stem on its own (JAX's HLO), or one count
// over the module (XlaBuilder's ids: `x.1`, `zero.2`, `sum.3`).
enum class NameNumbering { kPerStem, kOverModule };

// `name` split into its stem and its number, the trailing digits; more than nine could
// overflow, and then the whole name is the stem and there is no number.
struct SplitName {
  llvm::StringRef stem;
  std::optional<uint64_t> number;
};

inline SplitName SplitInstructionName(llvm::StringRef name) {
  size_t digits = 0;
  while (digits < name.size() && llvm::isDigit(name[name.size() - 1 - digits])) ++digits;
  if (digits == 0 || digits > 9) return {name, std::nullopt};
  uint64_t number = 0;
  for (char c : name.take_back(digits)) number = number * 10 + (c - '0');
  return {name.drop_back(digits), number};
}

// Per stem, the stem and the block's index place a block of 64 numbers of that stem.
// Over the module, the block's index alone places 64 consecutive names of any stems, and
// a byte that fingerprints the stem sits above the bits that pick a bucket in tables of
// up to 2^24 buckets: names that share a number (a guess gone wrong) then meet in one
// bucket but mostly differ in their hash, and are told apart without reading their text.
inline uint32_t InstructionNameHash(llvm::StringRef name,
                                    NameNumbering numbering = NameNumbering::kPerStem) {
  const SplitName split = SplitInstructionName(name);
  const uint64_t number = split.number.value_or(0);
  const uint64_t offset = number & ((uint64_t{1} << kNameBlockBits) - 1);
  const uint64_t block = number >> kNameBlockBits;
  if (numbering == NameNumbering::kOverModule && split.number) {
    // A fingerprint, not a hash of the whole stem: it only spares comparing text.
    const llvm::StringRef stem = split.stem;
    const uint32_t stemByte =
        stem.empty() ? 0
                     : static_cast<uint32_t>(stem.size() * 131 + stem.front() * 31 +
                                             stem[stem.size() / 2] * 7 + stem.back());
    const uint64_t place = (block * 0x9E3779B97F4A7C15ull) >> 32;
    return static_cast<uint32_t>((((place << kNameBlockBits) | offset) & kOverModulePlaceMask) |
                                 ((stemByte & 0xFF) << 24));
  }
  const uint64_t place = (block ^ llvm::hash_value(split.stem)) * 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>(((place >> 32) << kNameBlockBits) | offset);
}

// The numbering of a module's names, judged from the first 64 numbered instruction names
// in the first 64 KiB of `text` (after the header): over the module when all their numbers
// differ. A wrong guess costs only speed.
NameNumbering GuessNameNumbering(llvm::StringRef text);

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_INSTRUCTION_NAME_HASH_H_
