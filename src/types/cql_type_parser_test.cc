#include <gtest/gtest.h>

#include "common/error.h"
#include "types/cql_type.h"

namespace sibyl::types {
namespace {

std::string Spell(std::string_view text) { return ParseCqlType(text)->ToCql(); }

void ExpectError(std::string_view text, ErrorCode code, const std::string& message) {
  try {
    ParseCqlType(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), code) << text;
    EXPECT_EQ(e.what(), message) << text;
  }
}

void ExpectSyntaxError(std::string_view text) {
  try {
    ParseCqlType(text);
    ADD_FAILURE() << "no error for " << text;
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kSyntaxError) << text << ": " << e.what();
  }
}

TEST(ParseCqlTypeTest, NativeTypes) {
  for (const char* name :
       {"ascii",  "bigint",    "blob",     "boolean", "counter", "date",     "decimal",
        "double", "duration",  "float",    "inet",    "int",     "smallint", "text",
        "time",   "timestamp", "timeuuid", "tinyint", "uuid",    "varint"}) {
    EXPECT_EQ(Spell(name), name);
  }
  EXPECT_EQ(ParseCqlType("varchar")->kind(), Kind::kText);
  EXPECT_EQ(Spell("varchar"), "text");
  EXPECT_EQ(Spell("  INT "), "int");
  EXPECT_EQ(Spell("TimeUUID"), "timeuuid");
  EXPECT_EQ(ParseCqlType("int").get(), CqlType::Native(Kind::kInt).get());
}

TEST(ParseCqlTypeTest, Collections) {
  EXPECT_EQ(Spell("set<text>"), "set<text>");
  EXPECT_EQ(Spell("LIST<VARCHAR>"), "list<text>");
  EXPECT_EQ(Spell("map<uuid,blob>"), "map<uuid, blob>");
  EXPECT_EQ(Spell("frozen<map<text, text>>"), "frozen<map<text, text>>");
  EXPECT_EQ(Spell("Frozen < List < Text > >"), "frozen<list<text>>");
  EXPECT_EQ(Spell("list<frozen<tuple<int,text>>>"), "list<frozen<tuple<int, text>>>");
  EXPECT_EQ(Spell("list<tuple<int, text>>"), "list<frozen<tuple<int, text>>>");
  EXPECT_EQ(Spell("map<text, frozen<list<int>>>"), "map<text, frozen<list<int>>>");
  EXPECT_TRUE(ParseCqlType("frozen<set<int>>")->frozen());
  EXPECT_FALSE(ParseCqlType("set<int>")->frozen());
}

TEST(ParseCqlTypeTest, FrozenFreezesWhatItHolds) {
  EXPECT_EQ(Spell("frozen<list<set<int>>>"), "frozen<list<frozen<set<int>>>>");
  EXPECT_EQ(Spell("frozen<map<set<int>, list<text>>>"),
            "frozen<map<frozen<set<int>>, frozen<list<text>>>>");
  EXPECT_EQ(Spell("frozen<list<address>>"), "frozen<list<frozen<address>>>");
}

TEST(ParseCqlTypeTest, TuplesAndVectors) {
  EXPECT_EQ(Spell("tuple<int, text>"), "frozen<tuple<int, text>>");
  EXPECT_EQ(Spell("frozen<tuple<int, text>>"), "frozen<tuple<int, text>>");
  EXPECT_EQ(Spell("tuple<int, list<text>>"), "frozen<tuple<int, frozen<list<text>>>>");
  EXPECT_EQ(ParseCqlType("tuple<int, text, bigint>")->params().size(), 3u);
  const TypePtr vector = ParseCqlType("vector<float, 3>");
  EXPECT_EQ(vector->kind(), Kind::kVector);
  EXPECT_EQ(vector->vector_dimension(), 3);
  EXPECT_EQ(vector->ToCql(), "vector<float, 3>");
  EXPECT_EQ(Spell("VECTOR<FLOAT,1024>"), "vector<float, 1024>");
  EXPECT_EQ(Spell("frozen<vector<float, 2>>"), "vector<float, 2>");
}

TEST(ParseCqlTypeTest, UserTypesComeBackUnresolved) {
  const TypePtr plain = ParseCqlType("address");
  EXPECT_TRUE(plain->is_unresolved_udt());
  EXPECT_EQ(plain->udt_name(), "address");
  EXPECT_EQ(plain->udt_keyspace(), "");
  EXPECT_FALSE(plain->frozen());

  const TypePtr frozen = ParseCqlType("frozen<Address>");
  EXPECT_EQ(frozen->udt_name(), "address");  // unquoted names fold to lower case
  EXPECT_TRUE(frozen->frozen());

  const TypePtr quoted = ParseCqlType("ks.\"My \"\"Type\"\"\"");
  EXPECT_EQ(quoted->udt_keyspace(), "ks");
  EXPECT_EQ(quoted->udt_name(), "My \"Type\"");
  EXPECT_EQ(quoted->ToCql(), "\"My \"\"Type\"\"\"");

  EXPECT_EQ(ParseCqlType("\"select\"")->udt_name(), "select");
  EXPECT_EQ(ParseCqlType("\"int\"")->kind(), Kind::kUdt);
}

