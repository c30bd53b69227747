#pragma once
// Which ownership the nodetool views show, chosen as Cassandra 4.1's
// StorageService.getEffectiveOwnership chooses it:
//
//   * a keyspace named: its effective ownership (the share of the ring each
//     node holds as any replica); an unknown keyspace is an error; a
//     LocalStrategy keyspace falls back to raw ownership with the note
//     "Ownership values for keyspaces with LocalStrategy are meaningless";
//   * no keyspace: the effective ownership of the non-system keyspaces when
//     they all replicate alike (system_traces' when there is none), else raw
//     ownership (each node's share as primary replica) with the note "Non-system
//     keyspaces don't have the same replication settings, effective ownership
//     information is meaningless".

#include <map>
#include <optional>
#include <string>

#include "locator/token_ring.h"
#include "tools/admin/cluster_members.h"

namespace sibyl::tools::admin {

struct OwnershipChoice {
  bool effective = false;
  // Host id → fraction of the ring in [0, 1]; a node missing owns nothing.
  std::map<locator::NodeId, double> by_node;
  // Why the ownership is raw (nodetool's "Note: ..." without the prefix); empty when effective.
  std::string note;
};

// Throws AdminError for an unknown keyspace ("The keyspace ks, does not
// exist", Cassandra's words) or when the node knows no keyspace to use
// ("The node does not have system_traces yet, probably still bootstrapping").
[[nodiscard]] OwnershipChoice ChooseOwnership(const ClusterMembers& cluster,
                                              const std::optional<std::string>& keyspace);

}  // namespace sibyl::tools::admin
