#pragma once
// Which ranges a node must receive while it is pending for them, and from
// whom (Cassandra's RangeStreamer with consistent.rangemovement, its
// default): for each range of each keyspace where `receiver` is written but
// not read (ClusterView's pending replicas), the natural replica that will
// stop being written once the move finishes — the one losing the range.
// Copying from it keeps every quorum of the new owners overlapping every
// quorum of the old. A range no replica loses (the datacenter has no more
// nodes than the replication factor, so the receiver adds a replica) comes
// from the first live natural replica, as Cassandra falls back to.
//
// Pure functions of their inputs: safe from any thread.

#include <string>
#include <vector>

#include "cluster/cluster_view.h"
#include "cluster/liveness.h"
#include "cluster/streaming/range_streamer.h"
#include "storage/data/read_command.h"
#include "types/uuid.h"

namespace sibyl::cluster::streaming {

struct RangeSource {
  std::string keyspace;
  storage::TokenRange range;
  types::Uuid source;
  friend bool operator==(const RangeSource& a, const RangeSource& b) {
    return a.keyspace == b.keyspace && a.range.start == b.range.start &&
           a.range.end == b.range.end && a.source == b.source;
  }
};

enum class SourceRule : uint8_t {
  // The replica losing each range (join, decommission): strict consistency.
  kStrict = 0,
  // A live replica that keeps the range (removenode, whose loser is the dead
  // node): as Cassandra's restoreReplicaCount, one remaining replica, which
  // may miss writes the dead one had. A range no live replica keeps (RF 1)
  // is skipped: its data went with the dead node.
  kRemainingReplica = 1,
};

// In keyspace then ring order; the system keyspaces (LocalStrategy) have
// none. Throws std::runtime_error when, under kStrict, a range's losing
// replica is down: "Necessary replicas for strict consistency were removed
// by source filters: <address> is down" (with no live replica at all for a
// range: "Unable to find a live source for range ...").
[[nodiscard]] std::vector<RangeSource> SourcesFor(const ClusterView& view,
                                                  const types::Uuid& receiver,
                                                  const Liveness& liveness,
                                                  SourceRule rule = SourceRule::kStrict);

// SourcesFor's ranges as the streams that copy them: one per stored table
// (and view) of each keyspace. Throws as SourcesFor.
[[nodiscard]] std::vector<StreamTask> StreamTasksFor(const ClusterView& view,
                                                     const types::Uuid& receiver,
                                                     const Liveness& liveness,
                                                     SourceRule rule = SourceRule::kStrict);

// The members pending for some range of some keyspace: who must stream
// while a move is under way.
[[nodiscard]] std::vector<types::Uuid> PendingMembers(const ClusterView& view);

}  // namespace sibyl::cluster::streaming
