#include "locator/snitch.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "common/error.h"

namespace sibyl::locator {
namespace {

const std::string kMissing =
    "DC or rack not found in snitch properties, check your configuration in: "
    "cassandra-rackdc.properties";

class SnitchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sibyl_snitch_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path Write(const std::string& text) {
    const std::filesystem::path path = dir_ / "cassandra-rackdc.properties";
    std::ofstream(path) << text;
    return path;
  }

  static std::string ErrorOf(std::string_view name, const std::filesystem::path& path) {
    try {
      (void)Snitch::FromConfig(name, path);
    } catch (const CqlError& e) {
      EXPECT_EQ(e.code(), ErrorCode::kConfigError);
      return e.what();
    }
    return "no error";
  }

  std::filesystem::path dir_;
};

TEST_F(SnitchTest, SimpleSnitch) {
  for (std::string_view name : {"SimpleSnitch", "org.apache.cassandra.locator.SimpleSnitch"}) {
    const Snitch snitch = Snitch::FromConfig(name, dir_ / "absent");
    EXPECT_EQ(snitch.class_name(), "org.apache.cassandra.locator.SimpleSnitch");
    EXPECT_EQ(snitch.local(), (Location{"datacenter1", "rack1"}));
    EXPECT_FALSE(snitch.prefer_local());
  }
}

TEST_F(SnitchTest, GossipingPropertyFileSnitchReadsTheFile) {
  const auto path = Write(
      "# cassandra-rackdc.properties\ndc= dc-east \nrack :r2\t\n"
      "dc_suffix=_x\nprefer_local=TRUE\n");
  for (std::string_view name : {"GossipingPropertyFileSnitch",
                                "org.apache.cassandra.locator.GossipingPropertyFileSnitch"}) {
    const Snitch snitch = Snitch::FromConfig(name, path);
    EXPECT_EQ(snitch.class_name(), "org.apache.cassandra.locator.GossipingPropertyFileSnitch");
    // Trimmed; dc_suffix is not applied (4.1's GPFS ignores it).
    EXPECT_EQ(snitch.local(), (Location{"dc-east", "r2"}));
    EXPECT_TRUE(snitch.prefer_local());
  }
}

TEST_F(SnitchTest, PreferLocalIsJavasParseBoolean) {
  EXPECT_FALSE(Snitch::GossipingPropertyFile({{"dc", "a"}, {"rack", "b"}}).prefer_local());
  EXPECT_FALSE(Snitch::GossipingPropertyFile({{"dc", "a"}, {"rack", "b"}, {"prefer_local", "yes"}})
                   .prefer_local());
  // Java does not trim before Boolean.parseBoolean.
  EXPECT_FALSE(
      Snitch::GossipingPropertyFile({{"dc", "a"}, {"rack", "b"}, {"prefer_local", "true "}})
          .prefer_local());
  EXPECT_TRUE(Snitch::GossipingPropertyFile({{"dc", "a"}, {"rack", "b"}, {"prefer_local", "True"}})
                  .prefer_local());
}

TEST_F(SnitchTest, MissingDcOrRackAsCassandra) {
  EXPECT_EQ(ErrorOf("GossipingPropertyFileSnitch", Write("dc=dc1\n")), kMissing);
  EXPECT_EQ(ErrorOf("GossipingPropertyFileSnitch", Write("rack=r1\n# dc=dc1\n")), kMissing);
  // Present but empty is present (Cassandra keeps the empty name).
  EXPECT_EQ(Snitch::FromConfig("GossipingPropertyFileSnitch", Write("dc=\nrack=r\n")).local(),
            (Location{"", "r"}));
}

TEST_F(SnitchTest, UnreadableFileAsCassandra) {
  const std::filesystem::path absent = dir_ / "none.properties";
  EXPECT_EQ(ErrorOf("GossipingPropertyFileSnitch", absent),
            "Unable to read " + absent.string() + ": No such file or directory. " + kMissing);
  EXPECT_EQ(ErrorOf("GossipingPropertyFileSnitch", dir_),
            "Unable to read " + dir_.string() + ": is a directory. " + kMissing);
}

TEST_F(SnitchTest, UnsupportedAndUnknownSnitches) {
  EXPECT_EQ(ErrorOf("PropertyFileSnitch", dir_),
            "endpoint_snitch org.apache.cassandra.locator.PropertyFileSnitch is not supported by "
            "Sibyl (supported: SimpleSnitch, GossipingPropertyFileSnitch)");
  EXPECT_EQ(ErrorOf("org.apache.cassandra.locator.Ec2Snitch", dir_),
            "endpoint_snitch org.apache.cassandra.locator.Ec2Snitch is not supported by Sibyl "
            "(supported: SimpleSnitch, GossipingPropertyFileSnitch)");
  EXPECT_EQ(ErrorOf("FancySnitch", dir_),
            "Unable to find snitch class 'org.apache.cassandra.locator.FancySnitch'");
  EXPECT_EQ(ErrorOf("com.example.SimpleSnitch", dir_),
            "Unable to find snitch class 'com.example.SimpleSnitch'");
}

}  // namespace
}  // namespace sibyl::locator
