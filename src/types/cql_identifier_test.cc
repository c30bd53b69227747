#include "types/cql_identifier.h"

#include <gtest/gtest.h>

namespace sibyl::types {
namespace {

TEST(CqlIdentifierTest, ReservedKeywordsAnyCase) {
  EXPECT_TRUE(IsReservedKeyword("select"));
  EXPECT_TRUE(IsReservedKeyword("SELECT"));
  EXPECT_TRUE(IsReservedKeyword("Table"));
  EXPECT_TRUE(IsReservedKeyword("materialized"));
  EXPECT_TRUE(IsReservedKeyword("columnfamily"));
  // Keywords that Cassandra 4.1 does not reserve.
  EXPECT_FALSE(IsReservedKeyword("key"));
  EXPECT_FALSE(IsReservedKeyword("replace"));
  EXPECT_FALSE(IsReservedKeyword("text"));
  EXPECT_FALSE(IsReservedKeyword("frozen"));
  EXPECT_FALSE(IsReservedKeyword(""));
  EXPECT_FALSE(IsReservedKeyword("materializedx"));
}

TEST(CqlIdentifierTest, MaybeQuote) {
  EXPECT_EQ(MaybeQuoteIdentifier("address"), "address");
  EXPECT_EQ(MaybeQuoteIdentifier("a_1"), "a_1");
  EXPECT_EQ(MaybeQuoteIdentifier("Address"), "\"Address\"");
  EXPECT_EQ(MaybeQuoteIdentifier("1st"), "\"1st\"");
  EXPECT_EQ(MaybeQuoteIdentifier("_x"), "\"_x\"");
  EXPECT_EQ(MaybeQuoteIdentifier("select"), "\"select\"");
  EXPECT_EQ(MaybeQuoteIdentifier("with space"), "\"with space\"");
  EXPECT_EQ(MaybeQuoteIdentifier("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(MaybeQuoteIdentifier(""), "\"\"");
}

}  // namespace
}  // namespace sibyl::types
