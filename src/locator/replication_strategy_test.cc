#include "locator/replication_strategy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <set>
#include <sstream>

#include "common/error.h"
#include "locator/locator_test_util.h"

namespace sibyl::locator {
namespace {

using testing::Node;
using testing::Numbers;
using testing::RingOf;
using Map = std::map<std::string, std::string>;

std::string ConfigErrorOf(const Map& replication) {
  try {
    (void)ReplicationStrategy::FromMap(replication);
  } catch (const CqlError& e) {
    EXPECT_EQ(e.code(), ErrorCode::kConfigError);
    return e.what();
  }
  return "no error";
}

std::vector<int> Replicas(const ReplicationStrategy& strategy, dht::Token token,
                          const TokenRing& ring, const Topology& topology = {}) {
  return Numbers(strategy.NaturalReplicas(token, ring, topology, Node(999)));
}

TEST(ReplicationStrategyTest, FromMapAcceptsShortAndQualifiedNames) {
  const auto simple = ReplicationStrategy::FromMap(
      {{"class", "org.apache.cassandra.locator.SimpleStrategy"}, {"replication_factor", "3"}});
  EXPECT_EQ(simple, ReplicationStrategy::FromMap(
                        {{"class", "SimpleStrategy"}, {"replication_factor", "3"}}));
  EXPECT_EQ(simple.kind(), ReplicationStrategy::Kind::kSimple);
  EXPECT_EQ(simple.class_name(), "org.apache.cassandra.locator.SimpleStrategy");
  EXPECT_EQ(simple.replication_factor(), 3);
  EXPECT_EQ(simple.ReplicationFactorIn("any"), 3);  // ConsistencyLevel.localQuorumFor

  const auto nts = ReplicationStrategy::FromMap(
      {{"class", "NetworkTopologyStrategy"}, {"dc1", "3"}, {"dc2", "2"}, {"dc3", "0"}});
  EXPECT_EQ(nts.class_name(), "org.apache.cassandra.locator.NetworkTopologyStrategy");
  EXPECT_EQ(nts.replication_factor(), 5);
  EXPECT_EQ(nts.ReplicationFactorIn("dc1"), 3);
  EXPECT_EQ(nts.ReplicationFactorIn("dc2"), 2);
  EXPECT_EQ(nts.ReplicationFactorIn("dc3"), 0);
  EXPECT_EQ(nts.ReplicationFactorIn("dc9"), 0);
  EXPECT_EQ(nts.datacenter_factors().size(), 3u);

  const auto local = ReplicationStrategy::FromMap({{"class", "LocalStrategy"}});
  EXPECT_EQ(local.kind(), ReplicationStrategy::Kind::kLocal);
  EXPECT_EQ(local.replication_factor(), 1);
  // "3/0" has no transient replica.
  EXPECT_EQ(
      ReplicationStrategy::FromMap({{"class", "SimpleStrategy"}, {"replication_factor", "3/0"}})
          .replication_factor(),
      3);
}

TEST(ReplicationStrategyTest, FromMapRefusalsAsCassandra) {
  EXPECT_EQ(ConfigErrorOf({{"replication_factor", "1"}}), "Missing replication strategy class");
  EXPECT_EQ(ConfigErrorOf({{"class", "Foo"}}),
            "Unable to find replication strategy class 'org.apache.cassandra.locator.Foo'");
  EXPECT_EQ(ConfigErrorOf({{"class", "com.example.Foo"}}),
            "Unable to find replication strategy class 'com.example.Foo'");
  // SimpleStrategyTest.testSimpleStrategyThrowsConfigurationException
  EXPECT_EQ(ConfigErrorOf({{"class", "SimpleStrategy"}}),
            "SimpleStrategy requires a replication_factor strategy option.");
  EXPECT_EQ(ConfigErrorOf({{"class", "NetworkTopologyStrategy"}, {"Replication_Factor", "3"}}),
            "replication_factor should not appear as an option at construction time for "
            "NetworkTopologyStrategy");
  EXPECT_EQ(ConfigErrorOf({{"class", "SimpleStrategy"}, {"replication_factor", "abc"}}),
            "For input string: \"abc\"");
  EXPECT_EQ(ConfigErrorOf({{"class", "SimpleStrategy"}, {"replication_factor", "2147483648"}}),
            "For input string: \"2147483648\"");
  EXPECT_EQ(ConfigErrorOf({{"class", "NetworkTopologyStrategy"}, {"dc1", "-1"}}),
            "Replication factor must be non-negative, found -1");
  EXPECT_EQ(ConfigErrorOf({{"class", "SimpleStrategy"}, {"replication_factor", "3/1/1"}}),
            "Replication factor format is <replicas> or <replicas>/<transient>");
}

// SimpleStrategyTest.transientReplica, NetworkTopologyStrategyTest.testTransientReplica:
// Sibyl has no transient replication and says so.
TEST(ReplicationStrategyTest, TransientReplicationIsRefused) {
  EXPECT_EQ(ConfigErrorOf({{"class", "SimpleStrategy"}, {"replication_factor", "3/1"}}),
            "Transient replication (replication factor '3/1') is not supported by Sibyl");
  EXPECT_EQ(ConfigErrorOf({{"class", "NetworkTopologyStrategy"}, {"datacenter1", "3/1"}}),
            "Transient replication (replication factor '3/1') is not supported by Sibyl");
}

// SimpleStrategyTest.testBigIntegerEndpoints / testStringEndpoints: five
// nodes at 0, 10, ..., 40; the key at 10i + 5 is on nodes i+1, i+2, ...
TEST(ReplicationStrategyTest, SimpleStrategyWalksClockwise) {
  const TokenRing ring = RingOf({0, 10, 20, 30, 40});
  for (int rf : {1, 3, 5}) {
    const auto strategy = ReplicationStrategy::Simple(rf);
    for (int i = 0; i < 5; ++i) {
      std::vector<int> expected;
      for (int j = 0; j < rf; ++j) expected.push_back((i + j + 1) % 5);
      EXPECT_EQ(Replicas(strategy, 10 * i + 5, ring), expected) << "rf " << rf << " key " << i;
    }
  }
  // A factor above the ring's node count gives every node once.
  EXPECT_EQ(Replicas(ReplicationStrategy::Simple(7), 12, ring), (std::vector<int>{2, 3, 4, 0, 1}));
  EXPECT_TRUE(Replicas(ReplicationStrategy::Simple(0), 12, ring).empty());
}

// SimpleStrategyTest.testMultiDCSimpleStrategyEndpoints (from the
// topology_test.test_size_estimates_multidc dtest): three nodes of two
// tokens, RF 3: each is primary for 2 ranges and replicates all 6.
TEST(ReplicationStrategyTest, SimpleStrategyIgnoresDatacenters) {
  const TokenRing ring({{Node(1), {-6639341390736545756, -2688160409776496397}},
                        {Node(2), {-2506475074448728501, 8473270337963525440}},
                        {Node(4), {-3736333188524231709, 8673615181726552074}}});
  const Topology topology(
      {{Node(1), {"dc1", "r1"}}, {Node(2), {"dc1", "r1"}}, {Node(4), {"dc2", "r1"}}});
  const auto strategy = ReplicationStrategy::Simple(3);
  std::map<int, int> primary;
  std::map<int, int> replica;
  for (dht::Token token : ring.tokens()) {
    const std::vector<int> replicas = Replicas(strategy, token, ring, topology);
    ++primary[replicas.front()];
    for (int node : replicas) ++replica[node];
  }
  EXPECT_EQ(primary, (std::map<int, int>{{1, 2}, {2, 2}, {4, 2}}));
  EXPECT_EQ(replica, (std::map<int, int>{{1, 6}, {2, 6}, {4, 6}}));
}

// SimpleStrategyTest.shouldReturnNoEndpointsForEmptyRing
TEST(ReplicationStrategyTest, EmptyRingHasNoReplicas) {
  EXPECT_TRUE(Replicas(ReplicationStrategy::Simple(1), 0, TokenRing()).empty());
  EXPECT_TRUE(Replicas(ReplicationStrategy::NetworkTopology({{"dc1", 3}}), 0, TokenRing()).empty());
  EXPECT_EQ(Replicas(ReplicationStrategy::Local(), 0, TokenRing()), std::vector<int>{999});
}

TEST(ReplicationStrategyTest, LocalStrategyIsTheLocalNodeOnly) {
  const TokenRing ring = RingOf({0, 10, 20});
  EXPECT_EQ(Replicas(ReplicationStrategy::Local(), 5, ring), std::vector<int>{999});
}

// NetworkTopologyStrategyTest.createDummyTokens: Cassandra's string tokens
// ("0AB" < "123" < ... < "ABC") become integers in the same order; nodes and
// racks are those of its cassandra-topology.properties (node 10 is
// 10.0.0.10, 20 is 10.20.114.10, 33 is 10.21.119.13, ...).
struct DummyCluster {
  TokenRing ring;
  Topology topology;
};

DummyCluster CreateDummyTokens(bool populate_dc3) {
  std::map<NodeId, std::vector<dht::Token>> tokens = {
      {Node(10), {2}}, {Node(11), {3}}, {Node(12), {4}},  {Node(20), {7}},
      {Node(21), {8}}, {Node(13), {9}}, {Node(25), {10}},
  };
  std::map<NodeId, Location> locations = {{Node(10), {"DC1", "RAC1"}}, {Node(11), {"DC1", "RAC1"}},
                                          {Node(12), {"DC1", "RAC2"}}, {Node(13), {"DC1", "RAC2"}},
                                          {Node(20), {"DC2", "RAC1"}}, {Node(21), {"DC2", "RAC1"}},
                                          {Node(25), {"DC2", "RAC2"}}, {Node(33), {"DC3", "RAC1"}},
                                          {Node(30), {"DC3", "RAC1"}}, {Node(34), {"DC3", "RAC2"}}};
  if (populate_dc3) {
    tokens[Node(33)] = {5};
    tokens[Node(30)] = {6};
    tokens[Node(34)] = {1};
  }
  return {TokenRing(tokens), Topology(locations)};
}

// NetworkTopologyStrategyTest.testProperties: 6 distinct replicas for "123",
// here with the order Cassandra's walk gives (worked by hand): DC1 takes a
// rack repeat (factor 3, 2 racks), DC2 does not (factor 2, 2 racks).
TEST(ReplicationStrategyTest, NetworkTopologyProperties) {
  const DummyCluster cluster = CreateDummyTokens(true);
  const auto strategy = ReplicationStrategy::FromMap(
      {{"class", "NetworkTopologyStrategy"}, {"DC1", "3"}, {"DC2", "2"}, {"DC3", "1"}});
  EXPECT_EQ(Replicas(strategy, 2, cluster.ring, cluster.topology),
            (std::vector<int>{10, 11, 12, 33, 20, 25}));
}

// NetworkTopologyStrategyTest.testPropertiesWithEmptyDC
TEST(ReplicationStrategyTest, NetworkTopologyPropertiesWithEmptyDatacenter) {
  const DummyCluster cluster = CreateDummyTokens(false);
  const auto strategy = ReplicationStrategy::FromMap(
      {{"class", "NetworkTopologyStrategy"}, {"DC1", "3"}, {"DC2", "3"}, {"DC3", "0"}});
  EXPECT_EQ(Replicas(strategy, 2, cluster.ring, cluster.topology),
            (std::vector<int>{10, 11, 12, 20, 21, 25}));
}

// NetworkTopologyStrategyTest.testLargeCluster: RackInferringSnitch (second
// octet the datacenter, third the rack), tokens "%02x%02x%02x" of (node,
// rack, datacenter) read as hexadecimal integers (same order).
TEST(ReplicationStrategyTest, NetworkTopologyLargeCluster) {
  const int dc_racks[] = {2, 4, 8};
  const int dc_nodes[] = {128, 256, 512};
  const int dc_factors[] = {2, 6, 6};
  std::map<NodeId, std::vector<dht::Token>> tokens;
  std::map<NodeId, Location> locations;
  std::map<std::string, int> factors;
  for (int dc = 0; dc < 3; ++dc) {
    factors[std::to_string(dc)] = dc_factors[dc];
    for (int rack = 0; rack < dc_racks[dc]; ++rack) {
      for (int ep = 1; ep <= dc_nodes[dc] / dc_racks[dc]; ++ep) {
        const NodeId node = Node(dc * 10000 + rack * 100 + ep);
        tokens[node] = {(ep << 16) | (rack << 8) | dc};
        locations[node] = {std::to_string(dc), std::to_string(rack)};
      }
    }
  }
  const TokenRing ring(tokens);
  const Topology topology(locations);
  const auto strategy = ReplicationStrategy::NetworkTopology(factors);
  for (dht::Token token : {0x123456, 0x200000, 0x000402, 0xffffff, 0x400200}) {
    const std::vector<NodeId> replicas = strategy.NaturalReplicas(token, ring, topology, Node(0));
    EXPECT_EQ(replicas.size(), 14u);
    EXPECT_EQ(std::set<NodeId>(replicas.begin(), replicas.end()).size(), 14u);
    std::map<std::string, std::set<std::string>> racks_used;
    std::map<std::string, int> per_dc;
    for (const NodeId& node : replicas) {
      ++per_dc[topology.LocationOf(node).datacenter];
      racks_used[topology.LocationOf(node).datacenter].insert(topology.LocationOf(node).rack);
    }
    EXPECT_EQ(per_dc, (std::map<std::string, int>{{"0", 2}, {"1", 6}, {"2", 6}}));
    // Every rack before any repeat: min(factor, racks) racks used.
    EXPECT_EQ(racks_used["0"].size(), 2u);
    EXPECT_EQ(racks_used["1"].size(), 4u);
    EXPECT_EQ(racks_used["2"].size(), 6u);
  }
}

// Cassandra's order: one walk for all datacenters, so they interleave in
// ring order; a datacenter short of racks takes the first repeats it meets.
TEST(ReplicationStrategyTest, NetworkTopologyOrderIsTheWalksOrder) {
  const TokenRing ring = RingOf({10, 20, 30, 40, 50});
  const Topology topology({{Node(0), {"dc1", "r1"}},
                           {Node(1), {"dc2", "r1"}},
                           {Node(2), {"dc1", "r1"}},
                           {Node(3), {"dc2", "r2"}},
                           {Node(4), {"dc1", "r2"}}});
  // dc1: factor 3, 2 racks: one repeat allowed, taken at once (the driver
  // would list 0, 4, 2: skipped hosts last).
  EXPECT_EQ(
      Replicas(ReplicationStrategy::NetworkTopology({{"dc1", 3}, {"dc2", 2}}), 5, ring, topology),
      (std::vector<int>{0, 1, 2, 3, 4}));
  // dc1: factor 2, 2 racks: no repeat.
  EXPECT_EQ(Replicas(ReplicationStrategy::NetworkTopology({{"dc1", 2}}), 5, ring, topology),
            (std::vector<int>{0, 4}));
  // Factor above the datacenter's nodes: all of them.
  EXPECT_EQ(Replicas(ReplicationStrategy::NetworkTopology({{"dc2", 5}}), 35, ring, topology),
            (std::vector<int>{3, 1}));
  // A datacenter without nodes, or without a factor, takes nothing.
  EXPECT_EQ(
      Replicas(ReplicationStrategy::NetworkTopology({{"dc2", 1}, {"dc9", 3}}), 45, ring, topology),
      (std::vector<int>{1}));
}

// The same rack name in two datacenters is two racks.
TEST(ReplicationStrategyTest, NetworkTopologyRacksBelongToTheirDatacenter) {
  const TokenRing ring = RingOf({10, 20, 30, 40});
  const Topology topology({{Node(0), {"dc1", "r1"}},
                           {Node(1), {"dc2", "r1"}},
                           {Node(2), {"dc1", "r1"}},
                           {Node(3), {"dc1", "r2"}}});
  EXPECT_EQ(
      Replicas(ReplicationStrategy::NetworkTopology({{"dc1", 2}, {"dc2", 1}}), 5, ring, topology),
      (std::vector<int>{0, 1, 3}));
}

// The placement of Cassandra before CASSANDRA-12229, which
// NetworkTopologyStrategyTest.testCalculateEndpoints keeps as its reference:
// per datacenter, skip nodes on used racks until every rack is used, then
// add the skipped ones in ring order. Same primary and same set as today's
// walk; only the order of the others may differ.
std::vector<NodeId> SkippingPlacement(dht::Token token, const TokenRing& ring,
                                      const Topology& topology,
                                      const std::map<std::string, int>& factors) {
  std::vector<NodeId> replicas;
  std::map<std::string, std::set<NodeId>> found;
  std::map<std::string, std::set<std::string>> racks_seen;
  std::map<std::string, std::vector<NodeId>> skipped;
  auto wanted = [&](const std::string& dc) {
    const auto f = factors.find(dc);
    const size_t factor = f == factors.end() ? 0 : static_cast<size_t>(f->second);
    return std::min(factor, topology.NodeCount(dc));
  };
  auto add = [&](const std::string& dc, const NodeId& node) {
    if (found[dc].insert(node).second) replicas.push_back(node);
  };
  // Once every datacenter has its replicas the rest of the ring changes nothing.
  auto complete = [&] {
    return std::all_of(factors.begin(), factors.end(), [&](const auto& factor) {
      return found[factor.first].size() >= wanted(factor.first);
    });
  };
  const size_t start = ring.FirstTokenIndex(token);
  for (size_t step = 0; step < ring.size() && !complete(); ++step) {
    const NodeId& node = ring.NodeAt((start + step) % ring.size());
    const Location& at = topology.LocationOf(node);
    if (found[at.datacenter].size() >= wanted(at.datacenter)) continue;
    const size_t racks = topology.RackCount(at.datacenter);
    if (racks_seen[at.datacenter].size() == racks) {
      add(at.datacenter, node);
    } else if (racks_seen[at.datacenter].count(at.rack)) {
      auto& list = skipped[at.datacenter];
      if (std::find(list.begin(), list.end(), node) == list.end()) list.push_back(node);
    } else {
      add(at.datacenter, node);
      racks_seen[at.datacenter].insert(at.rack);
      if (racks_seen[at.datacenter].size() == racks) {
        for (const NodeId& s : skipped[at.datacenter]) {
          if (found[at.datacenter].size() >= wanted(at.datacenter)) break;
          add(at.datacenter, s);
        }
      }
    }
  }
  return replicas;
}

// NetworkTopologyStrategyTest.testCalculateEndpoints: 100 nodes of 64 random
// tokens, datacenters drawn in proportion to their factors, each with
// 1..3*factor-1 racks; the walk agrees with the skipping placement.
TEST(ReplicationStrategyTest, NetworkTopologyAgreesWithSkippingPlacement) {
  const std::map<std::string, int> factors = {
      {"rf1", 1}, {"rf3", 3}, {"rf5_1", 5}, {"rf5_2", 5}, {"rf5_3", 5}};
  std::mt19937_64 rng(12229);
  for (int run = 0; run < 4; ++run) {
    std::map<std::string, int> racks;
    std::vector<std::string> weighted;
    for (const auto& [dc, rf] : factors) {
      racks[dc] = 1 + static_cast<int>(rng() % (rf * 3 - 1));
      weighted.insert(weighted.end(), rf, dc);
    }
    std::map<NodeId, std::vector<dht::Token>> tokens;
    std::map<NodeId, Location> locations;
    for (int n = 0; n < 100; ++n) {
      const std::string& dc = weighted[rng() % weighted.size()];
      locations[Node(n)] = {dc, std::to_string(rng() % racks[dc])};
      tokens[Node(n)] = dht::RandomTokens(64, rng);
    }
    const TokenRing ring(tokens);
    const Topology topology(locations);
    const auto strategy = ReplicationStrategy::NetworkTopology(factors);
    for (int i = 0; i < 300; ++i) {
      const auto token = static_cast<dht::Token>(rng());
      const std::vector<NodeId> walk = strategy.NaturalReplicas(token, ring, topology, Node(0));
      const std::vector<NodeId> skip = SkippingPlacement(token, ring, topology, factors);
      ASSERT_FALSE(walk.empty());
      EXPECT_EQ(walk.front(), skip.front()) << "token " << token;
      EXPECT_EQ(std::set<NodeId>(walk.begin(), walk.end()),
                std::set<NodeId>(skip.begin(), skip.end()))
          << "token " << token;
    }
  }
}

// One case of testdata/replica_vectors.txt.
struct VectorCase {
  std::string name;
  std::optional<ReplicationStrategy> strategy;
  std::map<NodeId, std::vector<dht::Token>> tokens;
  std::map<NodeId, Location> locations;
  std::vector<std::pair<dht::Token, std::vector<int>>> expected;  // token → replicas
};

std::vector<VectorCase> ReadVectors(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in) << path;
  std::vector<VectorCase> cases;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    words >> kind;
    if (kind == "case") {
      cases.emplace_back();
      words >> cases.back().name;
    } else if (kind == "simple") {
      std::string rf;
      words >> rf;
      cases.back().strategy =
          ReplicationStrategy::FromMap({{"class", "SimpleStrategy"}, {"replication_factor", rf}});
    } else if (kind == "nts") {
      Map map = {{"class", "NetworkTopologyStrategy"}};
      for (std::string option; words >> option;) {
        map[option.substr(0, option.find('='))] = option.substr(option.find('=') + 1);
      }
      cases.back().strategy = ReplicationStrategy::FromMap(map);
    } else if (kind == "node") {
      int number;
      Location location;
      words >> number >> location.datacenter >> location.rack;
      cases.back().locations[Node(number)] = location;
      for (dht::Token token; words >> token;) cases.back().tokens[Node(number)].push_back(token);
    } else if (kind == "range" || kind == "key") {
      dht::Token token;
      words >> token;
      std::vector<int> replicas;
      for (int node; words >> node;) replicas.push_back(node);
      cases.back().expected.emplace_back(token, replicas);
    }
  }
  return cases;
}

