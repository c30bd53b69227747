#include "cluster/consistency_level.h"

#include <gtest/gtest.h>

#include <vector>

#include "common/error.h"
#include "protocol/request.h"

namespace sibyl::cluster {
namespace {

using protocol::Consistency;

uint16_t Code(Consistency c) { return static_cast<uint16_t>(c); }

locator::ReplicationStrategy Simple(int rf) { return locator::ReplicationStrategy::Simple(rf); }

locator::ReplicationStrategy Nts(std::map<std::string, int> per_dc) {
  return locator::ReplicationStrategy::NetworkTopology(std::move(per_dc));
}

TEST(ConsistencyLevelTest, BlockForAsCassandra) {
  const locator::ReplicationStrategy rf3 = Simple(3);
  EXPECT_EQ(BlockFor(Code(Consistency::kAny), rf3, "dc1"), 1);
  EXPECT_EQ(BlockFor(Code(Consistency::kOne), rf3, "dc1"), 1);
  EXPECT_EQ(BlockFor(Code(Consistency::kTwo), rf3, "dc1"), 2);
  EXPECT_EQ(BlockFor(Code(Consistency::kThree), rf3, "dc1"), 3);
  EXPECT_EQ(BlockFor(Code(Consistency::kQuorum), rf3, "dc1"), 2);
  EXPECT_EQ(BlockFor(Code(Consistency::kQuorum), Simple(4), "dc1"), 3);
  EXPECT_EQ(BlockFor(Code(Consistency::kQuorum), Simple(1), "dc1"), 1);
  EXPECT_EQ(BlockFor(Code(Consistency::kAll), rf3, "dc1"), 3);
  EXPECT_EQ(BlockFor(Code(Consistency::kSerial), rf3, "dc1"), 2);
  // Without NetworkTopologyStrategy the local and each quorums are QUORUM.
  EXPECT_EQ(BlockFor(Code(Consistency::kLocalQuorum), rf3, "dc1"), 2);
  EXPECT_EQ(BlockFor(Code(Consistency::kEachQuorum), rf3, "dc1"), 2);

  const locator::ReplicationStrategy nts = Nts({{"dc1", 3}, {"dc2", 5}});
  EXPECT_EQ(BlockFor(Code(Consistency::kQuorum), nts, "dc1"), 5);  // 8 / 2 + 1
  EXPECT_EQ(BlockFor(Code(Consistency::kAll), nts, "dc1"), 8);
  EXPECT_EQ(BlockFor(Code(Consistency::kLocalQuorum), nts, "dc1"), 2);
  EXPECT_EQ(BlockFor(Code(Consistency::kLocalQuorum), nts, "dc2"), 3);
  EXPECT_EQ(BlockFor(Code(Consistency::kLocalSerial), nts, "dc2"), 3);
  EXPECT_EQ(BlockFor(Code(Consistency::kEachQuorum), nts, "dc1"), 5);  // 2 + 3
  // A datacenter without replicas: a quorum of zero replicas is one.
  EXPECT_EQ(BlockFor(Code(Consistency::kLocalQuorum), nts, "dc3"), 1);
}

struct Refusal {
  std::string message;
  int required = 0;
  int alive = 0;
};

Refusal Check(Consistency consistency, const locator::ReplicationStrategy& factors,
              std::vector<std::string_view> live, std::string_view local_dc = "dc1") {
  const uint16_t code = Code(consistency);
  try {
    AssureSufficientLiveReplicas(code, factors, local_dc, live, BlockFor(code, factors, local_dc));
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kUnavailable);
    const auto& info = std::get<UnavailableInfo>(e.detail());
    EXPECT_EQ(info.consistency, code);
    return {e.what(), info.required, info.alive};
  }
  return {"available"};
}

TEST(ConsistencyLevelTest, UnavailableCarriesRequiredAndAlive) {
  const locator::ReplicationStrategy rf3 = Simple(3);
  EXPECT_EQ(Check(Consistency::kQuorum, rf3, {"dc1", "dc1"}).message, "available");
  const Refusal quorum = Check(Consistency::kQuorum, rf3, {"dc1"});
  EXPECT_EQ(quorum.message, "Cannot achieve consistency level QUORUM");
  EXPECT_EQ(quorum.required, 2);
  EXPECT_EQ(quorum.alive, 1);
  const Refusal all = Check(Consistency::kAll, rf3, {"dc1", "dc1"});
  EXPECT_EQ(all.message, "Cannot achieve consistency level ALL");
  EXPECT_EQ(all.required, 3);
  EXPECT_EQ(all.alive, 2);
  EXPECT_EQ(Check(Consistency::kOne, rf3, {}).message, "Cannot achieve consistency level ONE");
  // THREE on a keyspace of two replicas can never succeed.
  EXPECT_EQ(Check(Consistency::kThree, Simple(2), {"dc1", "dc1"}).required, 3);
  // ANY is satisfied by a hint on the coordinator.
  EXPECT_EQ(Check(Consistency::kAny, rf3, {}).message, "available");
}

TEST(ConsistencyLevelTest, LocalLevelsCountTheLocalDatacenterOnly) {
  const locator::ReplicationStrategy nts = Nts({{"dc1", 3}, {"dc2", 3}});
  EXPECT_EQ(Check(Consistency::kLocalQuorum, nts, {"dc1", "dc2", "dc2", "dc2"}).message,
            "Cannot achieve consistency level LOCAL_QUORUM");
  EXPECT_EQ(Check(Consistency::kLocalQuorum, nts, {"dc1", "dc1", "dc2"}).message, "available");
  const Refusal one = Check(Consistency::kLocalOne, nts, {"dc2", "dc2"});
  EXPECT_EQ(one.message, "Cannot achieve consistency level LOCAL_ONE");
  EXPECT_EQ(one.required, 1);
  EXPECT_EQ(one.alive, 0);
  EXPECT_EQ(Check(Consistency::kLocalOne, nts, {"dc2"}, "dc2").message, "available");
}

TEST(ConsistencyLevelTest, EachQuorumNamesTheDatacenterThatFallsShort) {
  const locator::ReplicationStrategy nts = Nts({{"dc1", 3}, {"dc2", 3}});
  EXPECT_EQ(Check(Consistency::kEachQuorum, nts, {"dc1", "dc1", "dc2", "dc2"}).message,
            "available");
  const Refusal short_dc2 = Check(Consistency::kEachQuorum, nts, {"dc1", "dc1", "dc1", "dc2"});
  EXPECT_EQ(short_dc2.message, "Cannot achieve consistency level EACH_QUORUM in DC dc2");
  EXPECT_EQ(short_dc2.required, 2);
  EXPECT_EQ(short_dc2.alive, 1);
  // Without NetworkTopologyStrategy, EACH_QUORUM is QUORUM.
  EXPECT_EQ(Check(Consistency::kEachQuorum, Simple(3), {"dc1"}).message,
            "Cannot achieve consistency level EACH_QUORUM");
}

}  // namespace
}  // namespace sibyl::cluster
