#include "tools/cluster/cluster_layout.h"

#include <algorithm>
#include <utility>

namespace sibyl::tools::cluster {

std::vector<std::string> ClusterLayout::NodeCommand(int i, const std::string& binary) const {
  const std::string address = NodeAddress(i);
  std::vector<std::string> command = {binary,
                                      "start",
                                      "--cluster-name",
                                      cluster_name,
                                      "--listen-address",
                                      address,
                                      "--rpc-address",
                                      address,
                                      "--native-transport-port",
                                      std::to_string(native_port),
                                      "--storage-port",
                                      std::to_string(storage_port),
                                      "--prometheus-port",
                                      std::to_string(prometheus_port),
                                      "--data-dir",
                                      (NodeDirectory(i) / "data").string(),
                                      "--seeds",
                                      NodeAddress(1) + ":" + std::to_string(storage_port),
                                      "--metadata-store",
                                      "etcd",
                                      "--etcd-endpoints",
                                      EtcdEndpoint()};
  for (const auto& [key, value] : node_options) {
    std::string flag = "--" + key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    command.push_back(std::move(flag));
    command.push_back(value);
  }
  return command;
}

std::vector<std::string> ClusterLayout::EtcdCommand(const std::string& etcd_binary) const {
  const std::string client = EtcdEndpoint();
  const std::string peer = "http://127.0.0.1:" + std::to_string(etcd_peer_port);
  return {etcd_binary,
          "--name",
          "sibyl-etcd",
          "--data-dir",
          (EtcdDirectory() / "data").string(),
          "--listen-client-urls",
          client,
          "--advertise-client-urls",
          client,
          "--listen-peer-urls",
          peer,
          "--initial-advertise-peer-urls",
          peer,
          "--initial-cluster",
          "sibyl-etcd=" + peer};
}

}  // namespace sibyl::tools::cluster
