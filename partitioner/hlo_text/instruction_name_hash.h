// A hash for HLO instruction names that keeps names with neighbouring numbers in
// neighbouring buckets of a hash table.
//
// XLA names an instruction by a stem and a number (`add.123`, `dot_general.5`), counted
// either per stem or over the whole module, and the text defines them in rising order.
// Operands mostly name instructions a few lines up. With a hash that scatters every name,
// a parser's name table of a large computation, far bigger than the caches, misses on
// each insertion and on each operand's lookup. Here the low bits of the hash are the
// name's number within a block of 64 numbers, and the stem and the block's index, mixed,
// place the block: consecutive names of one stem fill a run of buckets, and an operand is
// found in lines that its definition brought into the cache. Runs are no longer than a
// block, so two stems whose runs meet cost a few probes, not a walk along a long run.
#ifndef TESSEL_PARTITIONER_HLO_TEXT_INSTRUCTION_NAME_HASH_H_
#define TESSEL_PARTITIONER_HLO_TEXT_INSTRUCTION_NAME_HASH_H_

#include <cstdint>

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace tessel::hlo_text {

constexpr int kNameBlockBits = 6;

inline uint32_t InstructionNameHash(llvm::StringRef name) {
  // The number is the name's trailing digits; more than nine could overflow, and then
  // the whole name is the stem.
  size_t digits = 0;
  while (digits < name.size() && llvm::isDigit(name[name.size() - 1 - digits])) ++digits;
  if (digits > 9) digits = 0;
  uint64_t number = 0;
  for (char c : name.take_back(digits)) number = number * 10 + (c - '0');
  const uint64_t stem = llvm::hash_value(name.drop_back(digits));
  const uint64_t block = number >> kNameBlockBits;
  const uint64_t place = (stem ^ block) * 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>(((place >> 32) << kNameBlockBits) |
                               (number & ((uint64_t{1} << kNameBlockBits) - 1)));
}

}  // namespace tessel::hlo_text

#endif  // TESSEL_PARTITIONER_HLO_TEXT_INSTRUCTION_NAME_HASH_H_
