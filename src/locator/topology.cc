#include "locator/topology.h"

#include <utility>

#include "common/check.h"

namespace sibyl::locator {

Topology::Topology(std::map<NodeId, Location> locations) : locations_(std::move(locations)) {
  for (const auto& [node, location] : locations_) {
    Datacenter& dc = datacenters_[location.datacenter];
    dc.nodes.insert(node);
    dc.racks[location.rack].insert(node);
  }
}

const Location* Topology::Find(const NodeId& node) const {
  const auto it = locations_.find(node);
  return it == locations_.end() ? nullptr : &it->second;
}

const Location& Topology::LocationOf(const NodeId& node) const {
  const Location* location = Find(node);
  SIBYL_CHECK(location != nullptr, "node " + node.ToString() + " has no datacenter and rack");
  return *location;
}

size_t Topology::NodeCount(const std::string& datacenter) const {
  const auto it = datacenters_.find(datacenter);
  return it == datacenters_.end() ? 0 : it->second.nodes.size();
}

size_t Topology::RackCount(const std::string& datacenter) const {
  const auto it = datacenters_.find(datacenter);
  return it == datacenters_.end() ? 0 : it->second.racks.size();
}

Topology Topology::Restricted(std::span<const NodeId> nodes) const {
  std::map<NodeId, Location> kept;
  for (const NodeId& node : nodes) {
    if (const Location* location = Find(node)) kept.emplace(node, *location);
  }
  return Topology(std::move(kept));
}

}  // namespace sibyl::locator
