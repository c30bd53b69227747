#pragma once
// Where `sibyl cluster` puts a local cluster, as ccm does: etcd and N nodes
// on 127.0.0.1..N, every node on the same ports (drivers assume one native
// port for the whole cluster), each with its data, log and pid file under
// the cluster's directory:
//
//   <dir>/etcd/{data/, etcd.log, pid}
//   <dir>/node1/{data/, sibyl.log, pid}     listens on 127.0.0.1
//   <dir>/node2/...                          listens on 127.0.0.2
//
// Plain data; the command line of each process is computed here so it can be
// tested without starting anything.

#include <cstdint>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace sibyl::tools::cluster {

// Node addresses are 127.0.0.1..9.
inline constexpr int kMaxNodes = 9;

struct ClusterLayout {
  std::filesystem::path directory = "sibyl-cluster";
  int nodes = 3;
  std::string cluster_name = "Test Cluster";
  uint16_t native_port = 9042;
  uint16_t storage_port = 7000;
  uint16_t prometheus_port = 9180;  // every node's metrics endpoint, on its own address
  uint16_t etcd_client_port = 2379;
  uint16_t etcd_peer_port = 2380;
  // cassandra.yaml keys every node is started with (--node-option
  // key=value: `sibyl start --key value`, '_' spelled '-').
  std::vector<std::pair<std::string, std::string>> node_options;

  // Node i counts from 1.
  std::string NodeAddress(int i) const { return "127.0.0." + std::to_string(i); }
  std::filesystem::path NodeDirectory(int i) const {
    return directory / ("node" + std::to_string(i));
  }
  std::filesystem::path EtcdDirectory() const { return directory / "etcd"; }
  std::string EtcdEndpoint() const {
    return "http://127.0.0.1:" + std::to_string(etcd_client_port);
  }

  // `sibyl start ...` for node i, `binary` being the sibyl executable.
  std::vector<std::string> NodeCommand(int i, const std::string& binary) const;
  // `etcd ...`: one member listening on 127.0.0.1 only.
  std::vector<std::string> EtcdCommand(const std::string& etcd_binary) const;
};

}  // namespace sibyl::tools::cluster
