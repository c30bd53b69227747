#include "tools/admin/member_queries.h"

#include <gtest/gtest.h>

#include "tools/admin/cluster_members_test_util.h"

namespace sibyl::tools::admin {
namespace {

TEST(MemberQueriesTest, MembersAreAskedAtTheirNativeAddress) {
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

TEST(MemberQueriesTest, EveryMemberUpIsAskedInOrderAndFailuresAreNamed) {
  // .1 up, .2 down, .3 not known either way (asked).
  const ClusterMembers cluster = ThreeNodeCluster();
  std::vector<std::string> asked;
  const std::vector<MemberAnswer<int>> answers =
      AskEveryMember(cluster, NodeAddress{}, [&](const NodeAddress& node) {
        asked.push_back(Where(node));
        if (node.host == "192.168.0.3") throw AdminError("cannot connect to 192.168.0.3:9042");
        return 7;
      });
  EXPECT_EQ(asked, (std::vector<std::string>{"192.168.0.1:9042", "192.168.0.3:9042"}));
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0].address, "127.0.0.1");
  EXPECT_EQ(answers[0].unavailable, "");
  EXPECT_EQ(answers[0].answer, 7);
  EXPECT_EQ(answers[1].address, "127.0.0.2");
  EXPECT_EQ(answers[1].unavailable, "DOWN: not asked");
  EXPECT_EQ(answers[2].address, "127.0.0.3");
  EXPECT_EQ(answers[2].unavailable, "Unreachable: cannot connect to 192.168.0.3:9042");
}

}  // namespace
}  // namespace sibyl::tools::admin
