#pragma once
// One CQL connection of `sibyl admin` to one node: opened, used by a reader
// of its tables, closed. The members reader asks the node given on the
// command line; the indexes view asks every member the same way.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "client/client_connection.h"
#include "common/bytes.h"

namespace sibyl::tools::admin {

struct NodeAddress {
  // Default: 127.0.0.1 (nodetool's default host).
  std::string host = "127.0.0.1";
  // The node's CQL port. Default: 9042.
  uint16_t port = 9042;
};

// "host:port", as the errors name a node.
std::string Where(const NodeAddress& node);

using AdminRow = std::vector<OptBytes>;

// Connects to `node`, calls `read` with the ready connection and closes it.
// Throws AdminError naming the node and the cause when it cannot be reached
// or refuses the connection, and when `read` throws CqlError (an answer that
// cannot be decoded); AdminError from `read` passes as it is.
void WithNodeConnection(const NodeAddress& node,
                        const std::function<void(client::Connection&)>& read);

// The rows `cql` answers. Throws AdminError saying the query failed on `node`.
std::vector<AdminRow> QueryRows(client::Connection& connection, const NodeAddress& node,
                                const std::string& cql);

// The value of `column`. Throws AdminError ("the node answered a null NAME")
// when it is null or missing.
const Bytes& RequiredColumn(const AdminRow& row, size_t column, const char* name);

}  // namespace sibyl::tools::admin
