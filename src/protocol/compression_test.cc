#include "protocol/compression.h"

#include <gtest/gtest.h>

namespace sibyl::protocol {
namespace {

Bytes Sample(size_t n) {
  Bytes s;
  for (size_t i = 0; i < n; ++i) s.push_back(static_cast<char>("abcabcabd"[i % 9]));
  return s;
}

TEST(CompressionTest, NamesAreCaseInsensitive) {
  EXPECT_EQ(CompressionByName("lz4"), Compression::kLz4);
  EXPECT_EQ(CompressionByName("LZ4"), Compression::kLz4);
  EXPECT_EQ(CompressionByName("Snappy"), Compression::kSnappy);
  EXPECT_EQ(CompressionByName("zstd"), std::nullopt);
}

TEST(CompressionTest, Lz4BodyHasBigEndianLengthPrefix) {
  Bytes out;
  CompressBody(Compression::kLz4, Sample(1000), out);
  ASSERT_GE(out.size(), 4u);
  EXPECT_EQ(LoadBE32(out.data()), 1000u);
  Bytes back;
  ASSERT_TRUE(DecompressBody(Compression::kLz4, out, 1 << 20, back));
  EXPECT_EQ(back, Sample(1000));
}

TEST(CompressionTest, EmptyBodiesRoundTrip) {
  for (Compression c : {Compression::kLz4, Compression::kSnappy}) {
    Bytes out;
    CompressBody(c, "", out);
    Bytes back = "junk";
    ASSERT_TRUE(DecompressBody(c, out, 16, back));
    EXPECT_EQ(back, "");
  }
}

TEST(CompressionTest, SnappyRoundTrip) {
  Bytes out;
  CompressBody(Compression::kSnappy, Sample(5000), out);
  EXPECT_LT(out.size(), 5000u);
  Bytes back;
  ASSERT_TRUE(DecompressBody(Compression::kSnappy, out, 1 << 20, back));
  EXPECT_EQ(back, Sample(5000));
}

TEST(CompressionTest, DeclaredLengthOverMaxIsRejectedBeforeAllocating) {
  Bytes lying;
  AppendBE32(lying, 0x7FFFFFFF);
  lying += "\x10x";
  Bytes back;
  const DecompressOutcome outcome = DecompressBodyDetailed(Compression::kLz4, lying, 1024, back);
  EXPECT_EQ(outcome.kind, DecompressOutcome::Kind::kBadLength);
  EXPECT_EQ(outcome.declared_length, 0x7FFFFFFF);
  EXPECT_LT(back.capacity(), 1u << 20);

  Bytes negative;
  AppendBE32(negative, 0xFFFFFFFF);
  EXPECT_EQ(DecompressBodyDetailed(Compression::kLz4, negative, 1024, back).declared_length, -1);

  Bytes snappy;
  CompressBody(Compression::kSnappy, Sample(5000), snappy);
  EXPECT_EQ(DecompressBodyDetailed(Compression::kSnappy, snappy, 100, back).kind,
            DecompressOutcome::Kind::kBadLength);
}

TEST(CompressionTest, CorruptInputFails) {
  Bytes back;
  EXPECT_EQ(DecompressBodyDetailed(Compression::kLz4, "ab", 1024, back).kind,
            DecompressOutcome::Kind::kMalformed);
  Bytes body;
  CompressBody(Compression::kLz4, Sample(1000), body);
  // A length prefix that disagrees with the block.
  StoreBE32(body.data(), 999);
  EXPECT_FALSE(DecompressBody(Compression::kLz4, body, 1 << 20, back));
  body.resize(body.size() / 2);
  StoreBE32(body.data(), 1000);
  EXPECT_FALSE(DecompressBody(Compression::kLz4, body, 1 << 20, back));

  Bytes snappy;
  CompressBody(Compression::kSnappy, Sample(1000), snappy);
  snappy.resize(snappy.size() - 3);
  EXPECT_FALSE(DecompressBody(Compression::kSnappy, snappy, 1 << 20, back));
  EXPECT_FALSE(DecompressBody(Compression::kSnappy, "\xff\xff\xff\xff\xff\xff", 1 << 20, back));
}

TEST(CompressionTest, RawLz4ForSegments) {
  Bytes raw;
  Lz4CompressRaw(Sample(2000), raw);
  Bytes back;
  ASSERT_TRUE(Lz4DecompressRaw(raw, 2000, back));
  EXPECT_EQ(back, Sample(2000));
  EXPECT_FALSE(Lz4DecompressRaw(raw, 1999, back));
  EXPECT_FALSE(Lz4DecompressRaw(raw, 2001, back));
}

}  // namespace
}  // namespace sibyl::protocol
