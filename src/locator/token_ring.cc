#include "locator/token_ring.h"

#include <algorithm>
#include <utility>

#include "common/check.h"
#include "common/error.h"

namespace sibyl::locator {

TokenRing::TokenRing(const std::map<NodeId, std::vector<dht::Token>>& tokens_by_node) {
  std::vector<std::pair<dht::Token, uint32_t>> entries;
  for (const auto& [node, tokens] : tokens_by_node) {
    if (tokens.empty()) continue;
    const auto index = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(node);
    for (dht::Token token : tokens) entries.emplace_back(token, index);
  }
  std::sort(entries.begin(), entries.end());
  tokens_.reserve(entries.size());
  owners_.reserve(entries.size());
  for (const auto& [token, owner] : entries) {
    if (!tokens_.empty() && tokens_.back() == token) {
      // One node listing a token twice is a harmless repetition; two nodes
      // on one token would make ownership ambiguous.
      if (owners_.back() == owner) continue;
      throw CqlError(ErrorCode::kConfigError,
                     "Token " + std::to_string(token) + " is claimed by two nodes: " +
                         nodes_[owners_.back()].ToString() + " and " + nodes_[owner].ToString());
    }
    tokens_.push_back(token);
    owners_.push_back(owner);
  }
}

dht::TokenRange TokenRing::RangeAt(size_t i) const {
  SIBYL_CHECK(i < tokens_.size(), "ring index " + std::to_string(i));
  const size_t previous = i == 0 ? tokens_.size() - 1 : i - 1;
  return {tokens_[previous], tokens_[i]};
}

size_t TokenRing::FirstTokenIndex(dht::Token token) const {
  SIBYL_CHECK(!tokens_.empty(), "a token's place on an empty ring");
  const auto it = std::lower_bound(tokens_.begin(), tokens_.end(), token);
  return it == tokens_.end() ? 0 : static_cast<size_t>(it - tokens_.begin());
}

int TokenRing::IndexOf(const NodeId& node) const {
  const auto it = std::lower_bound(nodes_.begin(), nodes_.end(), node);
  return it != nodes_.end() && *it == node ? static_cast<int>(it - nodes_.begin()) : -1;
}

std::vector<dht::Token> TokenRing::TokensOf(const NodeId& node) const {
  std::vector<dht::Token> result;
  const int index = IndexOf(node);
  for (size_t i = 0; i < tokens_.size() && index >= 0; ++i) {
    if (owners_[i] == static_cast<uint32_t>(index)) result.push_back(tokens_[i]);
  }
  return result;
}

std::vector<dht::TokenRange> TokenRing::OwnedRanges(const NodeId& node) const {
  std::vector<dht::TokenRange> result;
  const int index = IndexOf(node);
  for (size_t i = 0; i < tokens_.size() && index >= 0; ++i) {
    if (owners_[i] == static_cast<uint32_t>(index)) result.push_back(RangeAt(i));
  }
  return result;
}

}  // namespace sibyl::locator
