#pragma once
// Helpers of the locator tests: nodes numbered 0, 1, 2, ... as host ids.

#include <map>
#include <string>
#include <vector>

#include "locator/token_ring.h"
#include "locator/topology.h"

namespace sibyl::locator::testing {

inline NodeId Node(int n) {
  NodeId id;
  id.bytes[14] = static_cast<uint8_t>(n >> 8);
  id.bytes[15] = static_cast<uint8_t>(n);
  return id;
}

inline int NumberOf(const NodeId& id) { return id.bytes[14] << 8 | id.bytes[15]; }

template <typename Range>
std::vector<int> Numbers(const Range& nodes) {
  std::vector<int> numbers;
  for (const NodeId& node : nodes) numbers.push_back(NumberOf(node));
  return numbers;
}

// Node i gets tokens[i] (one token per node).
inline TokenRing RingOf(const std::vector<dht::Token>& tokens) {
  std::map<NodeId, std::vector<dht::Token>> by_node;
  for (size_t i = 0; i < tokens.size(); ++i)
    by_node[Node(static_cast<int>(i))].push_back(tokens[i]);
  return TokenRing(by_node);
}

}  // namespace sibyl::locator::testing
