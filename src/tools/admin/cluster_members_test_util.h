#pragma once
// A three-node cluster as `sibyl admin` reads it, for the views' tests: one
// datacenter, two tokens per node interleaved around the ring
// (-6e18 .1, -4e18 .2, -2e18 .3, 0 .1, 3e18 .2, 6e18 .3); .1 up with
// 72212 bytes, .2 down with 1 KiB, .3 not known either way and load unknown.
// Keyspaces: ks3 (SimpleStrategy 3), ks2 (SimpleStrategy 2) and the system
// keyspaces system (LocalStrategy) and system_traces (SimpleStrategy 2).

#include <string>

#include "tools/admin/cluster_members.h"

namespace sibyl::tools::admin {

inline types::Uuid TestHostId(int n) {
  return *types::Uuid::Parse("00000000-0000-4000-8000-00000000000" + std::to_string(n));
}

inline ClusterMembers ThreeNodeCluster() {
  ClusterMembers cluster;
  cluster.schema_version = *types::Uuid::Parse("5a3c0b4e-1d2f-3a4b-8c5d-6e7f8091a2b3");
  auto member = [](int n, std::vector<dht::Token> tokens) {
    MemberState m;
    m.address = "127.0.0." + std::to_string(n);
    m.storage_port = 7000;
    m.native_address = "192.168.0." + std::to_string(n);
    m.datacenter = "datacenter1";
    m.rack = "rack1";
    m.host_id = TestHostId(n);
    m.tokens = std::move(tokens);
    return m;
  };
  cluster.members.push_back(member(1, {-6000000000000000000, 0}));
  cluster.members.push_back(member(2, {-4000000000000000000, 3000000000000000000}));
  cluster.members.push_back(member(3, {-2000000000000000000, 6000000000000000000}));
  cluster.members[0].alive = true;
  cluster.members[0].load_bytes = 72212;
  cluster.members[1].alive = false;
  cluster.members[1].load_bytes = 1024;
  const std::string simple = "org.apache.cassandra.locator.SimpleStrategy";
  cluster.keyspaces["ks3"] = {{"class", simple}, {"replication_factor", "3"}};
  cluster.keyspaces["ks2"] = {{"class", simple}, {"replication_factor", "2"}};
  cluster.keyspaces["system"] = {{"class", "org.apache.cassandra.locator.LocalStrategy"}};
  cluster.keyspaces["system_traces"] = {{"class", simple}, {"replication_factor", "2"}};
  return cluster;
}

}  // namespace sibyl::tools::admin
