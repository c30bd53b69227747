#include "cluster/streaming/stream_sources.h"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "schema/storage_layout.h"

namespace sibyl::cluster::streaming {

namespace {

bool Contains(std::span<const locator::NodeId> replicas, const types::Uuid& node) {
  return std::find(replicas.begin(), replicas.end(), node) != replicas.end();
}

// The union of both rings' tokens: each range between two of them has one
// set of replicas in each placement.
std::vector<dht::Token> Boundaries(const ClusterView& view) {
  std::vector<dht::Token> tokens(view.ring().tokens().begin(), view.ring().tokens().end());
  tokens.insert(tokens.end(), view.written_ring().tokens().begin(),
                view.written_ring().tokens().end());
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return tokens;
}

std::string AddressText(const ClusterView& view, const types::Uuid& node) {
  const messaging::PeerAddress address = view.AddressOf(node);
  return "/" + address.ip + ":" + std::to_string(address.port);
}

}  // namespace

std::vector<RangeSource> SourcesFor(const ClusterView& view, const types::Uuid& receiver,
                                    const Liveness& liveness, SourceRule rule) {
  std::vector<RangeSource> sources;
  if (!view.ranges_moving()) return sources;
  const std::vector<dht::Token> boundaries = Boundaries(view);
  if (boundaries.empty()) return sources;
  const auto alive = [&](const types::Uuid& node) {
    return node == view.local_id() || liveness.IsAlive(node);
  };
  for (const auto& [name, keyspace] : view.schema().keyspaces()) {
    const KeyspaceReplication* replication = view.ReplicationOf(name);
    if (replication == nullptr || !replication->also_written ||
        replication->strategy().kind() == locator::ReplicationStrategy::Kind::kLocal) {
      continue;
    }
    for (size_t i = 0; i < boundaries.size(); ++i) {
      // (previous, boundaries[i]]; the first range wraps from the last token.
      const dht::Token end = boundaries[i];
      const dht::Token start = boundaries[i == 0 ? boundaries.size() - 1 : i - 1];
      const std::span<const locator::NodeId> natural = replication->placement->ReplicasFor(end);
      const std::span<const locator::NodeId> written = replication->also_written->ReplicasFor(end);
      if (!Contains(written, receiver) || Contains(natural, receiver)) continue;
      const types::Uuid* source = nullptr;
      for (const locator::NodeId& replica : natural) {
        if (rule == SourceRule::kStrict && !Contains(written, replica)) {
          if (!alive(replica)) {
            throw std::runtime_error(
                "Necessary replicas for strict consistency were removed by source filters: " +
                AddressText(view, replica) + " is down");
          }
          source = &replica;
          break;
        }
      }
      if (source == nullptr) {
        for (const locator::NodeId& replica : natural) {
          const bool keeps = rule == SourceRule::kStrict || Contains(written, replica);
          if (replica != receiver && keeps && alive(replica)) {
            source = &replica;
            break;
          }
        }
      }
      // Under kRemainingReplica, a range only the removed node held (RF 1, as
      // system_auth's) is gone with it: Cassandra skips those keyspaces.
      if (source == nullptr && rule == SourceRule::kRemainingReplica) continue;
      if (source == nullptr) {
        throw std::runtime_error("Unable to find a live source for range (" +
                                 std::to_string(start) + ", " + std::to_string(end) +
                                 "] of keyspace " + name);
      }
      sources.push_back({name, {start, end}, *source});
    }
  }
  return sources;
}

std::vector<StreamTask> StreamTasksFor(const ClusterView& view, const types::Uuid& receiver,
                                       const Liveness& liveness, SourceRule rule) {
  std::vector<StreamTask> tasks;
  for (const RangeSource& source : SourcesFor(view, receiver, liveness, rule)) {
    const schema::KeyspaceMetadata* keyspace = view.schema().FindKeyspace(source.keyspace);
    if (keyspace == nullptr) continue;
    for (const auto* tables : {&keyspace->tables, &keyspace->views}) {
      for (const auto& [name, table] : *tables) {
        // Virtual tables hold nothing to copy.
        if (!schema::IsStoredTable(*table)) continue;
        tasks.push_back({.table_id = table->id, .range = source.range, .source = source.source});
      }
    }
  }
  return tasks;
}

std::vector<types::Uuid> PendingMembers(const ClusterView& view) {
  std::vector<types::Uuid> members;
  if (!view.ranges_moving()) return members;
  const std::vector<dht::Token> boundaries = Boundaries(view);
  for (const auto& [name, keyspace] : view.schema().keyspaces()) {
    const KeyspaceReplication* replication = view.ReplicationOf(name);
    if (replication == nullptr || !replication->also_written) continue;
    for (const dht::Token token : boundaries) {
      for (const types::Uuid& node : replication->PendingReplicasFor(token)) {
        if (std::find(members.begin(), members.end(), node) == members.end()) {
          members.push_back(node);
        }
      }
    }
  }
  return members;
}

}  // namespace sibyl::cluster::streaming
