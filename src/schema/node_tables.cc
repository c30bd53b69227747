#include "schema/node_tables.h"

#include <algorithm>

#include "schema/system_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

// set<text> is serialized with its elements sorted (UTF-8 byte order) and distinct.
Bytes EncodeTextSet(std::vector<std::string> elements) {
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  return types::EncodeList(elements);
}

// An address column: null when the address is not known.
void SetAddress(RowWriter& row, std::string_view column, const std::string& address) {
  if (address.empty()) {
    row.SetNull(column);
  } else {
    row.Set(column, types::EncodeInet(address));
  }
}

class LocalTable final : public VirtualTable {
 public:
  LocalTable() : VirtualTable(std::string(kSystemKeyspace), "local") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    const LocalNodeInfo& node = context.node;
    RowWriter row(table);
    row.Set("key", types::EncodeText("local"))
        .Set("bootstrapped", types::EncodeText(kBootstrapCompleted))
        .Set("broadcast_port", types::EncodeInt(node.listen_port))
        .Set("cluster_name", types::EncodeText(node.cluster_name))
        .Set("cql_version", types::EncodeText(kCqlVersion))
        .Set("data_center", types::EncodeText(node.data_center))
        .Set("gossip_generation", types::EncodeInt(node.gossip_generation))
        .Set("host_id", types::EncodeUuid(node.host_id))
        .Set("listen_port", types::EncodeInt(node.listen_port))
        .Set("native_protocol_version", types::EncodeText(kNativeProtocolVersion))
        .Set("partitioner", types::EncodeText(kPartitionerName))
        .Set("rack", types::EncodeText(node.rack))
        .Set("release_version", types::EncodeText(kReleaseVersion))
        .Set("rpc_port", types::EncodeInt(node.rpc_port))
        .Set("schema_version", types::EncodeUuid(context.schema.version()))
        .Set("tokens", EncodeTextSet(node.tokens))
        .SetNull("truncated_at");
    SetAddress(row, "broadcast_address", node.broadcast_address);
    SetAddress(row, "listen_address", node.listen_address);
    SetAddress(row, "rpc_address", node.rpc_address);
    rows.push_back(row.Take());
  }
};

// A joining node has no peers row until it is NORMAL, as in Cassandra
// (handleStateNormal writes it): drivers would route to it too early.
bool IsRingMember(const PeerInfo& peer) { return peer.status != "BOOT"; }

// Fills the columns system.peers and system.peers_v2 share. Every node of the
// cluster follows one metadata log, so a peer not heard from yet shows the
// local schema version.
void SetCommonPeerColumns(RowWriter& row, const PeerInfo& peer,
                          const VirtualTableContext& context) {
  SetAddress(row, "peer", peer.address);
  row.Set("data_center", types::EncodeText(peer.data_center))
      .Set("host_id", types::EncodeUuid(peer.host_id))
      .SetNull("preferred_ip")
      .Set("rack", types::EncodeText(peer.rack))
      .Set("release_version",
           types::EncodeText(peer.release_version.empty() ? std::string(kReleaseVersion)
                                                          : peer.release_version))
      .Set("schema_version",
           types::EncodeUuid(peer.schema_version.value_or(context.schema.version())))
      .Set("tokens", EncodeTextSet(peer.tokens));
}

class PeersTable final : public VirtualTable {
 public:
  PeersTable() : VirtualTable(std::string(kSystemKeyspace), "peers") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const PeerInfo& peer : context.node.Peers()) {
      if (!IsRingMember(peer)) continue;
      RowWriter row(table);
      SetCommonPeerColumns(row, peer, context);
      SetAddress(row, "rpc_address", peer.native_address);
      rows.push_back(row.Take());
    }
  }
};

class PeersV2Table final : public VirtualTable {
 public:
  PeersV2Table() : VirtualTable(std::string(kSystemKeyspace), "peers_v2") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    for (const PeerInfo& peer : context.node.Peers()) {
      if (!IsRingMember(peer)) continue;
      RowWriter row(table);
      SetCommonPeerColumns(row, peer, context);
      row.Set("peer_port", types::EncodeInt(peer.port))
          .Set("native_port", types::EncodeInt(peer.native_port))
          .SetNull("preferred_port");
      SetAddress(row, "native_address", peer.native_address);
      rows.push_back(row.Take());
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeLocalTable() { return std::make_unique<LocalTable>(); }
std::unique_ptr<VirtualTable> MakePeersTable() { return std::make_unique<PeersTable>(); }
std::unique_ptr<VirtualTable> MakePeersV2Table() { return std::make_unique<PeersV2Table>(); }

}  // namespace sibyl::schema
