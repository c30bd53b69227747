#pragma once
// The per-connection state statements see: the keyspace chosen with USE and
// the protocol version the connection speaks. Owned by the connection and
// used from its thread only.

#include <optional>
#include <string>
#include <vector>

namespace sibyl::query {

struct ClientState {
  std::optional<std::string> keyspace;  // set by USE; unqualified table names resolve in it
  int protocol_version = 4;
  // Warnings for the client raised while the current request runs
  // (Cassandra's ClientWarn). The server sends them with the response
  // (protocol v4 and later) and clears them before the next request.
  std::vector<std::string> warnings;
};

}  // namespace sibyl::query
