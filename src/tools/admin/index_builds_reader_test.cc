#include "tools/admin/index_builds_reader.h"

#include <gtest/gtest.h>

#include "tools/admin/cluster_members_test_util.h"

namespace sibyl::tools::admin {
namespace {

TEST(IndexBuildsReaderTest, MembersAreAskedAtTheirNativeAddress) {
  MemberState member = ThreeNodeCluster().members[0];
  member.native_port = 9142;
  NodeAddress node = NativeAddressOf(member, 9042);
  EXPECT_EQ(node.host, "192.168.0.1");
  EXPECT_EQ(node.port, 9142);

  member.native_port = 0;  // not announced: the contacted node's port
  member.native_address = "0.0.0.0";
  node = NativeAddressOf(member, 9042);
  EXPECT_EQ(node.host, "127.0.0.1");
  EXPECT_EQ(node.port, 9042);
}

TEST(IndexBuildsReaderTest, ADownMemberIsNotAsked) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members = {cluster.members[1]};  // .2, down
  const std::vector<NodeIndexBuilds> nodes = ReadClusterIndexBuilds(cluster, NodeAddress{});
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].address, "127.0.0.2");
  EXPECT_EQ(nodes[0].unavailable, "DOWN: not asked");
}

}  // namespace
}  // namespace sibyl::tools::admin
