#include "tools/cluster/cluster_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tools/cluster/cluster_command.h"

namespace sibyl::tools::cluster {
namespace {

// The value following `flag` in `command`.
std::string ValueOf(const std::vector<std::string>& command, const std::string& flag) {
  const auto it = std::find(command.begin(), command.end(), flag);
  return it != command.end() && it + 1 != command.end() ? *(it + 1) : "<missing>";
}

TEST(ClusterLayoutTest, EveryNodeHasItsOwnAddressAndTheSamePorts) {
  ClusterLayout layout;
  layout.directory = "/tmp/c";
  layout.native_port = 9100;
  layout.etcd_client_port = 2500;
  const auto node2 = layout.NodeCommand(2, "/bin/sibyl");
  EXPECT_EQ(node2.at(0), "/bin/sibyl");
  EXPECT_EQ(node2.at(1), "start");
  EXPECT_EQ(ValueOf(node2, "--listen-address"), "127.0.0.2");
  EXPECT_EQ(ValueOf(node2, "--rpc-address"), "127.0.0.2");
  EXPECT_EQ(ValueOf(node2, "--native-transport-port"), "9100");
  EXPECT_EQ(ValueOf(node2, "--data-dir"), "/tmp/c/node2/data");
  EXPECT_EQ(ValueOf(node2, "--metadata-store"), "etcd");
  EXPECT_EQ(ValueOf(node2, "--etcd-endpoints"), "http://127.0.0.1:2500");
  EXPECT_EQ(ValueOf(node2, "--seeds"), "127.0.0.1:7000");
  EXPECT_EQ(ValueOf(node2, "--prometheus-port"), "9180");
  const auto etcd = layout.EtcdCommand("etcd");
  EXPECT_EQ(ValueOf(etcd, "--listen-client-urls"), "http://127.0.0.1:2500");
  EXPECT_EQ(ValueOf(etcd, "--data-dir"), "/tmp/c/etcd/data");
}

TEST(ClusterLayoutTest, OptionsAsTheUsageSays) {
  const ClusterLayout layout =
      ParseClusterOptions({"--nodes", "5", "--dir", "/tmp/x", "--native-port", "9200",
                           "--etcd-port", "3000", "--prometheus-port", "9300"});
  EXPECT_EQ(layout.nodes, 5);
  EXPECT_EQ(layout.directory, "/tmp/x");
  EXPECT_EQ(layout.native_port, 9200);
  EXPECT_EQ(layout.etcd_client_port, 3000);
  EXPECT_EQ(layout.etcd_peer_port, 3001);
  EXPECT_EQ(layout.prometheus_port, 9300);
  EXPECT_EQ(ParseClusterOptions({}).nodes, 3);
  EXPECT_TRUE(ParseClusterOptions({}).directory.is_absolute());
  EXPECT_THROW(ParseClusterOptions({"--nodes", "0"}), std::invalid_argument);
  EXPECT_THROW(ParseClusterOptions({"--nodes", "10"}), std::invalid_argument);
  EXPECT_THROW(ParseClusterOptions({"--nodes"}), std::invalid_argument);
  EXPECT_THROW(ParseClusterOptions({"--colour", "red"}), std::invalid_argument);
}

TEST(ClusterLayoutTest, NodeOptionsBecomeEveryNodesFlags) {
  const ClusterLayout layout = ParseClusterOptions(
      {"--node-option", "paxos_variant=v1", "--node-option", "cas_contention_timeout=2000ms"});
  for (int i : {1, 3}) {
    const auto node = layout.NodeCommand(i, "/bin/sibyl");
    EXPECT_EQ(ValueOf(node, "--paxos-variant"), "v1");
    EXPECT_EQ(ValueOf(node, "--cas-contention-timeout"), "2000ms");
  }
  EXPECT_THROW(ParseClusterOptions({"--node-option", "paxos_variant"}), std::invalid_argument);
  EXPECT_THROW(ParseClusterOptions({"--node-option", "=v1"}), std::invalid_argument);
}

}  // namespace
}  // namespace sibyl::tools::cluster
