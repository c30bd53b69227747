#pragma once
// The token ring: every node's tokens, sorted. A node owns the range
// (previous token, its token] for each of its tokens, the first token owning
// the wrap (last token, first token] — as Cassandra's TokenMetadata and every
// token-aware driver compute it (docs/dev/cluster.md).
//
// Invariants: tokens strictly increasing (no token belongs to two nodes);
// nodes() sorted and distinct, each owning at least one token.
// Immutable once built: safe to share between threads.

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "dht/token.h"
#include "dht/token_range.h"
#include "types/uuid.h"

namespace sibyl::locator {

// A node is known by its host id (system.local / system.peers host_id).
using NodeId = types::Uuid;

class TokenRing {
 public:
  TokenRing() = default;  // the empty ring
  // Throws CqlError(kConfigError) when two nodes claim one token: "Token 42
  // is claimed by two nodes: <host id> and <host id>". A node given no token
  // is left out.
  explicit TokenRing(const std::map<NodeId, std::vector<dht::Token>>& tokens_by_node);

  bool empty() const { return tokens_.empty(); }
  size_t size() const { return tokens_.size(); }
  std::span<const dht::Token> tokens() const { return tokens_; }
  // The ring's nodes, sorted.
  std::span<const NodeId> nodes() const { return nodes_; }

  // REQUIRES: i < size().
  dht::Token TokenAt(size_t i) const { return tokens_[i]; }
  // Index into nodes() of the node owning the i-th token. REQUIRES: i < size().
  uint32_t NodeIndexAt(size_t i) const { return owners_[i]; }
  const NodeId& NodeAt(size_t i) const { return nodes_[owners_[i]]; }
  // The range the i-th token closes: (token i-1, token i], the first one
  // wrapping from the last. REQUIRES: i < size().
  dht::TokenRange RangeAt(size_t i) const;

  // Index of the first ring token >= `token`, 0 when there is none (the
  // wrap): the token whose range holds `token`. REQUIRES: !empty().
  size_t FirstTokenIndex(dht::Token token) const;
  // The node whose range holds `token` (its primary replica under every
  // strategy but LocalStrategy). REQUIRES: !empty().
  const NodeId& Owner(dht::Token token) const { return NodeAt(FirstTokenIndex(token)); }

  // Index into nodes() of `node`, or -1 when it owns no token.
  int IndexOf(const NodeId& node) const;
  // A node's tokens, sorted; empty for a node outside the ring.
  std::vector<dht::Token> TokensOf(const NodeId& node) const;
  // The ranges a node owns as primary, in ring order.
  std::vector<dht::TokenRange> OwnedRanges(const NodeId& node) const;

 private:
  std::vector<dht::Token> tokens_;
  std::vector<uint32_t> owners_;  // parallel to tokens_, indexes nodes_
  std::vector<NodeId> nodes_;
};

}  // namespace sibyl::locator
