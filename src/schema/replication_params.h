#pragma once
// A keyspace's replication map as Cassandra 4.1 builds and checks it
// (ReplicationParams.fromMapWithDefaults, AbstractReplicationStrategy,
// SimpleStrategy, NetworkTopologyStrategy, ReplicationFactor).
//
//   {'class': 'SimpleStrategy'}                       → replication_factor = default_keyspace_rf
//   {'class': 'NetworkTopologyStrategy'}              → every known datacenter at
//   default_keyspace_rf
//   {'class': 'NetworkTopologyStrategy', 'replication_factor': 2}
//                                                     → every known datacenter at 2
//   datacenters given 0                               → left out
//
// The class is stored with its full Java name
// ("org.apache.cassandra.locator.SimpleStrategy"), as system_schema shows it.
// Errors are CqlError(kConfigError) with Cassandra's messages:
//   Unable to find replication strategy class 'org.apache.cassandra.locator.Foo'
//   Unrecognized strategy option {foo} passed to SimpleStrategy for keyspace ks
//   Configuration for at least one datacenter must be present
//   Replication factor must be non-negative, found -1
//   For input string: "abc"                                   (a replication factor that is no
//   number)

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace sibyl::schema {

using ReplicationMap = std::map<std::string, std::string>;

struct ReplicationContext {
  // Datacenters.getValidDatacenters(): the datacenters of the ring's nodes.
  std::set<std::string> datacenters{"datacenter1"};
  // cassandra.yaml's default_keyspace_rf. Default: 1.
  int default_keyspace_rf = 1;
  // Nodes of the ring in each datacenter (a ring of one node today).
  std::map<std::string, int> node_counts{{"datacenter1", 1}};
};

inline constexpr const char* kNetworkTopologyStrategy =
    "org.apache.cassandra.locator.NetworkTopologyStrategy";

// The full map (class and options) from the options a statement gave, which
// must contain "class"; `previous` is the keyspace's current map for ALTER
// (empty for CREATE) and supplies what the new options leave out as
// Cassandra's prepareOptions does. Throws for an unknown class or an
// unparsable replication factor.
[[nodiscard]] ReplicationMap PrepareReplication(
    const std::map<std::string, std::string, std::less<>>& given, const ReplicationMap& previous,
    const ReplicationContext& context);

// True when the map's class is LocalStrategy (reserved for internal use).
[[nodiscard]] bool IsLocalStrategy(const ReplicationMap& replication);

// AbstractReplicationStrategy.validateReplicationStrategy: unknown options,
// missing or bad replication factors.
void ValidateReplication(std::string_view keyspace, const ReplicationMap& replication,
                         const ReplicationContext& context);

// The client warnings Cassandra's maybeWarnOnOptions gives for a valid map:
// a replication factor above the number of nodes ("Your replication factor 3
// for keyspace ks is higher than the number of nodes 1", NetworkTopologyStrategy
// adding " for datacenter dc1"). None for system keyspaces.
[[nodiscard]] std::vector<std::string> ReplicationWarnings(std::string_view keyspace,
                                                           const ReplicationMap& replication,
                                                           const ReplicationContext& context);

}  // namespace sibyl::schema
