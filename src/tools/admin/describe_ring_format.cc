#include "tools/admin/describe_ring_format.h"

#include "locator/replication_strategy.h"
#include "tools/admin/admin_error.h"

namespace sibyl::tools::admin {
namespace {

// java.util.List's toString: "[a, b, c]".
std::string JavaList(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ", ";
    out += items[i];
  }
  return out + "]";
}

}  // namespace

std::string FormatDescribeRing(const ClusterMembers& cluster, const std::string& keyspace) {
  const auto it = cluster.keyspaces.find(keyspace);
  if (it == cluster.keyspaces.end()) {
    throw AdminError("The keyspace " + keyspace + ", does not exist");
  }
  const auto strategy = locator::ReplicationStrategy::FromMap(it->second);
  if (strategy.kind() == locator::ReplicationStrategy::Kind::kLocal) {
    throw AdminError("There is no ring for the keyspace: " + keyspace);
  }
  const locator::TokenRing ring = cluster.Ring();
  const locator::Topology topology = cluster.Placement();
  const locator::NodeId any_member = ring.empty() ? locator::NodeId{} : ring.nodes().front();
  const auto replicas = strategy.NaturalReplicasOfEveryRange(ring, topology, any_member);

  std::string out = "Schema Version:" + cluster.schema_version.ToString() + "\nTokenRange: \n";
  for (size_t i = 0; i < ring.size(); ++i) {
    const dht::TokenRange range = ring.RangeAt(i);
    std::vector<std::string> hosts, natives, details;
    for (const locator::NodeId& id : replicas[i]) {
      const MemberState& member = cluster.Member(id);
      hosts.push_back(member.address);
      natives.push_back(member.native_address);
      details.push_back("EndpointDetails(host:" + member.address +
                        ", datacenter:" + member.datacenter + ", rack:" + member.rack + ")");
    }
    out += "\tTokenRange(start_token:" + std::to_string(range.left()) +
           ", end_token:" + std::to_string(range.right()) + ", endpoints:" + JavaList(hosts) +
           ", rpc_endpoints:" + JavaList(natives) + ", endpoint_details:" + JavaList(details) +
           ")\n";
  }
  return out;
}

}  // namespace sibyl::tools::admin
