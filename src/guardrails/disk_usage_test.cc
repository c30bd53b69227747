#include "guardrails/disk_usage.h"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "common/error.h"
#include "guardrails/guardrails.h"

namespace sibyl::guardrails {
namespace {

using Warnings = std::vector<std::string>;
constexpr uint64_t kGiB = uint64_t{1} << 30;

TEST(DiskUsagePercentTest, RoundsTheRatioUp) {
  EXPECT_EQ(DiskUsagePercent({.used_bytes = 0, .available_bytes = 100}, std::nullopt), 0);
  EXPECT_EQ(DiskUsagePercent({.used_bytes = 50, .available_bytes = 50}, std::nullopt), 50);
  // 1 byte in 100 GiB is 0.00000001: the ratio rounds up to 0.00001, so 1%.
  EXPECT_EQ(DiskUsagePercent({.used_bytes = 1, .available_bytes = 100 * kGiB}, std::nullopt), 1);
  // 50.1%: 51.
  EXPECT_EQ(DiskUsagePercent({.used_bytes = 501, .available_bytes = 499}, std::nullopt), 51);
  EXPECT_EQ(DiskUsagePercent({.used_bytes = 100, .available_bytes = 0}, std::nullopt), 100);
  EXPECT_EQ(DiskUsagePercent({.used_bytes = 0, .available_bytes = 0}, std::nullopt), 100);
  // Petabytes do not overflow.
  EXPECT_EQ(DiskUsagePercent({.used_bytes = UINT64_MAX / 2, .available_bytes = UINT64_MAX / 2},
                             std::nullopt),
            50);
}

TEST(DiskUsagePercentTest, TheMaxDiskSizeCapsTheTotal) {
  const DiskSpace space{.used_bytes = 30 * kGiB, .available_bytes = 970 * kGiB};
  EXPECT_EQ(DiskUsagePercent(space, std::nullopt), 3);
  EXPECT_EQ(DiskUsagePercent(space, 100 * kGiB), 30);
  // A cap above the disk does not count: the disk is the total.
  EXPECT_EQ(DiskUsagePercent(space, 2000 * kGiB), 3);
  // Data past the cap: over 100%.
  EXPECT_EQ(DiskUsagePercent(space, 10 * kGiB), 300);
}

TEST(DiskUsageStateTest, NamesAreCassandras) {
  EXPECT_EQ(DiskUsageStateName(DiskUsageState::kNotAvailable), "NOT_AVAILABLE");
  EXPECT_EQ(DiskUsageStateName(DiskUsageState::kStuffed), "STUFFED");
  EXPECT_EQ(DiskUsageStateText(DiskUsageState::kNotAvailable), "Not Available");
  EXPECT_EQ(DiskUsageStateText(DiskUsageState::kFull), "Full");
  EXPECT_TRUE(IsStuffedOrFull(DiskUsageState::kFull));
  EXPECT_FALSE(IsStuffedOrFull(DiskUsageState::kSpacious));
}

TEST(DiskUsageGuardrailsTest, StatesFollowTheLocalThresholds) {
  Guardrails g;
  EXPECT_EQ(g.ClassifyDiskUsage(99), DiskUsageState::kNotAvailable);  // off by default
  EXPECT_FALSE(g.CheckLocalDiskUsage(99).has_value());
  g.Apply({{"data_disk_usage_percentage_warn_threshold", "80"},
           {"data_disk_usage_percentage_fail_threshold", "90"}});
  EXPECT_EQ(g.ClassifyDiskUsage(80), DiskUsageState::kSpacious);
  EXPECT_EQ(g.ClassifyDiskUsage(81), DiskUsageState::kStuffed);
  EXPECT_EQ(g.ClassifyDiskUsage(90), DiskUsageState::kStuffed);
  EXPECT_EQ(g.ClassifyDiskUsage(91), DiskUsageState::kFull);
  EXPECT_EQ(g.ClassifyDiskUsage(300), DiskUsageState::kFull);
  g.Set("data_disk_usage_percentage_warn_threshold", "-1");
  EXPECT_EQ(g.ClassifyDiskUsage(85), DiskUsageState::kSpacious);
  EXPECT_EQ(g.ClassifyDiskUsage(95), DiskUsageState::kFull);
}

TEST(DiskUsageGuardrailsTest, TheLocalCheckGivesCassandrasLogMessages) {
  Guardrails g;
  g.Apply({{"data_disk_usage_percentage_warn_threshold", "80"},
           {"data_disk_usage_percentage_fail_threshold", "90"}});
  EXPECT_FALSE(g.CheckLocalDiskUsage(80).has_value());
  const auto stuffed = g.CheckLocalDiskUsage(85);
  ASSERT_TRUE(stuffed.has_value());
  EXPECT_FALSE(stuffed->failed);
  EXPECT_EQ(stuffed->message,
            "Guardrail local_data_disk_usage violated: Local data disk usage 85%(Stuffed) "
            "exceeds warning threshold of 80%");
  const auto full = g.CheckLocalDiskUsage(95);
  ASSERT_TRUE(full.has_value());
  EXPECT_TRUE(full->failed);
  EXPECT_EQ(full->message,
            "Guardrail local_data_disk_usage violated: Local data disk usage 95%(Full) exceeds "
            "failure threshold of 90%, will stop accepting writes");
}

TEST(DiskUsageGuardrailsTest, ReplicasWarnWhenStuffedAndFailWhenFull) {
  Guardrails g;
  Warnings warnings;
  g.GuardReplicaDiskUsage(DiskUsageState::kSpacious, &warnings);
  g.GuardReplicaDiskUsage(DiskUsageState::kNotAvailable, &warnings);
  EXPECT_EQ(warnings, Warnings{});
  g.GuardReplicaDiskUsage(DiskUsageState::kStuffed, &warnings);
  EXPECT_EQ(warnings, Warnings{"Guardrail replica_disk_usage violated: Replica disk usage "
                               "exceeds warning threshold"});
  warnings.clear();
  try {
    g.GuardReplicaDiskUsage(DiskUsageState::kFull, &warnings);
    ADD_FAILURE() << "a FULL replica must fail the write";
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kInvalid);
    EXPECT_STREQ(e.what(),
                 "Guardrail replica_disk_usage violated: Write request failed because disk "
                 "usage exceeds failure threshold");
  }
  EXPECT_EQ(warnings.size(), 1u);  // the failure's text, as Cassandra sends it
}

TEST(DiskUsageGuardrailsTest, TheNotifyIntervalSilencesRepeatsButNotFailures) {
  Guardrails g;
  g.SetMinNotifyInterval(GuardrailId::kReplicaDiskUsage, std::chrono::hours(1));
  Warnings warnings;
  g.GuardReplicaDiskUsage(DiskUsageState::kStuffed, &warnings);
  g.GuardReplicaDiskUsage(DiskUsageState::kStuffed, &warnings);
  EXPECT_EQ(warnings.size(), 1u);
  // A failure's text is told once too, but every write still fails.
  for (int i = 0; i < 2; ++i) {
    EXPECT_THROW(g.GuardReplicaDiskUsage(DiskUsageState::kFull, &warnings), CqlError);
  }
  EXPECT_EQ(warnings.size(), 2u);
  // Other guardrails are not throttled.
  g.Apply({{"page_size_warn_threshold", "10"}});
  for (int i = 0; i < 2; ++i) g.Guard(GuardrailId::kPageSize, 11, "t", &warnings);
  EXPECT_EQ(warnings.size(), 4u);

  g.SetMinNotifyInterval(GuardrailId::kLocalDataDiskUsage, std::chrono::hours(1));
  g.Apply({{"data_disk_usage_percentage_warn_threshold", "80"}});
  EXPECT_TRUE(g.CheckLocalDiskUsage(85).has_value());
  EXPECT_FALSE(g.CheckLocalDiskUsage(85).has_value());
}

TEST(DiskUsageGuardrailsTest, MaxDiskSizeIsReadInBytes) {
  Guardrails g;
  EXPECT_FALSE(g.MaxDiskSize().has_value());
  g.Set("data_disk_usage_max_disk_size", "2GiB");
  EXPECT_EQ(g.MaxDiskSize(), 2 * kGiB);
  EXPECT_EQ(g.Get("data_disk_usage_max_disk_size"), "2GiB");
  g.Set("data_disk_usage_max_disk_size", "");
  EXPECT_FALSE(g.MaxDiskSize().has_value());
  EXPECT_THROW(g.Set("data_disk_usage_max_disk_size", "0B"), std::invalid_argument);
}

TEST(DiskUsageGuardrailsTest, MaxDiskSizeCannotPassTheDisk) {
  Guardrails g;
  g.Set("data_disk_usage_max_disk_size", "1024GiB");  // the disk's size not known yet: kept
  const auto refusal = [&](uint64_t capacity, std::string_view size) -> std::string {
    g.SetDiskCapacity(capacity);
    try {
      g.Set("data_disk_usage_max_disk_size", size);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "accepted";
  };
  EXPECT_EQ(refusal(100 * kGiB, "100GiB"), "accepted");
  EXPECT_EQ(refusal(100 * kGiB, "101GiB"),
            "Invalid value for data_disk_usage_max_disk_size: 101GiB specified, but only 100 "
            "GiB are actually available on disk");
  EXPECT_EQ(refusal(kGiB + kGiB / 4, "2GiB"),
            "Invalid value for data_disk_usage_max_disk_size: 2GiB specified, but only 1.25 "
            "GiB are actually available on disk");
  EXPECT_EQ(refusal(1000, "1KiB"),
            "Invalid value for data_disk_usage_max_disk_size: 1KiB specified, but only 1000 "
            "bytes are actually available on disk");
  EXPECT_EQ(g.MaxDiskSize(), 100 * kGiB);  // refusals change nothing
  EXPECT_EQ(refusal(1000, ""), "accepted");
}

}  // namespace
}  // namespace sibyl::guardrails
