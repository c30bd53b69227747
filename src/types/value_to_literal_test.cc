// Round trips: CQL literal text -> value -> ToCqlLiteral -> value again, for
// every type and its edge values. The literal text is read by a small parser
// of the literal forms (the real grammar lives in cql/, which types/ must not
// depend on).

#include "types/value_to_literal.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <limits>

#include "common/error.h"
#include "common/hex.h"
#include "types/big_number.h"
#include "types/cql_type.h"
#include "types/cql_type_test_util.h"
#include "types/literal.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::types {
namespace {

using CK = ConstantKind;
using LK = Literal::Kind;

using testing::N;

class MiniParser {
 public:
  explicit MiniParser(std::string_view text) : s_(text) {}

  Literal ParseAll() {
    Literal literal = Term();
    Skip();
    if (pos_ != s_.size()) Fail("trailing text");
    return literal;
  }

 private:
  [[noreturn]] void Fail(const char* why) {
    throw std::runtime_error(std::string(why) + " at " + std::to_string(pos_) + " in " +
                             std::string(s_));
  }
  void Skip() {
    while (pos_ < s_.size() && s_[pos_] == ' ') ++pos_;
  }
  bool Eat(char c) {
    Skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool StartsWith(std::string_view word) const { return s_.substr(pos_).starts_with(word); }

  std::vector<Literal> Elements(char close) {
    std::vector<Literal> out;
    if (Eat(close)) return out;
    do {
      out.push_back(Term());
    } while (Eat(','));
    if (!Eat(close)) Fail("unclosed");
    return out;
  }

  std::string Identifier() {
    Skip();
    std::string name;
    if (Eat('"')) {
      while (true) {
        if (pos_ >= s_.size()) Fail("unterminated identifier");
        if (s_[pos_] == '"') {
          if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '"') {
            name.push_back('"');
            pos_ += 2;
            continue;
          }
          ++pos_;
          return name;
        }
        name.push_back(s_[pos_++]);
      }
    }
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(s_[pos_++]))));
    }
    return name;
  }

  Literal Braces() {
    // {} is a set; {ident: ...} a UDT; {term: ...} a map; {term, ...} a set.
    Skip();
    if (Eat('}')) return Literal::Collection(LK::kSet, {});
    const size_t start = pos_;
    if (s_[pos_] == '"' || std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
      const bool keyword = StartsWith("true") || StartsWith("false") || StartsWith("null") ||
                           StartsWith("NaN") || StartsWith("Infinity");
      if (!keyword) {
        std::vector<std::string> names;
        std::vector<Literal> values;
        do {
          names.push_back(Identifier());
          if (!Eat(':')) Fail("expected :");
          values.push_back(Term());
        } while (Eat(','));
        if (!Eat('}')) Fail("unclosed udt");
        return Literal::Udt(std::move(names), std::move(values));
      }
    }
    pos_ = start;
    std::vector<Literal> elements;
    elements.push_back(Term());
    const bool map = Eat(':');
    if (map) elements.push_back(Term());
    while (Eat(',')) {
      elements.push_back(Term());
      if (map) {
        if (!Eat(':')) Fail("expected :");
        elements.push_back(Term());
      }
    }
    if (!Eat('}')) Fail("unclosed braces");
    return Literal::Collection(map ? LK::kMap : LK::kSet, std::move(elements));
  }

  Literal Term() {
    Skip();
    if (pos_ >= s_.size()) Fail("unexpected end");
    const char c = s_[pos_];
    if (Eat('[')) return Literal::Collection(LK::kList, Elements(']'));
    if (Eat('(')) return Literal::Collection(LK::kTuple, Elements(')'));
    if (Eat('{')) return Braces();
    if (c == '\'') {
      ++pos_;
      std::string text;
      while (true) {
        if (pos_ >= s_.size()) Fail("unterminated string");
        if (s_[pos_] == '\'') {
          if (pos_ + 1 < s_.size() && s_[pos_ + 1] == '\'') {
            text.push_back('\'');
            pos_ += 2;
            continue;
          }
          ++pos_;
          return Literal::Constant(CK::kString, text);
        }
        text.push_back(s_[pos_++]);
      }
    }
    for (std::string_view word : {"-Infinity", "Infinity", "NaN"}) {
      if (StartsWith(word)) {
        pos_ += word.size();
        return Literal::Constant(CK::kFloat, std::string(word));
      }
    }
    for (std::string_view word : {"true", "false"}) {
      if (StartsWith(word)) {
        pos_ += word.size();
        return Literal::Constant(CK::kBoolean, std::string(word));
      }
    }
    if (StartsWith("null")) {
      pos_ += 4;
      return Literal::Null();
    }
    if (StartsWith("0x")) {
      const size_t start = pos_;
      pos_ += 2;
      while (pos_ < s_.size() && std::isxdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return Literal::Constant(CK::kHex, std::string(s_.substr(start, pos_ - start)));
    }
    if (s_.size() - pos_ >= 36 && s_[pos_ + 8] == '-' && s_[pos_ + 13] == '-' &&
        Uuid::Parse(s_.substr(pos_, 36))) {
      pos_ += 36;
      return Literal::Constant(CK::kUuid, std::string(s_.substr(pos_ - 36, 36)));
    }
    return Number();
  }

  // -?digits then a float part, or duration units, or nothing.
  Literal Number() {
    const size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    if (pos_ < s_.size() && s_[pos_] == 'P') {  // an ISO duration
      while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return Literal::Constant(CK::kDuration, std::string(s_.substr(start, pos_ - start)));
    }
    const auto digits = [&] {
      const size_t from = pos_;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return pos_ > from;
    };
    if (!digits()) Fail("expected a term");
    bool is_float = false;
    if (pos_ < s_.size() && s_[pos_] == '.') {
      ++pos_;
      digits();
      is_float = true;
    }
    if (pos_ + 1 < s_.size() && (s_[pos_] == 'E' || s_[pos_] == 'e') &&
        (std::isdigit(static_cast<unsigned char>(s_[pos_ + 1])) || s_[pos_ + 1] == '+' ||
         s_[pos_ + 1] == '-')) {
      ++pos_;
      if (s_[pos_] == '+' || s_[pos_] == '-') ++pos_;
      digits();
      is_float = true;
    }
    if (!is_float && pos_ < s_.size() && std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
      while (pos_ < s_.size() && std::isalnum(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      return Literal::Constant(CK::kDuration, std::string(s_.substr(start, pos_ - start)));
    }
    return Literal::Constant(is_float ? CK::kFloat : CK::kInteger,
                             std::string(s_.substr(start, pos_ - start)));
  }

  std::string_view s_;
  size_t pos_ = 0;
};

std::optional<Bytes> FromText(const TypePtr& type, std::string_view text) {
  return ConvertLiteral(MiniParser(text).ParseAll(), "c", *type, /*now_millis=*/0);
}

// text -> value -> literal -> value; returns the literal written.
std::string RoundTrip(const TypePtr& type, std::string_view text) {
  const auto value = FromText(type, text);
  EXPECT_TRUE(value.has_value()) << text;
  if (!value) return "";
  const std::string literal = ToCqlLiteral(*type, *value);
  const auto again = FromText(type, literal);
  EXPECT_TRUE(again.has_value()) << literal;
  if (again) {
    EXPECT_EQ(ToHex(*again), ToHex(*value)) << type->ToCql() << ": " << text << " -> " << literal;
  }
  return literal;
}

TEST(ValueToLiteralTest, Integers) {
  EXPECT_EQ(RoundTrip(N(Kind::kInt), "-2147483648"), "-2147483648");
  EXPECT_EQ(RoundTrip(N(Kind::kInt), "2147483647"), "2147483647");
  EXPECT_EQ(RoundTrip(N(Kind::kBigint), "-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(RoundTrip(N(Kind::kCounter), "9223372036854775807"), "9223372036854775807");
  EXPECT_EQ(RoundTrip(N(Kind::kSmallint), "-32768"), "-32768");
  EXPECT_EQ(RoundTrip(N(Kind::kTinyint), "127"), "127");
  EXPECT_EQ(RoundTrip(N(Kind::kVarint), "-1234567890123456789012345678901234567890"),
            "-1234567890123456789012345678901234567890");
  EXPECT_EQ(RoundTrip(N(Kind::kVarint), "0"), "0");
}

TEST(ValueToLiteralTest, DecimalsKeepTheirScale) {
  EXPECT_EQ(RoundTrip(N(Kind::kDecimal), "1.50"), "1.50");
  EXPECT_EQ(RoundTrip(N(Kind::kDecimal), "1E+3"), "1E+3");
  EXPECT_EQ(RoundTrip(N(Kind::kDecimal), "-0.000001234"), "-0.000001234");
  EXPECT_EQ(RoundTrip(N(Kind::kDecimal), "0.0000001234"), "1.234E-7");
  EXPECT_EQ(RoundTrip(N(Kind::kDecimal), "12345678901234567890.123456789012345678901"),
            "12345678901234567890.123456789012345678901");
  EXPECT_EQ(RoundTrip(N(Kind::kDecimal), "0"), "0");
}

TEST(ValueToLiteralTest, FloatingPoint) {
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "1.5"), "1.5");
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "-0.0"), "-0.0");
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "1e300"), "1.0E300");
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "4.9e-324"), "4.9E-324");
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "0.1"), "0.1");
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "NaN"), "NaN");
  EXPECT_EQ(RoundTrip(N(Kind::kDouble), "-Infinity"), "-Infinity");
  EXPECT_EQ(RoundTrip(N(Kind::kFloat), "3.4028235e38"), "3.4028235E38");
  EXPECT_EQ(RoundTrip(N(Kind::kFloat), "1.1"), "1.1");
  EXPECT_EQ(RoundTrip(N(Kind::kFloat), "Infinity"), "Infinity");
  EXPECT_EQ(RoundTrip(N(Kind::kFloat), "-0.0"), "-0.0");
}

