#include "tools/shell/shell_options.h"

#include <gtest/gtest.h>

namespace sibyl::tools::shell {
namespace {

TEST(ShellOptionsTest, DefaultsAndPositionalHostPort) {
  const auto o = ParseShellArguments({}, nullptr, nullptr);
  EXPECT_EQ(o.host, "127.0.0.1");
  EXPECT_EQ(o.port, 9042);
  EXPECT_EQ(o.connect_timeout_seconds, 5);
  EXPECT_EQ(o.request_timeout_seconds, 10);
  const auto p = ParseShellArguments({"10.0.0.7", "9142"}, nullptr, nullptr);
  EXPECT_EQ(p.host, "10.0.0.7");
  EXPECT_EQ(p.port, 9142);
}

TEST(ShellOptionsTest, EnvironmentYieldsToTheCommandLine) {
  const auto env = ParseShellArguments({}, "db.local", "9999");
  EXPECT_EQ(env.host, "db.local");
  EXPECT_EQ(env.port, 9999);
  const auto both = ParseShellArguments({"other"}, "db.local", "9999");
  EXPECT_EQ(both.host, "other");
  EXPECT_EQ(both.port, 9999);
}

TEST(ShellOptionsTest, CqlshOptions) {
  const auto o = ParseShellArguments(
      {"-u", "cassandra", "--password=secret", "-k", "ks", "-e", "SELECT 1", "--no-color",
       "--connect-timeout", "7", "--request-timeout=30", "--protocol-version", "4", "-t"},
      nullptr, nullptr);
  EXPECT_EQ(o.username, "cassandra");
  EXPECT_EQ(o.password, "secret");
  EXPECT_EQ(o.keyspace, "ks");
  EXPECT_EQ(*o.execute, "SELECT 1");
  EXPECT_EQ(o.color, false);
  EXPECT_EQ(o.connect_timeout_seconds, 7);
  EXPECT_EQ(o.request_timeout_seconds, 30);
  EXPECT_EQ(o.protocol_version, 4);
  EXPECT_TRUE(o.force_tty);
}

TEST(ShellOptionsTest, Refusals) {
  EXPECT_THROW(ParseShellArguments({"--bogus"}, nullptr, nullptr), ShellUsageError);
  EXPECT_THROW(ParseShellArguments({"-e"}, nullptr, nullptr), ShellUsageError);
  EXPECT_THROW(ParseShellArguments({"host", "notaport"}, nullptr, nullptr), ShellUsageError);
  EXPECT_THROW(ParseShellArguments({"--protocol-version", "3"}, nullptr, nullptr), ShellUsageError);
  EXPECT_THROW(ParseShellArguments({"--connect-timeout", "x"}, nullptr, nullptr), ShellUsageError);
  EXPECT_THROW(ParseShellArguments({"a", "1", "extra"}, nullptr, nullptr), ShellUsageError);
  try {
    ParseShellArguments({"--ssl"}, nullptr, nullptr);
    FAIL();
  } catch (const ShellUsageError& e) {
    EXPECT_NE(std::string(e.what()).find("TLS"), std::string::npos);
  }
}

}  // namespace
}  // namespace sibyl::tools::shell
