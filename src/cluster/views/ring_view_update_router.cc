#include "cluster/views/ring_view_update_router.h"

#include <algorithm>
#include <span>
#include <vector>

#include "dht/token.h"

namespace sibyl::cluster {
namespace {

bool Contains(std::span<const locator::NodeId> nodes, const locator::NodeId& node) {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

// `replicas` without those in `others`, and, when `local_dc` is set, only
// those of that datacenter: the nodes that count for the pairing.
std::vector<locator::NodeId> PairingCandidates(const ClusterView& view,
                                               std::span<const locator::NodeId> replicas,
                                               std::span<const locator::NodeId> others,
                                               const std::string* local_dc) {
  std::vector<locator::NodeId> out;
  for (const locator::NodeId& node : replicas) {
    if (Contains(others, node)) continue;
    if (local_dc != nullptr && view.DatacenterOf(node) != *local_dc) continue;
    out.push_back(node);
  }
  return out;
}

}  // namespace

index::ViewUpdateRouter::Targets RingViewUpdateRouter::Route(
    const std::string& keyspace, const storage::PartitionKey& base_partition,
    const storage::PartitionKey& view_partition) const {
  return RouteIn(*views_->Get(), keyspace, base_partition, view_partition);
}

index::ViewUpdateRouter::Targets RingViewUpdateRouter::RouteIn(
    const ClusterView& view, const std::string& keyspace,
    const storage::PartitionKey& base_partition, const storage::PartitionKey& view_partition) {
  Targets targets;
  const KeyspaceReplication* replication = view.ReplicationOf(keyspace);
  if (replication == nullptr) {
    targets.local = true;
    return targets;
  }
  const auto base = replication->placement->ReplicasFor(dht::Token{base_partition.token});
  const auto paired = replication->placement->ReplicasFor(dht::Token{view_partition.token});
  const locator::NodeId& self = view.local_id();
  targets.base_replica = base.empty() || Contains(base, self);
  if (Contains(paired, self) || paired.empty()) {
    // An empty placement (no ring yet) has nowhere else to send to either.
    targets.local = true;
    return targets;
  }
  const bool per_dc =
      replication->strategy().kind() == locator::ReplicationStrategy::Kind::kNetworkTopology;
  const std::string* local_dc = per_dc ? &view.DatacenterOf(self) : nullptr;
  const std::vector<locator::NodeId> base_side = PairingCandidates(view, base, paired, local_dc);
  const std::vector<locator::NodeId> view_side = PairingCandidates(view, paired, base, local_dc);
  const auto position = std::find(base_side.begin(), base_side.end(), self);
  if (position != base_side.end()) {
    const auto i = static_cast<size_t>(position - base_side.begin());
    if (i < view_side.size()) {
      targets.remote.push_back(view_side[i]);
      return targets;
    }
  }
  // No pair: every natural view replica, as Cassandra's batch log replay.
  targets.remote.assign(paired.begin(), paired.end());
  return targets;
}

}  // namespace sibyl::cluster
