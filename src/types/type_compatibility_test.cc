#include "types/type_compatibility.h"

#include <gtest/gtest.h>

#include "types/cql_type_test_util.h"

namespace sibyl::types {
namespace {

using testing::N;

// new <- old, as the three relations see it.
struct Verdict {
  bool compatible;
  bool value_compatible;
  bool serialization_compatible;
};

Verdict Check(const TypePtr& new_type, const TypePtr& old_type) {
  return {IsCompatibleWith(*new_type, *old_type), IsValueCompatibleWith(*new_type, *old_type),
          IsSerializationCompatibleWith(*new_type, *old_type)};
}

void Expect(const TypePtr& new_type, const TypePtr& old_type, Verdict expected) {
  const Verdict v = Check(new_type, old_type);
  const std::string what = new_type->ToCql() + " <- " + old_type->ToCql();
  EXPECT_EQ(v.compatible, expected.compatible) << what << " compatible";
  EXPECT_EQ(v.value_compatible, expected.value_compatible) << what << " value";
  EXPECT_EQ(v.serialization_compatible, expected.serialization_compatible)
      << what << " serialization";
}

TEST(TypeCompatibilityTest, EveryTypeWithItself) {
  for (Kind kind :
       {Kind::kAscii,    Kind::kBigint,   Kind::kBlob,     Kind::kBoolean, Kind::kCounter,
        Kind::kDecimal,  Kind::kDouble,   Kind::kDuration, Kind::kFloat,   Kind::kInet,
        Kind::kInt,      Kind::kSmallint, Kind::kText,     Kind::kTime,    Kind::kTimestamp,
        Kind::kTimeuuid, Kind::kTinyint,  Kind::kUuid,     Kind::kVarint,  Kind::kDate}) {
    Expect(N(kind), N(kind), {true, true, true});
  }
  Expect(CqlType::Vector(N(Kind::kFloat), 3), CqlType::Vector(N(Kind::kFloat), 3),
         {true, true, true});
}

TEST(TypeCompatibilityTest, NativeTypes) {
  Expect(N(Kind::kText), N(Kind::kAscii), {true, true, true});
  Expect(N(Kind::kAscii), N(Kind::kText), {false, false, false});
  Expect(N(Kind::kBlob), N(Kind::kText), {true, true, true});
  Expect(N(Kind::kBlob), N(Kind::kAscii), {true, true, true});
  Expect(N(Kind::kBlob), N(Kind::kInt), {false, true, false});  // fixed width differs
  Expect(N(Kind::kText), N(Kind::kBlob), {false, false, false});
  Expect(N(Kind::kVarint), N(Kind::kInt), {false, true, false});
  Expect(N(Kind::kVarint), N(Kind::kBigint), {false, true, false});
  Expect(N(Kind::kVarint), N(Kind::kTimestamp), {false, true, false});
  Expect(N(Kind::kVarint), N(Kind::kSmallint), {false, false, false});
  Expect(N(Kind::kInt), N(Kind::kVarint), {false, false, false});
  Expect(N(Kind::kBigint), N(Kind::kTimestamp), {false, true, true});
  Expect(N(Kind::kTimestamp), N(Kind::kBigint), {false, true, true});
  Expect(N(Kind::kBigint), N(Kind::kInt), {false, false, false});
  Expect(N(Kind::kBigint), N(Kind::kCounter), {false, false, false});
  Expect(N(Kind::kTime), N(Kind::kBigint), {false, true, false});
  Expect(N(Kind::kDate), N(Kind::kInt), {false, true, false});
  Expect(N(Kind::kUuid), N(Kind::kTimeuuid), {false, true, true});
  Expect(N(Kind::kTimeuuid), N(Kind::kUuid), {false, false, false});
  Expect(N(Kind::kDouble), N(Kind::kFloat), {false, false, false});
  Expect(CqlType::Vector(N(Kind::kFloat), 3), CqlType::Vector(N(Kind::kFloat), 4),
         {false, false, false});
}

TEST(TypeCompatibilityTest, Collections) {
  const TypePtr text = N(Kind::kText);
  const TypePtr ascii = N(Kind::kAscii);
  Expect(CqlType::List(text), CqlType::List(ascii), {true, true, true});
  Expect(CqlType::Set(text), CqlType::Set(ascii), {true, true, true});
  Expect(CqlType::Map(text, text), CqlType::Map(ascii, ascii), {true, true, true});
  // Frozen and non-frozen never mix.
  Expect(CqlType::List(text, true), CqlType::List(text), {false, false, false});
  Expect(CqlType::List(text), CqlType::List(text, true), {false, false, false});
  // Frozen lists by element value compatibility; sets must keep their order.
  Expect(CqlType::List(N(Kind::kVarint), true), CqlType::List(N(Kind::kInt), true),
         {false, true, false});
  Expect(CqlType::Set(N(Kind::kVarint), true), CqlType::Set(N(Kind::kInt), true),
         {false, false, false});
  Expect(CqlType::Map(text, N(Kind::kBlob), true), CqlType::Map(ascii, text, true),
         {true, true, true});
  Expect(CqlType::Map(N(Kind::kBlob), text, true), CqlType::Map(N(Kind::kInt), text, true),
         {false, false, false});
  // A non-frozen list's elements are cell values: only their storage matters.
  Expect(CqlType::List(N(Kind::kBlob)), CqlType::List(text), {true, true, true});
  Expect(CqlType::List(N(Kind::kBlob)), CqlType::List(N(Kind::kInt)), {false, false, false});
  Expect(CqlType::List(text), CqlType::Set(text), {false, false, false});
  // Blob takes frozen collections, not non-frozen ones (AlterTest in Cassandra).
  Expect(N(Kind::kBlob), CqlType::Map(N(Kind::kInt), N(Kind::kInt), true), {false, true, true});
  Expect(N(Kind::kBlob), CqlType::Map(N(Kind::kInt), N(Kind::kInt)), {false, true, false});
  Expect(N(Kind::kBlob), CqlType::Set(N(Kind::kInt)), {false, true, false});
  Expect(CqlType::List(N(Kind::kInt)), N(Kind::kBlob), {false, false, false});
}

TEST(TypeCompatibilityTest, TuplesAndUserTypes) {
  const TypePtr i = N(Kind::kInt);
  const TypePtr t = N(Kind::kText);
  Expect(CqlType::Tuple({i, t, t}), CqlType::Tuple({i, t}), {true, true, true});
  Expect(CqlType::Tuple({i}), CqlType::Tuple({i, t}), {false, false, false});
  Expect(CqlType::Tuple({N(Kind::kVarint)}), CqlType::Tuple({i}), {false, true, true});
  const TypePtr v1 = CqlType::Udt("ks", "a", {"x"}, {i}, true);
  const TypePtr v2 = CqlType::Udt("ks", "a", {"x", "y"}, {i, t}, true);
  const TypePtr renamed = CqlType::Udt("ks", "b", {"z"}, {i}, true);
  const TypePtr other_keyspace = CqlType::Udt("ks2", "a", {"x"}, {i}, true);
  const TypePtr non_frozen = CqlType::Udt("ks", "a", {"x"}, {i}, false);
  Expect(v2, v1, {true, true, true});  // ALTER TYPE ADD
  Expect(v1, v2, {false, false, false});
  Expect(renamed, v1, {true, true, true});  // names play no part
  Expect(other_keyspace, v1, {true, false, false});
  Expect(non_frozen, v1, {true, false, false});
  // UDT fields must stay compatible (not merely value-compatible).
  Expect(CqlType::Udt("ks", "a", {"x"}, {N(Kind::kVarint)}, true), v1, {false, false, false});
  // A dropped UDT column is recorded as a tuple, which a UDT cannot replace.
  const TypePtr recorded = ExpandUserTypes(v1);
  EXPECT_EQ(recorded->ToCql(), "frozen<tuple<int>>");
  Expect(v1, recorded, {true, false, false});
  Expect(recorded, v1, {true, true, true});
}

TEST(TypeCompatibilityTest, ExpandUserTypesReachesEverywhere) {
  const TypePtr inner = CqlType::Udt("ks", "p", {"a"}, {N(Kind::kText)}, true);
  const TypePtr outer =
      CqlType::Udt("ks", "q", {"p", "ps"}, {inner, CqlType::List(inner, true)}, true);
  EXPECT_EQ(ExpandUserTypes(CqlType::Map(N(Kind::kInt), outer))->ToCql(),
            "map<int, frozen<tuple<frozen<tuple<text>>, frozen<list<frozen<tuple<text>>>>>>>");
  EXPECT_EQ(ExpandUserTypes(CqlType::Set(N(Kind::kInt)))->ToCql(), "set<int>");
}

}  // namespace
}  // namespace sibyl::types
