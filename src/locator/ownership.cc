#include "locator/ownership.h"

#include "common/check.h"
#include "dht/token_range.h"

namespace sibyl::locator {
namespace {

// Exact sums of token counts, turned into fractions once.
std::map<NodeId, double> ToFractions(const std::map<NodeId, dht::TokenCount>& counts) {
  std::map<NodeId, double> fractions;
  for (const auto& [node, count] : counts) {
    fractions.emplace(node, static_cast<double>(count) / static_cast<double>(dht::kRingSize));
  }
  return fractions;
}

}  // namespace

std::map<NodeId, double> PrimaryOwnership(const TokenRing& ring) {
  std::map<NodeId, dht::TokenCount> counts;
  for (size_t i = 0; i < ring.size(); ++i) counts[ring.NodeAt(i)] += ring.RangeAt(i).Size();
  return ToFractions(counts);
}

std::map<NodeId, double> EffectiveOwnership(const TokenRing& ring,
                                            const ReplicaPlacement& placement) {
  if (placement.strategy().kind() == ReplicationStrategy::Kind::kLocal) {
    std::map<NodeId, double> whole;
    for (const NodeId& node : placement.ReplicasFor(dht::kMinimumToken)) whole.emplace(node, 1.0);
    return whole;
  }
  SIBYL_CHECK(placement.ring_size() == ring.size(), "a placement built on another ring");
  std::map<NodeId, dht::TokenCount> counts;
  for (size_t i = 0; i < ring.size(); ++i) {
    const dht::TokenCount size = ring.RangeAt(i).Size();
    for (const NodeId& node : placement.ReplicasAt(i)) counts[node] += size;
  }
  return ToFractions(counts);
}

}  // namespace sibyl::locator
