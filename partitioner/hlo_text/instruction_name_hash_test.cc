// Tests of the HLO instruction-name hash: neighbouring numbers of one stem stay
// neighbours, and a name table keyed on it finds every name.
#include "partitioner/hlo_text/instruction_name_hash.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "llvm/ADT/CachedHashString.h"
#include "llvm/ADT/DenseMap.h"

namespace tessel::hlo_text {
namespace {

TEST(InstructionNameHashTest, NumbersOfOneStemFillARunOfHashes) {
  const uint32_t first = InstructionNameHash("add.128");
  for (int i = 1; i < 64; ++i) {
    EXPECT_EQ(InstructionNameHash("add." + std::to_string(128 + i)), first + i) << i;
  }
}

TEST(InstructionNameHashTest, StemsAndBlocksArePlacedApart) {
  // Different stems, and the next block of one stem, start runs elsewhere.
  const uint32_t add = InstructionNameHash("add.0") >> kNameBlockBits;
  EXPECT_NE(InstructionNameHash("multiply.0") >> kNameBlockBits, add);
  EXPECT_NE(InstructionNameHash("add.64") >> kNameBlockBits, add);
  EXPECT_NE(InstructionNameHash("add.64") >> kNameBlockBits,
            (InstructionNameHash("add.0") >> kNameBlockBits) + 1);
}

TEST(InstructionNameHashTest, NamesWithoutAUsableNumberHashTheirText) {
  EXPECT_NE(InstructionNameHash("x"), InstructionNameHash("y"));
  EXPECT_EQ(InstructionNameHash("param"), InstructionNameHash("param"));
  // Ten digits could overflow the number: the whole name is the stem then.
  EXPECT_NE(InstructionNameHash("a.1234567890"), InstructionNameHash("a.1234567891"));
  EXPECT_NE(InstructionNameHash("a.1234567890"), InstructionNameHash("b.1234567890"));
}

TEST(InstructionNameHashTest, ATableKeyedOnItFindsEveryName) {
  // Stems numbered per stem and over the module, as XLA writes them, and a few names
  // that share a number and differ only in leading zeros.
  std::vector<std::string> names;
  for (int i = 0; i < 20000; ++i) {
    names.push_back("add." + std::to_string(i));
    names.push_back("mul." + std::to_string(i));
    names.push_back("n" + std::to_string(i % 97) + "." + std::to_string(i));
  }
  names.push_back("add.007");
  names.push_back("add.07");
  llvm::DenseMap<llvm::CachedHashStringRef, int> table;
  for (size_t i = 0; i < names.size(); ++i) {
    const llvm::StringRef name = names[i];
    ASSERT_TRUE(
        table.try_emplace(llvm::CachedHashStringRef(name, InstructionNameHash(name)), i)
            .second)
        << name.str();
  }
  for (size_t i = 0; i < names.size(); ++i) {
    const llvm::StringRef name = names[i];
    auto it = table.find(llvm::CachedHashStringRef(name, InstructionNameHash(name)));
    ASSERT_NE(it, table.end()) << name.str();
    EXPECT_EQ(it->second, static_cast<int>(i));
  }
  EXPECT_EQ(table.find(llvm::CachedHashStringRef("add.20000",
                                                 InstructionNameHash("add.20000"))),
            table.end());
}

}  // namespace
}  // namespace tessel::hlo_text
