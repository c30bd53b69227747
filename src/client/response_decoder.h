#pragma once
// Responses as the client sees them (native_protocol_v5.spec section 4.2),
// decoded from envelope bodies into owned values so they outlive the read
// buffer. A VOID result (what every INSERT gets) decodes without allocating.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "common/error.h"
#include "protocol/frame.h"
#include "protocol/response.h"

namespace sibyl::client {

// <metadata> of ROWS and the result part of PREPARED.
struct ResultMetadata {
  int32_t flags = 0;
  int32_t column_count = 0;
  std::vector<protocol::ColumnSpec> columns;  // empty when NO_METADATA was set
  std::optional<Bytes> paging_state;          // set when HAS_MORE_PAGES
  std::optional<Bytes> new_metadata_id;       // v5 METADATA_CHANGED
};

// The request never got an answer: the connection failed or closed, the
// request timed out, or the client could not send it. Not a server ERROR.
struct TransportFailure {
  std::string message;
  // Set when the request got no answer within the request timeout (the
  // connection is still usable); load generators count these apart.
  bool timed_out = false;
};
// An ERROR response with its code's extra fields (spec section 8), e.g. the
// statement id of UNPREPARED (needed to prepare again) or what an
// Unavailable counted; `detail` is std::monostate for codes without any.
struct ErrorResponse {
  ErrorCode code = ErrorCode::kServerError;
  std::string message;
  Bytes unprepared_id;
  ErrorDetail detail;
};
struct ReadyResponse {};
struct AuthenticateResponse {
  std::string authenticator;
};
struct SupportedResponse {
  std::map<std::string, std::vector<std::string>> options;
};
struct VoidResult {};
struct RowsResult {
  ResultMetadata metadata;
  std::vector<std::vector<OptBytes>> rows;
};
struct SetKeyspaceResult {
  std::string keyspace;
};
struct PreparedResponse {
  Bytes id;
  Bytes result_metadata_id;  // v5
  std::vector<protocol::ColumnSpec> bind_variables;
  std::vector<uint16_t> partition_key_indexes;  // v4+
  ResultMetadata result_metadata;
};
// A SCHEMA_CHANGE as a RESULT or inside an EVENT, as spelled on the wire
// ("CREATED", "TABLE", ...).
struct SchemaChangeResult {
  std::string change_type;
  std::string target;
  std::string keyspace;
  std::string name;  // empty for a KEYSPACE target
  std::vector<std::string> argument_types;
};
struct EventResponse {
  std::string event_type;            // "SCHEMA_CHANGE", "TOPOLOGY_CHANGE", "STATUS_CHANGE"
  SchemaChangeResult schema_change;  // SCHEMA_CHANGE
  std::string change;                // TOPOLOGY_CHANGE / STATUS_CHANGE: "NEW_NODE", "UP", ...
  Bytes address;                     // 4 or 16 bytes
  int32_t port = 0;
};

using Response = std::variant<TransportFailure, ErrorResponse, ReadyResponse, AuthenticateResponse,
                              SupportedResponse, VoidResult, RowsResult, SetKeyspaceResult,
                              PreparedResponse, SchemaChangeResult, EventResponse>;

// What a request's completion receives: the response and any warnings the
// server attached (envelope flag 0x08).
struct Reply {
  Response response;
  std::vector<std::string> warnings;

  bool ok() const {
    return !std::holds_alternative<TransportFailure>(response) &&
           !std::holds_alternative<ErrorResponse>(response);
  }
};

// Decodes a response envelope body: skips the tracing id and custom payload,
// collects warnings, then decodes the message for `header.opcode`. Throws
// CqlError(kProtocolError) on a truncated or malformed body, an opcode that
// is not a response, or a compressed body (this client never negotiates
// compression).
[[nodiscard]] Reply DecodeResponse(const protocol::FrameHeader& header, BytesView body);

// One line for logs and error messages: "VOID", "ROWS (3 rows)",
// "ERROR 0x2200: Unknown keyspace ks", "TRANSPORT: connection closed".
std::string Describe(const Response& response);

}  // namespace sibyl::client
