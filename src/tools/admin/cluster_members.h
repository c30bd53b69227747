#pragma once
// What `sibyl admin` learns from the node it contacts: every member of the
// cluster as that node sees it (system_views.gossip_info), the node's schema
// version, and each keyspace's replication. Plain data, so that the
// nodetool views are pure functions of it and tested without a node.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dht/token.h"
#include "locator/token_ring.h"
#include "locator/topology.h"
#include "types/uuid.h"

namespace sibyl::tools::admin {

struct MemberState {
  std::string address;  // internode (broadcast) address, as nodetool prints it
  int32_t storage_port = 7000;
  std::string native_address;  // where its clients connect (describering's rpc_endpoints)
  uint16_t native_port = 0;    // its CQL port; 0: not known
  std::string datacenter;
  std::string rack;
  types::Uuid host_id;
  std::vector<dht::Token> tokens;  // sorted
  // By the contacted node's failure detector; nullopt: it cannot tell.
  std::optional<bool> alive;
  // Bytes of live data on disk, as the member last reported; nullopt: unknown.
  std::optional<int64_t> load_bytes;
  // Gossip's STATUS: "NORMAL", "BOOT" (joining) or "LEAVING".
  std::string status = "NORMAL";
};

struct ClusterMembers {
  types::Uuid schema_version;  // the contacted node's
  std::vector<MemberState> members;
  // Keyspace name → its replication map (system_schema.keyspaces.replication).
  std::map<std::string, std::map<std::string, std::string>> keyspaces;

  // The ring of the members' tokens, keyed by host id. Throws CqlError when
  // two members claim one token (a directory that is not consistent).
  locator::TokenRing Ring() const;
  // Every member's datacenter and rack.
  locator::Topology Placement() const;
  // The member with `host_id`. REQUIRES: it is a member.
  const MemberState& Member(const types::Uuid& host_id) const;
};

}  // namespace sibyl::tools::admin
