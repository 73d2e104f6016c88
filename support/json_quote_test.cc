// Tests of JSON string literals.
#include "support/json_quote.h"

#include "gtest/gtest.h"

namespace tessel {
namespace {

TEST(JsonQuoteTest, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(JsonQuote("a\"b\\c\n\x01"), "\"a\\\"b\\\\c\\n\\u0001\"");
  EXPECT_EQ(JsonQuote("tab\there"), "\"tab\\there\"");
  EXPECT_EQ(JsonQuote(""), "\"\"");
}

}  // namespace
}  // namespace tessel
