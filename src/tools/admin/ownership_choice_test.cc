#include "tools/admin/ownership_choice.h"

#include <gtest/gtest.h>

#include "tools/admin/admin_error.h"
#include "tools/admin/cluster_members_test_util.h"

namespace sibyl::tools::admin {
namespace {

TEST(OwnershipChoiceTest, ANamedKeyspaceGivesItsEffectiveOwnership) {
  const OwnershipChoice choice = ChooseOwnership(ThreeNodeCluster(), "ks3");
  EXPECT_TRUE(choice.effective);
  EXPECT_TRUE(choice.note.empty());
  for (int n = 1; n <= 3; ++n) EXPECT_DOUBLE_EQ(choice.by_node.at(TestHostId(n)), 1.0);
  // RF 2: every node holds its own ranges and those of the node before it.
  const OwnershipChoice two = ChooseOwnership(ThreeNodeCluster(), "ks2");
  double total = 0;
  for (const auto& [node, fraction] : two.by_node) total += fraction;
  EXPECT_NEAR(total, 2.0, 1e-9);
}

TEST(OwnershipChoiceTest, LocalStrategyFallsBackToRawOwnershipWithANote) {
  const OwnershipChoice choice = ChooseOwnership(ThreeNodeCluster(), "system");
  EXPECT_FALSE(choice.effective);
  EXPECT_EQ(choice.note, "Ownership values for keyspaces with LocalStrategy are meaningless");
  double total = 0;
  for (const auto& [node, fraction] : choice.by_node) total += fraction;
  EXPECT_NEAR(total, 1.0, 1e-9);
}

TEST(OwnershipChoiceTest, WithoutAKeyspaceUserKeyspacesMustReplicateAlike) {
  const OwnershipChoice differing = ChooseOwnership(ThreeNodeCluster(), std::nullopt);
  EXPECT_FALSE(differing.effective);
  EXPECT_EQ(differing.note,
            "Non-system keyspaces don't have the same replication settings, effective ownership "
            "information is meaningless");

  ClusterMembers alike = ThreeNodeCluster();
  alike.keyspaces.erase("ks2");
  const OwnershipChoice choice = ChooseOwnership(alike, std::nullopt);
  EXPECT_TRUE(choice.effective);
  EXPECT_DOUBLE_EQ(choice.by_node.at(TestHostId(2)), 1.0);  // ks3's RF 3
}

TEST(OwnershipChoiceTest, WithoutUserKeyspacesSystemTracesIsUsed) {
  ClusterMembers cluster = ThreeNodeCluster();
  cluster.keyspaces.erase("ks2");
  cluster.keyspaces.erase("ks3");
  const OwnershipChoice choice = ChooseOwnership(cluster, std::nullopt);
  EXPECT_TRUE(choice.effective);
  double total = 0;
  for (const auto& [node, fraction] : choice.by_node) total += fraction;
  EXPECT_NEAR(total, 2.0, 1e-9);  // system_traces has RF 2

  cluster.keyspaces.erase("system_traces");
  EXPECT_THROW((void)ChooseOwnership(cluster, std::nullopt), AdminError);
}

TEST(OwnershipChoiceTest, AnUnknownKeyspaceIsAnError) {
  try {
    (void)ChooseOwnership(ThreeNodeCluster(), "nosuch");
    FAIL() << "expected an error";
  } catch (const AdminError& e) {
    EXPECT_STREQ(e.what(), "The keyspace nosuch, does not exist");
  }
}

}  // namespace
}  // namespace sibyl::tools::admin
