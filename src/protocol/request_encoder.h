#pragma once
// Client-side encoders for request envelopes (native_protocol_v5.spec section
// 4.1), the mirror of request.h's DecodeRequest. Each Encode* appends one
// whole envelope (9-byte header + body) to `out`, so a client can queue many
// requests into one buffer and write them with a single system call. Nothing
// here allocates beyond growing `out`.
//
// v5 envelopes go on the wire inside segments (segment_codec.h) once the
// connection is READY; the envelope bytes themselves are the same.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <utility>

#include "common/bytes.h"
#include "protocol/frame.h"
#include "protocol/request.h"

namespace sibyl::protocol {

// The <query_parameters> of QUERY and EXECUTE. Flags are derived from which
// fields are set; views must stay valid until the Encode* call returns.
struct QueryOptions {
  // Default: ONE (what the drivers use by default is LOCAL_ONE; ONE is the same on one node).
  Consistency consistency = Consistency::kOne;
  std::span<const Value> values;  // positional bound values; empty: no VALUES flag
  bool skip_metadata = false;     // EXECUTE only: the client has the result metadata
  int32_t page_size = -1;         // <= 0: no paging requested
  std::optional<BytesView> paging_state;
  std::optional<Consistency> serial_consistency;
  std::optional<int64_t> default_timestamp;  // microseconds since the epoch
  std::optional<std::string_view> keyspace;  // v5 only (flag 0x80)
  std::optional<int32_t> now_in_seconds;     // v5 only (flag 0x100)
};

using StartupOption = std::pair<std::string_view, std::string_view>;

// STARTUP with a [string map], e.g. {{"CQL_VERSION", "3.0.0"}}.
void EncodeStartup(Bytes& out, int version, int16_t stream, std::span<const StartupOption> options);
void EncodeOptions(Bytes& out, int version, int16_t stream);
void EncodeQuery(Bytes& out, int version, int16_t stream, std::string_view query,
                 const QueryOptions& options);
// `keyspace` is sent only in v5 (PREPARE flag 0x01).
void EncodePrepare(Bytes& out, int version, int16_t stream, std::string_view query,
                   std::optional<std::string_view> keyspace = std::nullopt);
// `result_metadata_id` is required in v5 (from the PREPARED result), ignored before.
void EncodeExecute(Bytes& out, int version, int16_t stream, BytesView id,
                   BytesView result_metadata_id, const QueryOptions& options);
// REGISTER for "TOPOLOGY_CHANGE", "STATUS_CHANGE", "SCHEMA_CHANGE".
void EncodeRegister(Bytes& out, int version, int16_t stream,
                    std::span<const std::string_view> event_types);

// Appends a request header with a zero length; returns its offset for
// PatchLength (frame.h). Used by the Encode* functions above.
size_t BeginRequest(Bytes& out, int version, int16_t stream, Opcode opcode, uint8_t flags = 0);

}  // namespace sibyl::protocol
