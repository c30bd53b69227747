#include "tools/admin/cluster_members_reader.h"

#include <arpa/inet.h>

#include <algorithm>
#include <charconv>

#include "tools/admin/admin_error.h"
#include "types/value_codec.h"

namespace sibyl::tools::admin {
namespace {

constexpr const char* kMembersQuery =
    "SELECT address, port, dc, rack, host_id, tokens, liveness, load, native_address_and_port, "
    "status FROM system_views.gossip_info";
constexpr const char* kSchemaVersionQuery = "SELECT schema_version FROM system.local";
constexpr const char* kKeyspacesQuery =
    "SELECT keyspace_name, replication FROM system_schema.keyspaces";

using Row = AdminRow;

const Bytes& Required(const Row& row, size_t column, const char* name) {
  return RequiredColumn(row, column, name);
}

std::string Text(const Row& row, size_t column, const char* name) {
  return Required(row, column, name);
}

std::string Inet(const Row& row, size_t column, const char* name) {
  const Bytes& bytes = Required(row, column, name);
  char text[INET6_ADDRSTRLEN] = {};
  const int family = bytes.size() == 4 ? AF_INET : bytes.size() == 16 ? AF_INET6 : -1;
  if (family < 0 || inet_ntop(family, bytes.data(), text, sizeof text) == nullptr) {
    throw AdminError(std::string("the node answered a malformed ") + name);
  }
  return text;
}

int64_t Number(std::string_view text, const char* name) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw AdminError(std::string("the node answered a malformed ") + name + ": '" +
                     std::string(text) + "'");
  }
  return value;
}

MemberState ReadMember(const Row& row) {
  MemberState member;
  member.address = Inet(row, 0, "address");
  member.storage_port = types::DecodeInt(Required(row, 1, "port"));
  member.datacenter = Text(row, 2, "dc");
  member.rack = Text(row, 3, "rack");
  const auto host_id = types::Uuid::Parse(Text(row, 4, "host_id"));
  if (!host_id) throw AdminError("the node answered a malformed host_id");
  member.host_id = *host_id;
  for (BytesView token : types::DecodeListElements(Required(row, 5, "tokens"))) {
    member.tokens.push_back(Number(token, "token"));
  }
  std::sort(member.tokens.begin(), member.tokens.end());
  if (row[6]) member.alive = *row[6] == "UP";
  if (row[7]) member.load_bytes = Number(*row[7], "load");
  if (row.size() > 9 && row[9]) member.status = *row[9];
  if (row[8]) {
    const std::string& native = *row[8];
    const size_t colon = native.rfind(':');
    member.native_address = native.substr(0, colon);
    if (colon != std::string::npos) {
      const int64_t port = Number(std::string_view(native).substr(colon + 1), "native port");
      if (port > 0 && port <= 65535) member.native_port = static_cast<uint16_t>(port);
    }
  }
  return member;
}

ClusterMembers Read(client::Connection& connection, const NodeAddress& node) {
  ClusterMembers cluster;
  for (const Row& row : QueryRows(connection, node, kMembersQuery)) {
    cluster.members.push_back(ReadMember(row));
  }
  const std::vector<Row> local = QueryRows(connection, node, kSchemaVersionQuery);
  if (local.size() != 1) throw AdminError("system.local of " + Where(node) + " is not one row");
  cluster.schema_version = types::Uuid::FromBytes(Required(local[0], 0, "schema_version"));
  for (const Row& row : QueryRows(connection, node, kKeyspacesQuery)) {
    std::map<std::string, std::string>& replication = cluster.keyspaces[Text(row, 0, "keyspace")];
    for (const auto& [key, value] : types::DecodeMapEntries(Required(row, 1, "replication"))) {
      replication.emplace(std::string(key), std::string(value));
    }
  }
  return cluster;
}

}  // namespace

ClusterMembers ReadClusterMembers(const NodeAddress& node) {
  ClusterMembers cluster;
  WithNodeConnection(node,
                     [&](client::Connection& connection) { cluster = Read(connection, node); });
  return cluster;
}

}  // namespace sibyl::tools::admin
