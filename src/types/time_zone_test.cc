#include "types/time_zone.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "common/bytes.h"
#include "types/civil_date.h"

namespace sibyl::types {
namespace {

int64_t UtcSeconds(int64_t y, unsigned m, unsigned d, int64_t h = 0, int64_t mi = 0) {
  return DaysFromCivil(y, m, d) * 86'400 + h * 3600 + mi * 60;
}

void AppendCounts(Bytes& out, uint32_t time, uint32_t type, uint32_t chars) {
  out.append("TZif2");
  out.append(15, '\0');
  for (uint32_t count : {0u, 0u, 0u, time, type, chars}) AppendBE32(out, count);
}

void AppendType(Bytes& out, int32_t offset, bool dst, uint8_t name) {
  AppendBE32(out, static_cast<uint32_t>(offset));
  out.push_back(dst ? '\1' : '\0');
  out.push_back(static_cast<char>(name));
}

// A New York-like zone: two listed transitions in 2020, then the POSIX rule.
Bytes SyntheticTzif(std::string_view footer) {
  Bytes out;
  AppendCounts(out, 0, 1, 4);  // version 1 block: one type, no transitions
  AppendType(out, -18000, false, 0);
  out.append("EST", 4);
  AppendCounts(out, 2, 2, 8);
  AppendBE64(out, static_cast<uint64_t>(UtcSeconds(2020, 3, 8, 7)));   // EST -> EDT
  AppendBE64(out, static_cast<uint64_t>(UtcSeconds(2020, 11, 1, 6)));  // EDT -> EST
  out.push_back('\1');
  out.push_back('\0');
  AppendType(out, -18000, false, 0);
  AppendType(out, -14400, true, 4);
  out.append("EST\0EDT\0", 8);
  out.push_back('\n');
  out.append(footer);
  out.push_back('\n');
  return out;
}

TEST(TimeZoneTest, FixedOffsets) {
  const auto zone = TimeZone::Fixed(3600);
  EXPECT_EQ(zone->OffsetAt(0), 3600);
  EXPECT_EQ(zone->ToEpochSeconds(7200), 3600);
}

TEST(TimeZoneTest, TransitionsThenFooterRule) {
  const auto zone = ParseTzif(SyntheticTzif("EST5EDT,M3.2.0,M11.1.0"));
  ASSERT_NE(zone, nullptr);
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2019, 6, 1)), -18000);  // before the first transition: type 0
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2020, 6, 1)), -14400);
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2020, 12, 1)), -18000);
  // 2030: second Sunday of March is the 10th, first Sunday of November the 3rd.
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2030, 3, 10, 6, 59)), -18000);
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2030, 3, 10, 7)), -14400);
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2030, 11, 3, 5, 59)), -14400);
  EXPECT_EQ(zone->OffsetAt(UtcSeconds(2030, 11, 3, 6)), -18000);
  // Gap and overlap resolved as java.time does.
  EXPECT_EQ(zone->ToEpochSeconds(UtcSeconds(2030, 3, 10, 2, 30)), UtcSeconds(2030, 3, 10, 7, 30));
  EXPECT_EQ(zone->ToEpochSeconds(UtcSeconds(2030, 11, 3, 1, 30)), UtcSeconds(2030, 11, 3, 5, 30));
  EXPECT_EQ(zone->ToEpochSeconds(UtcSeconds(2030, 7, 1)), UtcSeconds(2030, 7, 1, 4));
}

TEST(TimeZoneTest, SouthernHemisphereAndJulianRules) {
  // Daylight time from the first Sunday of October to the first of April.
  const auto south = ParseTzif(SyntheticTzif("AEST-10AEDT,M10.1.0,M4.1.0/3"));
  ASSERT_NE(south, nullptr);
  EXPECT_EQ(south->OffsetAt(UtcSeconds(2040, 1, 15)), 11 * 3600);
  EXPECT_EQ(south->OffsetAt(UtcSeconds(2040, 6, 15)), 10 * 3600);
  const auto julian = ParseTzif(SyntheticTzif("<+03>-3<+04>,J60/0,J300/0"));
  ASSERT_NE(julian, nullptr);
  EXPECT_EQ(julian->OffsetAt(UtcSeconds(2040, 6, 1)), 4 * 3600);
  EXPECT_EQ(julian->OffsetAt(UtcSeconds(2040, 12, 1)), 3 * 3600);
  const auto fixed = ParseTzif(SyntheticTzif("<+0530>-5:30"));
  ASSERT_NE(fixed, nullptr);
  EXPECT_EQ(fixed->OffsetAt(UtcSeconds(2040, 6, 1)), 5 * 3600 + 1800);
}

TEST(TimeZoneTest, MalformedFilesAreRefused) {
  EXPECT_EQ(ParseTzif(""), nullptr);
  EXPECT_EQ(ParseTzif("TZif2 not really"), nullptr);
  Bytes truncated = SyntheticTzif("EST5EDT,M3.2.0,M11.1.0");
  truncated.resize(truncated.size() - 40);
  EXPECT_EQ(ParseTzif(truncated), nullptr);
  EXPECT_EQ(ParseTzif(SyntheticTzif("EST5EDT,M13.2.0,M11.1.0")), nullptr);
}

TEST(TimeZoneTest, RegionIdsAreCheckedBeforeTheFileSystem) {
  for (const char* bad : {"", "../etc/passwd", "/etc/passwd", "America/../../etc", "posix/UTC",
                          "right/UTC", "localtime", "America/", "Foo bar"}) {
    EXPECT_EQ(FindRegionTimeZone(bad), nullptr) << bad;
  }
  if (!std::filesystem::exists("/usr/share/zoneinfo/Europe/Paris")) GTEST_SKIP();
  const auto paris = FindRegionTimeZone("Europe/Paris");
  ASSERT_NE(paris, nullptr);
  EXPECT_EQ(paris->OffsetAt(UtcSeconds(2024, 1, 1)), 3600);
  EXPECT_EQ(paris->OffsetAt(UtcSeconds(2024, 7, 1)), 7200);
  EXPECT_EQ(FindRegionTimeZone("Europe/Paris"), paris);  // cached
  EXPECT_EQ(FindRegionTimeZone("europe/paris"), nullptr);
}

}  // namespace
}  // namespace sibyl::types
