#include "tools/stress/ring_discovery.h"

#include <charconv>

#include "client/blocking_call.h"
#include "tools/stress/stress_workload.h"
#include "types/value_codec.h"

namespace sibyl::tools {
namespace {

using Row = std::vector<OptBytes>;

client::RowsResult Rows(client::Connection& connection, const std::string& cql) {
  client::Reply reply = client::BlockingQuery(connection, cql);
  auto* rows = std::get_if<client::RowsResult>(&reply.response);
  if (rows == nullptr) {
    throw StressError("'" + cql + "' failed: " + client::Describe(reply.response));
  }
  return std::move(*rows);
}

const Bytes& Required(const Row& row, size_t column, const std::string& what) {
  if (!row.at(column)) throw StressError("the node answered a null " + what);
  return *row[column];
}

// An inet column as text; "" for null or the unspecified address.
std::string Address(const client::RowsResult& rows, const Row& row, size_t column) {
  if (!row.at(column)) return "";
  const std::string text = types::Format(*rows.metadata.columns.at(column).type, *row[column]);
  return text == "0.0.0.0" || text == "::" ? "" : text;
}

RingNode ReadNode(const client::RowsResult& rows, const Row& row) {
  // Columns: native address, internode address, host_id, data_center, rack, tokens.
  RingNode node;
  node.native_address = Address(rows, row, 0);
  if (node.native_address.empty()) node.native_address = Address(rows, row, 1);
  node.host_id = types::Uuid::FromBytes(Required(row, 2, "host_id"));
  node.datacenter = Required(row, 3, "data_center");
  node.rack = Required(row, 4, "rack");
  for (BytesView text : types::DecodeListElements(Required(row, 5, "tokens"))) {
    dht::Token token = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), token);
    if (error != std::errc() || end != text.data() + text.size()) {
      throw StressError("the node answered a malformed token '" + std::string(text) + "'");
    }
    node.tokens.push_back(token);
  }
  return node;
}

}  // namespace

std::vector<RingNode> DiscoverRing(client::Connection& connection,
                                   const std::string& contact_address) {
  std::vector<RingNode> nodes;
  const client::RowsResult local =
      Rows(connection,
           "SELECT rpc_address, broadcast_address, host_id, data_center, rack, tokens "
           "FROM system.local");
  if (local.rows.size() != 1) throw StressError("system.local is not one row");
  nodes.push_back(ReadNode(local, local.rows[0]));
  nodes.front().native_address = contact_address;
  const client::RowsResult peers = Rows(
      connection, "SELECT rpc_address, peer, host_id, data_center, rack, tokens FROM system.peers");
  for (const Row& row : peers.rows) nodes.push_back(ReadNode(peers, row));
  return nodes;
}

std::map<std::string, std::string> ReadReplication(client::Connection& connection,
                                                   const std::string& keyspace) {
  const client::RowsResult rows =
      Rows(connection, "SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = '" +
                           keyspace + "'");
  if (rows.rows.empty()) throw StressError("keyspace " + keyspace + " does not exist");
  std::map<std::string, std::string> replication;
  for (const auto& [key, value] :
       types::DecodeMapEntries(Required(rows.rows[0], 0, "replication"))) {
    replication.emplace(std::string(key), std::string(value));
  }
  return replication;
}

}  // namespace sibyl::tools
