#pragma once
// One CQL connection of `sibyl admin` to one node: opened, used by a reader
// of its tables, closed. The members reader asks the node given on the
// command line; indexes, views and verify-view ask every member the same way
// (member_queries.h).

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "client/client_connection.h"
#include "common/bytes.h"
#include "tools/admin/admin_error.h"

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

// How long a request may wait for its answer: reads of the system tables
// answer at once; a request doing work on the node (a view check) passes
// its own bound to WithNodeConnection.
inline constexpr std::chrono::milliseconds kAdminRequestTimeout = std::chrono::seconds(10);

// Connects to `node`, calls `read` with the ready connection and closes it.
// Throws AdminError naming the node and the cause when it cannot be reached
// or refuses the connection, and when `read` throws CqlError (an answer that
// cannot be decoded); AdminError from `read` passes as it is. A request
// without an answer after `request_timeout` fails.
void WithNodeConnection(const NodeAddress& node,
                        const std::function<void(client::Connection&)>& read,
                        std::chrono::milliseconds request_timeout = kAdminRequestTimeout);

// The rows `cql` answers, with `values` bound to its markers. Throws
// AdminError saying the query failed on `node`.
std::vector<AdminRow> QueryRows(client::Connection& connection, const NodeAddress& node,
                                const std::string& cql, std::span<const Value> values = {});

// Runs `cql` (an operation asked by INSERT into a system_views table). The
// node's refusal or failure is an AdminError with the node's message as it
// is (nodetool's words); any other answer but success says `cql` failed.
void ExecuteOperation(client::Connection& connection, const NodeAddress& node,
                      const std::string& cql, std::span<const Value> values);

// The error saying `cql` failed on `node` with `response`, for a caller that
// handles some of a statement's failures itself.
[[nodiscard]] AdminError QueryFailed(const std::string& cql, const NodeAddress& node,
                                     const client::Response& response);

// The value of `column`. Throws AdminError ("the node answered a null NAME")
// when it is null or missing.
const Bytes& RequiredColumn(const AdminRow& row, size_t column, const char* name);

// Typed columns. The answer comes from another process: a value of the
// wrong width throws AdminError ("the node answered a malformed NAME")
// rather than reaching the decoders' checks.
[[nodiscard]] int64_t BigintColumn(const AdminRow& row, size_t column, const char* name);
[[nodiscard]] std::optional<int64_t> OptionalBigintColumn(const AdminRow& row, size_t column,
                                                          const char* name);
[[nodiscard]] bool BooleanColumn(const AdminRow& row, size_t column, const char* name);
[[nodiscard]] std::optional<std::string> OptionalTextColumn(const AdminRow& row, size_t column);

}  // namespace sibyl::tools::admin
