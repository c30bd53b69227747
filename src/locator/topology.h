#pragma once
// Where each node is: its datacenter and rack, and the per-datacenter views
// NetworkTopologyStrategy needs (which nodes, which racks). The values are
// those system.local / system.peers show, so that drivers place replicas as
// the server does.
//
// Immutable once built: safe to share between threads.

#include <map>
#include <set>
#include <span>
#include <string>

#include "locator/token_ring.h"

namespace sibyl::locator {

struct Location {
  std::string datacenter;
  std::string rack;
  bool operator==(const Location&) const = default;
};

class Topology {
 public:
  struct Datacenter {
    std::set<NodeId> nodes;
    std::map<std::string, std::set<NodeId>> racks;  // rack → its nodes
  };

  Topology() = default;
  explicit Topology(std::map<NodeId, Location> locations);

  // nullptr for an unknown node.
  const Location* Find(const NodeId& node) const;
  // REQUIRES: the node is known (a bug otherwise: the cluster's directory
  // gives every member a location).
  const Location& LocationOf(const NodeId& node) const;

  const std::map<NodeId, Location>& locations() const { return locations_; }
  // Datacenter name → its nodes and racks, sorted by name.
  const std::map<std::string, Datacenter>& datacenters() const { return datacenters_; }
  // 0 for an unknown datacenter.
  size_t NodeCount(const std::string& datacenter) const;
  size_t RackCount(const std::string& datacenter) const;

  // The same topology restricted to `nodes` (e.g. the ring's members: a
  // node without tokens counts toward no datacenter's size or racks).
  Topology Restricted(std::span<const NodeId> nodes) const;

 private:
  std::map<NodeId, Location> locations_;
  std::map<std::string, Datacenter> datacenters_;
};

}  // namespace sibyl::locator
