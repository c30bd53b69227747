#include "locator/replication_strategy.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

#include "common/check.h"
#include "common/error.h"
#include "locator/locator_class_name.h"

namespace sibyl::locator {
namespace {

constexpr std::string_view kSimpleClass = "org.apache.cassandra.locator.SimpleStrategy";
constexpr std::string_view kNetworkTopologyClass =
    "org.apache.cassandra.locator.NetworkTopologyStrategy";
constexpr std::string_view kLocalClass = "org.apache.cassandra.locator.LocalStrategy";

// Java's Integer.parseInt: an optional sign, then decimal digits, in range.
std::optional<int> ParseJavaInt(std::string_view text) {
  size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
  if (i == text.size()) return std::nullopt;
  int64_t value = 0;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
    if (value > int64_t{std::numeric_limits<int>::max()} + 1) return std::nullopt;
  }
  if (text[0] == '-') value = -value;
  if (value > std::numeric_limits<int>::max()) return std::nullopt;
  return static_cast<int>(value);
}

int ParseReplicaCount(std::string_view text) {
  const std::optional<int> value = ParseJavaInt(text);
  if (!value) ThrowConfig("For input string: \"" + std::string(text) + "\"");
  return *value;
}

// ReplicationFactor.fromString, without transient replicas.
int ParseReplicationFactor(std::string_view text) {
  const size_t slash = text.find('/');
  if (slash != std::string_view::npos && text.find('/', slash + 1) != std::string_view::npos) {
    ThrowConfig("Replication factor format is <replicas> or <replicas>/<transient>");
  }
  const int all = ParseReplicaCount(text.substr(0, slash));
  if (slash != std::string_view::npos && ParseReplicaCount(text.substr(slash + 1)) != 0) {
    ThrowConfig("Transient replication (replication factor '" + std::string(text) +
                "') is not supported by Sibyl");
  }
  if (all < 0) ThrowConfig("Replication factor must be non-negative, found " + std::to_string(all));
  return all;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return (x >= 'A' && x <= 'Z' ? x + 32 : x) == (y >= 'A' && y <= 'Z' ? y + 32 : y);
  });
}

// The distinct nodes met walking clockwise from ring index `start`.
std::vector<uint32_t> WalkSimple(const TokenRing& ring, size_t start, int factor) {
  std::vector<uint32_t> replicas;
  const size_t wanted = static_cast<size_t>(std::max(factor, 0));
  for (size_t step = 0; step < ring.size() && replicas.size() < wanted; ++step) {
    const uint32_t node = ring.NodeIndexAt((start + step) % ring.size());
    if (std::find(replicas.begin(), replicas.end(), node) == replicas.end()) {
      replicas.push_back(node);
    }
  }
  return replicas;
}

// What NetworkTopologyStrategy consults at each step of a walk, computed once
// per ring and topology. Node and rack numbers are indexes: the ring's node
// index, and one number per (datacenter, rack) pair so that equal rack names
// in two datacenters stay apart.
struct NtsSetup {
  struct Quota {
    int replicas;      // min(factor, nodes in the datacenter)
    int rack_repeats;  // factor - racks in the datacenter
  };
  std::vector<int> quota_of_node;  // by ring node index; -1: its datacenter takes no replica
  std::vector<int> rack_of_node;   // by ring node index
  std::vector<Quota> quotas;
  int rack_count = 0;
};

NtsSetup SetUpNts(const std::map<std::string, int, std::less<>>& factors, const TokenRing& ring,
                  const Topology& topology) {
  // Datacenter sizes and rack counts are those of the ring's members.
  const Topology members = topology.Restricted(ring.nodes());
  NtsSetup setup;
  std::map<std::string_view, int> quota_of_dc;
  std::map<std::pair<std::string_view, std::string_view>, int> rack_ids;
  for (const auto& [name, dc] : members.datacenters()) {
    const auto factor = factors.find(name);
    if (factor == factors.end() || factor->second <= 0) continue;
    quota_of_dc[name] = static_cast<int>(setup.quotas.size());
    setup.quotas.push_back({std::min(factor->second, static_cast<int>(dc.nodes.size())),
                            factor->second - static_cast<int>(dc.racks.size())});
  }
  for (const NodeId& node : ring.nodes()) {
    const Location& location = members.LocationOf(node);
    const auto quota = quota_of_dc.find(location.datacenter);
    setup.quota_of_node.push_back(quota == quota_of_dc.end() ? -1 : quota->second);
    const auto [rack, added] = rack_ids.emplace(
        std::pair{std::string_view(location.datacenter), std::string_view(location.rack)},
        setup.rack_count);
    if (added) ++setup.rack_count;
    setup.rack_of_node.push_back(rack->second);
  }
  return setup;
}

