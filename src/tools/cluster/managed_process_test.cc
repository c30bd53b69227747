#include "tools/cluster/managed_process.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace sibyl::tools::cluster {
namespace {

// This test process stands in for a member: its executable's name and its
// first argument identify it; a pid whose command line lacks the member's
// argument (a reused pid) is not ours.
TEST(ManagedProcessTest, AProcessIsOursOnlyWithItsProgramAndItsArgument) {
  const std::string program = std::filesystem::read_symlink("/proc/self/exe").filename().string();
  std::ifstream cmdline("/proc/self/cmdline", std::ios::binary);
  std::string first_argument;
  ASSERT_TRUE(std::getline(cmdline, first_argument, '\0'));
  EXPECT_TRUE(IsRunning(getpid(), {program, first_argument}));
  EXPECT_FALSE(IsRunning(getpid(), {program, "/elsewhere/node1/data"}));
  EXPECT_FALSE(IsRunning(getpid(), {"etcd", first_argument}));
  EXPECT_FALSE(
      StopProcess(getpid(), {program, "/elsewhere/node1/data"}, std::chrono::milliseconds(10)))
      << "must not signal a process that is not the member";
}

}  // namespace
}  // namespace sibyl::tools::cluster
