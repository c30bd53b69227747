#include "tools/admin/view_builds.h"

#include <gtest/gtest.h>

namespace sibyl::tools::admin {
namespace {

ViewBuild Build(std::string keyspace, std::string view, std::string status, int64_t partitions) {
  return ViewBuild{.keyspace = std::move(keyspace),
                   .view = std::move(view),
                   .progress = {.status = std::move(status),
                                .partitions_built = partitions,
                                .last_token = std::nullopt,
                                .failure = std::nullopt}};
}

std::vector<NodeViewBuilds> ThreeNodes() {
  NodeViewBuilds first{.address = "127.0.0.1", .unavailable = {}, .answer = {}};
  first.answer.push_back(Build("shop", "users_by_zip", "building", 310));
  first.answer.back().progress.last_token = -4611686018427387904;
  first.answer.push_back(Build("audit", "events_by_kind", "failed", 12));
  first.answer.back().progress.failure = "disk full";
  first.answer.push_back(Build("shop", "users_by_age", "built", 1200));
  NodeViewBuilds second{.address = "127.0.0.2", .unavailable = "DOWN: not asked", .answer = {}};
  NodeViewBuilds third{.address = "127.0.0.3", .unavailable = {}, .answer = {}};
  third.answer.push_back(Build("shop", "users_by_age", "built", 1187));
  return {first, second, third};
}

TEST(ViewBuildsTest, OneSortedTablePerNodeAndALineForThoseNotAsked) {
  EXPECT_EQ(
      FormatViewBuilds(ThreeNodes(), std::nullopt),
      "Node: 127.0.0.1\n"
      "===============\n"
      "Keyspace  View            Status    Partitions built  Last token            Failure  \n"
      "audit     events_by_kind  failed    12                                      disk full\n"
      "shop      users_by_age    built     1200                                             \n"
      "shop      users_by_zip    building  310               -4611686018427387904           \n"
      "\n"
      "Node: 127.0.0.2\n"
      "===============\n"
      "DOWN: not asked\n"
      "\n"
      "Node: 127.0.0.3\n"
      "===============\n"
      "Keyspace  View            Status    Partitions built  Last token            Failure  \n"
      "shop      users_by_age    built     1187                                             \n");
}

TEST(ViewBuildsTest, AKeyspaceShowsOnlyItsBuilds) {
  std::vector<NodeViewBuilds> nodes = ThreeNodes();
  nodes.resize(1);
  EXPECT_EQ(FormatViewBuilds(nodes, "audit"),
            "Node: 127.0.0.1\n"
            "===============\n"
            "Keyspace  View            Status  Partitions built  Last token  Failure  \n"
            "audit     events_by_kind  failed  12                            disk full\n");
}

TEST(ViewBuildsTest, ANodeWithoutViewsSaysSo) {
  const std::vector<NodeViewBuilds> nodes = {
      NodeViewBuilds{.address = "127.0.0.1", .unavailable = {}, .answer = {}}};
  EXPECT_EQ(FormatViewBuilds(nodes, std::nullopt),
            "Node: 127.0.0.1\n===============\nNo materialized views\n");
  EXPECT_TRUE(FormatViewBuilds(ThreeNodes(), "nothing")
                  .starts_with("Node: 127.0.0.1\n===============\nNo materialized views in "
                               "nothing\n\nNode: 127.0.0.2\n"));
}

}  // namespace
}  // namespace sibyl::tools::admin
