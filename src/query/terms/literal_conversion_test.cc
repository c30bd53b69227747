#include "query/terms/literal_conversion.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using TK = cql::Term::Kind;

cql::Term Literal(TK kind, std::string text) {
  cql::Term term;
  term.kind = kind;
  term.text = std::move(text);
  return term;
}

cql::Term Collection(TK kind, std::vector<cql::Term> elements) {
  cql::Term term;
  term.kind = kind;
  term.elements = std::move(elements);
  return term;
}

Bytes Convert(const cql::Term& term, std::string_view type) {
  return ConvertLiteral(term, "c", *types::ParseCqlType(type));
}

std::string ErrorOf(const cql::Term& term, std::string_view type) {
  try {
    (void)Convert(term, type);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    return e.what();
  }
  return "no error";
}

TEST(LiteralTest, Integers) {
  EXPECT_EQ(Convert(Literal(TK::kInteger, "-7"), "int"), types::EncodeInt(-7));
  EXPECT_EQ(Convert(Literal(TK::kInteger, "9000000000"), "bigint"),
            types::EncodeBigint(9000000000));
  EXPECT_EQ(Convert(Literal(TK::kInteger, "-300"), "smallint"), types::EncodeSmallint(-300));
  EXPECT_EQ(Convert(Literal(TK::kInteger, "127"), "tinyint"), types::EncodeTinyint(127));
  EXPECT_EQ(Convert(Literal(TK::kInteger, "3"), "double"), types::EncodeDouble(3.0));
  EXPECT_EQ(Convert(Literal(TK::kInteger, "1500"), "timestamp"), types::EncodeTimestamp(1500));
  EXPECT_EQ(ErrorOf(Literal(TK::kInteger, "99999999999"), "int"),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(ErrorOf(Literal(TK::kInteger, "128"), "tinyint"), "Unable to make byte from '128'");
}

TEST(LiteralTest, VarintsOfAnySize) {
  for (int64_t v : {0LL, 1LL, -1LL, 127LL, 128LL, -128LL, -129LL, 255LL, 256LL, 32767LL, -32768LL,
                    9223372036854775807LL}) {
    EXPECT_EQ(Convert(Literal(TK::kInteger, std::to_string(v)), "varint"), types::EncodeVarint(v))
        << v;
  }
  // 2^64: 01 00 00 00 00 00 00 00 00
  EXPECT_EQ(Convert(Literal(TK::kInteger, "18446744073709551616"), "varint"),
            Bytes("\x01\x00\x00\x00\x00\x00\x00\x00\x00", 9));
  EXPECT_EQ(Convert(Literal(TK::kInteger, "-18446744073709551616"), "varint"),
            Bytes("\xff\x00\x00\x00\x00\x00\x00\x00\x00", 9));
}

TEST(LiteralTest, OtherConstants) {
  EXPECT_EQ(Convert(Literal(TK::kString, "hé"), "text"), "hé");
  EXPECT_EQ(Convert(Literal(TK::kBoolean, "true"), "boolean"), types::EncodeBoolean(true));
  EXPECT_EQ(Convert(Literal(TK::kBlob, "0xCAfe"), "blob"), "\xca\xfe");
  EXPECT_EQ(ErrorOf(Literal(TK::kBlob, "0xabc"), "blob"), "cannot parse 'abc' as hex bytes");
  EXPECT_EQ(Convert(Literal(TK::kFloat, "1.5"), "float"), types::EncodeFloat(1.5f));
  EXPECT_EQ(Convert(Literal(TK::kString, "::1"), "inet").size(), 16u);
  const std::string uuid = "5f1e8b2a-0c3d-4e5f-8a9b-0c1d2e3f4a5b";
  EXPECT_EQ(Convert(Literal(TK::kUuid, uuid), "uuid"), types::Uuid::Parse(uuid)->ToBytes());
  EXPECT_EQ(ErrorOf(Literal(TK::kString, "x"), "ascii"), "no error");
  EXPECT_EQ(ErrorOf(Literal(TK::kBoolean, "true"), "int"),
            "Invalid BOOLEAN constant (true) for \"c\" of type int");
  EXPECT_EQ(ErrorOf(Literal(TK::kUuid, uuid), "text"),
            "Invalid UUID constant (" + uuid + ") for \"c\" of type text");
  EXPECT_EQ(ErrorOf(Literal(TK::kFloat, "1.5"), "int"),
            "Invalid FLOAT constant (1.5) for \"c\" of type int");
}

TEST(LiteralTest, Collections) {
  auto text = [](const char* s) { return Literal(TK::kString, s); };
  EXPECT_EQ(Convert(Collection(TK::kList, {text("b"), text("a"), text("b")}), "list<text>"),
            types::EncodeList({"b", "a", "b"}));
  // Sets are sorted and distinct; maps sorted by key, the last duplicate winning.
  EXPECT_EQ(Convert(Collection(TK::kSet, {text("b"), text("a"), text("b")}), "set<text>"),
            types::EncodeList({"a", "b"}));
  EXPECT_EQ(Convert(Collection(TK::kMap, {text("k2"), text("v2"), text("k1"), text("v1"),
                                          text("k2"), text("v3")}),
                    "frozen<map<text, text>>"),
            types::EncodeMap({{"k1", "v1"}, {"k2", "v3"}}));
  EXPECT_EQ(Convert(Collection(TK::kSet, {}), "map<text, int>"), types::EncodeMap({}));
  EXPECT_EQ(ErrorOf(Collection(TK::kSet, {text("a")}), "list<text>"),
            "Invalid set literal for c of type list<text>");
  EXPECT_EQ(ErrorOf(Collection(TK::kList, {Literal(TK::kNull, "")}), "list<text>"),
            "null is not supported inside collections");
  EXPECT_EQ(
      ErrorOf(Collection(TK::kMap, {text("k"), Literal(TK::kInteger, "1")}), "map<text, text>"),
      "Invalid map literal for c: value 1 is not of type text");
  const Bytes one = types::EncodeInt(1);
  EXPECT_EQ(
      Convert(Collection(TK::kTuple, {Literal(TK::kInteger, "1"), text("x")}), "tuple<int, text>"),
      types::EncodeTuple({BytesView(one), BytesView("x")}));
}

TEST(LiteralTest, MarkersStandForThemselves) {
  cql::Term positional;
  positional.kind = TK::kBindMarker;
  positional.bind_index = 0;
  cql::Term named = positional;
  named.bind_name = "v";
  const types::Literal tuple = ToTypesLiteral(Collection(TK::kTuple, {positional, named}));
  EXPECT_EQ(tuple.ToText(), "(?, :v)");
  EXPECT_EQ(tuple.elements[0].kind, types::Literal::Kind::kUnset);
  EXPECT_EQ(types::TestAssignment(tuple, *types::ParseCqlType("tuple<int, text>")),
            types::AssignmentResult::kWeaklyAssignable);
  // Lists, sets and maps refuse them as Cassandra does.
  EXPECT_EQ(ErrorOf(Collection(TK::kList, {Literal(TK::kInteger, "1"), positional}), "list<int>"),
            "Invalid list literal for c: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(ErrorOf(Collection(TK::kMap, {Literal(TK::kString, "k"), named}), "map<text, int>"),
            "Invalid map literal for c: bind variables are not supported inside collection "
            "literals");
}

}  // namespace
}  // namespace sibyl::query
