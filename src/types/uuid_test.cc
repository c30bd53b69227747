#include "types/uuid.h"

#include <gtest/gtest.h>

#include <set>

namespace sibyl::types {
namespace {

TEST(UuidTest, ParseAndFormatRoundTrip) {
  const auto uuid = Uuid::Parse("550E8400-e29b-41d4-A716-446655440000");
  ASSERT_TRUE(uuid.has_value());
  EXPECT_EQ(uuid->bytes[0], 0x55);
  EXPECT_EQ(uuid->bytes[15], 0x00);
  EXPECT_EQ(uuid->version(), 4);
  EXPECT_EQ(uuid->ToString(), "550e8400-e29b-41d4-a716-446655440000");
  EXPECT_EQ(Uuid::FromBytes(uuid->View()), *uuid);
  EXPECT_EQ(uuid->ToBytes().size(), 16u);
}

TEST(UuidTest, ParseRejectsMalformedText) {
  EXPECT_FALSE(Uuid::Parse(""));
  EXPECT_FALSE(Uuid::Parse("550e8400e29b41d4a716446655440000"));
  EXPECT_FALSE(Uuid::Parse("550e8400-e29b-41d4-a716-44665544000"));
  EXPECT_FALSE(Uuid::Parse("550e8400-e29b-41d4-a716-4466554400000"));
  EXPECT_FALSE(Uuid::Parse("550e8400-e29b-41d4-a716_446655440000"));
  EXPECT_FALSE(Uuid::Parse("550e8400-e29b-41d4-a716-44665544000g"));
  EXPECT_FALSE(Uuid::Parse("{50e8400-e29b-41d4-a716-446655440000"));
}

TEST(UuidTest, RandomIsVersion4WithRfcVariant) {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const Uuid uuid = Uuid::Random();
    EXPECT_EQ(uuid.version(), 4);
    EXPECT_EQ(uuid.bytes[8] & 0xc0, 0x80);
    seen.insert(uuid.ToString());
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(UuidTest, NameBasedMatchesJavaNameUuidFromBytes) {
  // UUID.nameUUIDFromBytes: MD5 of the name with version 3 and the IETF
  // variant stamped in. MD5("") = d41d8cd98f00b204e9800998ecf8427e,
  // MD5("hello") = 5d41402abc4b2a76b9719d911017c592.
  EXPECT_EQ(Uuid::NameBased("").ToString(), "d41d8cd9-8f00-3204-a980-0998ecf8427e");
  EXPECT_EQ(Uuid::NameBased("hello").ToString(), "5d41402a-bc4b-3a76-b971-9d911017c592");
  EXPECT_EQ(Uuid::NameBased("hello").version(), 3);
  EXPECT_EQ(Uuid::NameBased("hello"), Uuid::NameBased("hello"));
}

TEST(UuidTest, TimeBasedRoundTripsItsTimestamp) {
  // 2024-01-01T00:00:00Z in 100 ns units since 1582-10-15.
  const int64_t unix_millis = 1'704'067'200'000;
  const int64_t timestamp = unix_millis * 10'000 + Uuid::kUnixEpochIn100ns + 1234;
  const Uuid uuid = Uuid::TimeBased(timestamp, 0x0123456789abcdefULL);
  EXPECT_EQ(uuid.version(), 1);
  EXPECT_EQ(uuid.bytes[8] & 0xc0, 0x80);
  EXPECT_EQ(uuid.Timestamp(), timestamp);
  EXPECT_EQ(uuid.UnixMillis(), unix_millis);
  EXPECT_EQ(uuid.bytes[15], 0xef);
}

TEST(UuidTest, TimeBasedLayoutMatchesRfc4122) {
  // The example layout: time_low, time_mid, version|time_hi.
  const Uuid uuid =
      Uuid::TimeBased(0x0123456789abcdefLL & 0x0FFFFFFFFFFFFFFFLL, 0x8000000000000000ULL);
  EXPECT_EQ(uuid.ToString(), "89abcdef-4567-1123-8000-000000000000");
}

}  // namespace
}  // namespace sibyl::types
