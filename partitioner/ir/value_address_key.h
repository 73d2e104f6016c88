// A hash-table key policy for mlir::Value that keeps neighbouring values in neighbouring
// buckets.
//
// MLIR hashes a Value by mixing its pointer, which scatters the values of one block over
// the whole table: a pass that fills or reads a table of a million values in program
// order then misses the cache on every access. Ops are allocated as they are built, so the
// values of a program lie at rising addresses. Here the address, in 16-byte granules, is
// the hash within each 64 KiB of memory, so a run of nearby values lands in a run of
// nearby buckets, and operands, mostly defined a few ops earlier, are found in lines still
// in the cache. Each 64 KiB block is moved by a mixed multiple of its number: blocks of
// the same layout (the allocator lays out its pages alike) would otherwise meet in the
// same buckets wherever the table's size divides their distance.
//
//   llvm::DenseMap<mlir::Value, int32_t, ir::ValueAddressKey> slotOf;
#ifndef TESSEL_PARTITIONER_IR_VALUE_ADDRESS_KEY_H_
#define TESSEL_PARTITIONER_IR_VALUE_ADDRESS_KEY_H_

#include <cstdint>

#include "llvm/ADT/DenseMapInfo.h"
#include "mlir/IR/Value.h"

namespace tessel::ir {

struct ValueAddressKey : llvm::DenseMapInfo<mlir::Value> {
  static constexpr int kGranuleBits = 4;
  static constexpr int kBlockBits = 12;  // granules per block, as a power of two

  static unsigned getHashValue(mlir::Value value) {
    const uint64_t granule =
        reinterpret_cast<uintptr_t>(value.getAsOpaquePointer()) >> kGranuleBits;
    const uint64_t block = granule >> kBlockBits;
    return static_cast<unsigned>(granule + ((block * 0x9E3779B97F4A7C15ull) >> 32));
  }
};

}  // namespace tessel::ir

#endif  // TESSEL_PARTITIONER_IR_VALUE_ADDRESS_KEY_H_
