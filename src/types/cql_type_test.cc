#include "types/cql_type.h"

#include <gtest/gtest.h>

#include "common/check.h"
#include "types/cql_type_test_util.h"

namespace sibyl::types {
namespace {

using testing::N;

std::string Hex(const Bytes& bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0x0f]);
  }
  return out;
}

std::string OptionHex(const TypePtr& type) {
  Bytes out;
  type->EncodeOption(out);
  return Hex(out);
}

TypePtr Address(bool frozen) {
  return CqlType::Udt("ks", "address", {"street", "zip"}, {N(Kind::kText), N(Kind::kInt)}, frozen);
}

TEST(CqlTypeTest, NativeSingletonsAreShared) {
  EXPECT_EQ(N(Kind::kInt).get(), N(Kind::kInt).get());
  EXPECT_TRUE(N(Kind::kInt)->is_native());
  EXPECT_FALSE(N(Kind::kInt)->frozen());
  EXPECT_THROW(CqlType::Native(Kind::kList), InternalError);
}

TEST(CqlTypeTest, NativeSpellings) {
  const std::pair<Kind, const char*> cases[] = {
      {Kind::kAscii, "ascii"},         {Kind::kBigint, "bigint"},     {Kind::kBlob, "blob"},
      {Kind::kBoolean, "boolean"},     {Kind::kCounter, "counter"},   {Kind::kDecimal, "decimal"},
      {Kind::kDouble, "double"},       {Kind::kFloat, "float"},       {Kind::kInt, "int"},
      {Kind::kTimestamp, "timestamp"}, {Kind::kUuid, "uuid"},         {Kind::kText, "text"},
      {Kind::kVarint, "varint"},       {Kind::kTimeuuid, "timeuuid"}, {Kind::kInet, "inet"},
      {Kind::kDate, "date"},           {Kind::kTime, "time"},         {Kind::kSmallint, "smallint"},
      {Kind::kTinyint, "tinyint"},     {Kind::kDuration, "duration"},
  };
  for (const auto& [kind, name] : cases) EXPECT_EQ(N(kind)->ToCql(), name);
}

TEST(CqlTypeTest, CollectionSpellingsAsSystemSchemaShowsThem) {
  EXPECT_EQ(CqlType::Set(N(Kind::kText))->ToCql(), "set<text>");
  EXPECT_EQ(CqlType::List(N(Kind::kText), true)->ToCql(), "frozen<list<text>>");
  EXPECT_EQ(CqlType::Map(N(Kind::kUuid), N(Kind::kBlob))->ToCql(), "map<uuid, blob>");
  EXPECT_EQ(CqlType::Map(N(Kind::kText), N(Kind::kText), true)->ToCql(), "frozen<map<text, text>>");
  EXPECT_EQ(CqlType::Tuple({N(Kind::kInt), N(Kind::kText)})->ToCql(), "frozen<tuple<int, text>>");
  EXPECT_EQ(CqlType::Vector(N(Kind::kFloat), 3)->ToCql(), "vector<float, 3>");
  EXPECT_EQ(CqlType::Custom("org.example.MyType")->ToCql(), "'org.example.MyType'");
}

TEST(CqlTypeTest, UdtSpellingIsItsNameQuotedIfNeeded) {
  EXPECT_EQ(Address(false)->ToCql(), "address");
  EXPECT_EQ(Address(true)->ToCql(), "frozen<address>");
  EXPECT_EQ(CqlType::Udt("ks", "Addr", {"a"}, {N(Kind::kInt)}, true)->ToCql(), "frozen<\"Addr\">");
  EXPECT_EQ(CqlType::Udt("ks", "table", {"a"}, {N(Kind::kInt)})->ToCql(), "\"table\"");
  EXPECT_EQ(CqlType::List(Address(true))->ToCql(), "list<frozen<address>>");
}

TEST(CqlTypeTest, FreezingReachesNestedCollectionsAndUdts) {
  const TypePtr nested = CqlType::List(CqlType::Set(N(Kind::kInt)), true);
  EXPECT_EQ(nested->ToCql(), "frozen<list<frozen<set<int>>>>");
  EXPECT_EQ(CqlType::Map(N(Kind::kText), Address(false), true)->ToCql(),
            "frozen<map<text, frozen<address>>>");
  EXPECT_EQ(CqlType::Tuple({CqlType::List(N(Kind::kInt)), Address(false)})->ToCql(),
            "frozen<tuple<frozen<list<int>>, frozen<address>>>");
  const TypePtr frozen =
      CqlType::Frozen(CqlType::Map(N(Kind::kInt), CqlType::List(N(Kind::kInt), true)));
  EXPECT_EQ(frozen->ToCql(), "frozen<map<int, frozen<list<int>>>>");
  EXPECT_TRUE(frozen->frozen());
  // Natives, tuples and vectors come back unchanged.
  EXPECT_EQ(CqlType::Frozen(N(Kind::kInt)).get(), N(Kind::kInt).get());
  const TypePtr tuple = CqlType::Tuple({N(Kind::kInt)});
  EXPECT_EQ(CqlType::Frozen(tuple).get(), tuple.get());
}

