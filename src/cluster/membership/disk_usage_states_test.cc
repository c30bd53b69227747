#include "cluster/membership/disk_usage_states.h"

#include <gtest/gtest.h>

namespace sibyl::cluster {
namespace {

using guardrails::DiskUsageState;

TEST(DiskUsageStatesTest, AnyStuffedOrFullFollowsTheLocalNodeAndItsPeers) {
  DiskUsageStates states;
  const types::Uuid a = types::Uuid::NameBased("a");
  const types::Uuid b = types::Uuid::NameBased("b");
  EXPECT_EQ(states.local(), DiskUsageState::kNotAvailable);
  EXPECT_EQ(states.PeerState(a), DiskUsageState::kNotAvailable);
  EXPECT_FALSE(states.AnyStuffedOrFull());

  states.SetLocal(DiskUsageState::kStuffed);
  EXPECT_TRUE(states.AnyStuffedOrFull());
  states.SetLocal(DiskUsageState::kSpacious);
  EXPECT_FALSE(states.AnyStuffedOrFull());

  states.SetPeer(a, DiskUsageState::kFull);
  states.SetPeer(b, DiskUsageState::kStuffed);
  EXPECT_EQ(states.PeerState(a), DiskUsageState::kFull);
  EXPECT_TRUE(states.AnyStuffedOrFull());
  states.SetPeer(a, DiskUsageState::kSpacious);
  EXPECT_TRUE(states.AnyStuffedOrFull());  // b still is
  states.ForgetPeer(b);
  EXPECT_EQ(states.PeerState(b), DiskUsageState::kNotAvailable);
  EXPECT_FALSE(states.AnyStuffedOrFull());
  states.ForgetPeer(b);  // twice: nothing
  EXPECT_FALSE(states.AnyStuffedOrFull());
}

}  // namespace
}  // namespace sibyl::cluster
