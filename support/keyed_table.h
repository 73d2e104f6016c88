// Values found by a key of machine words: the identities of uniqued objects (attributes,
// types, op names), counts and flags. Where many objects are built from the same few inputs
// (a program's ops repeat a few kinds), the table keeps what was built for each distinct
// input, and a lookup costs a hash and a compare of words instead of the building.
#ifndef TESSEL_SUPPORT_KEYED_TABLE_H_
#define TESSEL_SUPPORT_KEYED_TABLE_H_

#include <cstdint>
#include <deque>
#include <utility>

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"

namespace tessel {

// Values by a key of `Word`s, at stable addresses: a value found or inserted stays where it
// is while more are inserted.
template <typename Word, typename T>
class KeyedTable {
 public:
  const T* find(llvm::ArrayRef<Word> key) const {
    auto it = byHash_.find(hashOf(key));
    if (it == byHash_.end()) return nullptr;
    for (uint32_t index : it->second) {
      if (llvm::ArrayRef<Word>(entries_[index].key) == key) return &entries_[index].value;
    }
    return nullptr;
  }
  // REQUIRES: find(key) is null.
  const T& insert(llvm::ArrayRef<Word> key, T value) {
    byHash_[hashOf(key)].push_back(entries_.size());
    entries_.push_back({llvm::SmallVector<Word, 8>(key.begin(), key.end()), std::move(value)});
    return entries_.back().value;
  }

 private:
  static unsigned hashOf(llvm::ArrayRef<Word> key) {
    return static_cast<unsigned>(llvm::hash_combine_range(key.begin(), key.end()));
  }
  struct Entry {
    llvm::SmallVector<Word, 8> key;
    T value;
  };
  std::deque<Entry> entries_;  // a deque's push_back moves no element
  llvm::DenseMap<unsigned, llvm::SmallVector<uint32_t, 1>> byHash_;
};

}  // namespace tessel

#endif  // TESSEL_SUPPORT_KEYED_TABLE_H_
