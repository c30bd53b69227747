#include "types/literal.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "types/cql_type_test_util.h"
#include "types/value_codec.h"

namespace sibyl::types {
namespace {

using CK = ConstantKind;
using LK = Literal::Kind;
using AR = AssignmentResult;

using testing::N;
Literal I(std::string text) { return Literal::Constant(CK::kInteger, std::move(text)); }
Literal S(std::string text) { return Literal::Constant(CK::kString, std::move(text)); }
Literal List(std::vector<Literal> e) { return Literal::Collection(LK::kList, std::move(e)); }
Literal Set(std::vector<Literal> e) { return Literal::Collection(LK::kSet, std::move(e)); }
Literal Map(std::vector<Literal> e) { return Literal::Collection(LK::kMap, std::move(e)); }
Literal Tuple(std::vector<Literal> e) { return Literal::Collection(LK::kTuple, std::move(e)); }

std::optional<Bytes> Convert(const Literal& literal, const TypePtr& type) {
  return ConvertLiteral(literal, "c", *type, 0);
}

std::string ErrorOf(const Literal& literal, const TypePtr& type) {
  try {
    (void)Convert(literal, type);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    return e.what();
  }
  return "no error";
}

TypePtr Address() {
  return CqlType::Udt("ks", "address", {"street", "zip", "Tags"},
                      {N(Kind::kText), N(Kind::kInt), CqlType::Set(N(Kind::kText), true)}, true);
}

TEST(LiteralTest, NullsAndConstantsAtTheTop) {
  EXPECT_EQ(Convert(Literal::Null(), N(Kind::kInt)), std::nullopt);
  EXPECT_EQ(ErrorOf(Literal::Null(), N(Kind::kCounter)),
            "Invalid null value for counter increment/decrement");
  EXPECT_EQ(Convert(I("7"), N(Kind::kInt)), EncodeInt(7));
  EXPECT_EQ(Convert(Literal::Value(EncodeInt(3), N(Kind::kInt), "?"), N(Kind::kInt)), EncodeInt(3));
  EXPECT_EQ(Convert(Literal::Value(std::nullopt, nullptr, "?"), N(Kind::kInt)), std::nullopt);
  EXPECT_EQ(ErrorOf(Literal::Value(Bytes("\x01", 1), nullptr, "?"), N(Kind::kInt)),
            "Expected 4 or 0 byte int (1)");
}

TEST(LiteralTest, Lists) {
  const TypePtr type = CqlType::List(N(Kind::kInt));
  EXPECT_EQ(Convert(List({I("3"), I("1"), I("3")}), type),
            EncodeList({EncodeInt(3), EncodeInt(1), EncodeInt(3)}));
  EXPECT_EQ(Convert(List({}), type), EncodeList({}));
  EXPECT_EQ(ErrorOf(List({I("1")}), CqlType::Set(N(Kind::kInt))),
            "Invalid list literal for c of type set<int>");
  EXPECT_EQ(ErrorOf(List({I("1"), S("a")}), type),
            "Invalid list literal for c: value 'a' is not of type int");
  // Assignment is checked for every element before any is converted.
  EXPECT_EQ(ErrorOf(List({I("99999999999"), S("a")}), type),
            "Invalid list literal for c: value 'a' is not of type int");
  EXPECT_EQ(ErrorOf(List({I("99999999999")}), type), "Unable to make int from '99999999999'");
  EXPECT_EQ(ErrorOf(List({Literal::Null(), I("1")}), type),
            "null is not supported inside collections");
  // Conversion errors come before null errors.
  EXPECT_EQ(ErrorOf(List({Literal::Null(), I("99999999999")}), type),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(ErrorOf(List({Literal::Unset()}), type),
            "Invalid list literal for c: bind variables are not supported inside collection "
            "literals");
  EXPECT_EQ(ErrorOf(List({List({I("1")})}), CqlType::List(CqlType::List(N(Kind::kInt), true))),
            "no error");
  EXPECT_EQ(ErrorOf(List({List({S("x")})}), CqlType::List(CqlType::List(N(Kind::kInt), true))),
            "Invalid list literal for c: value ['x'] is not of type frozen<list<int>>");
}

TEST(LiteralTest, SetsAreSortedAndDeduplicated) {
  const TypePtr type = CqlType::Set(N(Kind::kInt));
  EXPECT_EQ(Convert(Set({I("3"), I("-1"), I("3"), I("2")}), type),
            EncodeList({EncodeInt(-1), EncodeInt(2), EncodeInt(3)}));
  EXPECT_EQ(Convert(Set({}), type), EncodeList({}));
  EXPECT_EQ(Convert(Set({}), CqlType::Map(N(Kind::kInt), N(Kind::kInt))), EncodeMap({}));
  EXPECT_EQ(ErrorOf(Set({I("1")}), CqlType::Map(N(Kind::kInt), N(Kind::kInt))),
            "Invalid set literal for c of type map<int, int>");
  EXPECT_EQ(ErrorOf(Set({S("a")}), type),
            "Invalid set literal for c: value 'a' is not of type int");
  EXPECT_EQ(ErrorOf(Set({Literal::Null()}), type), "null is not supported inside collections");
  // Text sorts by bytes; varints numerically.
  EXPECT_EQ(Convert(Set({S("b"), S("B"), S("a")}), CqlType::Set(N(Kind::kText))),
            EncodeList({"B", "a", "b"}));
  EXPECT_EQ(Convert(Set({I("256"), I("-1"), I("3")}), CqlType::Set(N(Kind::kVarint))),
            EncodeList({EncodeVarint(-1), EncodeVarint(3), EncodeVarint(256)}));
}

TEST(LiteralTest, MapsAreSortedByKeyLastDuplicateWins) {
  const TypePtr type = CqlType::Map(N(Kind::kText), N(Kind::kInt));
  EXPECT_EQ(Convert(Map({S("b"), I("1"), S("a"), I("2"), S("b"), I("3")}), type),
            EncodeMap({{"a", EncodeInt(2)}, {"b", EncodeInt(3)}}));
  EXPECT_EQ(ErrorOf(Map({I("1"), I("1")}), type),
            "Invalid map literal for c: key 1 is not of type text");
  EXPECT_EQ(ErrorOf(Map({S("a"), S("b")}), type),
            "Invalid map literal for c: value 'b' is not of type int");
  EXPECT_EQ(ErrorOf(Map({S("a"), I("1")}), CqlType::Set(N(Kind::kText))),
            "Invalid map literal for c of type set<text>");
  EXPECT_EQ(ErrorOf(Map({S("a"), Literal::Null()}), type),
            "null is not supported inside collections");
  EXPECT_EQ(ErrorOf(Map({Literal::Null(), I("1")}), type),
            "null is not supported inside collections");
  // Element receivers are named key(c) and value(c).
  EXPECT_EQ(ErrorOf(Map({S("a"), Literal::Constant(CK::kHex, "0x01")}),
                    CqlType::Map(N(Kind::kText), N(Kind::kBlob))),
            "no error");
  EXPECT_EQ(ErrorOf(Map({S("a"), I("99999999999")}), type),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(Convert(Map({S("a"), List({I("1")})}),
                    CqlType::Map(N(Kind::kText), CqlType::List(N(Kind::kInt)))),
            EncodeMap({{"a", EncodeList({EncodeInt(1)})}}));
}

TEST(LiteralTest, Tuples) {
  const TypePtr type = CqlType::Tuple({N(Kind::kInt), N(Kind::kText)});
  const Bytes one = EncodeInt(1);
  EXPECT_EQ(Convert(Tuple({I("1"), S("x")}), type), EncodeTuple({BytesView(one), BytesView("x")}));
  EXPECT_EQ(Convert(Tuple({I("1"), Literal::Null()}), type),
            EncodeTuple({BytesView(one), std::nullopt}));
  // Fewer components than the type has: only those are written.
  EXPECT_EQ(Convert(Tuple({I("1")}), type), EncodeTuple({BytesView(one)}));
  EXPECT_EQ(ErrorOf(Tuple({I("1"), S("x"), I("2")}), type),
            "Invalid tuple literal for c: too many elements. Type frozen<tuple<int, text>> "
            "expects 2 but got 3");
  EXPECT_EQ(ErrorOf(Tuple({S("x"), S("x")}), type),
            "Invalid tuple literal for c: component 0 is not of type int");
  EXPECT_EQ(ErrorOf(Tuple({I("1")}), N(Kind::kInt)),
            "Invalid tuple type literal for c of type int");
  EXPECT_EQ(ErrorOf(Tuple({I("1"), Literal::Unset()}), type),
            "Invalid unset value for tuple field number 1");
  EXPECT_EQ(Convert(Tuple({Literal::Value(EncodeInt(5), N(Kind::kInt), "?"), S("y")}), type),
            EncodeTuple({BytesView(EncodeInt(5)), BytesView("y")}));
}

TEST(LiteralTest, UserTypes) {
  const TypePtr type = Address();
  const Bytes zip = EncodeInt(12345);
  EXPECT_EQ(Convert(Literal::Udt({"zip", "street"}, {I("12345"), S("Main")}), type),
            EncodeTuple({BytesView("Main"), BytesView(zip), std::nullopt}));
  // A repeated field keeps its last value, as the grammar's map does.
  EXPECT_EQ(Convert(Literal::Udt({"street", "street"}, {S("a"), S("b")}), type),
            EncodeTuple({BytesView("b"), std::nullopt, std::nullopt}));
  EXPECT_EQ(Convert(Literal::Udt({"Tags"}, {Set({S("y"), S("x")})}), type),
            EncodeTuple({std::nullopt, std::nullopt, BytesView(EncodeList({"x", "y"}))}));
  EXPECT_EQ(ErrorOf(Literal::Udt({"zip"}, {S("x")}), type),
            "Invalid user type literal for c: field zip is not of type int");
  EXPECT_EQ(ErrorOf(Literal::Udt({"zip", "city"}, {I("1"), S("x")}), type),
            "Unknown field 'city' in value of user defined type address");
  // Conversion errors of known fields come before unknown fields.
  EXPECT_EQ(ErrorOf(Literal::Udt({"city", "zip"}, {S("x"), I("99999999999")}), type),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(ErrorOf(Literal::Udt({"zip"}, {Literal::Unset()}), type),
            "Invalid unset value for field 'zip' of user defined type address");
  EXPECT_EQ(ErrorOf(Literal::Udt({"a"}, {I("1")}), CqlType::Map(N(Kind::kText), N(Kind::kInt))),
            "Invalid user type literal for c of type map<text, int>");
  EXPECT_EQ(ErrorOf(Map({S("street"), S("x")}), type),
            "Invalid map literal for c of type frozen<address>");
  EXPECT_EQ(ErrorOf(Set({}), type), "Invalid set literal for c of type frozen<address>");
}

TEST(LiteralTest, Vectors) {
  const TypePtr floats = CqlType::Vector(N(Kind::kFloat), 2);
  const Literal half = Literal::Constant(CK::kFloat, "0.5");
  EXPECT_EQ(Convert(List({half, I("2")}), floats), EncodeFloat(0.5f) + EncodeFloat(2));
  EXPECT_EQ(ErrorOf(List({half}), floats),
            "Invalid vector literal for c of type vector<float, 2>; expected 2 elements, but "
            "given 1");
  EXPECT_EQ(ErrorOf(List({half, S("a")}), floats),
            "Invalid vector literal for c: value 'a' is not of type float");
  EXPECT_EQ(ErrorOf(List({half, Literal::Null()}), floats), "null is not supported inside vectors");
  EXPECT_EQ(ErrorOf(List({half, Literal::Unset()}), floats),
            "null is not supported inside vectors");
  EXPECT_EQ(ErrorOf(Set({half, half}), floats),
            "Invalid set literal for c of type vector<float, 2>");
  const TypePtr texts = CqlType::Vector(N(Kind::kText), 2);
  EXPECT_EQ(Convert(List({S("a"), S("")}), texts), std::string("\x01"
                                                               "a"
                                                               "\x00",
                                                               3));
}

TEST(LiteralTest, AssignmentTests) {
  const TypePtr ints = CqlType::List(N(Kind::kInt));
  EXPECT_EQ(TestAssignment(List({I("1")}), *ints), AR::kExactMatch);
  EXPECT_EQ(TestAssignment(List({I("3000000000")}), *CqlType::List(N(Kind::kBigint))),
            AR::kExactMatch);
  EXPECT_EQ(TestAssignment(List({I("1")}), *CqlType::List(N(Kind::kBigint))),
            AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(List({}), *ints), AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(List({S("a")}), *ints), AR::kNotAssignable);
  EXPECT_EQ(TestAssignment(Set({}), *CqlType::Map(N(Kind::kInt), N(Kind::kInt))),
            AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(Map({I("1"), S("a")}), *CqlType::Map(N(Kind::kInt), N(Kind::kAscii))),
            AR::kExactMatch);
  EXPECT_EQ(TestAssignment(Map({I("1"), S("a")}), *CqlType::Map(N(Kind::kInt), N(Kind::kText))),
            AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(Tuple({I("1")}), *CqlType::Tuple({N(Kind::kInt)})),
            AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(Tuple({I("1"), I("2")}), *CqlType::Tuple({N(Kind::kInt)})),
            AR::kNotAssignable);
  EXPECT_EQ(TestAssignment(Literal::Udt({"zip"}, {I("1")}), *Address()), AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(Literal::Null(), *N(Kind::kCounter)), AR::kNotAssignable);
  EXPECT_EQ(TestAssignment(Literal::Null(), *N(Kind::kInt)), AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(List({I("1"), I("2")}), *CqlType::Vector(N(Kind::kInt), 2)),
            AR::kExactMatch);
  EXPECT_EQ(TestAssignment(List({I("1")}), *CqlType::Vector(N(Kind::kInt), 2)), AR::kNotAssignable);
  // Evaluated values by their type: exact, value-compatible, or not.
  const auto value_of = [](TypePtr t) { return Literal::Value(Bytes(), std::move(t), "f()"); };
  EXPECT_EQ(TestAssignment(value_of(N(Kind::kInt)), *N(Kind::kInt)), AR::kExactMatch);
  EXPECT_EQ(TestAssignment(value_of(N(Kind::kInt)), *N(Kind::kVarint)), AR::kWeaklyAssignable);
  EXPECT_EQ(TestAssignment(value_of(N(Kind::kInt)), *N(Kind::kText)), AR::kNotAssignable);
  EXPECT_EQ(TestAssignment(value_of(CqlType::List(N(Kind::kInt), true)), *ints), AR::kExactMatch);
}

// The first step of preparing a literal whose elements are bound later:
// each kind's checks, markers (kUnset) fitting anything.
TEST(LiteralTest, ValidateAssignableIsConversionsFirstStep) {
  auto error_of = [](const Literal& literal, const TypePtr& type) -> std::string {
    try {
      ValidateAssignable(literal, "c", *type);
    } catch (const CqlError& e) {
      return e.what();
    }
    return "no error";
  };
  const TypePtr pair = CqlType::Tuple({N(Kind::kInt), N(Kind::kText)});
  EXPECT_EQ(error_of(Tuple({Literal::Unset(), Literal::Unset()}), pair), "no error");
  EXPECT_EQ(error_of(Tuple({S("x"), Literal::Unset()}), pair),
            "Invalid tuple literal for c: component 0 is not of type int");
  EXPECT_EQ(error_of(Tuple({Literal::Unset(), Literal::Unset(), Literal::Unset()}), pair),
            "Invalid tuple literal for c: too many elements. Type frozen<tuple<int, text>> expects "
            "2 but got 3");
  EXPECT_EQ(error_of(Literal::Udt({"zip"}, {S("x")}), Address()),
            "Invalid user type literal for c: field zip is not of type int");
  // Unknown fields are not this step's business (CheckUdtFieldsKnown).
  EXPECT_EQ(error_of(Literal::Udt({"city"}, {Literal::Unset()}), Address()), "no error");
  EXPECT_EQ(error_of(List({Literal::Unset(), S("a")}), CqlType::List(N(Kind::kInt))),
            "Invalid list literal for c: value 'a' is not of type int");
  EXPECT_EQ(error_of(Set({I("1")}), CqlType::List(N(Kind::kInt))),
            "Invalid set literal for c of type list<int>");
  EXPECT_EQ(error_of(Set({}), CqlType::Map(N(Kind::kInt), N(Kind::kInt))), "no error");
  EXPECT_EQ(error_of(Map({Literal::Unset(), S("v")}), CqlType::Map(N(Kind::kInt), N(Kind::kInt))),
            "Invalid map literal for c: value 'v' is not of type int");
  EXPECT_EQ(
      error_of(List({I("1")}), CqlType::Vector(N(Kind::kInt), 2)),
      "Invalid vector literal for c of type vector<int, 2>; expected 2 elements, but given 1");
  EXPECT_EQ(error_of(List({Literal::Unset(), S("a")}), CqlType::Vector(N(Kind::kInt), 2)),
            "Invalid vector literal for c: value 'a' is not of type int");
  EXPECT_EQ(error_of(I("1"), N(Kind::kText)), "no error");  // not a composite literal
}

TEST(LiteralTest, UdtFieldsOfALiteral) {
  const Literal literal =
      Literal::Udt({"Tags", "zip", "zip", "city"}, {S("a"), I("1"), I("2"), S("x")});
  EXPECT_EQ(UdtFieldIndexes(literal, *Address()), (std::vector<int>{-1, 2, 0}));
  try {
    CheckUdtFieldsKnown(literal, *Address());
    ADD_FAILURE();
  } catch (const CqlError& e) {
    EXPECT_STREQ(e.what(), "Unknown field 'city' in value of user defined type address");
  }
  EXPECT_NO_THROW(CheckUdtFieldsKnown(Literal::Udt({"zip"}, {I("1")}), *Address()));
}

TEST(LiteralTest, AnUnsetFieldOfANonFrozenUdtIsTheEmptyValue) {
  const TypePtr address =
      CqlType::Udt("ks", "address", {"street", "zip", "Tags"},
                   {N(Kind::kText), N(Kind::kInt), CqlType::Set(N(Kind::kText), true)}, false);
  const Bytes zip = EncodeInt(1);
  EXPECT_EQ(Convert(Literal::Udt({"street", "zip"}, {Literal::Unset(), I("1")}), address),
            EncodeTuple({BytesView(), BytesView(zip), std::nullopt}));
  EXPECT_EQ(ErrorOf(Literal::Udt({"street", "zip"}, {Literal::Unset(), I("1")}), Address()),
            "Invalid unset value for field 'street' of user defined type address");
}

TEST(LiteralTest, TextAsCassandraShowsTerms) {
  EXPECT_EQ(S("it's").ToText(), "'it's'");
  EXPECT_EQ(Literal::Null().ToText(), "NULL");
  EXPECT_EQ(List({I("1"), S("a")}).ToText(), "[1, 'a']");
  EXPECT_EQ(Set({I("1")}).ToText(), "{1}");
  EXPECT_EQ(Map({I("1"), S("a"), I("2"), S("b")}).ToText(), "{1: 'a', 2: 'b'}");
  EXPECT_EQ(Tuple({I("1"), Literal::Null()}).ToText(), "(1, NULL)");
  EXPECT_EQ(Literal::Udt({"a", "b"}, {I("1"), S("x")}).ToText(), "{a: 1, b: 'x'}");
}

}  // namespace
}  // namespace sibyl::types
