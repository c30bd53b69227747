#include "cluster/cluster_view.h"

#include <algorithm>

#include "common/check.h"
#include "common/error.h"

namespace sibyl::cluster {

ClusterViewPtr ClusterView::Build(uint64_t epoch, metadata::DirectoryPtr directory,
                                  schema::SchemaPtr schema, const types::Uuid& local) {
  auto view = std::shared_ptr<ClusterView>(new ClusterView());
  view->epoch_ = epoch;
  view->local_id_ = local;
  view->local_ = directory->Find(local);
  SIBYL_CHECK(view->local_ != nullptr, "the local node must be a member of its cluster view");
  using metadata::NodeState;
  std::map<locator::NodeId, std::vector<dht::Token>> tokens;          // placing reads
  std::map<locator::NodeId, std::vector<dht::Token>> written_tokens;  // the other side of moves
  bool moving = false;
  std::map<locator::NodeId, locator::Location> locations;
  for (const auto& [id, record] : directory->nodes()) {
    const NodeState state = record.state;
    if (state == NodeState::kNormal || state == NodeState::kLeaving ||
        state == NodeState::kJoiningReadNew) {
      tokens.emplace(id, record.tokens);
    }
    if (state == NodeState::kNormal || state == NodeState::kJoining ||
        state == NodeState::kLeavingReadNew) {
      written_tokens.emplace(id, record.tokens);
    }
    moving |= state != NodeState::kNormal;
    locations.emplace(id, locator::Location{record.datacenter, record.rack});
    const auto address = messaging::PeerAddress{record.broadcast_address,
                                                static_cast<uint16_t>(record.storage_port)};
    view->by_address_.emplace(address, id);
  }
  view->ring_ = locator::TokenRing(tokens);
  if (moving) view->written_ring_.emplace(written_tokens);
  view->topology_ = locator::Topology(std::move(locations));
  // Keyspaces sharing a replication map share its placements.
  std::map<std::map<std::string, std::string>, KeyspaceReplication> placements;
  for (const auto& [name, keyspace] : schema->keyspaces()) {
    KeyspaceReplication& replication = placements[keyspace->replication];
    if (!replication.placement) {
      try {
        const auto strategy = locator::ReplicationStrategy::FromMap(keyspace->replication);
        replication.placement =
            locator::ReplicaPlacement::Build(strategy, view->ring_, view->topology_, local);
        if (view->written_ring_) {
          replication.also_written = locator::ReplicaPlacement::Build(
              strategy, *view->written_ring_, view->topology_, local);
        }
      } catch (const CqlError&) {
        continue;
      }
    }
    const auto [entry, added] = view->keyspaces_.emplace(name, replication);
    for (const auto* tables : {&keyspace->tables, &keyspace->views}) {
      for (const auto& [table_name, table] : *tables) {
        view->by_table_.emplace(table->id, &entry->second);
        view->tables_.emplace(table->id, table.get());
      }
    }
  }
  view->directory_ = std::move(directory);
  view->schema_ = std::move(schema);
  return view;
}

std::vector<locator::NodeId> KeyspaceReplication::PendingReplicasFor(dht::Token token) const {
  std::vector<locator::NodeId> pending;
  if (!also_written) return pending;
  const std::span<const locator::NodeId> now = placement->ReplicasFor(token);
  for (const locator::NodeId& replica : also_written->ReplicasFor(token)) {
    if (std::find(now.begin(), now.end(), replica) == now.end()) pending.push_back(replica);
  }
  return pending;
}

const KeyspaceReplication* ClusterView::ReplicationOf(std::string_view keyspace) const {
  const auto it = keyspaces_.find(keyspace);
  return it == keyspaces_.end() ? nullptr : &it->second;
}

const KeyspaceReplication* ClusterView::ReplicationOfTable(const types::Uuid& table_id) const {
  const auto it = by_table_.find(table_id);
  return it == by_table_.end() ? nullptr : it->second;
}

const schema::TableMetadata* ClusterView::TableById(const types::Uuid& table_id) const {
  const auto it = tables_.find(table_id);
  return it == tables_.end() ? nullptr : it->second;
}

messaging::PeerAddress ClusterView::AddressOf(const types::Uuid& node) const {
  const metadata::NodeRecord* record = directory_->Find(node);
  SIBYL_CHECK(record != nullptr, "AddressOf a node that is not a member");
  return {record->broadcast_address, static_cast<uint16_t>(record->storage_port)};
}

std::optional<types::Uuid> ClusterView::NodeAt(const messaging::PeerAddress& address) const {
  const auto it = by_address_.find(address);
  if (it == by_address_.end()) return std::nullopt;
  return it->second;
}

const std::string& ClusterView::DatacenterOf(const types::Uuid& node) const {
  const metadata::NodeRecord* record = directory_->Find(node);
  SIBYL_CHECK(record != nullptr, "DatacenterOf a node that is not a member");
  return record->datacenter;
}

}  // namespace sibyl::cluster