TEST(ValueToLiteralTest, TextBlobsBooleansUuidsInet) {
  EXPECT_EQ(RoundTrip(N(Kind::kText), "'it''s caf\xc3\xa9'"), "'it''s caf\xc3\xa9'");
  EXPECT_EQ(RoundTrip(N(Kind::kText), "''"), "''");
  EXPECT_EQ(RoundTrip(N(Kind::kAscii), "'a\nb'"), "'a\nb'");
  EXPECT_EQ(RoundTrip(N(Kind::kBlob), "0xCAFE00"), "0xcafe00");
  EXPECT_EQ(RoundTrip(N(Kind::kBlob), "0x"), "0x");
  EXPECT_EQ(RoundTrip(N(Kind::kBoolean), "true"), "true");
  EXPECT_EQ(RoundTrip(N(Kind::kBoolean), "false"), "false");
  EXPECT_EQ(RoundTrip(N(Kind::kUuid), "550E8400-E29B-41D4-A716-446655440000"),
            "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(RoundTrip(N(Kind::kTimeuuid), "6bddc89a-5644-11e4-97fc-56847afe9799"),
            "6bddc89a-5644-11e4-97fc-56847afe9799");
  EXPECT_EQ(RoundTrip(N(Kind::kInet), "'127.0.0.1'"), "'127.0.0.1'");
  EXPECT_EQ(RoundTrip(N(Kind::kInet), "'2001:0db8:0:0:0:0:0:1'"), "'2001:db8::1'");
  EXPECT_EQ(RoundTrip(N(Kind::kInet), "''"), "''");
}

