#pragma once
// Replication strategies: which nodes hold a token's data, in Cassandra
// 4.1's order (the primary replica first), computed as its SimpleStrategy,
// NetworkTopologyStrategy and LocalStrategy compute natural replicas:
//
//   SimpleStrategy          walk the ring clockwise from the token's owner,
//                           collecting distinct nodes until replication_factor.
//   NetworkTopologyStrategy one walk for every datacenter at once; in each,
//                           a node on a rack not yet used is taken, a node on
//                           a used rack only while the datacenter still has
//                           "rack repeats" left (its factor minus its rack
//                           count), so replicas spread over racks first and
//                           the surplus goes to the first repeats met; a
//                           datacenter is done at min(factor, its nodes).
//   LocalStrategy           the local node only (system keyspaces).
//
// Replication factors with transient replicas ("3/1") are refused: Sibyl
// does not implement transient replication.
//
// Immutable once built: safe to share between threads.

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dht/token.h"
#include "locator/token_ring.h"
#include "locator/topology.h"

namespace sibyl::locator {

class ReplicationStrategy {
 public:
  enum class Kind { kSimple, kNetworkTopology, kLocal };

  // From a keyspace's replication map (system_schema.keyspaces.replication):
  // 'class' short ("SimpleStrategy") or fully qualified
  // ("org.apache.cassandra.locator.SimpleStrategy"), and the strategy's
  // options. Options the strategy does not read are left to the schema's
  // validation (schema/replication_params.h). Throws CqlError(kConfigError)
  // with Cassandra's messages where it has one:
  //   Missing replication strategy class
  //   Unable to find replication strategy class 'org.apache.cassandra.locator.Foo'
  //   SimpleStrategy requires a replication_factor strategy option.
  //   replication_factor should not appear as an option at construction time for
  //   NetworkTopologyStrategy
  //   For input string: "abc"
  //   Replication factor must be non-negative, found -1
  // and, for "3/1": Transient replication (replication factor '3/1') is not
  // supported by Sibyl
  static ReplicationStrategy FromMap(const std::map<std::string, std::string>& replication);
  static ReplicationStrategy Simple(int replication_factor);
  static ReplicationStrategy NetworkTopology(std::map<std::string, int> datacenter_factors);
  static ReplicationStrategy Local();

  Kind kind() const { return kind_; }
  // Fully qualified, as system_schema shows it.
  std::string_view class_name() const;

  // The total replication factor: SimpleStrategy's factor, the sum of
  // NetworkTopologyStrategy's, 1 for LocalStrategy.
  int replication_factor() const { return total_factor_; }
  // The factor LOCAL_QUORUM / EACH_QUORUM count in `datacenter`: NTS's
  // factor there (0 if absent); other strategies' total factor, as
  // Cassandra's ConsistencyLevel.localQuorumFor does.
  int ReplicationFactorIn(std::string_view datacenter) const;
  // NetworkTopologyStrategy's factors by datacenter, as configured (also
  // those of datacenters without nodes); empty for other strategies.
  const std::map<std::string, int, std::less<>>& datacenter_factors() const {
    return datacenter_factors_;
  }

  // The natural replicas of `token`, primary first. Empty on an empty ring
  // (but LocalStrategy's). Fewer than the factor when the ring has too few
  // nodes. `topology` must place every node of the ring; `local_node` is
  // LocalStrategy's answer.
  std::vector<NodeId> NaturalReplicas(dht::Token token, const TokenRing& ring,
                                      const Topology& topology, const NodeId& local_node) const;
  // The natural replicas of every range of the ring, by ring index (the
  // range closed by that index's token): one pass of setup for all of them.
  std::vector<std::vector<NodeId>> NaturalReplicasOfEveryRange(const TokenRing& ring,
                                                               const Topology& topology,
                                                               const NodeId& local_node) const;

  bool operator==(const ReplicationStrategy&) const = default;

 private:
  ReplicationStrategy(Kind kind, int total_factor,
                      std::map<std::string, int, std::less<>> datacenter_factors)
      : kind_(kind),
        total_factor_(total_factor),
        datacenter_factors_(std::move(datacenter_factors)) {}

  Kind kind_;
  int total_factor_;
  std::map<std::string, int, std::less<>> datacenter_factors_;
};

}  // namespace sibyl::locator