// NetworkTopologyStrategy.calculateNaturalReplicas from ring index `start`.
std::vector<uint32_t> WalkNts(const TokenRing& ring, const NtsSetup& setup, size_t start) {
  std::vector<NtsSetup::Quota> left = setup.quotas;
  std::vector<bool> rack_used(setup.rack_count, false);
  std::vector<uint32_t> replicas;
  size_t unfilled = left.size();
  for (size_t step = 0; step < ring.size() && unfilled > 0; ++step) {
    const uint32_t node = ring.NodeIndexAt((start + step) % ring.size());
    const int quota = setup.quota_of_node[node];
    if (quota < 0 || left[quota].replicas == 0) continue;
    if (std::find(replicas.begin(), replicas.end(), node) != replicas.end()) continue;
    NtsSetup::Quota& dc = left[quota];
    const int rack = setup.rack_of_node[node];
    if (rack_used[rack]) {
      // A rack already holding a replica: only while repeats remain.
      if (dc.rack_repeats <= 0) continue;
      --dc.rack_repeats;
    }
    rack_used[rack] = true;
    replicas.push_back(node);
    if (--dc.replicas == 0) --unfilled;
  }
  return replicas;
}

std::vector<NodeId> ToNodeIds(const TokenRing& ring, const std::vector<uint32_t>& indexes) {
  std::vector<NodeId> nodes;
  nodes.reserve(indexes.size());
  for (uint32_t index : indexes) nodes.push_back(ring.nodes()[index]);
  return nodes;
}

}  // namespace

ReplicationStrategy ReplicationStrategy::FromMap(
    const std::map<std::string, std::string>& replication) {
  const auto class_it = replication.find("class");
  if (class_it == replication.end()) ThrowConfig("Missing replication strategy class");
  const std::string class_name = QualifiedLocatorClass(class_it->second);
  if (class_name == kSimpleClass) {
    const auto rf = replication.find("replication_factor");
    if (rf == replication.end()) {
      ThrowConfig("SimpleStrategy requires a replication_factor strategy option.");
    }
    return Simple(ParseReplicationFactor(rf->second));
  }
  if (class_name == kNetworkTopologyClass) {
    std::map<std::string, int> factors;
    for (const auto& [key, value] : replication) {
      if (key == "class") continue;
      if (EqualsIgnoreCase(key, "replication_factor")) {
        ThrowConfig(
            "replication_factor should not appear as an option at construction time for "
            "NetworkTopologyStrategy");
      }
      factors.emplace(key, ParseReplicationFactor(value));
    }
    return NetworkTopology(std::move(factors));
  }
  if (class_name == kLocalClass) return Local();
  ThrowConfig("Unable to find replication strategy class '" + class_name + "'");
}

ReplicationStrategy ReplicationStrategy::Simple(int replication_factor) {
  return ReplicationStrategy(Kind::kSimple, replication_factor, {});
}

ReplicationStrategy ReplicationStrategy::NetworkTopology(
    std::map<std::string, int> datacenter_factors) {
  int total = 0;
  for (const auto& [dc, factor] : datacenter_factors) total += factor;
  return ReplicationStrategy(Kind::kNetworkTopology, total,
                             {datacenter_factors.begin(), datacenter_factors.end()});
}

ReplicationStrategy ReplicationStrategy::Local() {
  return ReplicationStrategy(Kind::kLocal, 1, {});
}

std::string_view ReplicationStrategy::class_name() const {
  switch (kind_) {
    case Kind::kSimple:
      return kSimpleClass;
    case Kind::kNetworkTopology:
      return kNetworkTopologyClass;
    case Kind::kLocal:
      return kLocalClass;
  }
  SIBYL_CHECK(false, "replication strategy kind " + std::to_string(static_cast<int>(kind_)));
  return {};
}

int ReplicationStrategy::ReplicationFactorIn(std::string_view datacenter) const {
  if (kind_ != Kind::kNetworkTopology) return total_factor_;
  const auto it = datacenter_factors_.find(datacenter);
  return it == datacenter_factors_.end() ? 0 : it->second;
}

std::vector<NodeId> ReplicationStrategy::NaturalReplicas(dht::Token token, const TokenRing& ring,
                                                         const Topology& topology,
                                                         const NodeId& local_node) const {
  if (kind_ == Kind::kLocal) return {local_node};
  if (ring.empty()) return {};
  const size_t start = ring.FirstTokenIndex(token);
  if (kind_ == Kind::kSimple) return ToNodeIds(ring, WalkSimple(ring, start, total_factor_));
  return ToNodeIds(ring, WalkNts(ring, SetUpNts(datacenter_factors_, ring, topology), start));
}

std::vector<std::vector<NodeId>> ReplicationStrategy::NaturalReplicasOfEveryRange(
    const TokenRing& ring, const Topology& topology, const NodeId& local_node) const {
  std::vector<std::vector<NodeId>> result;
  result.reserve(ring.size());
  if (kind_ == Kind::kLocal) {
    result.assign(ring.size(), {local_node});
    return result;
  }
  if (kind_ == Kind::kSimple) {
    for (size_t i = 0; i < ring.size(); ++i) {
      result.push_back(ToNodeIds(ring, WalkSimple(ring, i, total_factor_)));
    }
    return result;
  }
  const NtsSetup setup = SetUpNts(datacenter_factors_, ring, topology);
  for (size_t i = 0; i < ring.size(); ++i)
    result.push_back(ToNodeIds(ring, WalkNts(ring, setup, i)));
  return result;
}

}  // namespace sibyl::locator