TEST(ValueToLiteralTest, Timestamps) {
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "'2024-01-02 03:04:05.678+0000'"),
            "'2024-01-02T03:04:05.678Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "0"), "'1970-01-01T00:00:00.000Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "-1"), "'1969-12-31T23:59:59.999Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "'1582-10-04 23:59:59.999'"),
            "'1582-10-04T23:59:59.999Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "'2000-02-29'"), "'2000-02-29T00:00:00.000Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "'0001-01-01T00:00Z'"), "'0001-01-01T00:00:00.000Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "'+12024-06-01'"), "'12024-06-01T00:00:00.000Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "-9223372036854775808"), "-9223372036854775808");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "9223372036854775807"),
            "'292278994-08-17T07:12:55.807Z'");
  EXPECT_EQ(RoundTrip(N(Kind::kTimestamp), "''"), "''");
}

TEST(ValueToLiteralTest, DatesTimesDurations) {
  EXPECT_EQ(RoundTrip(N(Kind::kDate), "'2024-02-29'"), "'2024-02-29'");
  EXPECT_EQ(RoundTrip(N(Kind::kDate), "0"), "'-5877641-06-23'");
  EXPECT_EQ(RoundTrip(N(Kind::kDate), "4294967295"), "'+5881580-07-11'");
  EXPECT_EQ(RoundTrip(N(Kind::kDate), "'-0001-12-31'"), "'-0001-12-31'");
  EXPECT_EQ(RoundTrip(N(Kind::kDate), "'1582-10-10'"), "'1582-10-10'");
  EXPECT_EQ(RoundTrip(N(Kind::kTime), "'23:59:59.999999999'"), "'23:59:59.999999999'");
  EXPECT_EQ(RoundTrip(N(Kind::kTime), "0"), "'00:00:00.000000000'");
  EXPECT_EQ(RoundTrip(N(Kind::kDuration), "1h30m"), "1h30m");
  EXPECT_EQ(RoundTrip(N(Kind::kDuration), "-P1Y2M3DT4H5M6S"), "-1y2mo3d4h5m6s");
  EXPECT_EQ(RoundTrip(N(Kind::kDuration), "P4W"), "28d");
  EXPECT_EQ(RoundTrip(N(Kind::kDuration), "0s"), "0s");
  EXPECT_EQ(RoundTrip(N(Kind::kDuration), "-9223372036854775807ns"),
            "-2562047h47m16s854ms775us807ns");
}

