#include "cql/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cql/keywords.h"

namespace sibyl::cql {
namespace {

using T = TokenType;

// The visible tokens of `query` (no whitespace or comments, no end token).
std::vector<Token> Visible(const TokenList& list) {
  std::vector<Token> out;
  for (const Token& token : list.tokens) {
    if (!token.hidden && token.type != T::kEof) out.push_back(token);
  }
  return out;
}

std::vector<T> Types(std::string_view query) {
  TokenList list = Tokenize(query);
  EXPECT_FALSE(list.error) << query << ": " << list.error->message;
  std::vector<T> types;
  for (const Token& token : Visible(list)) types.push_back(token.type);
  return types;
}

// The single visible token of `query`.
struct One {
  T type;
  std::string text;
};
One Single(std::string_view query) {
  TokenList list = Tokenize(query);
  EXPECT_FALSE(list.error) << query << ": " << list.error->message;
  std::vector<Token> tokens = Visible(list);
  EXPECT_EQ(tokens.size(), 1u) << query;
  if (tokens.empty()) return {T::kEof, ""};
  return {tokens[0].type, std::string(tokens[0].text)};
}

std::string LexErrorOf(std::string_view query) {
  TokenList list = Tokenize(query);
  if (!list.error) return "no error";
  return "line " + std::to_string(list.error->line) + ":" + std::to_string(list.error->column) +
         " " + list.error->message;
}

TEST(LexerTest, SplitsASelectWithPositions) {
  TokenList list = Tokenize("SELECT a,\n  \"B\" FROM ks.t;");
  ASSERT_FALSE(list.error);
  std::vector<Token> tokens = Visible(list);
  ASSERT_EQ(tokens.size(), 9u);
  EXPECT_EQ(tokens[0].type, T::kKwSelect);
  EXPECT_EQ(tokens[1].type, T::kIdent);
  EXPECT_EQ(tokens[2].type, T::kComma);
  EXPECT_EQ(tokens[3].type, T::kQuotedName);
  EXPECT_EQ(tokens[3].text, "B");
  EXPECT_EQ(tokens[3].source, "\"B\"");
  EXPECT_EQ(tokens[3].line, 2);
  EXPECT_EQ(tokens[3].column, 2);
  EXPECT_EQ(tokens[4].type, T::kKwFrom);
  EXPECT_EQ(tokens[4].column, 6);
  EXPECT_EQ(tokens[5].type, T::kIdent);
  EXPECT_EQ(tokens[6].type, T::kDot);
  EXPECT_EQ(tokens[7].type, T::kIdent);
  EXPECT_EQ(tokens[8].type, T::kSemicolon);
  EXPECT_EQ(tokens[0].line, 1);
  EXPECT_EQ(tokens[0].column, 0);
  // The end-of-input token has no position, as in Cassandra.
  EXPECT_EQ(list.tokens.back().type, T::kEof);
  EXPECT_EQ(list.tokens.back().line, 0);
  EXPECT_EQ(list.tokens.back().column, -1);
}

TEST(LexerTest, KeepsWhitespaceAndCommentsAsHiddenTokens) {
  TokenList list = Tokenize("a -- one\n/* two\n */ b // three\r\n");
  ASSERT_FALSE(list.error);
  std::vector<T> all;
  for (const Token& token : list.tokens) all.push_back(token.type);
  EXPECT_EQ(all, (std::vector<T>{T::kIdent, T::kWhitespace, T::kComment, T::kMultilineComment,
                                 T::kWhitespace, T::kIdent, T::kWhitespace, T::kComment,
                                 T::kWhitespace, T::kEof}));
  EXPECT_EQ(list.tokens[2].text, "-- one\n");    // the comment includes its line end
  EXPECT_EQ(list.tokens[7].text, "// three\r");  // '\r' ends it too
  EXPECT_EQ(list.tokens[5].line, 3);
  EXPECT_EQ(list.tokens[5].column, 4);
  EXPECT_TRUE(list.tokens[1].hidden);
  EXPECT_FALSE(list.tokens[5].hidden);
}

TEST(LexerTest, KeywordsAreCaseInsensitiveAndWholeWords) {
  EXPECT_EQ(Types("select SeLeCt SELECT selects select_"),
            (std::vector<T>{T::kKwSelect, T::kKwSelect, T::kKwSelect, T::kIdent, T::kIdent}));
  EXPECT_EQ(Single("TABLE").type, T::kKwColumnFamily);
  EXPECT_EQ(Single("columnfamily").type, T::kKwColumnFamily);
  EXPECT_EQ(Single("ColumnFamilies").type, T::kKwTables);
  EXPECT_EQ(Single("keyspace").type, T::kKwKeyspace);
  // K_SCHEMA is defined before K_KEYSPACE, so "schema" is always K_SCHEMA.
  EXPECT_EQ(Single("schema").type, T::kKwSchema);
  EXPECT_EQ(Single("MaxWriteTime").type, T::kKwMaxwritetime);
  EXPECT_EQ(Single("true").type, T::kBoolean);
  EXPECT_EQ(Single("FALSE").type, T::kBoolean);
  EXPECT_EQ(Single("trueish").type, T::kIdent);
  EXPECT_EQ(Single("NaN").type, T::kKwPositiveNan);
  EXPECT_EQ(Single("infinity").type, T::kKwPositiveInfinity);
}

TEST(LexerTest, KeywordClasses) {
  EXPECT_EQ(ClassOf(T::kKwSelect), KeywordClass::kReserved);
  EXPECT_EQ(ClassOf(T::kKwKey), KeywordClass::kUnreserved);
  EXPECT_EQ(ClassOf(T::kKwInt), KeywordClass::kNativeType);
  EXPECT_EQ(ClassOf(T::kKwFiltering), KeywordClass::kBasicUnreserved);
  EXPECT_EQ(ClassOf(T::kIdent), KeywordClass::kNotKeyword);
  EXPECT_TRUE(IsReservedWord("Table"));
  EXPECT_TRUE(IsReservedWord("nan"));
  EXPECT_FALSE(IsReservedWord("replace"));
  EXPECT_FALSE(IsReservedWord("values"));
  EXPECT_FALSE(IsReservedWord("anything"));
}

TEST(LexerTest, QuotedNamesKeepCaseAndUnescapeDoubledQuotes) {
  One name = Single("\"My \"\"Table\"\"\"");
  EXPECT_EQ(name.type, T::kQuotedName);
  EXPECT_EQ(name.text, "My \"Table\"");
  EXPECT_EQ(Single("\"\"").type, T::kEmptyQuotedName);
  One quote = Single("\"\"\"\"");  // a name that is one double quote
  EXPECT_EQ(quote.type, T::kQuotedName);
  EXPECT_EQ(quote.text, "\"");
}

TEST(LexerTest, StringLiterals) {
  One plain = Single("'it''s'");
  EXPECT_EQ(plain.type, T::kStringLiteral);
  EXPECT_EQ(plain.text, "it's");
  EXPECT_EQ(Single("''").text, "");
  One dollar = Single("$$a 'quoted' $ string$$");
  EXPECT_EQ(dollar.type, T::kStringLiteral);
  EXPECT_EQ(dollar.text, "a 'quoted' $ string");
  EXPECT_EQ(Single("$$$$").text, "");
  One multiline = Single("'line1\nline2'");
  EXPECT_EQ(multiline.text, "line1\nline2");
}

TEST(LexerTest, Numbers) {
  EXPECT_EQ(Single("42").type, T::kInteger);
  EXPECT_EQ(Single("-42").type, T::kInteger);
  EXPECT_EQ(Single("-42").text, "-42");
  EXPECT_EQ(Single("1.5").type, T::kFloat);
  EXPECT_EQ(Single("-1.5").type, T::kFloat);
  EXPECT_EQ(Single("1.").type, T::kFloat);
  EXPECT_EQ(Single("1e10").type, T::kFloat);
  EXPECT_EQ(Single("1.5E-3").type, T::kFloat);
  EXPECT_EQ(Single("2e+7").type, T::kFloat);
  EXPECT_EQ(Single("-NaN").type, T::kKwNegativeNan);
  EXPECT_EQ(Single("-Infinity").type, T::kKwNegativeInfinity);
  EXPECT_EQ(Single("0xCAFEbabe").type, T::kHexNumber);
  EXPECT_EQ(Single("0x").type, T::kHexNumber);
  EXPECT_EQ(Types("5-3"), (std::vector<T>{T::kInteger, T::kInteger}));
  EXPECT_EQ(Types("a - 3"), (std::vector<T>{T::kIdent, T::kMinus, T::kInteger}));
}

TEST(LexerTest, RangesBetweenNumbers) {
  // FLOAT's predicates: 1..2 is INTEGER RANGE INTEGER, 1...2 is FLOAT RANGE INTEGER.
  EXPECT_EQ(Types("1..2"), (std::vector<T>{T::kInteger, T::kRange, T::kInteger}));
  EXPECT_EQ(Types("1...2"), (std::vector<T>{T::kFloat, T::kRange, T::kInteger}));
  EXPECT_EQ(Types("[..'b']"),
            (std::vector<T>{T::kLBracket, T::kRange, T::kStringLiteral, T::kRBracket}));
}

TEST(LexerTest, Uuids) {
  One uuid = Single("550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(uuid.type, T::kUuid);
  EXPECT_EQ(uuid.text, "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(Single("DEADBEEF-0000-1111-2222-333344445555").type, T::kUuid);
  // Eight hex digits and a dash commit to a UUID.
  EXPECT_EQ(LexErrorOf("eccb34b0-0d4b-11ea-9d48-0b1cc2ad2f9;"),
            "line 1:35 mismatched character ';' expecting set null");
}

TEST(LexerTest, Durations) {
  for (const char* text : {"1h30m", "12mo", "-1h", "3d", "2w", "1y", "10ms", "7us", "7\xC2\xB5s",
                           "5ns", "1H30M", "P1Y2M3DT4H5M6S", "P2W", "PT1H", "PT30M10S", "P1D",
                           "P1Y", "-P1D", "P0001-02-03T04:05:06"}) {
    One token = Single(text);
    EXPECT_EQ(token.type, T::kDuration) << text;
    EXPECT_EQ(token.text, text);
  }
  // ISO forms are upper case; a word that only starts like one is an identifier.
  EXPECT_EQ(Single("p1d").type, T::kIdent);
  EXPECT_EQ(Single("P1").type, T::kIdent);
  EXPECT_EQ(Single("P1Dx").type, T::kIdent);
  EXPECT_EQ(Single("PER").type, T::kKwPer);
}

TEST(LexerTest, PunctuationAndOperators) {
  EXPECT_EQ(Types("= != < <= > >= += -= + - * / % ( ) [ ] { } , ; . : .. ?"),
            (std::vector<T>{T::kEq,        T::kNeq,      T::kLt,      T::kLte,    T::kGt,
                            T::kGte,       T::kPlusEq,   T::kMinusEq, T::kPlus,   T::kMinus,
                            T::kStar,      T::kSlash,    T::kPercent, T::kLParen, T::kRParen,
                            T::kLBracket,  T::kRBracket, T::kLBrace,  T::kRBrace, T::kComma,
                            T::kSemicolon, T::kDot,      T::kColon,   T::kRange,  T::kQmark}));
  EXPECT_EQ(Types(":name ?"), (std::vector<T>{T::kColon, T::kIdent, T::kQmark}));
  // The custom index expression opener is one token, lower case only.
  EXPECT_EQ(Types("expr(i, 'x')"),
            (std::vector<T>{T::kExprOpen, T::kIdent, T::kComma, T::kStringLiteral, T::kRParen}));
  EXPECT_EQ(Types("EXPR("), (std::vector<T>{T::kIdent, T::kLParen}));
  EXPECT_EQ(Types("expr ("), (std::vector<T>{T::kIdent, T::kLParen}));
}

TEST(LexerTest, ColumnsCountUtf16Units) {
  // 'é' is one UTF-16 unit, '😀' two; Cassandra's columns count units.
  TokenList list = Tokenize("'\xC3\xA9\xF0\x9F\x98\x80' x");
  ASSERT_FALSE(list.error);
  std::vector<Token> tokens = Visible(list);
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[1].column, 6);
}

TEST(LexerTest, Errors) {
  EXPECT_EQ(LexErrorOf("SELECT a @ b"), "line 1:9 no viable alternative at character '@'");
  EXPECT_EQ(LexErrorOf("a\n  #"), "line 2:2 no viable alternative at character '#'");
  EXPECT_EQ(LexErrorOf("'abc"), "line 1:4 mismatched character '<EOF>' expecting '''");
  EXPECT_EQ(LexErrorOf("\"abc"), "line 1:4 mismatched character '<EOF>' expecting '\"'");
  EXPECT_EQ(LexErrorOf("-----"), "line 1:5 mismatched character '<EOF>' expecting set null");
  EXPECT_EQ(LexErrorOf("a // no newline"),
            "line 1:15 mismatched character '<EOF>' expecting set null");
  EXPECT_EQ(LexErrorOf("/* open"), "line 1:7 mismatched character '<EOF>' expecting '*'");
  EXPECT_EQ(LexErrorOf("a ! b"), "line 1:3 mismatched character ' ' expecting '='");
  EXPECT_EQ(LexErrorOf("$x"), "line 1:1 mismatched character 'x' expecting '$'");
  // An unterminated $$ string fails on its last character (Lexer.g's
  // predicate wants two characters left).
  EXPECT_EQ(LexErrorOf("$$abc;"), "line 1:5 mismatched character ';' expecting '$'");
  EXPECT_EQ(LexErrorOf("1e"), "line 1:2 no viable alternative at character '<EOF>'");
  EXPECT_EQ(LexErrorOf("-nx"), "line 1:2 mismatched character 'x' expecting set null");
  EXPECT_EQ(LexErrorOf("x\t\xC3\xA9"), "line 1:2 no viable alternative at character '\xC3\xA9'");
  EXPECT_EQ(LexErrorOf("\n\r\x01"), "line 2:1 no viable alternative at character '\x01'");
}

TEST(LexerTest, StopsAtTheFirstErrorAndRecordsWhereItIsReported) {
  TokenList list = Tokenize("a b @ c");
  ASSERT_TRUE(list.error);
  // a, ws, b, ws, then the end token: the error is reported when it is fetched.
  ASSERT_EQ(list.tokens.size(), 5u);
  EXPECT_EQ(list.error->token_index, 4u);
  EXPECT_EQ(list.tokens.back().type, T::kEof);
}

TEST(LexerTest, AnyBytesLexWithoutCrashing) {
  std::string bytes;
  for (int i = 0; i < 256; ++i) bytes.push_back(static_cast<char>(i));
  for (size_t start = 0; start < bytes.size(); ++start) {
    TokenList list = Tokenize(std::string_view(bytes).substr(start));
    EXPECT_EQ(list.tokens.back().type, T::kEof);
  }
}

}  // namespace
}  // namespace sibyl::cql
