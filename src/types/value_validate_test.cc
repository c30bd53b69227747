#include <gtest/gtest.h>

#include "common/error.h"
#include "types/cql_type_test_util.h"
#include "types/value_codec.h"
#include "types/vint.h"

namespace sibyl::types {
namespace {

using testing::N;

std::string Bytes_(size_t n, char c = '\x01') { return std::string(n, c); }

void ExpectValid(const TypePtr& type, BytesView v) {
  EXPECT_NO_THROW(Validate(*type, v)) << type->ToCql() << " " << v.size();
}

void ExpectInvalid(const TypePtr& type, BytesView v, const std::string& message) {
  try {
    Validate(*type, v);
    ADD_FAILURE() << type->ToCql() << ": expected \"" << message << "\"";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_EQ(e.what(), message) << type->ToCql();
  }
}

TEST(ValidateTest, FixedWidthTypesWithCassandrasMessages) {
  ExpectValid(N(Kind::kInt), Bytes_(4));
  ExpectValid(N(Kind::kInt), "");
  ExpectInvalid(N(Kind::kInt), Bytes_(3), "Expected 4 or 0 byte int (3)");
  ExpectValid(N(Kind::kBigint), Bytes_(8));
  ExpectValid(N(Kind::kBigint), "");
  ExpectInvalid(N(Kind::kBigint), Bytes_(4), "Expected 8 or 0 byte long (4)");
  ExpectInvalid(N(Kind::kCounter), Bytes_(9), "Expected 8 or 0 byte long (9)");
  ExpectInvalid(N(Kind::kTimestamp), Bytes_(7), "Expected 8 or 0 byte long for date (7)");
  ExpectValid(N(Kind::kSmallint), Bytes_(2));
  ExpectInvalid(N(Kind::kSmallint), "", "Expected 2 bytes for a smallint (0)");
  ExpectInvalid(N(Kind::kSmallint), Bytes_(4), "Expected 2 bytes for a smallint (4)");
  ExpectValid(N(Kind::kTinyint), Bytes_(1));
  ExpectInvalid(N(Kind::kTinyint), Bytes_(2), "Expected 1 byte for a tinyint (2)");
  ExpectValid(N(Kind::kBoolean), "");
  ExpectInvalid(N(Kind::kBoolean), Bytes_(2), "Expected 1 or 0 byte value (2)");
  ExpectInvalid(N(Kind::kDouble), Bytes_(4), "Expected 8 or 0 byte value for a double (4)");
  ExpectInvalid(N(Kind::kFloat), Bytes_(8), "Expected 4 or 0 byte value for a float (8)");
  ExpectValid(N(Kind::kUuid), Bytes_(16));
  ExpectInvalid(N(Kind::kUuid), Bytes_(15), "UUID should be 16 or 0 bytes (15)");
  ExpectValid(N(Kind::kDate), Bytes_(4));
  ExpectInvalid(N(Kind::kDate), "", "Expected 4 byte long for date (0)");
  ExpectInvalid(N(Kind::kDate), Bytes_(8), "Expected 4 byte long for date (8)");
  ExpectInvalid(N(Kind::kTime), Bytes_(4), "Expected 8 byte long for time (4)");
}

TEST(ValidateTest, TimeuuidNeedsVersion1) {
  Bytes v1(16, '\0');
  v1[6] = 0x11;
  ExpectValid(N(Kind::kTimeuuid), v1);
  ExpectValid(N(Kind::kTimeuuid), "");
  Bytes v4 = v1;
  v4[6] = 0x41;
  ExpectInvalid(N(Kind::kTimeuuid), v4, "Invalid version for TimeUUID type.");
  ExpectInvalid(N(Kind::kTimeuuid), Bytes_(3), "UUID should be 16 or 0 bytes (3)");
  ExpectValid(N(Kind::kUuid), v4);
}

TEST(ValidateTest, TimeOfDayRange) {
  ExpectValid(N(Kind::kTime), EncodeTime(0));
  ExpectValid(N(Kind::kTime), EncodeTime(86'399'999'999'999));
  ExpectInvalid(N(Kind::kTime), EncodeTime(86'400'000'000'000),
                "Time value out of range: 86400000000000 is not between 0 and 86399999999999 "
                "nanoseconds");
  ExpectInvalid(N(Kind::kTime), EncodeTime(-1),
                "Time value out of range: -1 is not between 0 and 86399999999999 nanoseconds");
}

TEST(ValidateTest, Inet) {
  ExpectValid(N(Kind::kInet), Bytes_(4));
  ExpectValid(N(Kind::kInet), Bytes_(16));
  ExpectValid(N(Kind::kInet), "");
  ExpectInvalid(N(Kind::kInet), std::string("\x0a\x00\x01", 3),
                "Expected 4 or 16 byte inetaddress; got 0a0001");
}

TEST(ValidateTest, Text) {
  ExpectValid(N(Kind::kText), "");
  ExpectValid(N(Kind::kText), "caf\xc3\xa9");
  ExpectInvalid(N(Kind::kText), "caf\xc3", "String didn't validate.");
  ExpectInvalid(N(Kind::kText), "\xed\xa0\x80", "String didn't validate.");
  ExpectInvalid(N(Kind::kText), "\xc0\x80", "String didn't validate.");
  ExpectValid(N(Kind::kAscii), "plain\x7f");
  ExpectInvalid(N(Kind::kAscii), "caf\xc3\xa9", "Invalid byte for ascii: -61");
}

TEST(ValidateTest, VariableLengthNumbersAndBlobs) {
  ExpectValid(N(Kind::kVarint), "");
  ExpectValid(N(Kind::kVarint), Bytes_(40));
  ExpectValid(N(Kind::kBlob), Bytes_(3));
  ExpectValid(N(Kind::kDecimal), "");
  ExpectValid(N(Kind::kDecimal), Bytes_(4));
  ExpectValid(N(Kind::kDecimal), Bytes_(9));
  ExpectInvalid(N(Kind::kDecimal), Bytes_(3), "Expected 0 or at least 4 bytes (3)");
}

TEST(ValidateTest, Duration) {
  ExpectValid(N(Kind::kDuration), EncodeDuration(1, 2, 3));
  ExpectValid(N(Kind::kDuration), EncodeDuration(-1, -2, -3));
  ExpectValid(N(Kind::kDuration), EncodeDuration(0, 0, 0));
  ExpectInvalid(N(Kind::kDuration), "", "Expected at least 3 bytes for a duration (0)");
  ExpectInvalid(
      N(Kind::kDuration), EncodeDuration(1, -2, 3),
      "The duration months, days and nanoseconds must be all of the same sign (1, -2, 3)");
  Bytes big_months;
  AppendSignedVint(big_months, int64_t{1} << 40);
  big_months += std::string("\x00\x00", 2);
  ExpectInvalid(N(Kind::kDuration), big_months,
                "The duration months must be a 32 bits integer but was: 1099511627776");
  Bytes big_days("\x00", 1);
  AppendSignedVint(big_days, -(int64_t{1} << 33));
  big_days += std::string("\x00", 1);
  ExpectInvalid(N(Kind::kDuration), big_days,
                "The duration days must be a 32 bits integer but was: -8589934592");
  ExpectInvalid(N(Kind::kDuration), std::string("\x00\x00\xc0", 3),
                "Not enough bytes to read a duration");
}

TEST(ValidateTest, CollectionsRecursively) {
  const TypePtr list = CqlType::List(N(Kind::kInt));
  ExpectValid(list, "");  // Cassandra 4.1 accepts an empty value
  ExpectValid(list, EncodeList({EncodeInt(1), EncodeInt(2)}));
  ExpectInvalid(list, EncodeList({EncodeInt(1), "abc"}), "Expected 4 or 0 byte int (3)");
  ExpectInvalid(list, std::string("\x00\x00\x00\x01\x00\x00", 6),
                "Not enough bytes to read a list");
  ExpectInvalid(list, EncodeList({EncodeInt(1)}) + "x",
                "Unexpected extraneous bytes after list value");
  ExpectInvalid(list, std::string("\x00\x00\x00\x01\xff\xff\xff\xff", 8),
                "Null value read when not allowed");
  const TypePtr set = CqlType::Set(N(Kind::kText));
  ExpectInvalid(set, std::string("\x00\x00\x00\x02\x00\x00\x00\x00", 8),
                "Not enough bytes to read a set");
  ExpectInvalid(set, EncodeList({"\xff"}), "String didn't validate.");
  ExpectInvalid(set, EncodeList({}) + "zz", "Unexpected extraneous bytes after set value");
  const TypePtr map = CqlType::Map(N(Kind::kText), CqlType::List(N(Kind::kBigint), true));
  ExpectValid(map, EncodeMap({{"a", EncodeList({EncodeBigint(7)})}}));
  ExpectInvalid(map, EncodeMap({{"a", EncodeList({EncodeInt(7)})}}),
                "Expected 8 or 0 byte long (4)");
  ExpectInvalid(map, std::string("\x00\x00\x00\x01\x00\x00\x00\x01k", 9),
                "Not enough bytes to read a map");
  ExpectInvalid(map, EncodeMap({}) + "!", "Unexpected extraneous bytes after map value");
}

TEST(ValidateTest, Tuples) {
  const TypePtr tuple = CqlType::Tuple({N(Kind::kInt), N(Kind::kText)});
  const Bytes one = EncodeInt(1);
  ExpectValid(tuple, EncodeTuple({BytesView(one), BytesView("x")}));
  ExpectValid(tuple, EncodeTuple({BytesView(one)}));  // fewer components is fine
  ExpectValid(tuple, EncodeTuple({std::nullopt, std::nullopt}));
  ExpectValid(tuple, "");
  ExpectInvalid(tuple, EncodeTuple({BytesView("ab")}), "Expected 4 or 0 byte int (2)");
  ExpectInvalid(tuple, EncodeTuple({BytesView(one), BytesView("x"), BytesView("y")}),
                "Invalid remaining data after end of tuple value");
  ExpectInvalid(tuple, EncodeTuple({BytesView(one)}) + std::string("\x00\x00", 2),
                "Not enough bytes to read size of 1th component");
  ExpectInvalid(tuple, std::string("\x00\x00\x00\x04\x00", 5),
                "Not enough bytes to read 0th component");
}

TEST(ValidateTest, UserTypes) {
  const TypePtr udt =
      CqlType::Udt("ks", "address", {"street", "zip"}, {N(Kind::kText), N(Kind::kInt)}, true);
  const Bytes zip = EncodeInt(75001);
  ExpectValid(udt, EncodeTuple({BytesView("Main"), BytesView(zip)}));
  ExpectValid(udt, EncodeTuple({BytesView("Main")}));
  ExpectInvalid(udt, EncodeTuple({BytesView("Main"), BytesView("zz")}),
                "Expected 4 or 0 byte int (2)");
  ExpectInvalid(udt, EncodeTuple({BytesView("Main"), BytesView(zip), BytesView(zip)}),
                "Invalid remaining data after end of UDT value");
  ExpectInvalid(udt, EncodeTuple({BytesView("Main")}) + std::string("\x00\x00\x00\x09", 4),
                "Not enough bytes to read 1th field zip");
  // Cassandra's index counts only the fields it validated: after a null it lags.
  ExpectInvalid(udt, EncodeTuple({std::nullopt}) + std::string("\x00", 1),
                "Not enough bytes to read size of 0th field zip");
}

TEST(ValidateTest, Vectors) {
  const TypePtr floats = CqlType::Vector(N(Kind::kFloat), 3);
  ExpectValid(floats, EncodeFloat(1) + EncodeFloat(2) + EncodeFloat(3));
  ExpectInvalid(floats, "", "Invalid empty vector value");
  ExpectInvalid(floats, EncodeFloat(1) + EncodeFloat(2),
                "Not enough bytes to read a vector<float, 3>");
  ExpectInvalid(floats, EncodeFloat(1) + EncodeFloat(2) + EncodeFloat(3) + "ab",
                "Unexpected 2 extraneous bytes after vector<float, 3> value");
  const TypePtr texts = CqlType::Vector(N(Kind::kText), 2);
  ExpectValid(texts, std::string("\x01"
                                 "a"
                                 "\x02"
                                 "bc",
                                 5));
  ExpectValid(texts, std::string("\x00\x00", 2));
  ExpectInvalid(texts,
                std::string("\x01"
                            "a",
                            2),
                "Not enough bytes to read a vector<text, 2>");
  ExpectInvalid(texts,
                std::string("\x01"
                            "a"
                            "\x05"
                            "bc",
                            5),
                "Not enough bytes to read a vector<text, 2>");
  ExpectInvalid(texts,
                std::string("\x01"
                            "\xff"
                            "\x01"
                            "b",
                            4),
                "String didn't validate.");
  ExpectInvalid(texts,
                std::string("\x01"
                            "a"
                            "\x01"
                            "b"
                            "c",
                            5),
                "Unexpected 1 extraneous bytes after vector<text, 2> value");
}

}  // namespace
}  // namespace sibyl::types
