#include "schema/gossip_info_table.h"

#include <algorithm>
#include <string>

#include "schema/virtual_keyspaces.h"
#include "types/value_codec.h"

namespace sibyl::schema {
namespace {

// What one row shows, gathered from LocalNodeInfo or a PeerInfo.
struct Member {
  std::string address;
  int32_t port = 0;
  std::string native_address;
  int32_t native_port = 0;
  std::optional<int64_t> generation;
  std::optional<int64_t> heartbeat;
  std::optional<bool> alive;
  std::string status;
  std::optional<int64_t> load_bytes;
  std::optional<guardrails::DiskUsageState> disk_usage;
  types::Uuid schema_version;
  std::string dc;
  std::string rack;
  std::string release_version;
  types::Uuid host_id;
  std::vector<std::string> tokens;
};

void SetOptionalInt(RowWriter& row, std::string_view column, std::optional<int64_t> value) {
  if (value) {
    row.Set(column, types::EncodeInt(static_cast<int32_t>(*value)));
  } else {
    row.SetNull(column);
  }
}

Bytes EncodeTokens(std::vector<std::string> tokens) {
  // A set<text> is serialized sorted (UTF-8 byte order) and without duplicates.
  std::sort(tokens.begin(), tokens.end());
  tokens.erase(std::unique(tokens.begin(), tokens.end()), tokens.end());
  return types::EncodeList(tokens);
}

Row MakeRow(const TableMetadata& table, const Member& member) {
  RowWriter row(table);
  row.Set("status", types::EncodeText(member.status));
  row.Set("address", types::EncodeInet(member.address))
      .Set("port", types::EncodeInt(member.port))
      .Set("hostname", types::EncodeText(member.address))
      .Set("schema", types::EncodeText(member.schema_version.ToString()))
      .Set("dc", types::EncodeText(member.dc))
      .Set("rack", types::EncodeText(member.rack))
      .Set("release_version", types::EncodeText(member.release_version))
      .Set("host_id", types::EncodeText(member.host_id.ToString()))
      .Set("internal_address_and_port",
           types::EncodeText(member.address + ":" + std::to_string(member.port)))
      .Set("tokens", EncodeTokens(member.tokens));
  if (member.native_address.empty()) {
    row.SetNull("native_address_and_port");
  } else {
    row.Set("native_address_and_port",
            types::EncodeText(member.native_address + ":" + std::to_string(member.native_port)));
  }
  SetOptionalInt(row, "generation", member.generation);
  SetOptionalInt(row, "heartbeat", member.heartbeat);
  if (member.alive) {
    row.Set("liveness", types::EncodeText(*member.alive ? "UP" : "DOWN"));
  } else {
    row.SetNull("liveness");
  }
  if (member.load_bytes) {
    row.Set("load", types::EncodeText(std::to_string(*member.load_bytes)));
  } else {
    row.SetNull("load");
  }
  if (member.disk_usage) {
    row.Set("disk_usage", types::EncodeText(guardrails::DiskUsageStateName(*member.disk_usage)));
  } else {
    row.SetNull("disk_usage");
  }
  return row.Take();
}

class GossipInfoTable final : public VirtualTable {
 public:
  GossipInfoTable() : VirtualTable(std::string(kViewsKeyspace), "gossip_info") {}

 protected:
  void Produce(const TableMetadata& table, const VirtualTableContext& context,
               std::vector<Row>& rows) const override {
    const LocalNodeInfo& node = context.node;
    Member self{.address = node.broadcast_address,
                .port = node.listen_port,
                .native_address = node.rpc_address,
                .native_port = node.rpc_port,
                .generation = node.gossip_generation,
                .heartbeat = std::nullopt,  // the node does not count its own heartbeats
                .alive = true,
                .status = node.ring_state && node.ring_state() == "LEAVING" ? "LEAVING" : "NORMAL",
                .load_bytes = node.load_bytes ? node.load_bytes() : std::nullopt,
                .disk_usage = node.disk_usage ? std::optional(node.disk_usage()) : std::nullopt,
                .schema_version = context.schema.version(),
                .dc = node.data_center,
                .rack = node.rack,
                .release_version = kReleaseVersion,
                .host_id = node.host_id,
                .tokens = node.tokens};
    rows.push_back(MakeRow(table, self));
    for (const PeerInfo& peer : node.Peers()) {
      Member member{
          .address = peer.address,
          .port = peer.port,
          .native_address = peer.native_address,
          .native_port = peer.native_port,
          .generation = peer.generation,
          .heartbeat = peer.heartbeat_counter,
          .alive = peer.alive,
          .status = peer.status,
          .load_bytes = peer.load_bytes,
          .disk_usage = peer.disk_usage,
          .schema_version = peer.schema_version.value_or(context.schema.version()),
          .dc = peer.data_center,
          .rack = peer.rack,
          .release_version = peer.release_version.empty() ? kReleaseVersion : peer.release_version,
          .host_id = peer.host_id,
          .tokens = peer.tokens};
      rows.push_back(MakeRow(table, member));
    }
  }
};

}  // namespace

std::unique_ptr<VirtualTable> MakeGossipInfoTable() { return std::make_unique<GossipInfoTable>(); }

}  // namespace sibyl::schema
