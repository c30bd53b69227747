#pragma once
// The ring's index::ViewUpdateRouter: which view replica receives the view
// updates this node derives as a base replica (Cassandra 4.1's
// ViewUtils.getViewNaturalEndpoint and StorageProxy.mutateMV).
//
// With B the base partition's natural replicas and V the view partition's,
// both from the keyspace's placement in the current ClusterView:
//  1. this node is in V: the update is applied here, and nowhere else (a
//     node holding the view partition keeps it from its own base data);
//  2. otherwise B' = B minus V and V' = V minus B, each restricted to this
//     node's datacenter when the keyspace uses NetworkTopologyStrategy
//     (the other datacenters' base replicas feed their own view
//     replicas), in placement order; this node is at position i of B' and
//     sends to V'[i]. Nodes in both B and V pair with themselves (case 1),
//     which is why they are removed before counting positions;
//  3. this node is no base replica (the ring moved under a write already
//     accepted, a hint or batch replayed late, or B' and V' of unequal
//     size, which one placement never gives): every node of V. Cassandra
//     keeps such an update in the base write's batch log, whose replay
//     sends it to every natural replica of the view partition; sending to
//     all of V directly ends the same way without a second log.
// Pending replicas (a node joining or moving) are not added: Sibyl's ring
// has no pending ranges (a node's tokens own their ranges from the epoch
// it joins); a new view replica gets earlier view rows by streaming or
// repair, as it gets base rows.
//
// A keyspace the current view does not know (LocalStrategy's system
// keyspaces, or a schema this node learned before the ring did): local.
//
// Thread-safety: Route is called under the base partition's lock from any
// writing thread. It reads the current ClusterView (one atomic load) and
// computes over the placement in memory: no I/O, no lock, no waiting.

#include <memory>
#include <string>
#include <utility>

#include "cluster/cluster_view.h"
#include "index/view_update_router.h"

namespace sibyl::cluster {

class RingViewUpdateRouter final : public index::ViewUpdateRouter {
 public:
  // REQUIRES: `views` holds a view. Shared: the engine that keeps the
  // router may outlive whoever updates the holder.
  explicit RingViewUpdateRouter(std::shared_ptr<const ClusterViewHolder> views)
      : views_(std::move(views)) {}

  [[nodiscard]] Targets Route(const std::string& keyspace,
                              const storage::PartitionKey& base_partition,
                              const storage::PartitionKey& view_partition) const override;

  // The rule above on one view of the ring, for tests and tools.
  [[nodiscard]] static Targets RouteIn(const ClusterView& view, const std::string& keyspace,
                                       const storage::PartitionKey& base_partition,
                                       const storage::PartitionKey& view_partition);

 private:
  const std::shared_ptr<const ClusterViewHolder> views_;
};

}  // namespace sibyl::cluster
