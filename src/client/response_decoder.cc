#include "client/response_decoder.h"

#include <cstdio>

#include "client/type_option_reader.h"
#include "protocol/wire_reader.h"

namespace sibyl::client {

namespace {

using protocol::ColumnSpec;
using protocol::WireReader;

constexpr int32_t kGlobalTablesSpec = 0x0001;

// Column specs of ROWS / PREPARED metadata: a global table spec or one per column.
std::vector<ColumnSpec> ReadColumnSpecs(WireReader& r, int32_t count, bool global) {
  std::vector<ColumnSpec> columns;
  std::string keyspace, table;
  if (global) {
    keyspace = r.ReadString();
    table = r.ReadString();
  }
  for (int32_t i = 0; i < count; ++i) {
    ColumnSpec c;
    if (global) {
      c.keyspace = keyspace;
      c.table = table;
    } else {
      c.keyspace = r.ReadString();
      c.table = r.ReadString();
    }
    c.name = r.ReadString();
    c.type = ReadTypeOption(r);
    columns.push_back(std::move(c));
  }
  return columns;
}

int32_t ReadCount(WireReader& r, std::string_view what) {
  const int32_t n = r.ReadInt(what);
  // Each counted item takes at least one byte: a larger count is a lie.
  if (n < 0 || static_cast<size_t>(n) > r.remaining() + 1) {
    ThrowProtocol("Invalid " + std::string(what) + " " + std::to_string(n));
  }
  return n;
}

ResultMetadata ReadResultMetadata(WireReader& r, int version) {
  ResultMetadata m;
  m.flags = r.ReadInt("result metadata flags");
  m.column_count = ReadCount(r, "column count");
  if (m.flags & protocol::kRowsFlagHasMorePages) {
    if (auto state = r.ReadBytes("a paging state")) m.paging_state = Bytes(*state);
  }
  if (version >= 5 && (m.flags & protocol::kRowsFlagMetadataChanged)) {
    m.new_metadata_id = Bytes(r.ReadShortBytes());
  }
  if (!(m.flags & protocol::kRowsFlagNoMetadata)) {
    m.columns = ReadColumnSpecs(r, m.column_count, m.flags & kGlobalTablesSpec);
  }
  return m;
}

RowsResult ReadRows(WireReader& r, int version) {
  RowsResult rows;
  rows.metadata = ReadResultMetadata(r, version);
  const int32_t row_count = ReadCount(r, "row count");
  const int32_t columns = rows.metadata.column_count;
  rows.rows.reserve(columns > 0 ? static_cast<size_t>(row_count) : 0);
  for (int32_t i = 0; i < row_count; ++i) {
    std::vector<OptBytes> row;
    row.reserve(static_cast<size_t>(columns));
    for (int32_t c = 0; c < columns; ++c) {
      auto cell = r.ReadBytes("a cell value");
      row.push_back(cell ? OptBytes(Bytes(*cell)) : std::nullopt);
    }
    rows.rows.push_back(std::move(row));
  }
  return rows;
}

PreparedResponse ReadPrepared(WireReader& r, int version) {
  PreparedResponse p;
  p.id = r.ReadShortBytes();
  if (version >= 5) p.result_metadata_id = r.ReadShortBytes();
  const int32_t flags = r.ReadInt("prepared metadata flags");
  const int32_t count = ReadCount(r, "bind variable count");
  if (version >= 4) {
    const int32_t pk_count = ReadCount(r, "partition key count");
    for (int32_t i = 0; i < pk_count; ++i) {
      p.partition_key_indexes.push_back(r.ReadShort("a partition key index"));
    }
  }
  p.bind_variables = ReadColumnSpecs(r, count, flags & kGlobalTablesSpec);
  p.result_metadata = ReadResultMetadata(r, version);
  return p;
}

SchemaChangeResult ReadSchemaChange(WireReader& r) {
  SchemaChangeResult c;
  c.change_type = r.ReadString();
  c.target = r.ReadString();
  c.keyspace = r.ReadString();
  if (c.target == "KEYSPACE") return c;
  c.name = r.ReadString();
  if (c.target == "FUNCTION" || c.target == "AGGREGATE") {
    const uint16_t n = r.ReadShort("an argument type count");
    for (uint16_t i = 0; i < n; ++i) c.argument_types.emplace_back(r.ReadString());
  }
  return c;
}

Response ReadResult(WireReader& r, int version) {
  const int32_t kind = r.ReadInt("a result kind");
  switch (static_cast<protocol::ResultKind>(kind)) {
    case protocol::ResultKind::kVoid:
      return VoidResult{};
    case protocol::ResultKind::kRows:
      return ReadRows(r, version);
    case protocol::ResultKind::kSetKeyspace:
      return SetKeyspaceResult{std::string(r.ReadString())};
    case protocol::ResultKind::kPrepared:
      return ReadPrepared(r, version);
    case protocol::ResultKind::kSchemaChange:
      return ReadSchemaChange(r);
  }
  ThrowProtocol("Unknown result kind " + std::to_string(kind));
}

// v5 sends <reasonmap>, a count of (address, code) pairs; v4 only the count.
std::vector<FailureReason> ReadFailures(WireReader& r, int version) {
  const int32_t count = r.ReadInt("a failure count");
  std::vector<FailureReason> failures;
  if (version < 5) return failures;
  for (int32_t i = 0; i < count; ++i) {
    FailureReason reason;
    const uint8_t size = r.ReadByte("an inet address size");
    for (uint8_t b = 0; b < size; ++b) {
      reason.address.push_back(static_cast<char>(r.ReadByte("an inet address")));
    }
    reason.code = r.ReadShort("a failure code");
    failures.push_back(std::move(reason));
  }
  return failures;
}

// The extra fields after the message, the mirror of protocol::EncodeError.
ErrorDetail ReadErrorDetail(WireReader& r, ErrorCode code, int version) {
  switch (code) {
    case ErrorCode::kAlreadyExists: {
      AlreadyExistsInfo info;
      info.keyspace = r.ReadString();
      info.table = r.ReadString();
      return info;
    }
    case ErrorCode::kUnavailable: {
      UnavailableInfo info{};
      info.consistency = r.ReadConsistency();
      info.required = r.ReadInt("required replicas");
      info.alive = r.ReadInt("alive replicas");
      return info;
    }
    case ErrorCode::kWriteTimeout: {
      WriteTimeoutInfo info{};
      info.consistency = r.ReadConsistency();
      info.received = r.ReadInt("received responses");
      info.block_for = r.ReadInt("block for");
      info.write_type = r.ReadString();
      // 4.1 sends the contentions of a CAS timeout from v5 on, also one
      // whose commit timed out (type SIMPLE).
      if (version >= 5 && (info.write_type == "CAS" || r.remaining() >= 2)) {
        info.contentions = static_cast<int16_t>(r.ReadShort("contentions"));
        info.cas_timeout = true;
      }
      return info;
    }
    case ErrorCode::kReadTimeout: {
      ReadTimeoutInfo info{};
      info.consistency = r.ReadConsistency();
      info.received = r.ReadInt("received responses");
      info.block_for = r.ReadInt("block for");
      info.data_present = r.ReadByte("data present") != 0;
      return info;
    }
    case ErrorCode::kReadFailure: {
      ReadFailureInfo info{};
      info.consistency = r.ReadConsistency();
      info.received = r.ReadInt("received responses");
      info.block_for = r.ReadInt("block for");
      info.failures = ReadFailures(r, version);
      info.data_present = r.ReadByte("data present") != 0;
      return info;
    }
    case ErrorCode::kWriteFailure: {
      WriteFailureInfo info{};
      info.consistency = r.ReadConsistency();
      info.received = r.ReadInt("received responses");
      info.block_for = r.ReadInt("block for");
      info.failures = ReadFailures(r, version);
      info.write_type = r.ReadString();
      return info;
    }
    case ErrorCode::kFunctionFailure: {
      FunctionFailureInfo info;
      info.keyspace = r.ReadString();
      info.function = r.ReadString();
      const uint16_t n = r.ReadShort("an argument type count");
      for (uint16_t i = 0; i < n; ++i) info.argument_types.emplace_back(r.ReadString());
      return info;
    }
    case ErrorCode::kCasWriteUnknown: {
      CasWriteUnknownInfo info{};
      info.consistency = r.ReadConsistency();
      info.received = r.ReadInt("received responses");
      info.block_for = r.ReadInt("block for");
      return info;
    }
    default:
      return {};
  }
}

ErrorResponse ReadError(WireReader& r, int version) {
  ErrorResponse e;
  e.code = static_cast<ErrorCode>(r.ReadInt("an error code"));
  e.message = r.ReadString();
  if (e.code == ErrorCode::kUnprepared) {
    e.unprepared_id = r.ReadShortBytes();
    e.detail = UnpreparedInfo{e.unprepared_id};
  } else {
    e.detail = ReadErrorDetail(r, e.code, version);
  }
  return e;
}

EventResponse ReadEvent(WireReader& r) {
  EventResponse e;
  e.event_type = r.ReadString();
  if (e.event_type == "SCHEMA_CHANGE") {
    e.schema_change = ReadSchemaChange(r);
    return e;
  }
  e.change = r.ReadString();
  const uint8_t size = r.ReadByte("an inet address size");
  for (uint8_t i = 0; i < size; ++i) e.address.push_back(static_cast<char>(r.ReadByte("an inet")));
  e.port = r.ReadInt("an inet port");
  return e;
}

}  // namespace

Reply DecodeResponse(const protocol::FrameHeader& header, BytesView body) {
  if (header.flags & protocol::kFlagCompression) {
    ThrowProtocol("Compressed response but no compression was negotiated");
  }
  WireReader r(body);
  Reply reply;
  if (header.flags & protocol::kFlagTracing) {  // a [uuid]: 16 bytes
    (void)r.ReadLong("a tracing id");
    (void)r.ReadLong("a tracing id");
  }
  if (header.flags & protocol::kFlagWarning) {
    const uint16_t n = r.ReadShort("a warning count");
    for (uint16_t i = 0; i < n; ++i) reply.warnings.emplace_back(r.ReadString());
  }
  if (header.flags & protocol::kFlagCustomPayload) {
    const uint16_t n = r.ReadShort("a custom payload size");
    for (uint16_t i = 0; i < n; ++i) {
      (void)r.ReadString();
      (void)r.ReadBytes("a custom payload value");
    }
  }
  const int version = header.version;
  switch (static_cast<protocol::Opcode>(header.opcode)) {
    case protocol::Opcode::kError:
      reply.response = ReadError(r, version);
      break;
    case protocol::Opcode::kReady:
      reply.response = ReadyResponse{};
      break;
    case protocol::Opcode::kAuthenticate:
      reply.response = AuthenticateResponse{std::string(r.ReadString())};
      break;
    case protocol::Opcode::kSupported: {
      SupportedResponse s;
      const uint16_t n = r.ReadShort("a string multimap size");
      for (uint16_t i = 0; i < n; ++i) {
        auto& values = s.options[std::string(r.ReadString())];
        const uint16_t m = r.ReadShort("a string list size");
        for (uint16_t j = 0; j < m; ++j) values.emplace_back(r.ReadString());
      }
      reply.response = std::move(s);
      break;
    }
    case protocol::Opcode::kResult:
      reply.response = ReadResult(r, version);
      break;
    case protocol::Opcode::kEvent:
      reply.response = ReadEvent(r);
      break;
    default:
      ThrowProtocol("Unexpected response opcode " + std::to_string(header.opcode));
  }
  return reply;
}

std::string Describe(const Response& response) {
  struct Describer {
    std::string operator()(const TransportFailure& f) const { return "TRANSPORT: " + f.message; }
    std::string operator()(const ErrorResponse& e) const {
      char code[16];
      std::snprintf(code, sizeof code, "0x%04X", static_cast<unsigned>(e.code));
      return "ERROR " + std::string(code) + ": " + e.message;
    }
    std::string operator()(const ReadyResponse&) const { return "READY"; }
    std::string operator()(const AuthenticateResponse& a) const {
      return "AUTHENTICATE " + a.authenticator;
    }
    std::string operator()(const SupportedResponse&) const { return "SUPPORTED"; }
    std::string operator()(const VoidResult&) const { return "VOID"; }
    std::string operator()(const RowsResult& r) const {
      return "ROWS (" + std::to_string(r.rows.size()) + " rows)";
    }
    std::string operator()(const SetKeyspaceResult& s) const {
      return "SET_KEYSPACE " + s.keyspace;
    }
    std::string operator()(const PreparedResponse& p) const {
      return "PREPARED (" + std::to_string(p.bind_variables.size()) + " bind variables)";
    }
    std::string operator()(const SchemaChangeResult& c) const {
      return "SCHEMA_CHANGE " + c.change_type + " " + c.target + " " + c.keyspace +
             (c.name.empty() ? "" : "." + c.name);
    }
    std::string operator()(const EventResponse& e) const { return "EVENT " + e.event_type; }
  };
  return std::visit(Describer{}, response);
}

}  // namespace sibyl::client