// Each datacenter's first replica: the first of its nodes met on the walk.
std::map<std::string, int> FirstByDatacenter(const std::vector<int>& replicas,
                                             const std::map<NodeId, Location>& locations) {
  std::map<std::string, int> first;
  for (int node : replicas) first.emplace(locations.at(Node(node)).datacenter, node);
  return first;
}

// The Python driver's placement (scripts/make_replica_vectors.py): the
// replicas drivers route to. SimpleStrategy in the same order; NTS with the
// same set and the same first replica in each datacenter (the driver lists
// replicas datacenter by datacenter, and within one its rack-skipped nodes
// last, where Cassandra keeps the walk's order).
TEST(ReplicationStrategyTest, AgreesWithThePythonDriver) {
  const std::vector<VectorCase> cases =
      ReadVectors(std::string(SIBYL_LOCATOR_TESTDATA) + "/replica_vectors.txt");
  size_t checked = 0;
  for (const VectorCase& c : cases) {
    ASSERT_TRUE(c.strategy.has_value()) << c.name;
    const TokenRing ring(c.tokens);
    const Topology topology(c.locations);
    for (const auto& [token, expected] : c.expected) {
      const std::vector<int> actual = Replicas(*c.strategy, token, ring, topology);
      if (c.strategy->kind() == ReplicationStrategy::Kind::kSimple) {
        EXPECT_EQ(actual, expected) << c.name << " token " << token;
      } else {
        EXPECT_EQ(FirstByDatacenter(actual, c.locations), FirstByDatacenter(expected, c.locations))
            << c.name << " token " << token;
        EXPECT_EQ(std::set<int>(actual.begin(), actual.end()),
                  std::set<int>(expected.begin(), expected.end()))
            << c.name << " token " << token;
      }
      ++checked;
    }
  }
  EXPECT_EQ(cases.size(), 40u);
  EXPECT_GT(checked, 400u);
}

}  // namespace
}  // namespace sibyl::locator
