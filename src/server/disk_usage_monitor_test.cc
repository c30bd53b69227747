#include "server/disk_usage_monitor.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>
#include <vector>

namespace sibyl::server {
namespace {

using guardrails::DiskSpace;
using guardrails::DiskUsageState;

class DiskUsageMonitorTest : public ::testing::Test {
 protected:
  DiskUsageMonitor Monitor() {
    return DiskUsageMonitor(
        guardrails_, [this]() -> std::optional<DiskSpace> { return space_; },
        [this](DiskUsageState state) { told_.push_back(state); }, std::chrono::hours(1));
  }

  guardrails::Guardrails guardrails_;
  std::optional<DiskSpace> space_ = DiskSpace{.used_bytes = 10, .available_bytes = 90};
  std::vector<DiskUsageState> told_;
};

TEST_F(DiskUsageMonitorTest, EachRoundMeasuresClassifiesAndTells) {
  DiskUsageMonitor monitor = Monitor();
  EXPECT_FALSE(monitor.last().has_value());
  monitor.CheckNow();  // the guardrail is off
  ASSERT_TRUE(monitor.last().has_value());
  EXPECT_EQ(monitor.last()->percent, 10);
  EXPECT_EQ(monitor.last()->state, DiskUsageState::kNotAvailable);

  guardrails_.Apply({{"data_disk_usage_percentage_warn_threshold", "50"},
                     {"data_disk_usage_percentage_fail_threshold", "80"}});
  monitor.CheckNow();
  space_ = DiskSpace{.used_bytes = 60, .available_bytes = 40};
  monitor.CheckNow();
  space_ = DiskSpace{.used_bytes = 85, .available_bytes = 15};
  monitor.CheckNow();
  // data_disk_usage_max_disk_size makes 10 bytes of 20 count as 50%.
  space_ = DiskSpace{.used_bytes = 10, .available_bytes = 90};
  guardrails_.Set("data_disk_usage_max_disk_size", "19B");
  monitor.CheckNow();
  EXPECT_EQ(monitor.last()->percent, 53);
  EXPECT_EQ(told_, (std::vector<DiskUsageState>{DiskUsageState::kNotAvailable,
                                                DiskUsageState::kSpacious, DiskUsageState::kStuffed,
                                                DiskUsageState::kFull, DiskUsageState::kStuffed}));
}

TEST_F(DiskUsageMonitorTest, AFailedMeasureKeepsTheLastState) {
  DiskUsageMonitor monitor = Monitor();
  guardrails_.Apply({{"data_disk_usage_percentage_warn_threshold", "5"}});
  monitor.CheckNow();
  space_.reset();
  monitor.CheckNow();
  EXPECT_EQ(told_, std::vector<DiskUsageState>{DiskUsageState::kStuffed});
  EXPECT_EQ(monitor.last()->state, DiskUsageState::kStuffed);
}

TEST_F(DiskUsageMonitorTest, StartChecksAtOnceAndStopEndsTheThread) {
  std::atomic<int> rounds{0};
  DiskUsageMonitor monitor(
      guardrails_,
      [&]() -> std::optional<DiskSpace> {
        ++rounds;
        return space_;
      },
      nullptr, std::chrono::milliseconds(1));
  monitor.Start();
  EXPECT_GE(rounds.load(), 1);
  while (rounds.load() < 3) std::this_thread::yield();
  monitor.Stop();
  const int stopped_at = rounds.load();
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(rounds.load(), stopped_at);
  monitor.Stop();  // idempotent
}

TEST(DiskUsageMeasureTest, CountsEveryFileUnderTheDirectory) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                    ("sibyl-disk-usage-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "data" / "nested");
  std::ofstream(dir / "a") << std::string(1000, 'a');
  std::ofstream(dir / "data" / "nested" / "b") << std::string(234, 'b');
  const std::optional<DiskSpace> space = DiskUsageMonitor::OfDirectory(dir)();
  ASSERT_TRUE(space.has_value());
  EXPECT_EQ(space->used_bytes, 1234u);
  EXPECT_GT(space->available_bytes, 0u);
  std::filesystem::remove_all(dir);
  EXPECT_FALSE(DiskUsageMonitor::OfDirectory(dir)().has_value());
}

}  // namespace
}  // namespace sibyl::server
