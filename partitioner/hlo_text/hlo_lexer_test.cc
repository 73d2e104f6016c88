// Tests of the HLO text lexer's tokens and of the line and column it keeps, which every
// import diagnostic reports.
#include "partitioner/hlo_text/hlo_lexer.h"

#include <limits>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "mlir/IR/MLIRContext.h"

namespace tessel::hlo_text {
namespace {

std::pair<int, int> LineAndColumn(const Lexer& lex) { return {lex.pos().line, lex.pos().col}; }

TEST(HloLexerTest, TokensMoveTheColumnAndNewlinesTheLine) {
  mlir::MLIRContext context;
  Lexer lex("  %add.1 = f32[16] add(x, y)\n  ROOT r-2 = s32[] constant(-42)", SourcePos(),
            &context);
  lex.skipSpace();
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(1, 3));
  EXPECT_EQ(lex.lexName(), "add.1");  // the % is not part of the name
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(1, 9));
  lex.skipSpaceInLine();
  EXPECT_TRUE(lex.consume('='));
  lex.skipSpace();
  EXPECT_EQ(lex.lexIdentifier(), "f32");
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(1, 15));
  EXPECT_TRUE(lex.consume('['));
  EXPECT_EQ(lex.lexInt(), 16);
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(1, 18));
  // Past the end of the line, the next token's line and column.
  while (!lex.atEnd() && lex.peek() != '\n') lex.advance();
  lex.skipSpace();
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(2, 3));
  EXPECT_EQ(lex.lexIdentifier(), "ROOT");
  lex.skipSpace();
  EXPECT_EQ(lex.lexName(), "r-2");
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(2, 11));
  while (!lex.atEnd() && lex.peek() != '(') lex.advance();
  EXPECT_TRUE(lex.consume('('));
  EXPECT_EQ(lex.lexInt(), -42);
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(2, 32));
}

TEST(HloLexerTest, SpacesInLineStopAtTheNewline) {
  mlir::MLIRContext context;
  Lexer lex(" \t /* note */ x\n y", SourcePos(), &context);
  lex.skipSpaceInLine();
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(1, 15));
  EXPECT_EQ(lex.lexName(), "x");
  lex.skipSpaceInLine();
  EXPECT_EQ(lex.peek(), '\n');
  lex.skipSpace();
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(2, 2));
}

TEST(HloLexerTest, IntegersUpToTheLimitsOfInt64) {
  mlir::MLIRContext context;
  struct Case {
    const char* text;
    std::optional<int64_t> value;
  };
  for (const Case& c : std::vector<Case>{
           {"0", 0},
           {"-0", 0},
           {"+7", 7},
           {"007", 7},
           {"9223372036854775807", std::numeric_limits<int64_t>::max()},
           {"-9223372036854775808", std::numeric_limits<int64_t>::min()},
           {"-9223372036854775807", -std::numeric_limits<int64_t>::max()},
           {"9223372036854775808", std::nullopt},
           {"-9223372036854775809", std::nullopt},
           {"18446744073709551616", std::nullopt},
           {"-", std::nullopt},
           {"+-5", std::nullopt},
           {"x1", std::nullopt},
       }) {
    Lexer lex(c.text, SourcePos(), &context);
    EXPECT_EQ(lex.lexInt(), c.value) << c.text;
    // A number is consumed whole, or not at all.
    EXPECT_EQ(lex.atEnd(), c.value.has_value()) << c.text;
  }
}

TEST(HloLexerTest, AnIntegerOutOfRangeIsNotLexed) {
  mlir::MLIRContext context;
  Lexer lex("99999999999999999999 7", SourcePos(), &context);
  EXPECT_EQ(lex.lexInt(), std::nullopt);
  EXPECT_EQ(LineAndColumn(lex), std::make_pair(1, 1));
}

}  // namespace
}  // namespace tessel::hlo_text
