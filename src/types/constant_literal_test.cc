#include "types/constant_literal.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "common/error.h"
#include "types/big_number.h"
#include "types/cql_type_test_util.h"
#include "types/uuid.h"
#include "types/value_codec.h"

namespace sibyl::types {
namespace {

using CK = ConstantKind;
using AR = AssignmentResult;

constexpr int64_t kNow = 1'700'000'000'123;
constexpr const char* kV1 = "6bddc89a-5644-11e4-97fc-56847afe9799";  // a version 1 UUID
constexpr const char* kV4 = "550e8400-e29b-41d4-a716-446655440000";

using testing::N;

Bytes C(CK kind, std::string_view text, Kind type) {
  return ConvertConstant(kind, text, "c", *N(type), kNow);
}

std::string ErrorOf(CK kind, std::string_view text, const TypePtr& type) {
  try {
    (void)ConvertConstant(kind, text, "c", *type, kNow);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    return e.what();
  }
  return "no error";
}
std::string ErrorOf(CK kind, std::string_view text, Kind type) {
  return ErrorOf(kind, text, N(type));
}

TEST(ConstantLiteralTest, Integers) {
  EXPECT_EQ(C(CK::kInteger, "-42", Kind::kInt), EncodeInt(-42));
  EXPECT_EQ(C(CK::kInteger, "2147483647", Kind::kInt), EncodeInt(INT32_MAX));
  EXPECT_EQ(C(CK::kInteger, "-9223372036854775808", Kind::kBigint), EncodeBigint(INT64_MIN));
  EXPECT_EQ(C(CK::kInteger, "5", Kind::kCounter), EncodeBigint(5));
  EXPECT_EQ(C(CK::kInteger, "-32768", Kind::kSmallint), EncodeSmallint(-32768));
  EXPECT_EQ(C(CK::kInteger, "127", Kind::kTinyint), EncodeTinyint(127));
  EXPECT_EQ(VarintToString(C(CK::kInteger, "-123456789012345678901234567890", Kind::kVarint)),
            "-123456789012345678901234567890");
  EXPECT_EQ(DecimalToString(C(CK::kInteger, "12", Kind::kDecimal)), "12");
  EXPECT_EQ(C(CK::kInteger, "3", Kind::kDouble), EncodeDouble(3));
  EXPECT_EQ(C(CK::kInteger, "16777217", Kind::kFloat), EncodeFloat(16777216.0f));
  EXPECT_EQ(ErrorOf(CK::kInteger, "99999999999", Kind::kInt),
            "Unable to make int from '99999999999'");
  EXPECT_EQ(ErrorOf(CK::kInteger, "9223372036854775808", Kind::kBigint),
            "Unable to make long from '9223372036854775808'");
  EXPECT_EQ(ErrorOf(CK::kInteger, "9223372036854775808", Kind::kCounter),
            "Unable to make long from '9223372036854775808'");
  EXPECT_EQ(ErrorOf(CK::kInteger, "32768", Kind::kSmallint), "Unable to make short from '32768'");
  EXPECT_EQ(ErrorOf(CK::kInteger, "-129", Kind::kTinyint), "Unable to make byte from '-129'");
}

TEST(ConstantLiteralTest, FloatingPoint) {
  EXPECT_EQ(C(CK::kFloat, "1.5", Kind::kDouble), EncodeDouble(1.5));
  EXPECT_EQ(C(CK::kFloat, "-0.0", Kind::kDouble), EncodeDouble(-0.0));
  EXPECT_EQ(C(CK::kFloat, "1e400", Kind::kDouble),
            EncodeDouble(std::numeric_limits<double>::infinity()));
  EXPECT_EQ(C(CK::kFloat, "Infinity", Kind::kFloat),
            EncodeFloat(std::numeric_limits<float>::infinity()));
  EXPECT_EQ(C(CK::kFloat, "-Infinity", Kind::kDouble),
            EncodeDouble(-std::numeric_limits<double>::infinity()));
  EXPECT_TRUE(std::isnan(DecodeDouble(C(CK::kFloat, "NaN", Kind::kDouble))));
  EXPECT_EQ(C(CK::kFloat, "NaN", Kind::kDouble),
            EncodeDouble(std::numeric_limits<double>::quiet_NaN()));
  EXPECT_EQ(C(CK::kFloat, "1.1", Kind::kFloat), EncodeFloat(1.1f));
  EXPECT_EQ(DecimalToString(C(CK::kFloat, "1.50", Kind::kDecimal)), "1.50");
  EXPECT_EQ(DecimalToString(C(CK::kFloat, "-1.5E+10", Kind::kDecimal)), "-1.5E+10");
  EXPECT_EQ(ErrorOf(CK::kFloat, "NaN", Kind::kDecimal), "unable to make BigDecimal from 'NaN'");
  EXPECT_EQ(ErrorOf(CK::kFloat, "Infinity", Kind::kDecimal),
            "unable to make BigDecimal from 'Infinity'");
  EXPECT_EQ(ErrorOf(CK::kFloat, "1.5", Kind::kInt),
            "Invalid FLOAT constant (1.5) for \"c\" of type int");
  EXPECT_EQ(ErrorOf(CK::kFloat, "1.5", Kind::kVarint),
            "Invalid FLOAT constant (1.5) for \"c\" of type varint");
}

TEST(ConstantLiteralTest, Strings) {
  EXPECT_EQ(C(CK::kString, "caf\xc3\xa9", Kind::kText), "caf\xc3\xa9");
  EXPECT_EQ(C(CK::kString, "", Kind::kText), "");
  EXPECT_EQ(C(CK::kString, "abc", Kind::kAscii), "abc");
  EXPECT_EQ(ErrorOf(CK::kString, "caf\xc3\xa9", Kind::kAscii),
            "Invalid ASCII character in string literal: "
            "java.nio.charset.UnmappableCharacterException: Input length = 1");
  EXPECT_EQ(ErrorOf(CK::kString, "\xf0\x9f\x98\x80", Kind::kAscii),
            "Invalid ASCII character in string literal: "
            "java.nio.charset.UnmappableCharacterException: Input length = 2");
  EXPECT_EQ(ErrorOf(CK::kString, "\xff", Kind::kText), "String didn't validate.");
  EXPECT_EQ(ErrorOf(CK::kString, "foo", Kind::kInt),
            "Invalid STRING constant (foo) for \"c\" of type int");
  EXPECT_EQ(ErrorOf(CK::kString, "0xcafe", Kind::kBlob),
            "Invalid STRING constant (0xcafe) for \"c\" of type blob");
  EXPECT_EQ(ErrorOf(CK::kString, "1h", Kind::kDuration),
            "Invalid STRING constant (1h) for \"c\" of type duration");
  EXPECT_EQ(ErrorOf(CK::kString, "true", Kind::kBoolean),
            "Invalid STRING constant (true) for \"c\" of type boolean");
  EXPECT_EQ(ErrorOf(CK::kString, kV4, Kind::kUuid),
            std::string("Invalid STRING constant (") + kV4 + ") for \"c\" of type uuid");
}

TEST(ConstantLiteralTest, BlobsBooleansUuids) {
  EXPECT_EQ(C(CK::kHex, "0xCAFE", Kind::kBlob), "\xca\xfe");
  EXPECT_EQ(C(CK::kHex, "0x", Kind::kBlob), "");
  EXPECT_EQ(ErrorOf(CK::kHex, "0x123", Kind::kBlob), "cannot parse '123' as hex bytes");
  EXPECT_EQ(ErrorOf(CK::kHex, "0x12", Kind::kText),
            "Invalid HEX constant (0x12) for \"c\" of type text");
  // Cassandra's quirk: a HEX constant prefers tinyint, and is taken as raw bytes.
  EXPECT_EQ(C(CK::kHex, "0x7f", Kind::kTinyint), EncodeTinyint(127));
  EXPECT_EQ(ErrorOf(CK::kHex, "0x0102", Kind::kTinyint), "Expected 1 byte for a tinyint (2)");
  EXPECT_EQ(C(CK::kBoolean, "TRUE", Kind::kBoolean), EncodeBoolean(true));
  EXPECT_EQ(C(CK::kBoolean, "false", Kind::kBoolean), EncodeBoolean(false));
  EXPECT_EQ(ErrorOf(CK::kBoolean, "true", Kind::kInt),
            "Invalid BOOLEAN constant (true) for \"c\" of type int");
  EXPECT_EQ(C(CK::kUuid, kV4, Kind::kUuid), Uuid::Parse(kV4)->ToBytes());
  EXPECT_EQ(C(CK::kUuid, kV1, Kind::kTimeuuid), Uuid::Parse(kV1)->ToBytes());
  EXPECT_EQ(C(CK::kUuid, kV1, Kind::kUuid), Uuid::Parse(kV1)->ToBytes());
  EXPECT_EQ(ErrorOf(CK::kUuid, kV4, Kind::kTimeuuid), "TimeUUID supports only version 1 UUIDs");
  EXPECT_EQ(ErrorOf(CK::kUuid, kV4, Kind::kText),
            std::string("Invalid UUID constant (") + kV4 + ") for \"c\" of type text");
}

TEST(ConstantLiteralTest, TemporalTypes) {
  EXPECT_EQ(C(CK::kString, "2024-01-01 00:00:00+0000", Kind::kTimestamp),
            EncodeTimestamp(1'704'067'200'000));
  EXPECT_EQ(C(CK::kInteger, "1704067200000", Kind::kTimestamp), EncodeTimestamp(1'704'067'200'000));
  EXPECT_EQ(C(CK::kString, "now", Kind::kTimestamp), EncodeTimestamp(kNow));
  EXPECT_EQ(C(CK::kString, "", Kind::kTimestamp), "");  // TimestampType reads '' as empty
  EXPECT_EQ(C(CK::kString, "2024-01-01", Kind::kDate), EncodeDate(19723));
  EXPECT_EQ(C(CK::kInteger, "2147483648", Kind::kDate), EncodeDate(0));
  EXPECT_EQ(C(CK::kString, "01:02:03.5", Kind::kTime), EncodeTime(3'723'500'000'000));
  EXPECT_EQ(C(CK::kInteger, "1000", Kind::kTime), EncodeTime(1000));
  EXPECT_EQ(C(CK::kDuration, "1h30m", Kind::kDuration), EncodeDuration(0, 0, 5'400'000'000'000));
  EXPECT_EQ(C(CK::kDuration, "-P1W", Kind::kDuration), EncodeDuration(0, -7, 0));
  EXPECT_EQ(ErrorOf(CK::kInteger, "5", Kind::kDuration), "Unable to convert '5' to a duration");
  EXPECT_EQ(ErrorOf(CK::kString, "", Kind::kDate),
            "Unable to coerce '' to a formatted date (long)");
  EXPECT_EQ(ErrorOf(CK::kString, "", Kind::kTime),
            "(TimeType) Unable to coerce '' to a formatted time (long)");
  EXPECT_EQ(ErrorOf(CK::kDuration, "1h", Kind::kTime),
            "Invalid DURATION constant (1h) for \"c\" of type time");
  EXPECT_EQ(ErrorOf(CK::kFloat, "1.5", Kind::kTimestamp),
            "Invalid FLOAT constant (1.5) for \"c\" of type timestamp");
}

TEST(ConstantLiteralTest, InetAddressesAsJavaReadsThem) {
  EXPECT_EQ(C(CK::kString, "127.0.0.1", Kind::kInet), std::string("\x7f\0\0\x01", 4));
  EXPECT_EQ(C(CK::kString, "127.1", Kind::kInet), std::string("\x7f\0\0\x01", 4));
  EXPECT_EQ(C(CK::kString, "10.1.256", Kind::kInet), std::string("\x0a\x01\x01\x00", 4));
  EXPECT_EQ(C(CK::kString, "::1", Kind::kInet), std::string(15, '\0') + "\x01");
  EXPECT_EQ(C(CK::kString, "[::1]", Kind::kInet), std::string(15, '\0') + "\x01");
  EXPECT_EQ(C(CK::kString, "fe80::1%eth0", Kind::kInet),
            std::string("\xfe\x80", 2) + std::string(13, '\0') + "\x01");
  EXPECT_EQ(C(CK::kString, "::ffff:1.2.3.4", Kind::kInet), "\x01\x02\x03\x04");
  EXPECT_EQ(C(CK::kString, "", Kind::kInet), "");
  for (const char* bad : {"256.0.0.1", "1.2.3.4.5", "1..2", "localhost", "example.com", ":::"}) {
    EXPECT_EQ(ErrorOf(CK::kString, bad, Kind::kInet),
              "Unable to make inet address from '" + std::string(bad) + "'")
        << bad;
  }
}

TEST(ConstantLiteralTest, NonNativeReceivers) {
  EXPECT_EQ(ErrorOf(CK::kInteger, "1", CqlType::List(N(Kind::kInt))),
            "Invalid INTEGER constant (1) for \"c\" of type list<int>");
  EXPECT_EQ(ErrorOf(CK::kString, "a", CqlType::Udt("ks", "t", {"f"}, {N(Kind::kInt)}, true)),
            "Invalid STRING constant (a) for \"c\" of type frozen<t>");
  // Vectors read hex as their fromString; the bytes must still be a valid vector.
  const TypePtr vector = CqlType::Vector(N(Kind::kInt), 1);
  EXPECT_EQ(ConvertConstant(CK::kHex, "0x00000001", "c", *vector, kNow), EncodeInt(1));
  EXPECT_EQ(ErrorOf(CK::kString, "zz", vector), "cannot parse 'zz' as hex bytes");
  EXPECT_EQ(ErrorOf(CK::kInteger, "12", vector), "Not enough bytes to read a vector<int, 1>");
}

TEST(ConstantLiteralTest, PreferredTypesGiveExactMatches) {
  const auto test = [](CK kind, std::string_view text, Kind type) {
    return TestConstantAssignment(kind, text, *N(type));
  };
  EXPECT_EQ(test(CK::kInteger, "1", Kind::kInt), AR::kExactMatch);
  EXPECT_EQ(test(CK::kInteger, "1", Kind::kBigint), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kInteger, "3000000000", Kind::kBigint), AR::kExactMatch);
  EXPECT_EQ(test(CK::kInteger, "30000000000000000000", Kind::kVarint), AR::kExactMatch);
  EXPECT_EQ(test(CK::kInteger, "1", Kind::kText), AR::kNotAssignable);
  EXPECT_EQ(test(CK::kString, "abc", Kind::kAscii), AR::kExactMatch);
  EXPECT_EQ(test(CK::kString, "abc", Kind::kText), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kString, "\xc3\xa9", Kind::kText), AR::kExactMatch);
  EXPECT_EQ(test(CK::kString, "x", Kind::kInet), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kFloat, "0.5", Kind::kDouble), AR::kExactMatch);
  EXPECT_EQ(test(CK::kFloat, "0.1", Kind::kDouble), AR::kExactMatch);
  EXPECT_EQ(test(CK::kFloat, "0.10000000000000000001", Kind::kDecimal), AR::kExactMatch);
  EXPECT_EQ(test(CK::kFloat, "0.10000000000000000001", Kind::kDouble), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kFloat, "NaN", Kind::kDouble), AR::kExactMatch);
  EXPECT_EQ(test(CK::kFloat, "NaN", Kind::kFloat), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kUuid, kV1, Kind::kTimeuuid), AR::kExactMatch);
  EXPECT_EQ(test(CK::kUuid, kV4, Kind::kUuid), AR::kExactMatch);
  EXPECT_EQ(test(CK::kUuid, kV4, Kind::kTimeuuid), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kHex, "0x01", Kind::kTinyint), AR::kExactMatch);
  EXPECT_EQ(test(CK::kHex, "0x01", Kind::kBlob), AR::kWeaklyAssignable);
  EXPECT_EQ(test(CK::kHex, "0x01", Kind::kInt), AR::kNotAssignable);
  EXPECT_EQ(test(CK::kDuration, "1h", Kind::kDuration), AR::kExactMatch);
  EXPECT_EQ(test(CK::kBoolean, "true", Kind::kBoolean), AR::kExactMatch);
  EXPECT_EQ(TestConstantAssignment(CK::kInteger, "1", *CqlType::Tuple({N(Kind::kInt)})),
            AR::kWeaklyAssignable);
}

}  // namespace
}  // namespace sibyl::types
