#include "tools/admin/view_builds_reader.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "tools/admin/cluster_members_test_util.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

TEST(ViewBuildsReaderTest, RowsAreRead) {
  const ViewBuild building =
      ViewBuildOfRow({"shop", "users_by_zip", "building", types::EncodeBigint(310),
                      types::EncodeBigint(-4611686018427387904), std::nullopt});
  EXPECT_EQ(building.keyspace, "shop");
  EXPECT_EQ(building.view, "users_by_zip");
  EXPECT_EQ(building.progress.status, "building");
  EXPECT_EQ(building.progress.partitions_built, 310);
  EXPECT_EQ(building.progress.last_token, -4611686018427387904);
  EXPECT_FALSE(building.progress.failure.has_value());

  const ViewBuild failed = ViewBuildOfRow(
      {"audit", "events_by_kind", "failed", types::EncodeBigint(12), std::nullopt, "disk full"});
  EXPECT_EQ(failed.progress.status, "failed");
  EXPECT_FALSE(failed.progress.last_token.has_value());
  EXPECT_EQ(failed.progress.failure, "disk full");

  EXPECT_THROW((void)ViewBuildOfRow({std::nullopt, "v", "built", types::EncodeBigint(1)}),
               AdminError);
}

TEST(ViewBuildsReaderTest, ADownMemberIsNotAsked) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members = {cluster.members[1]};  // .2, down
  const std::vector<NodeViewBuilds> nodes = ReadClusterViewBuilds(cluster, NodeAddress{});
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].address, "127.0.0.2");
  EXPECT_EQ(nodes[0].unavailable, "DOWN: not asked");
}

}  // namespace
}  // namespace sibyl::tools::admin
