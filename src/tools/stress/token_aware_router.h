#pragma once
// Where `sibyl stress` sends an operation when it knows several nodes: to a
// replica of the operation's partition, as a token-aware driver does. The
// replicas are the keyspace's natural replicas for the Murmur3 token of the
// partition key (dht/), in the strategy's order (locator/), computed once
// per ring range so that a lookup is one binary search and no allocation.
//
// Immutable once built: safe to share between the io threads.

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "common/bytes.h"
#include "dht/token.h"
#include "locator/token_ring.h"

namespace sibyl::tools {

// A node as system.local / system.peers describe it.
struct RingNode {
  std::string native_address;  // where stress connects
  locator::NodeId host_id;
  std::string datacenter;
  std::string rack;
  std::vector<dht::Token> tokens;
};

class TokenAwareRouter {
 public:
  // `replication` is the keyspace's replication map (system_schema.keyspaces).
  // Throws CqlError when the map or the ring is not valid (two nodes with one token).
  TokenAwareRouter(const std::vector<RingNode>& nodes,
                   const std::map<std::string, std::string>& replication);

  // Indexes into the constructor's `nodes` of the replicas of the partition
  // whose routing key (a single-column key's serialized value) is
  // `routing_key`, primary first; empty when the ring is empty.
  [[nodiscard]] std::span<const uint32_t> ReplicasOf(BytesView routing_key) const;

 private:
  std::vector<dht::Token> tokens_;  // the ring's, sorted
  // The replicas of the range closed by tokens_[i] are
  // replicas_[offsets_[i], offsets_[i + 1]).
  std::vector<uint32_t> offsets_;
  std::vector<uint32_t> replicas_;
};

}  // namespace sibyl::tools
