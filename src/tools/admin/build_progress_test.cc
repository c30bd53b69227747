#include "tools/admin/build_progress.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

std::string ReadError(const AdminRow& row) {
  try {
    (void)ReadBuildProgress(row, 1);
  } catch (const AdminError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BuildProgressTest, ColumnsFromTheFirstOn) {
  const BuildProgress built =
      ReadBuildProgress({"ks", "built", types::EncodeBigint(1200), std::nullopt, std::nullopt}, 1);
  EXPECT_EQ(built.status, "built");
  EXPECT_EQ(built.partitions_built, 1200);
  EXPECT_FALSE(built.last_token.has_value());
  EXPECT_FALSE(built.failure.has_value());
}

TEST(BuildProgressTest, ANodesMistakesAreErrorsNotCrashes) {
  EXPECT_EQ(ReadError({"ks", std::nullopt, types::EncodeBigint(1)}),
            "the node answered a null status");
  EXPECT_EQ(ReadError({"ks", "built"}), "the node answered a null partitions_built");
  EXPECT_EQ(ReadError({"ks", "built", types::EncodeInt(1)}),
            "the node answered a malformed partitions_built (4 bytes)");
  EXPECT_EQ(ReadError({"ks", "building", types::EncodeBigint(1), "x"}),
            "the node answered a malformed last_token (1 byte)");
}

TEST(BuildProgressTest, SectionsSortTheirRowsAndSayWhenThereAreNone) {
  const BuildProgress built{.status = "built",
                            .partitions_built = 3,
                            .last_token = std::nullopt,
                            .failure = std::nullopt};
  const BuildProgress failed{.status = "failed",
                             .partitions_built = 1,
                             .last_token = std::nullopt,
                             .failure = "disk full"};
  const NodeSection section = BuildsSection("127.0.0.1", "", {"Keyspace", "View"},
                                            {{{"ks", "v2"}, &failed}, {{"ks", "v1"}, &built}},
                                            "No materialized views", std::nullopt);
  ASSERT_EQ(section.table.rows().size(), 3u);
  EXPECT_EQ(section.table.rows()[0],
            (std::vector<std::string>{"Keyspace", "View", "Status", "Partitions built",
                                      "Last token", "Failure"}));
  EXPECT_EQ(section.table.rows()[1], (std::vector<std::string>{"ks", "v1", "built", "3", "", ""}));
  EXPECT_EQ(section.table.rows()[2],
            (std::vector<std::string>{"ks", "v2", "failed", "1", "", "disk full"}));

  EXPECT_EQ(
      BuildsSection("127.0.0.1", "", {"Keyspace", "View"}, {}, "No materialized views", "ks").line,
      "No materialized views in ks");
  const NodeSection down = BuildsSection("127.0.0.2", "DOWN: not asked", {"Keyspace", "View"},
                                         {{{"ks", "v1"}, &built}}, "No materialized views", "ks");
  EXPECT_TRUE(down.table.rows().empty());
  EXPECT_EQ(down.line, "DOWN: not asked");
}

}  // namespace
}  // namespace sibyl::tools::admin
