#include "tools/admin/status_format.h"

#include <gtest/gtest.h>

#include "tools/admin/cluster_members_test_util.h"

namespace sibyl::tools::admin {
namespace {

OwnershipChoice Everything(const ClusterMembers& cluster) {
  OwnershipChoice choice{.effective = true, .by_node = {}, .note = {}};
  for (const MemberState& member : cluster.members) choice.by_node[member.host_id] = 1.0;
  return choice;
}

TEST(StatusFormatTest, EffectiveOwnershipAsNodetoolPrintsIt) {
  const ClusterMembers cluster = ThreeNodeCluster();
  EXPECT_EQ(FormatStatus(cluster, Everything(cluster)),
            "Datacenter: datacenter1\n"
            "=======================\n"
            "Status=Up/Down\n"
            "|/ State=Normal/Leaving/Joining/Moving\n"
            "--  Address    Load       Tokens  Owns (effective)  Host ID                           "
            "    Rack \n"
            "UN  127.0.0.1  70.52 KiB  2       100.0%            "
            "00000000-0000-4000-8000-000000000001  rack1\n"
            "DN  127.0.0.2  1 KiB      2       100.0%            "
            "00000000-0000-4000-8000-000000000002  rack1\n"
            "?N  127.0.0.3  ?          2       100.0%            "
            "00000000-0000-4000-8000-000000000003  rack1\n"
            "\n");
}

TEST(StatusFormatTest, JoiningAndLeavingMembersShowTheirState) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members[0].status = "LEAVING";
  cluster.members[2].status = "BOOT";
  const std::string out = FormatStatus(cluster, Everything(cluster));
  EXPECT_NE(out.find("UL  127.0.0.1"), std::string::npos) << out;
  EXPECT_NE(out.find("DN  127.0.0.2"), std::string::npos) << out;
  EXPECT_NE(out.find("?J  127.0.0.3"), std::string::npos) << out;
}

TEST(StatusFormatTest, RawOwnershipShowsQuestionMarksAndTheNote) {
  const ClusterMembers cluster = ThreeNodeCluster();
  OwnershipChoice raw{
      .effective = false,
      .by_node = {{TestHostId(1), 0.5}, {TestHostId(2), 0.25}, {TestHostId(3), 0.25}},
      .note =
          "Non-system keyspaces don't have the same replication settings, "
          "effective ownership information is meaningless"};
  EXPECT_EQ(FormatStatus(cluster, raw),
            "Datacenter: datacenter1\n"
            "=======================\n"
            "Status=Up/Down\n"
            "|/ State=Normal/Leaving/Joining/Moving\n"
            "--  Address    Load       Tokens  Owns  Host ID                               Rack \n"
            "UN  127.0.0.1  70.52 KiB  2       ?     00000000-0000-4000-8000-000000000001  rack1\n"
            "DN  127.0.0.2  1 KiB      2       ?     00000000-0000-4000-8000-000000000002  rack1\n"
            "?N  127.0.0.3  ?          2       ?     00000000-0000-4000-8000-000000000003  rack1\n"
            "\n"
            "Note: Non-system keyspaces don't have the same replication settings, effective "
            "ownership information is meaningless\n");
}

TEST(StatusFormatTest, ASingleTokenPerDatacenterShowsTheToken) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members.resize(1);
  cluster.members[0].tokens = {42};
  EXPECT_EQ(FormatStatus(cluster, Everything(cluster)),
            "Datacenter: datacenter1\n"
            "=======================\n"
            "Status=Up/Down\n"
            "|/ State=Normal/Leaving/Joining/Moving\n"
            "--  Address    Load       Owns (effective)  Host ID                               "
            "Token  Rack \n"
            "UN  127.0.0.1  70.52 KiB  100.0%            00000000-0000-4000-8000-000000000001  "
            "42     rack1\n"
            "\n");
}

TEST(StatusFormatTest, DatacentersSortByNameAndShareColumnWidths) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members[0].datacenter = "west";
  cluster.members[0].rack = "a-long-rack";
  cluster.members[1].datacenter = "east";
  cluster.members.pop_back();
  const std::string status = FormatStatus(cluster, Everything(cluster));
  EXPECT_EQ(
      status,
      "Datacenter: east\n"
      "================\n"
      "Status=Up/Down\n"
      "|/ State=Normal/Leaving/Joining/Moving\n"
      "--  Address    Load       Tokens  Owns (effective)  Host ID                             "
      "  Rack       \n"
      "DN  127.0.0.2  1 KiB      2       100.0%            00000000-0000-4000-8000-00000000000"
      "2  rack1      \n"
      "\n"
      "Datacenter: west\n"
      "================\n"
      "Status=Up/Down\n"
      "|/ State=Normal/Leaving/Joining/Moving\n"
      "--  Address    Load       Tokens  Owns (effective)  Host ID                             "
      "  Rack       \n"
      "UN  127.0.0.1  70.52 KiB  2       100.0%            00000000-0000-4000-8000-00000000000"
      "1  a-long-rack\n"
      "\n");
}

}  // namespace
}  // namespace sibyl::tools::admin
