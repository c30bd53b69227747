#pragma once
// Request messages decoded from envelope bodies (native_protocol_v5.spec
// section 4.1). Decoded messages hold views into the body they were decoded
// from: the body must outlive the message.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "common/bytes.h"
#include "protocol/frame.h"

namespace sibyl::protocol {

// Consistency levels: wire values — do not change.
enum class Consistency : uint16_t {
  kAny = 0x0000,
  kOne = 0x0001,
  kTwo = 0x0002,
  kThree = 0x0003,
  kQuorum = 0x0004,
  kAll = 0x0005,
  kLocalQuorum = 0x0006,
  kEachQuorum = 0x0007,
  kSerial = 0x0008,
  kLocalSerial = 0x0009,
  kLocalOne = 0x000A,
  kNodeLocal = 0x000B,  // Cassandra's internal level; accepted on the wire as 4.1 accepts it
};
const char* ConsistencyName(uint16_t consistency);  // "ONE", "LOCAL_QUORUM", ...; "UNKNOWN"

// QUERY / EXECUTE flags. In v3/v4 the flags are a byte, in v5 an int.
constexpr uint32_t kQueryFlagValues = 0x01;
constexpr uint32_t kQueryFlagSkipMetadata = 0x02;
constexpr uint32_t kQueryFlagPageSize = 0x04;
constexpr uint32_t kQueryFlagPagingState = 0x08;
constexpr uint32_t kQueryFlagSerialConsistency = 0x10;
constexpr uint32_t kQueryFlagDefaultTimestamp = 0x20;
constexpr uint32_t kQueryFlagNamesForValues = 0x40;
constexpr uint32_t kQueryFlagKeyspace = 0x80;       // v5
constexpr uint32_t kQueryFlagNowInSeconds = 0x100;  // v5

struct QueryParameters {
  // Always decoded from the wire; ONE (cqlsh's default) for parameters made in-process.
  uint16_t consistency = static_cast<uint16_t>(Consistency::kOne);
  uint32_t flags = 0;
  std::vector<Value> values;
  std::vector<std::string_view> names;  // parallel to values when kQueryFlagNamesForValues
  int32_t page_size = -1;               // <= 0: no paging
  std::optional<BytesView> paging_state;
  std::optional<uint16_t> serial_consistency;
  std::optional<int64_t> default_timestamp;
  std::optional<std::string_view> keyspace;
  std::optional<int32_t> now_in_seconds;

  bool skip_metadata() const { return flags & kQueryFlagSkipMetadata; }
};

struct StartupMessage {
  std::vector<std::pair<std::string_view, std::string_view>> options;
};
struct OptionsMessage {};
struct QueryMessage {
  std::string_view query;
  QueryParameters params;
};
struct PrepareMessage {
  std::string_view query;
  std::optional<std::string_view> keyspace;  // v5
};
struct ExecuteMessage {
  BytesView id;
  std::optional<BytesView> result_metadata_id;  // v5
  QueryParameters params;
};
enum class BatchType : uint8_t { kLogged = 0, kUnlogged = 1, kCounter = 2 };
struct BatchChild {
  bool is_prepared = false;
  std::string_view query;  // when !is_prepared
  BytesView id;            // when is_prepared
  std::vector<Value> values;
  std::vector<std::string_view> names;  // v3/v4 allow names per child when the flag is set
};
struct BatchMessage {
  BatchType type = BatchType::kLogged;
  std::vector<BatchChild> children;
  uint16_t consistency = static_cast<uint16_t>(Consistency::kOne);  // as QueryParameters'
  uint32_t flags = 0;
  std::optional<uint16_t> serial_consistency;
  std::optional<int64_t> default_timestamp;
  std::optional<std::string_view> keyspace;
  std::optional<int32_t> now_in_seconds;
};
struct RegisterMessage {
  std::vector<std::string_view> event_types;
};
struct AuthResponseMessage {
  std::optional<BytesView> token;
};

using Request = std::variant<StartupMessage, OptionsMessage, QueryMessage, PrepareMessage,
                             ExecuteMessage, BatchMessage, RegisterMessage, AuthResponseMessage>;

// Decodes the body of a request with the given opcode and header flags.
// Throws CqlError(kProtocolError) with a message naming the problem
// (Cassandra's where it has one) when the opcode is not a request (0x04
// CREDENTIALS gets Cassandra 4.1's "Unsupported message"), the body is
// truncated, a length is negative or runs past the end, a [string] is not
// UTF-8, a consistency, BATCH type or event type is unknown. Bytes left over
// after the message are ignored, as Cassandra ignores them. Never allocates
// in proportion to a declared length or count that the body does not
// actually contain.
//
// Header flags, as Cassandra 4.1's Message.Decoder reads them: with
// kFlagCustomPayload the body starts with a [bytes map] (read and dropped:
// Cassandra's query handler ignores it too), refused below v4 with
// "Received frame with CUSTOM_PAYLOAD flag for native protocol version < 4"
// once read; tracing and warning flags add nothing to a request's body.
//
// Notes from Cassandra's codecs: values before v4 treat every negative length
// as null; BATCH children never carry names (BatchChild::names stays empty)
// and the BATCH trailer is read like QUERY parameters; keyspace (0x80) is read
// whenever its flag is set, in v4 too; STARTUP keys arrive as sent (Cassandra
// upper-cases them before use).
Request DecodeRequest(uint8_t opcode, uint8_t flags, BytesView body, int version);

}  // namespace sibyl::protocol
