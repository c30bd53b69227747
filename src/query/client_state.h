#pragma once
// The per-connection state statements see: the keyspace chosen with USE and
// the protocol version the connection speaks. Owned by the connection and
// used from its thread only.

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sibyl::schema {
struct TableMetadata;
}  // namespace sibyl::schema

namespace sibyl::query {

struct ClientState {
  std::optional<std::string> keyspace;  // set by USE; unqualified table names resolve in it
  int protocol_version = 4;
  // Warnings for the client raised while the current request runs
  // (Cassandra's ClientWarn). The server sends them with the response
  // (protocol v4 and later) and clears them before the next request.
  std::vector<std::string> warnings;
  // What the current request runs against, for the server's per-table
  // request metrics: the one table of a SELECT, INSERT, UPDATE or DELETE,
  // or of a BATCH whose statements all write one table (null for anything
  // else), and whether it writes. Set by the processor once the statement is
  // prepared, so a request that fails earlier has none; the server clears it
  // after each request.
  std::shared_ptr<const schema::TableMetadata> statement_table;
  bool statement_writes = false;
};

}  // namespace sibyl::query
