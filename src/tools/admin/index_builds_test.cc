#include "tools/admin/index_builds.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

IndexBuild Build(std::string keyspace, std::string table, std::string index, std::string status,
                 int64_t partitions) {
  return IndexBuild{.keyspace = std::move(keyspace),
                    .table = std::move(table),
                    .index = std::move(index),
                    .progress = {.status = std::move(status),
                                 .partitions_built = partitions,
                                 .last_token = std::nullopt,
                                 .failure = std::nullopt}};
}

std::vector<NodeIndexBuilds> ThreeNodes() {
  NodeIndexBuilds first{.address = "127.0.0.1", .unavailable = {}, .answer = {}};
  first.answer.push_back(Build("shop", "users", "by_zip", "building", 310));
  first.answer.back().progress.last_token = -4611686018427387904;
  first.answer.push_back(Build("audit", "events", "by_kind", "failed", 12));
  first.answer.back().progress.failure = "disk full";
  first.answer.push_back(Build("shop", "users", "by_age", "built", 1200));
  first.answer.push_back(Build("shop", "orders", "by_user", "built", 7));
  NodeIndexBuilds second{.address = "127.0.0.2", .unavailable = "DOWN: not asked", .answer = {}};
  NodeIndexBuilds third{.address = "127.0.0.3",
                        .unavailable =
                            "Unreachable: cannot connect to 127.0.0.3:9042: "
                            "Connection refused",
                        .answer = {}};
  return {first, second, third};
}

TEST(IndexBuildsTest, OneSortedTablePerNodeAndALineForThoseNotAsked) {
  EXPECT_EQ(FormatIndexBuilds(ThreeNodes(), std::nullopt),
            "Node: 127.0.0.1\n"
            "===============\n"
            "Keyspace  Table   Index    Status    Partitions built  Last token            Failure  "
            "\n"
            "audit     events  by_kind  failed    12                                      disk full"
            "\n"
            "shop      orders  by_user  built     7                                                "
            "\n"
            "shop      users   by_age   built     1200                                             "
            "\n"
            "shop      users   by_zip   building  310               -4611686018427387904           "
            "\n"
            "\n"
            "Node: 127.0.0.2\n"
            "===============\n"
            "DOWN: not asked\n"
            "\n"
            "Node: 127.0.0.3\n"
            "===============\n"
            "Unreachable: cannot connect to 127.0.0.3:9042: Connection refused\n");
}

TEST(IndexBuildsTest, AKeyspaceShowsOnlyItsBuilds) {
  std::vector<NodeIndexBuilds> nodes = ThreeNodes();
  nodes.resize(1);
  EXPECT_EQ(FormatIndexBuilds(nodes, "audit"),
            "Node: 127.0.0.1\n"
            "===============\n"
            "Keyspace  Table   Index    Status  Partitions built  Last token  Failure  \n"
            "audit     events  by_kind  failed  12                            disk full\n");
}

TEST(IndexBuildsTest, ANodeWithoutBuildsSaysSo) {
  const std::vector<NodeIndexBuilds> nodes = {
      NodeIndexBuilds{.address = "127.0.0.1", .unavailable = {}, .answer = {}}};
  EXPECT_EQ(FormatIndexBuilds(nodes, std::nullopt),
            "Node: 127.0.0.1\n===============\nNo secondary indexes\n");
  EXPECT_TRUE(FormatIndexBuilds(ThreeNodes(), "nothing")
                  .starts_with("Node: 127.0.0.1\n===============\nNo secondary indexes in "
                               "nothing\n\nNode: 127.0.0.2\n"));
}

}  // namespace
}  // namespace sibyl::tools::admin
