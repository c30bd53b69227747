#include "tools/admin/ring_format.h"

#include <gtest/gtest.h>

#include "tools/admin/cluster_members_test_util.h"

namespace sibyl::tools::admin {
namespace {

TEST(RingFormatTest, EveryTokenInRingOrderAsNodetoolPrintsIt) {
  const ClusterMembers cluster = ThreeNodeCluster();
  OwnershipChoice effective{.effective = true, .by_node = {}, .note = {}};
  for (int n = 1; n <= 3; ++n) effective.by_node[TestHostId(n)] = 1.0;
  EXPECT_EQ(FormatRing(cluster, effective),
            "\n"
            "Datacenter: datacenter1\n"
            "==========\n"
            "Address         Rack        Status State   Load            Owns                Token  "
            "                                     \n"
            "                                                                               "
            "6000000000000000000                         \n"
            "127.0.0.1       rack1       Up     Normal  70.52 KiB       100.00%             "
            "-6000000000000000000                        \n"
            "127.0.0.2       rack1       Down   Normal  1 KiB           100.00%             "
            "-4000000000000000000                        \n"
            "127.0.0.3       rack1       ?      Normal  ?               100.00%             "
            "-2000000000000000000                        \n"
            "127.0.0.1       rack1       Up     Normal  70.52 KiB       100.00%             0      "
            "                                     \n"
            "127.0.0.2       rack1       Down   Normal  1 KiB           100.00%             "
            "3000000000000000000                         \n"
            "127.0.0.3       rack1       ?      Normal  ?               100.00%             "
            "6000000000000000000                         \n"
            "\n"
            "  Warning: \"nodetool ring\" is used to output all the tokens of a node.\n"
            "  To view status related info of a node use \"nodetool status\" instead.\n"
            "\n"
            "\n"
            "  ");
}

TEST(RingFormatTest, OneTokenPerNodeHasNoWarningAndRawOwnershipItsNote) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.members.resize(1);
  cluster.members[0].tokens = {42};
  const OwnershipChoice raw{.effective = false,
                            .by_node = {{TestHostId(1), 1.0}},
                            .note =
                                "Ownership values for keyspaces with LocalStrategy are "
                                "meaningless"};
  EXPECT_EQ(FormatRing(cluster, raw),
            "\n"
            "Datacenter: datacenter1\n"
            "==========\n"
            "Address         Rack        Status State   Load            Owns                Token  "
            "                                     \n"
            "\n"
            "127.0.0.1       rack1       Up     Normal  70.52 KiB       ?                   42     "
            "                                     \n"
            "\n"
            "\n"
            "  Note: Ownership values for keyspaces with LocalStrategy are meaningless\n");
}

}  // namespace
}  // namespace sibyl::tools::admin
