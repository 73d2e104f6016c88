// Names and sizes of the collectives' data types.
#include "collectives/data_type.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <iterator>

namespace tessel::collectives {

absl::string_view DataTypeName(DataType type) {
  switch (type) {
    case DataType::kPred: return "pred";
    case DataType::kS8: return "s8";
    case DataType::kS16: return "s16";
    case DataType::kS32: return "s32";
    case DataType::kS64: return "s64";
    case DataType::kU8: return "u8";
    case DataType::kU16: return "u16";
    case DataType::kU32: return "u32";
    case DataType::kU64: return "u64";
    case DataType::kF16: return "f16";
    case DataType::kBF16: return "bf16";
    case DataType::kF32: return "f32";
    case DataType::kF64: return "f64";
    case DataType::kC64: return "c64";
    case DataType::kC128: return "c128";
  }
  return "unknown";
}

namespace {

// A name of up to four characters as one word, its length above its bytes (so that a name
// with a NUL byte in it cannot pass for a shorter one).
constexpr uint64_t PackName(absl::string_view name) {
  uint64_t word = name.size();
  for (char c : name) word = word << 8 | static_cast<uint8_t>(c);
  return word;
}

}  // namespace

std::optional<DataType> DataTypeFromName(absl::string_view name) {
  // Every HLO shape names its element type, so this runs once per instruction parsed: the
  // names are gathered once, as words, and a lookup compares a word with each.
  struct Entry {
    uint64_t name;
    DataType type;
  };
  static const auto kEntries = [] {
    std::array<Entry, std::size(kAllDataTypes) + std::size(kComplexDataTypes)> entries;
    size_t next = 0;
    for (DataType type : kAllDataTypes) entries[next++] = {PackName(DataTypeName(type)), type};
    for (DataType type : kComplexDataTypes) {
      entries[next++] = {PackName(DataTypeName(type)), type};
    }
    return entries;
  }();
  if (name.size() > 4) return std::nullopt;  // every name fits in a word
  const uint64_t word = PackName(name);
  for (const Entry& entry : kEntries) {
    if (entry.name == word) return entry.type;
  }
  return std::nullopt;
}

int64_t DataTypeSize(DataType type) {
  return DispatchDataType(type,
                          [](auto tag) -> int64_t { return sizeof(typename decltype(tag)::type); });
}

}  // namespace tessel::collectives
