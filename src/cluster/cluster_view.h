#pragma once
// The cluster as this node sees it at one moment: the members (the metadata
// log's Directory), the token ring and topology built from them, and where
// each keyspace's replicas are under the schema of that moment. A request
// takes the current view once (ClusterViewHolder::Get) and uses it
// throughout, so it sees one ring even while the node moves to a new epoch.
//
//   ClusterViewPtr view = holder.Get();
//   const KeyspaceReplication* replication = view->ReplicationOf("ks");
//   std::span<const locator::NodeId> replicas = replication->placement->ReplicasFor(token);
//   messaging::PeerAddress address = view->AddressOf(replicas[0]);
//
// Immutable once built: safe to share between threads.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "locator/replica_placement.h"
#include "locator/replication_strategy.h"
#include "locator/token_ring.h"
#include "locator/topology.h"
#include "messaging/peer_address.h"
#include "metadata/directory.h"
#include "schema/schema.h"

namespace sibyl::cluster {

// Where a keyspace's data lives. While members join or leave (a member in
// the directory not NORMAL, metadata::NodeState), a moving range has two
// placements: `placement`, which reads use (the natural replicas: NORMAL,
// kLeaving and kJoiningReadNew members' tokens), and `also_written`, the
// other side of each move (NORMAL, kJoining and kLeavingReadNew members'
// tokens). The replicas only `also_written` names are pending (Cassandra's
// pending ranges): writes and Paxos go to them too, counted as 4.1 counts
// pending replicas.
struct KeyspaceReplication {
  std::shared_ptr<const locator::ReplicaPlacement> placement;
  std::shared_ptr<const locator::ReplicaPlacement> also_written;  // null: no range is moving
  const locator::ReplicationStrategy& strategy() const { return placement->strategy(); }
  // The replicas written for `token` besides its natural ones, in
  // `also_written`'s order: none when no range is moving.
  std::vector<locator::NodeId> PendingReplicasFor(dht::Token token) const;
};

class ClusterView {
 public:
  // REQUIRES: `local` is a member of `directory`. A keyspace whose
  // replication map the locator refuses (which validation should have
  // stopped) is left out: ReplicationOf answers nullptr for it.
  static std::shared_ptr<const ClusterView> Build(uint64_t epoch, metadata::DirectoryPtr directory,
                                                  schema::SchemaPtr schema,
                                                  const types::Uuid& local);

  uint64_t epoch() const { return epoch_; }
  const types::Uuid& local_id() const { return local_id_; }
  const metadata::NodeRecord& local() const { return *local_; }
  const metadata::Directory& directory() const { return *directory_; }
  const schema::Schema& schema() const { return *schema_; }
  // The ring reads use (KeyspaceReplication::placement's).
  const locator::TokenRing& ring() const { return ring_; }
  // Whether some member is joining or leaving.
  bool ranges_moving() const { return written_ring_.has_value(); }
  // The ring on the other side of the moves (KeyspaceReplication::
  // also_written's). REQUIRES: ranges_moving().
  const locator::TokenRing& written_ring() const { return *written_ring_; }
  const locator::Topology& topology() const { return topology_; }

  // nullptr for a keyspace the schema does not have.
  const KeyspaceReplication* ReplicationOf(std::string_view keyspace) const;
  // The replication of the keyspace holding table `table_id` (what a
  // Mutation or ReadCommand names); nullptr for a table the schema lacks.
  const KeyspaceReplication* ReplicationOfTable(const types::Uuid& table_id) const;
  // The table (or view) with id `table_id`, of a keyspace the view places;
  // nullptr when there is none.
  const schema::TableMetadata* TableById(const types::Uuid& table_id) const;
  // The member's internode address (broadcast address, storage port).
  // REQUIRES: `node` is a member.
  messaging::PeerAddress AddressOf(const types::Uuid& node) const;
  // The member at an internode address, if any.
  std::optional<types::Uuid> NodeAt(const messaging::PeerAddress& address) const;
  // The member's datacenter. REQUIRES: `node` is a member.
  const std::string& DatacenterOf(const types::Uuid& node) const;

 private:
  ClusterView() = default;

  uint64_t epoch_ = 0;
  types::Uuid local_id_;
  const metadata::NodeRecord* local_ = nullptr;
  metadata::DirectoryPtr directory_;
  schema::SchemaPtr schema_;
  locator::TokenRing ring_;
  std::optional<locator::TokenRing> written_ring_;  // the other side of the moves, while they run
  locator::Topology topology_;
  std::map<std::string, KeyspaceReplication, std::less<>> keyspaces_;
  std::map<types::Uuid, const KeyspaceReplication*> by_table_;  // points into keyspaces_
  std::map<types::Uuid, const schema::TableMetadata*> tables_;  // points into schema_
  std::map<messaging::PeerAddress, types::Uuid> by_address_;
};
using ClusterViewPtr = std::shared_ptr<const ClusterView>;

// The current view, swapped whole when the directory or the schema changes.
// Thread-safe.
class ClusterViewHolder {
 public:
  ClusterViewPtr Get() const { return view_.load(std::memory_order_acquire); }
  void Set(ClusterViewPtr view) { view_.store(std::move(view), std::memory_order_release); }

 private:
  std::atomic<ClusterViewPtr> view_;
};

}  // namespace sibyl::cluster
