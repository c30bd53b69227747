#include "tools/stress/token_aware_router.h"

#include <gtest/gtest.h>

#include <string>

namespace sibyl::tools {
namespace {

RingNode Node(int n, std::vector<dht::Token> tokens, std::string rack = "rack1") {
  return RingNode{
      .native_address = "127.0.0." + std::to_string(n),
      .host_id = *types::Uuid::Parse("00000000-0000-4000-8000-00000000000" + std::to_string(n)),
      .datacenter = "dc1",
      .rack = std::move(rack),
      .tokens = std::move(tokens)};
}

// The serialized bigint key `k`, as stress binds it.
Bytes BigintKey(int64_t k) {
  Bytes key(8, '\0');
  for (int i = 0; i < 8; ++i) key[i] = static_cast<char>(static_cast<uint64_t>(k) >> (56 - 8 * i));
  return key;
}

std::vector<uint32_t> Replicas(const TokenAwareRouter& router, int64_t k) {
  const auto span = router.ReplicasOf(BigintKey(k));
  return {span.begin(), span.end()};
}

TEST(TokenAwareRouterTest, PrimaryIsTheOwnerOfTheKeysTokenThenTheRingOrder) {
  // Ring: -6e18 node0, 0 node1, 6e18 node2.
  const std::vector<RingNode> nodes = {Node(1, {-6000000000000000000}), Node(2, {0}),
                                       Node(3, {6000000000000000000})};
  const TokenAwareRouter router(nodes, {{"class", "SimpleStrategy"}, {"replication_factor", "2"}});
  for (int64_t k = 0; k < 200; ++k) {
    const dht::Token token = dht::Murmur3Token(BigintKey(k));
    const uint32_t owner = token <= -6000000000000000000  ? 0
                           : token <= 0                   ? 1
                           : token <= 6000000000000000000 ? 2
                                                          : 0;  // wraps
    EXPECT_EQ(Replicas(router, k), (std::vector<uint32_t>{owner, (owner + 1) % 3})) << k;
  }
}

TEST(TokenAwareRouterTest, FactorAboveTheNodeCountGivesEveryNode) {
  const std::vector<RingNode> nodes = {Node(1, {-5, 100}), Node(2, {7})};
  const TokenAwareRouter router(nodes, {{"class", "SimpleStrategy"}, {"replication_factor", "3"}});
  for (int64_t k = 0; k < 20; ++k) EXPECT_EQ(Replicas(router, k).size(), 2u);
}

TEST(TokenAwareRouterTest, NetworkTopologyStrategySpreadsOverRacks) {
  // Tokens in ring order: node0 (r1), node1 (r1), node2 (r2): RF 2 in dc1
  // takes a node of the other rack before a second node of the same rack.
  const std::vector<RingNode> nodes = {Node(1, {-100}), Node(2, {0}), Node(3, {100}, "rack2")};
  const TokenAwareRouter router(nodes, {{"class", "NetworkTopologyStrategy"}, {"dc1", "2"}});
  const Bytes key = BigintKey(1);
  const dht::Token token = dht::Murmur3Token(key);
  const auto replicas = router.ReplicasOf(key);
  ASSERT_EQ(replicas.size(), 2u);
  if (token > -100 && token <= 0) {
    EXPECT_EQ(replicas[0], 1u);
    EXPECT_EQ(replicas[1], 2u);  // rack2, skipping nothing
  }
  EXPECT_NE(std::find(replicas.begin(), replicas.end(), 2u), replicas.end());
}

TEST(TokenAwareRouterTest, AnEmptyRingRoutesNowhere) {
  const TokenAwareRouter router({}, {{"class", "SimpleStrategy"}, {"replication_factor", "1"}});
  EXPECT_TRUE(router.ReplicasOf(BigintKey(1)).empty());
}

}  // namespace
}  // namespace sibyl::tools
