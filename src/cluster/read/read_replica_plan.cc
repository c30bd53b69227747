#include "cluster/read/read_replica_plan.h"

#include <algorithm>
#include <string_view>

#include "cluster/consistency_level.h"

namespace sibyl::cluster {

ReadReplicaPlan PlanRead(const ClusterView& view, const Liveness& liveness,
                         const KeyspaceReplication& replication,
                         std::span<const locator::NodeId> replicas, uint16_t consistency) {
  const std::string& local_dc = view.DatacenterOf(view.local_id());
  const bool local_only = IsDatacenterLocal(consistency);
  // 0: this node, 1: its datacenter, 2: elsewhere.
  auto distance = [&](const locator::NodeId& node) {
    if (node == view.local_id()) return 0;
    return view.DatacenterOf(node) == local_dc ? 1 : 2;
  };
  ReadReplicaPlan plan;
  for (const locator::NodeId& node : replicas) {
    if (!liveness.IsAlive(node) && node != view.local_id()) continue;
    if (local_only && distance(node) == 2) continue;
    plan.contacts.push_back(node);
  }
  std::stable_sort(plan.contacts.begin(), plan.contacts.end(),
                   [&](const auto& a, const auto& b) { return distance(a) < distance(b); });

  plan.block_for = BlockFor(consistency, replication.strategy(), local_dc);
  std::vector<std::string_view> live_dcs;
  live_dcs.reserve(plan.contacts.size());
  for (const locator::NodeId& node : plan.contacts) live_dcs.push_back(view.DatacenterOf(node));
  AssureSufficientLiveReplicas(consistency, replication.strategy(), local_dc, live_dcs,
                               plan.block_for);
  return plan;
}

}  // namespace sibyl::cluster
