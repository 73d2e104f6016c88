// Tests of the HLO instruction-name hash: neighbouring numbers stay neighbours, per stem or
// over the module, a name table keyed on it finds every name, and the numbering is
// guessed from the text.
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

TEST(InstructionNameHashTest, NumbersOverTheModuleFillARunWhateverTheStem) {
  // The bits that pick a bucket (up to 2^24 buckets); the byte above them is the stem's.
  auto bucketBits = [](llvm::StringRef name) {
    return InstructionNameHash(name, NameNumbering::kOverModule) & kOverModulePlaceMask;
  };
  const uint32_t first = bucketBits("x.128");
  EXPECT_EQ(bucketBits("zero.129"), first + 1);
  EXPECT_EQ(bucketBits("sum.191"), first + 63);
  EXPECT_NE(bucketBits("sum.192") >> kNameBlockBits, first >> kNameBlockBits);
}

TEST(InstructionNameHashTest, NamesSharingANumberOverTheModuleDifferAboveTheBucket) {
  // Where the guess is wrong and stems count on their own, `add.5` and `mul.5` share a
  // bucket; their hashes still differ, so the table compares no text between them.
  const NameNumbering overModule = NameNumbering::kOverModule;
  const uint32_t add = InstructionNameHash("add.5", overModule);
  const uint32_t mul = InstructionNameHash("mul.5", overModule);
  EXPECT_EQ(add & kOverModulePlaceMask, mul & kOverModulePlaceMask);
  EXPECT_NE(add, mul);
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

void ExpectTableFindsEveryName(NameNumbering numbering) {
  // Stems numbered per stem and over the module, as XLA writes them, and a few names
  // that share a number and differ only in leading zeros.
  std::vector<std::string> names;
  for (int i = 0; i < 20000; ++i) {
    names.push_back("add." + std::to_string(i));
    names.push_back("mul." + std::to_string(i));
    names.push_back("n" + std::to_string(i % 97) + "." + std::to_string(20000 + i));
  }
  names.push_back("add.007");
  names.push_back("add.07");
  names.push_back("no_number");
  llvm::DenseMap<llvm::CachedHashStringRef, int> table;
  auto key = [&](llvm::StringRef name) {
    return llvm::CachedHashStringRef(name, InstructionNameHash(name, numbering));
  };
  for (size_t i = 0; i < names.size(); ++i) {
    ASSERT_TRUE(table.try_emplace(key(names[i]), i).second) << names[i];
  }
  for (size_t i = 0; i < names.size(); ++i) {
    auto it = table.find(key(names[i]));
    ASSERT_NE(it, table.end()) << names[i];
    EXPECT_EQ(it->second, static_cast<int>(i));
  }
  EXPECT_EQ(table.find(key("add.20000")), table.end());
}

TEST(InstructionNameHashTest, ATableKeyedOnItFindsEveryName) {
  ExpectTableFindsEveryName(NameNumbering::kPerStem);
  ExpectTableFindsEveryName(NameNumbering::kOverModule);
}

TEST(GuessNameNumberingTest, NumbersThatRepeatAreCountedPerStem) {
  EXPECT_EQ(GuessNameNumbering("ENTRY main.1 {\n"
                               "  x.1 = f32[4] parameter(0)\n"
                               "  tanh.1 = f32[4] tanh(x.1)\n"
                               "  ROOT add.3 = f32[4] add(tanh.1, x.1)\n}\n"),
            NameNumbering::kPerStem);
}

TEST(GuessNameNumberingTest, NumbersThatNeverRepeatCountOverTheModule) {
  // Computation headers (`region.1 {`) are not instructions, and names without a number
  // are passed over.
  EXPECT_EQ(GuessNameNumbering("region.1 {\n  a = f32[] parameter(0)\n}\n\n"
                               "ENTRY main.1 {\n"
                               "  %x.1 = f32[4] parameter(0)\n"
                               "  tanh.2 = f32[4] tanh(x.1)\n"
                               "  ROOT add.3 = f32[4] add(tanh.2, x.1)\n}\n"),
            NameNumbering::kOverModule);
}

TEST(GuessNameNumberingTest, TooFewNumbersOrTooMuchTextGuessPerStem) {
  EXPECT_EQ(GuessNameNumbering(""), NameNumbering::kPerStem);
  EXPECT_EQ(GuessNameNumbering("ENTRY m {\n  x.1 = f32[] parameter(0)\n}\n"),
            NameNumbering::kPerStem);
  // Only the first 64 KiB are read: a repeat past them is not seen.
  std::string text = "ENTRY m {\n  a.1 = f32[] parameter(0)\n  b.2 = f32[] negate(a.1)\n";
  text += std::string(1 << 17, ' ') + "\n  c.1 = f32[] negate(b.2)\n}\n";
  EXPECT_EQ(GuessNameNumbering(text), NameNumbering::kOverModule);
}

}  // namespace
}  // namespace tessel::hlo_text
