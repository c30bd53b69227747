// Request bodies, decoded as Cassandra 4.1's message codecs do: trailing bytes
// are ignored (Cassandra never checks for them), every length is checked
// against the bytes actually present.

#include "protocol/request.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "common/error.h"
#include "protocol/wire_reader.h"

namespace sibyl::protocol {

const char* ConsistencyName(uint16_t consistency) {
  switch (static_cast<Consistency>(consistency)) {
    case Consistency::kAny:
      return "ANY";
    case Consistency::kOne:
      return "ONE";
    case Consistency::kTwo:
      return "TWO";
    case Consistency::kThree:
      return "THREE";
    case Consistency::kQuorum:
      return "QUORUM";
    case Consistency::kAll:
      return "ALL";
    case Consistency::kLocalQuorum:
      return "LOCAL_QUORUM";
    case Consistency::kEachQuorum:
      return "EACH_QUORUM";
    case Consistency::kSerial:
      return "SERIAL";
    case Consistency::kLocalSerial:
      return "LOCAL_SERIAL";
    case Consistency::kLocalOne:
      return "LOCAL_ONE";
    case Consistency::kNodeLocal:
      return "NODE_LOCAL";
  }
  return "UNKNOWN";
}

namespace {

// A list of n items, each at least `min_item_size` bytes: reserve no more than
// the body could hold, whatever n claims.
size_t PlausibleCount(size_t n, const WireReader& reader, size_t min_item_size) {
  return std::min(n, reader.remaining() / min_item_size);
}

void ReadValues(WireReader& reader, int version, bool with_names, std::vector<Value>& values,
                std::vector<std::string_view>& names) {
  const uint16_t n = reader.ReadShort("the number of values");
  values.reserve(PlausibleCount(n, reader, 4));
  if (with_names) names.reserve(PlausibleCount(n, reader, 6));
  for (uint16_t i = 0; i < n; ++i) {
    if (with_names) names.push_back(reader.ReadString());
    values.push_back(reader.ReadValue(version));
  }
}

// <consistency><flags>[values][page size][paging state][serial consistency]
// [timestamp][keyspace][now_in_seconds] (QueryOptions.Codec).
QueryParameters ReadQueryParameters(WireReader& reader, int version) {
  QueryParameters p;
  p.consistency = reader.ReadConsistency();
  p.flags = version >= 5 ? static_cast<uint32_t>(reader.ReadInt("the query flags"))
                         : reader.ReadByte("the query flags");
  if (p.flags & kQueryFlagValues) {
    ReadValues(reader, version, p.flags & kQueryFlagNamesForValues, p.values, p.names);
  }
  if (p.flags & kQueryFlagPageSize) p.page_size = reader.ReadInt("the page size");
  if (p.flags & kQueryFlagPagingState) {
    p.paging_state = reader.ReadBytes("the paging state");
  }
  if (p.flags & kQueryFlagSerialConsistency) p.serial_consistency = reader.ReadConsistency();
  if (p.flags & kQueryFlagDefaultTimestamp) {
    const int64_t ts = reader.ReadLong("the default timestamp");
    if (ts == INT64_MIN) {
      ThrowProtocol("Out of bound timestamp, must be in [" + std::to_string(INT64_MIN + 1) + ", " +
                    std::to_string(INT64_MAX) + "] (got " + std::to_string(ts) + ")");
    }
    p.default_timestamp = ts;
  }
  // Cassandra reads these whenever the flag is set; a v4 flags byte can carry
  // 0x80 but not 0x100.
  if (p.flags & kQueryFlagKeyspace) p.keyspace = reader.ReadString();
  if (p.flags & kQueryFlagNowInSeconds) p.now_in_seconds = reader.ReadInt("now_in_seconds");
  return p;
}

StartupMessage DecodeStartup(WireReader& reader) {
  StartupMessage m;
  const uint16_t n = reader.ReadShort("the number of STARTUP options");
  m.options.reserve(PlausibleCount(n, reader, 4));
  for (uint16_t i = 0; i < n; ++i) {
    std::string_view key = reader.ReadString();
    std::string_view value = reader.ReadString();
    m.options.emplace_back(key, value);
  }
  return m;
}

QueryMessage DecodeQuery(WireReader& reader, int version) {
  QueryMessage m;
  m.query = reader.ReadLongString();
  m.params = ReadQueryParameters(reader, version);
  return m;
}

PrepareMessage DecodePrepare(WireReader& reader, int version) {
  PrepareMessage m;
  m.query = reader.ReadLongString();
  if (version >= 5) {
    const int32_t flags = reader.ReadInt("the PREPARE flags");
    if (flags & 0x01) m.keyspace = reader.ReadString();
  }
  return m;
}

ExecuteMessage DecodeExecute(WireReader& reader, int version) {
  ExecuteMessage m;
  m.id = reader.ReadShortBytes();
  if (version >= 5) m.result_metadata_id = reader.ReadShortBytes();
  m.params = ReadQueryParameters(reader, version);
  return m;
}

BatchMessage DecodeBatch(WireReader& reader, int version) {
  BatchMessage m;
  const uint8_t type = reader.ReadByte("the BATCH type");
  if (type > 2) {
    ThrowProtocol("Invalid BATCH message type " + std::to_string(static_cast<int8_t>(type)));
  }
  m.type = static_cast<BatchType>(type);
  const uint16_t n = reader.ReadShort("the number of BATCH statements");
  m.children.reserve(PlausibleCount(n, reader, 5));
  for (uint16_t i = 0; i < n; ++i) {
    BatchChild child;
    const uint8_t kind = reader.ReadByte("the kind of a BATCH statement");
    if (kind == 0) {
      child.query = reader.ReadLongString();
    } else if (kind == 1) {
      child.is_prepared = true;
      child.id = reader.ReadShortBytes();
    } else {
      ThrowProtocol("Invalid query kind in BATCH messages. Must be 0 or 1 but got " +
                    std::to_string(static_cast<int8_t>(kind)));
    }
    // Cassandra never reads per-statement names, whatever the flags say.
    ReadValues(reader, version, false, child.values, child.names);
    m.children.push_back(std::move(child));
  }
  // The trailer is read with the QUERY parameters codec, as Cassandra does.
  QueryParameters p = ReadQueryParameters(reader, version);
  m.consistency = p.consistency;
  m.flags = p.flags;
  m.serial_consistency = p.serial_consistency;
  m.default_timestamp = p.default_timestamp;
  m.keyspace = p.keyspace;
  m.now_in_seconds = p.now_in_seconds;
  return m;
}

bool EqualsUpper(std::string_view value, std::string_view upper) {
  return value.size() == upper.size() &&
         std::equal(value.begin(), value.end(), upper.begin(), [](char a, char b) {
           return std::toupper(static_cast<unsigned char>(a)) == b;
         });
}

RegisterMessage DecodeRegister(WireReader& reader) {
  RegisterMessage m;
  const uint16_t n = reader.ReadShort("the number of event types");
  m.event_types.reserve(PlausibleCount(n, reader, 2));
  for (uint16_t i = 0; i < n; ++i) {
    std::string_view type = reader.ReadString();
    if (!EqualsUpper(type, "TOPOLOGY_CHANGE") && !EqualsUpper(type, "STATUS_CHANGE") &&
        !EqualsUpper(type, "SCHEMA_CHANGE") && !EqualsUpper(type, "TRACE_COMPLETE")) {
      ThrowProtocol("Invalid value '" + std::string(type) + "' for Type");
    }
    m.event_types.push_back(type);
  }
  return m;
}

}  // namespace

Request DecodeRequest(uint8_t opcode, uint8_t flags, BytesView body, int version) {
  WireReader reader(body);
  if (flags & kFlagCustomPayload) {
    // [bytes map]: the pairs are read (and checked) and dropped.
    const uint16_t n = reader.ReadShort("the number of custom payload entries");
    for (uint16_t i = 0; i < n; ++i) {
      (void)reader.ReadString();
      (void)reader.ReadBytes("a custom payload value");
    }
    if (version < 4) {
      ThrowProtocol("Received frame with CUSTOM_PAYLOAD flag for native protocol version < 4");
    }
  }
  switch (static_cast<Opcode>(opcode)) {
    case Opcode::kStartup:
      return DecodeStartup(reader);
    case Opcode::kOptions:
      return OptionsMessage{};
    case Opcode::kQuery:
      return DecodeQuery(reader, version);
    case Opcode::kPrepare:
      return DecodePrepare(reader, version);
    case Opcode::kExecute:
      return DecodeExecute(reader, version);
    case Opcode::kBatch:
      return DecodeBatch(reader, version);
    case Opcode::kRegister:
      return DecodeRegister(reader);
    case Opcode::kAuthResponse:
      return AuthResponseMessage{reader.ReadBytes("the authentication token")};
    default:
      break;
  }
  // CREDENTIALS (protocol v1's login) is a request type 4.1 still knows,
  // with a codec that refuses it.
  if (opcode == 0x04) ThrowProtocol("Unsupported message");
  ThrowProtocol("Opcode " + std::to_string(opcode) + " is not a request");
}

}  // namespace sibyl::protocol