TEST(CqlTypeTest, MarshalNames) {
  EXPECT_EQ(N(Kind::kInt)->ToMarshal(), "org.apache.cassandra.db.marshal.Int32Type");
  EXPECT_EQ(N(Kind::kText)->ToMarshal(), "org.apache.cassandra.db.marshal.UTF8Type");
  EXPECT_EQ(N(Kind::kCounter)->ToMarshal(), "org.apache.cassandra.db.marshal.CounterColumnType");
  EXPECT_EQ(CqlType::Map(N(Kind::kText), N(Kind::kBigint))->ToMarshal(),
            "org.apache.cassandra.db.marshal.MapType(org.apache.cassandra.db.marshal.UTF8Type,"
            "org.apache.cassandra.db.marshal.LongType)");
  // Inside a frozen collection the nested FrozenType wrappers are left out.
  EXPECT_EQ(CqlType::List(CqlType::Set(N(Kind::kInt)), true)->ToMarshal(),
            "org.apache.cassandra.db.marshal.FrozenType(org.apache.cassandra.db.marshal.ListType("
            "org.apache.cassandra.db.marshal.SetType(org.apache.cassandra.db.marshal.Int32Type)))");
  EXPECT_EQ(CqlType::List(CqlType::Set(N(Kind::kInt), true))->ToMarshal(),
            "org.apache.cassandra.db.marshal.ListType(org.apache.cassandra.db.marshal.FrozenType("
            "org.apache.cassandra.db.marshal.SetType(org.apache.cassandra.db.marshal.Int32Type)))");
  EXPECT_EQ(CqlType::Tuple({N(Kind::kInt), N(Kind::kText)})->ToMarshal(),
            "org.apache.cassandra.db.marshal.TupleType(org.apache.cassandra.db.marshal.Int32Type,"
            "org.apache.cassandra.db.marshal.UTF8Type)");
  EXPECT_EQ(Address(true)->ToMarshal(),
            "org.apache.cassandra.db.marshal.FrozenType(org.apache.cassandra.db.marshal.UserType("
            "ks,61646472657373,737472656574:org.apache.cassandra.db.marshal.UTF8Type,"
            "7a6970:org.apache.cassandra.db.marshal.Int32Type))");
  EXPECT_EQ(
      CqlType::Vector(N(Kind::kFloat), 3)->ToMarshal(),
      "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType , 3)");
}

TEST(CqlTypeTest, OptionBytes) {
  EXPECT_EQ(OptionHex(N(Kind::kInt)), "0009");
  EXPECT_EQ(OptionHex(N(Kind::kText)), "000d");
  EXPECT_EQ(OptionHex(N(Kind::kDuration)), "0015");
  EXPECT_EQ(OptionHex(CqlType::List(N(Kind::kText))), "0020000d");
  EXPECT_EQ(OptionHex(CqlType::Set(N(Kind::kTinyint), true)), "00220014");
  EXPECT_EQ(OptionHex(CqlType::Map(N(Kind::kUuid), N(Kind::kBlob))), "0021000c0003");
  EXPECT_EQ(OptionHex(CqlType::Tuple({N(Kind::kInt), N(Kind::kText)})), "003100020009000d");
  // UDT: keyspace, name, field count, then (name, type) per field.
  EXPECT_EQ(OptionHex(Address(true)),
            "0030"
            "00026b73"
            "000761646472657373"
            "0002"
            "0006737472656574000d"
            "00037a69700009");
  EXPECT_EQ(OptionHex(CqlType::Custom("a.B")), "00000003612e42");
}

TEST(CqlTypeTest, VectorTravelsAsCustomType) {
  Bytes out;
  CqlType::Vector(N(Kind::kFloat), 3)->EncodeOption(out);
  const std::string name =
      "org.apache.cassandra.db.marshal.VectorType(org.apache.cassandra.db.marshal.FloatType , 3)";
  ASSERT_EQ(out.size(), 4 + name.size());
  EXPECT_EQ(out.substr(0, 2), std::string("\0\0", 2));
  EXPECT_EQ(LoadBE16(out.data() + 2), name.size());
  EXPECT_EQ(out.substr(4), name);
}

TEST(CqlTypeTest, Equality) {
  EXPECT_TRUE(CqlType::List(N(Kind::kInt))->Equals(*CqlType::List(N(Kind::kInt))));
  EXPECT_FALSE(CqlType::List(N(Kind::kInt))->Equals(*CqlType::List(N(Kind::kInt), true)));
  EXPECT_FALSE(CqlType::List(N(Kind::kInt))->Equals(*CqlType::Set(N(Kind::kInt))));
  EXPECT_FALSE(CqlType::Vector(N(Kind::kFloat), 3)->Equals(*CqlType::Vector(N(Kind::kFloat), 4)));
  EXPECT_TRUE(Address(true)->Equals(*Address(true)));
  EXPECT_FALSE(Address(true)->Equals(*Address(false)));
}

TEST(CqlTypeTest, UnresolvedUdt) {
  EXPECT_TRUE(CqlType::Udt("", "address", {}, {})->is_unresolved_udt());
  EXPECT_FALSE(Address(false)->is_unresolved_udt());
  EXPECT_FALSE(N(Kind::kInt)->is_unresolved_udt());
}

}  // namespace
}  // namespace sibyl::types
