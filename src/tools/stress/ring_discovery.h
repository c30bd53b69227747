#pragma once
// What `sibyl stress` learns of a cluster from the node it first reaches, as
// drivers learn it: the nodes and their tokens from system.local and
// system.peers, and a keyspace's replication from system_schema.keyspaces.

#include <map>
#include <string>
#include <vector>

#include "client/client_connection.h"
#include "tools/stress/token_aware_router.h"

namespace sibyl::tools {

// Every node of the ring, the contacted one first. A node whose native
// address is unset (or 0.0.0.0) is reached at `contact_address` when it is
// the contacted node, else at its internode address. Call from a thread that
// does not run `connection`. Throws StressError.
[[nodiscard]] std::vector<RingNode> DiscoverRing(client::Connection& connection,
                                                 const std::string& contact_address);

// Throws StressError when the keyspace does not exist.
[[nodiscard]] std::map<std::string, std::string> ReadReplication(client::Connection& connection,
                                                                 const std::string& keyspace);

}  // namespace sibyl::tools
