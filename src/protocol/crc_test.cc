#include "protocol/crc.h"

#include <gtest/gtest.h>

namespace sibyl::protocol {
namespace {

// Vectors from Cassandra's net/Crc.java and the Python driver's segment.py.
TEST(Crc24Test, HeaderOfFiftyByteSelfContainedSegment) {
  // Header bytes 32 00 02 (little-endian 0x020032) -> CRC bytes a5 ff ee.
  EXPECT_EQ(Crc24(0x020032, 3), 0xEEFFA5u);
}

TEST(Crc24Test, OnlyTheGivenLengthCounts) {
  EXPECT_EQ(Crc24(0xFF00020032ull, 3), Crc24(0x020032, 3));
  EXPECT_NE(Crc24(0x0000020032ull, 5), Crc24(0x020032, 3));
}

TEST(Crc32Test, SeededVectors) {
  EXPECT_EQ(Crc32("123456789"), 0xE2A261A7u);
  EXPECT_EQ(Crc32(""), 0x44777ED3u);
}

}  // namespace
}  // namespace sibyl::protocol
