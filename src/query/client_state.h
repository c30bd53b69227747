#pragma once
// The per-connection state statements see: the keyspace chosen with USE and
// the protocol version the connection speaks. Owned by the connection and
// used from its thread only.

#include <optional>
#include <string>

namespace sibyl::query {

struct ClientState {
  std::optional<std::string> keyspace;  // set by USE; unqualified table names resolve in it
  int protocol_version = 4;
};

}  // namespace sibyl::query
