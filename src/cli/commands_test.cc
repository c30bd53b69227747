#include "cli/commands.h"

#include <gtest/gtest.h>

#include "common/version.h"

namespace sibyl::cli {
namespace {

TEST(Commands, UsageListsEveryCommandOnceInOrder) {
  const std::string usage = MainUsage();
  size_t previous = 0;
  for (const Command& command : Commands()) {
    const std::string line = "\n  " + std::string(command.name) + " ";
    const size_t at = usage.find(line);
    ASSERT_NE(at, std::string::npos) << command.name;
    EXPECT_GT(at, previous) << command.name;
    EXPECT_EQ(usage.find(line, at + 1), std::string::npos) << command.name;
    previous = at;
  }
  EXPECT_NE(usage.find("  start        run a node (sibyl start --help for its options)\n"),
            std::string::npos);
}

TEST(Commands, VersionAndHelp) {
  testing::internal::CaptureStdout();
  EXPECT_EQ(RunMain({"--version"}, "sibyl"), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), VersionLine() + "\n");
  testing::internal::CaptureStdout();
  EXPECT_EQ(RunMain({"help"}, "sibyl"), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), MainUsage());
}

TEST(Commands, UnknownOrMissingCommandFails) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunMain({"frobnicate", "--now"}, "sibyl"), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(),
            "sibyl: unknown command 'frobnicate' (see sibyl --help)\n");
  testing::internal::CaptureStderr();
  EXPECT_EQ(RunMain({}, "sibyl"), 1);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), MainUsage());
}

}  // namespace
}  // namespace sibyl::cli
