#include "tools/admin/ownership_choice.h"

#include <vector>

#include "locator/ownership.h"
#include "locator/replica_placement.h"
#include "locator/replication_strategy.h"
#include "schema/system_keyspaces.h"
#include "tools/admin/admin_error.h"

namespace sibyl::tools::admin {
namespace {

OwnershipChoice Raw(const locator::TokenRing& ring, std::string note) {
  return {.effective = false, .by_node = locator::PrimaryOwnership(ring), .note = std::move(note)};
}

// Effective ownership is the same whichever node computes it (LocalStrategy
// aside, which never gets here), so any member stands for the local node.
OwnershipChoice Effective(const ClusterMembers& cluster, const locator::TokenRing& ring,
                          const locator::ReplicationStrategy& strategy) {
  const locator::Topology topology = cluster.Placement();
  const locator::NodeId any_member = ring.empty() ? locator::NodeId{} : ring.nodes().front();
  const auto placement = locator::ReplicaPlacement::Build(strategy, ring, topology, any_member);
  return {.effective = true, .by_node = locator::EffectiveOwnership(ring, *placement), .note = {}};
}

}  // namespace

OwnershipChoice ChooseOwnership(const ClusterMembers& cluster,
                                const std::optional<std::string>& keyspace) {
  const locator::TokenRing ring = cluster.Ring();
  if (keyspace) {
    const auto it = cluster.keyspaces.find(*keyspace);
    if (it == cluster.keyspaces.end()) {
      throw AdminError("The keyspace " + *keyspace + ", does not exist");
    }
    const auto strategy = locator::ReplicationStrategy::FromMap(it->second);
    if (strategy.kind() == locator::ReplicationStrategy::Kind::kLocal) {
      return Raw(ring, "Ownership values for keyspaces with LocalStrategy are meaningless");
    }
    return Effective(cluster, ring, strategy);
  }
  std::vector<locator::ReplicationStrategy> user_strategies;
  for (const auto& [name, replication] : cluster.keyspaces) {
    if (!schema::IsSystemKeyspace(name)) {
      user_strategies.push_back(locator::ReplicationStrategy::FromMap(replication));
    }
  }
  for (const auto& strategy : user_strategies) {
    if (!(strategy == user_strategies.front())) {
      return Raw(ring,
                 "Non-system keyspaces don't have the same replication settings, effective "
                 "ownership information is meaningless");
    }
  }
  if (!user_strategies.empty()) return Effective(cluster, ring, user_strategies.front());
  const auto traces = cluster.keyspaces.find(std::string(schema::kTracesKeyspace));
  if (traces == cluster.keyspaces.end()) {
    throw AdminError("The node does not have system_traces yet, probably still bootstrapping");
  }
  return Effective(cluster, ring, locator::ReplicationStrategy::FromMap(traces->second));
}

}  // namespace sibyl::tools::admin
