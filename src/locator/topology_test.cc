#include "locator/topology.h"

#include <gtest/gtest.h>

#include "common/check.h"
#include "locator/locator_test_util.h"

namespace sibyl::locator {
namespace {

using testing::Node;

TEST(TopologyTest, GroupsNodesByDatacenterAndRack) {
  const Topology topology({{Node(1), {"dc1", "r1"}},
                           {Node(2), {"dc1", "r2"}},
                           {Node(3), {"dc1", "r1"}},
                           {Node(4), {"dc2", "r1"}}});
  EXPECT_EQ(topology.NodeCount("dc1"), 3u);
  EXPECT_EQ(topology.RackCount("dc1"), 2u);
  EXPECT_EQ(topology.NodeCount("dc2"), 1u);
  EXPECT_EQ(topology.RackCount("dc2"), 1u);  // r1 of dc2 is not r1 of dc1
  EXPECT_EQ(topology.NodeCount("dc3"), 0u);
  EXPECT_EQ(topology.datacenters().at("dc1").racks.at("r1"), (std::set<NodeId>{Node(1), Node(3)}));
  EXPECT_EQ(topology.LocationOf(Node(2)), (Location{"dc1", "r2"}));
  EXPECT_EQ(topology.Find(Node(9)), nullptr);
  EXPECT_THROW(topology.LocationOf(Node(9)), InternalError);
}

TEST(TopologyTest, RestrictedToTheRingsMembers) {
  const Topology topology(
      {{Node(1), {"dc1", "r1"}}, {Node(2), {"dc1", "r2"}}, {Node(3), {"dc2", "r1"}}});
  const std::vector<NodeId> members = {Node(1), Node(3), Node(7)};
  const Topology restricted = topology.Restricted(members);
  EXPECT_EQ(restricted.NodeCount("dc1"), 1u);
  EXPECT_EQ(restricted.RackCount("dc1"), 1u);
  EXPECT_EQ(restricted.NodeCount("dc2"), 1u);
  EXPECT_EQ(restricted.locations().size(), 2u);
}

}  // namespace
}  // namespace sibyl::locator
