#include "server/live_data_size.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace sibyl::server {
namespace {

class LiveDataSizeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // One directory per test and process: ctest runs this suite's tests as
    // concurrent processes, which must not clear each other's files.
    directory_ = std::filesystem::temp_directory_path() /
                 ("live_data_size_test_" +
                  std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                  "_" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory_);
    std::filesystem::create_directories(directory_);
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  void Write(const std::string& name, size_t size) {
    std::ofstream(directory_ / name, std::ios::binary) << std::string(size, 'x');
  }

  std::filesystem::path directory_;
};

TEST_F(LiveDataSizeTest, CountsSortedTablesOnly) {
  Write("000012.sst", 1000);
  Write("000015.sst", 234);
  Write("000016.log", 5000);  // the write-ahead log is not load
  Write("MANIFEST-000005", 77);
  EXPECT_EQ(LiveDataSize(directory_), 1234);
}

TEST_F(LiveDataSizeTest, AnEmptyDirectoryHoldsNothing) { EXPECT_EQ(LiveDataSize(directory_), 0); }

TEST_F(LiveDataSizeTest, AMissingDirectoryIsUnknown) {
  EXPECT_FALSE(LiveDataSize(directory_ / "absent").has_value());
}

}  // namespace
}  // namespace sibyl::server