TEST(ValueToLiteralTest, CollectionsTuplesUdtsVectors) {
  EXPECT_EQ(RoundTrip(CqlType::List(N(Kind::kInt)), "[3, 1, 3]"), "[3, 1, 3]");
  EXPECT_EQ(RoundTrip(CqlType::List(N(Kind::kInt)), "[]"), "[]");
  EXPECT_EQ(RoundTrip(CqlType::Set(N(Kind::kText)), "{'b', 'a', 'b'}"), "{'a', 'b'}");
  EXPECT_EQ(RoundTrip(CqlType::Set(N(Kind::kText)), "{}"), "{}");
  EXPECT_EQ(RoundTrip(CqlType::Map(N(Kind::kText), N(Kind::kInt)), "{'b': 2, 'a': 1}"),
            "{'a': 1, 'b': 2}");
  EXPECT_EQ(RoundTrip(CqlType::Map(N(Kind::kText), N(Kind::kInt)), "{}"), "{}");
  EXPECT_EQ(RoundTrip(CqlType::Map(N(Kind::kTimestamp),
                                   CqlType::List(CqlType::Set(N(Kind::kInt), true), true)),
                      "{0: [{2, 1}, {}]}"),
            "{'1970-01-01T00:00:00.000Z': [{1, 2}, {}]}");
  EXPECT_EQ(RoundTrip(CqlType::Tuple({N(Kind::kInt), N(Kind::kText), N(Kind::kBoolean)}),
                      "(1, null, true)"),
            "(1, null, true)");
  EXPECT_EQ(RoundTrip(CqlType::Tuple({N(Kind::kInt), N(Kind::kText)}), "(1)"), "(1)");
  const TypePtr udt = CqlType::Udt("ks", "address", {"street", "Zip", "select"},
                                   {N(Kind::kText), N(Kind::kInt), N(Kind::kDate)}, true);
  EXPECT_EQ(RoundTrip(udt, "{street: 'Main', \"Zip\": 12345}"),
            "{street: 'Main', \"Zip\": 12345, \"select\": null}");
  EXPECT_EQ(RoundTrip(CqlType::Vector(N(Kind::kFloat), 3), "[1.5, -0.0, NaN]"), "[1.5, -0.0, NaN]");
  EXPECT_EQ(RoundTrip(CqlType::Vector(N(Kind::kText), 2), "['a', '']"), "['a', '']");
}

TEST(ValueToLiteralTest, EmptyValuesAndErrors) {
  EXPECT_EQ(ToCqlLiteral(*N(Kind::kInt), ""), "blobasint(0x)");
  EXPECT_EQ(ToCqlLiteral(*N(Kind::kUuid), ""), "blobasuuid(0x)");
  EXPECT_EQ(ToCqlLiteral(*CqlType::List(N(Kind::kInt), true), ""), "[]");
  // Where the empty value has a literal of its own, that literal.
  for (Kind kind : {Kind::kText, Kind::kAscii, Kind::kTimestamp, Kind::kInet}) {
    EXPECT_EQ(ToCqlLiteral(*N(kind), ""), "''") << N(kind)->ToCql();
  }
  EXPECT_EQ(ToCqlLiteral(*N(Kind::kBlob), ""), "0x");
  EXPECT_EQ(ToCqlLiteral(*CqlType::Custom("org.example.Thing"), ""), "0x");
  EXPECT_EQ(ToCqlLiteral(*N(Kind::kBoolean), ""), "blobasboolean(0x)");
  EXPECT_EQ(ToCqlLiteral(*N(Kind::kDouble), ""), "blobasdouble(0x)");
  EXPECT_EQ(ToCqlLiteral(*CqlType::Set(N(Kind::kInt), true), ""), "{}");
  EXPECT_EQ(ToCqlLiteral(*CqlType::Map(N(Kind::kInt), N(Kind::kText), true), ""), "{}");
  EXPECT_EQ(ToCqlLiteral(
                *CqlType::Udt("ks", "point", {"x", "y"}, {N(Kind::kInt), N(Kind::kInt)}, true), ""),
            "{x: null, y: null}");
  EXPECT_THROW((void)ToCqlLiteral(*N(Kind::kInt), "\x01"), CqlError);
  EXPECT_THROW((void)ToCqlLiteral(*CqlType::Tuple({N(Kind::kInt)}), ""), CqlError);
}

}  // namespace
}  // namespace sibyl::types