TEST(ParseCqlTypeTest, CustomTypes) {
  const TypePtr custom = ParseCqlType("'org.example.Foo'");
  EXPECT_EQ(custom->kind(), Kind::kCustom);
  EXPECT_EQ(custom->custom_class(), "org.example.Foo");
  EXPECT_EQ(custom->ToCql(), "'org.example.Foo'");
}

TEST(ParseCqlTypeTest, CassandraRefusals) {
  ExpectError("list<set<int>>", ErrorCode::kInvalid,
              "Non-frozen collections are not allowed inside collections: list<set<int>>");
  ExpectError("map<int, list<int>>", ErrorCode::kInvalid,
              "Non-frozen collections are not allowed inside collections: map<int, list<int>>");
  ExpectError("map<set<int>, int>", ErrorCode::kInvalid,
              "Non-frozen collections are not allowed inside collections: map<set<int>, int>");
  ExpectError("set<address>", ErrorCode::kInvalid,
              "Non-frozen UDTs are not allowed inside collections: set<address>");
  ExpectError("frozen<int>", ErrorCode::kInvalid,
              "frozen<> is only allowed on collections, tuples, and user-defined types (got int)");
  ExpectError(
      "frozen<varchar>", ErrorCode::kInvalid,
      "frozen<> is only allowed on collections, tuples, and user-defined types (got varchar)");
  ExpectError("list<counter>", ErrorCode::kInvalid,
              "Counters are not allowed inside collections: list<counter>");
  ExpectError("map<counter, int>", ErrorCode::kInvalid,
              "Counters are not allowed inside collections: map<counter, int>");
  ExpectError("set<duration>", ErrorCode::kInvalid,
              "Durations are not allowed inside sets: set<duration>");
  ExpectError("map<duration, int>", ErrorCode::kInvalid,
              "Durations are not allowed as map keys: map<duration, int>");
  ExpectError("tuple<int, counter>", ErrorCode::kInvalid, "Counters are not allowed inside tuples");
  ExpectError("vector<float, 0>", ErrorCode::kInvalid,
              "vectors may only have positive dimensions; given 0");
  ExpectError("vector<float, -2>", ErrorCode::kInvalid,
              "vectors may only have positive dimensions; given -2");
  // Durations are fine as list elements and map values.
  EXPECT_EQ(Spell("list<duration>"), "list<duration>");
  EXPECT_EQ(Spell("map<int, duration>"), "map<int, duration>");
}

TEST(ParseCqlTypeTest, SyntaxErrors) {
  ExpectSyntaxError("");
  ExpectSyntaxError("list");
  ExpectSyntaxError("list<int");
  ExpectSyntaxError("map<int>");
  ExpectSyntaxError("list<int>>");
  ExpectSyntaxError("tuple<>");
  ExpectSyntaxError("vector<float>");
  ExpectSyntaxError("vector<float, x>");
  ExpectSyntaxError("int int");
  ExpectSyntaxError("select");
  ExpectSyntaxError("ks.table");
  ExpectSyntaxError("\"unterminated");
  ExpectSyntaxError("'unterminated");
  ExpectSyntaxError("1int");
  std::string deep;
  for (int i = 0; i < 100; ++i) deep += "frozen<list<";
  deep += "int";
  for (int i = 0; i < 100; ++i) deep += ">>";
  ExpectSyntaxError(deep);
}

TEST(ParseCqlTypeTest, SyntaxErrorSaysWhereAndWhat) {
  ExpectError("map<int>", ErrorCode::kSyntaxError,
              "Invalid type 'map<int>': expected ',' at character 8");
}

TEST(ParseCqlTypeTest, RoundTripsItsOwnSpelling) {
  for (const char* text :
       {"int", "set<text>", "frozen<list<text>>", "map<uuid, blob>", "frozen<map<text, text>>",
        "frozen<tuple<int, text>>", "list<frozen<tuple<int, frozen<list<text>>>>>",
        "vector<float, 3>", "frozen<address>", "map<text, frozen<address>>"}) {
    EXPECT_EQ(Spell(text), text);
    EXPECT_TRUE(ParseCqlType(Spell(text))->Equals(*ParseCqlType(text))) << text;
  }
}

}  // namespace
}  // namespace sibyl::types
