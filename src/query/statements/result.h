#pragma once
// What executing a statement produces, for the server to encode as a RESULT
// message (native_protocol_v5.spec section 4.2.5).

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "protocol/response.h"
#include "schema/row_order.h"

namespace sibyl::query {

struct VoidResult {};

struct RowsResult {
  // Shared with the prepared statement, so executing copies no metadata.
  std::shared_ptr<const std::vector<protocol::ColumnSpec>> columns;
  // One value (or null) per column, in `columns` order.
  std::vector<schema::Row> rows;
  // Set when more rows follow: the client sends it back to get the next page.
  std::optional<Bytes> paging_state;
  // Protocol v5: set when the client's result_metadata_id (EXECUTE) is not the
  // statement's current one. The server must then send the metadata (even if
  // the client asked to skip it) with the METADATA_CHANGED flag and this id.
  std::optional<Bytes> new_metadata_id;
  // A lightweight transaction's [applied] rows: their columns depend on the
  // outcome, so the metadata is always sent and never flagged as changed
  // (Cassandra's ExecuteMessage, CASSANDRA-13992).
  bool always_send_metadata = false;
};

struct SetKeyspaceResult {
  std::string keyspace;
};

struct SchemaChangeResult {
  protocol::SchemaChange change;
};

using Result = std::variant<VoidResult, RowsResult, SetKeyspaceResult, SchemaChangeResult>;

}  // namespace sibyl::query
