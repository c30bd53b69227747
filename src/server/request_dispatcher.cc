#include "server/request_dispatcher.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <boost/asio/post.hpp>
#include <boost/asio/thread_pool.hpp>
#include <cctype>
#include <charconv>
#include <chrono>

#include "common/ascii_case.h"
#include "common/check.h"
#include "common/error.h"
#include "common/hex.h"
#include "protocol/response.h"
#include "protocol/wire_format.h"
#include "schema/local_node_info.h"
#include "server/event_bus.h"
#include "server/request_metrics.h"
#include "server/server_context.h"
#include "storage/data/storage_error.h"

namespace sibyl::server {

using protocol::Opcode;

namespace {

// Cassandra's Message.Type names, as its protocol errors spell them.
const char* MessageTypeName(uint8_t opcode) {
  switch (static_cast<Opcode>(opcode)) {
    case Opcode::kStartup:
      return "STARTUP";
    case Opcode::kOptions:
      return "OPTIONS";
    case Opcode::kQuery:
      return "QUERY";
    case Opcode::kPrepare:
      return "PREPARE";
    case Opcode::kExecute:
      return "EXECUTE";
    case Opcode::kRegister:
      return "REGISTER";
    case Opcode::kBatch:
      return "BATCH";
    case Opcode::kAuthResponse:
      return "AUTH_RESPONSE";
    default:
      return opcode == 0x04 ? "CREDENTIALS" : "UNKNOWN";
  }
}

// The requests Cassandra traces when asked (Message.Request.isTraceable).
bool IsTraceable(Opcode opcode) {
  return opcode == Opcode::kQuery || opcode == Opcode::kPrepare || opcode == Opcode::kExecute ||
         opcode == Opcode::kBatch;
}

// Parses "major.minor.patch[-label]" as Cassandra's CassandraVersion does and
// checks it is a CQL 3 version (>= 2.99.0, as Cassandra compares).
void CheckCqlVersion(std::string_view text) {
  int parts[3] = {0, 0, 0};
  size_t pos = 0;
  int count = 0;
  std::string_view core = text.substr(0, std::min(text.find('-'), text.size()));
  while (count < 3 && pos <= core.size()) {
    size_t dot = std::min(core.find('.', pos), core.size());
    auto [end, ec] = std::from_chars(core.data() + pos, core.data() + dot, parts[count]);
    if (ec != std::errc() || end != core.data() + dot || dot == pos) break;
    ++count;
    pos = dot + 1;
    if (dot == core.size()) break;
  }
  if (count < 2 || pos < core.size()) {
    ThrowProtocol("Invalid version value: " + std::string(text));
  }
  const bool below = parts[0] < 2 || (parts[0] == 2 && (parts[1] < 99));
  if (below) {
    ThrowProtocol("CQL version " + std::string(text) +
                  " is not supported by the binary protocol (supported version are >= 3.0.0)");
  }
}

void WriteError(ResponseWriter& out, int16_t stream, const CqlError& error) {
  Bytes& body = out.Begin(stream, Opcode::kError);
  protocol::EncodeError(body, error, out.version());
  out.End();
}

void WriteError(protocol::ConnectionCodec& codec, int16_t stream, const CqlError& error) {
  CodecResponseWriter out(codec);
  WriteError(out, stream, error);
}

bool IsStatement(Opcode opcode) {
  return opcode == Opcode::kQuery || opcode == Opcode::kPrepare || opcode == Opcode::kExecute ||
         opcode == Opcode::kBatch;
}

// REQUIRES: IsStatement(opcode).
CqlOperation OperationOf(Opcode opcode) {
  switch (opcode) {
    case Opcode::kPrepare:
      return CqlOperation::kPrepare;
    case Opcode::kExecute:
      return CqlOperation::kExecute;
    case Opcode::kBatch:
      return CqlOperation::kBatch;
    default:
      return CqlOperation::kQuery;
  }
}

}  // namespace

DispatchOutcome RequestDispatcher::Dispatch(const protocol::Envelope& envelope,
                                            protocol::ConnectionCodec& codec,
                                            const std::shared_ptr<ConnectionHandle>& connection) {
  const auto& header = envelope.header;
  const int16_t stream = header.stream;
  try {
    const auto opcode = static_cast<Opcode>(header.opcode);
    if (phase_ == Phase::kUninitialized && opcode != Opcode::kStartup &&
        opcode != Opcode::kOptions) {
      ThrowProtocol(std::string("Unexpected message ") + MessageTypeName(header.opcode) +
                    ", expecting STARTUP or OPTIONS");
    }
    if (phase_ == Phase::kReady && opcode == Opcode::kStartup) {
      ThrowProtocol("Unexpected message STARTUP, the connection is already initialized");
    }
    // Cassandra never reads the body (nor its custom payload) of an OPTIONS
    // that comes before STARTUP.
    uint8_t flags = header.flags;
    if (phase_ == Phase::kUninitialized && opcode == Opcode::kOptions) {
      flags &= static_cast<uint8_t>(~protocol::kFlagCustomPayload);
    }
    protocol::Request request;
    try {
      request = protocol::DecodeRequest(header.opcode, flags, envelope.body, codec.version());
    } catch (const CqlError& error) {
      WriteError(codec, stream, error);
      // Cassandra closes a v5 connection after consecutive undecodable messages.
      codec.NoteBadRequest();
      return DispatchOutcome::kContinue;
    }
    client_state_.protocol_version = codec.version();
    client_state_.warnings.clear();
    if ((header.flags & protocol::kFlagTracing) && IsTraceable(opcode)) {
      // Cassandra would open a trace session and answer with its id; Sibyl
      // does not trace yet, and says so rather than leave the client waiting
      // for a trace that never comes (protocol v4+: warnings).
      client_state_.warnings.push_back(
          "Tracing is not supported by Sibyl yet: this request was executed without a trace");
    }
    if (IsStatement(opcode)) {
      if (context_.statement_workers != nullptr && connection != nullptr) {
        ExecuteOnWorker(envelope, connection);
      } else {
        CodecResponseWriter out(codec);
        ExecuteStatement(request, envelope, client_state_, out);
      }
      return DispatchOutcome::kContinue;
    }
    std::visit(
        [&](const auto& message) {
          using T = std::decay_t<decltype(message)>;
          if constexpr (std::is_same_v<T, protocol::OptionsMessage>) {
            HandleOptions(codec, stream);
          } else if constexpr (std::is_same_v<T, protocol::StartupMessage>) {
            HandleStartup(message, codec, stream);
          } else if constexpr (std::is_same_v<T, protocol::RegisterMessage>) {
            HandleRegister(message, codec, stream, connection);
          } else if constexpr (std::is_same_v<T, protocol::AuthResponseMessage>) {
            // Without an authenticator every SASL exchange succeeds at once, as
            // Cassandra's AllowAllAuthenticator answers it: AUTH_SUCCESS, no token.
            Bytes& body = codec.BeginResponse(stream, Opcode::kAuthSuccess);
            protocol::AppendNullBytes(body);
            codec.EndResponse();
          }
        },
        request);
  } catch (const CqlError& error) {
    WriteError(codec, stream, error);
  } catch (const std::exception& e) {
    CodecResponseWriter out(codec);
    ReportUnexpected(envelope, client_state_, out, e.what(), "Unexpected exception", {});
  }
  // In v5, everything after the reply to a STARTUP is framed in segments,
  // whatever that reply was (Cassandra switches its pipeline once it is written).
  if (static_cast<Opcode>(header.opcode) == Opcode::kStartup && codec.version() >= 5 &&
      !codec.segment_framing()) {
    codec.StartSegmentFraming();
  }
  return DispatchOutcome::kContinue;
}

void RequestDispatcher::ExecuteStatement(const protocol::Request& request,
                                         const protocol::Envelope& envelope,
                                         query::ClientState& state, ResponseWriter& out) const {
  const int16_t stream = envelope.header.stream;
  RequestMetrics* const metrics = context_.request_metrics;
  const auto start = metrics != nullptr ? std::chrono::steady_clock::now()
                                        : std::chrono::steady_clock::time_point();
  std::optional<ErrorCode> failed;
  try {
    if (const auto* query = std::get_if<protocol::QueryMessage>(&request)) {
      auto result = context_.processor.Process(query->query, query->params, state);
      RecordModelWarnings(request, state);
      WriteResult(result, state, out, stream, query->params.skip_metadata());
    } else if (const auto* prepare = std::get_if<protocol::PrepareMessage>(&request)) {
      auto prepared = context_.processor.Prepare(prepare->query, state, prepare->keyspace);
      Bytes& body = BeginResultWithWarnings(state, out, stream);
      protocol::EncodePreparedResult(body, prepared, out.version());
      out.End();
    } else if (const auto* execute = std::get_if<protocol::ExecuteMessage>(&request)) {
      auto result = context_.processor.Execute(*execute, state);
      RecordModelWarnings(request, state);
      WriteResult(result, state, out, stream, execute->params.skip_metadata());
    } else if (const auto* batch = std::get_if<protocol::BatchMessage>(&request)) {
      auto result = context_.processor.Batch(*batch, state);
      RecordModelWarnings(request, state);
      WriteResult(result, state, out, stream, false);
    } else {
      SIBYL_CHECK(false, "ExecuteStatement given a request that is not a statement");
    }
  } catch (const CqlError& error) {
    failed = error.code();
    RecordModelWarnings(request, state);
    WriteError(out, stream, error);
  } catch (const InternalError& e) {
    failed = ErrorCode::kServerError;
    ReportUnexpected(envelope, state, out, e.what(), "Internal error", e.where());
  } catch (const storage::StorageError& e) {
    failed = ErrorCode::kServerError;
    ReportUnexpected(envelope, state, out, e.what(), "Storage failure", e.detail());
  } catch (const std::exception& e) {
    failed = ErrorCode::kServerError;
    ReportUnexpected(envelope, state, out, e.what(), "Unexpected exception", {});
  } catch (...) {
    failed = ErrorCode::kServerError;
    ReportUnexpected(envelope, state, out, "an exception that is not a std::exception",
                     "Unexpected exception", {});
  }
  if (metrics != nullptr) {
    metrics->Record(OperationOf(static_cast<Opcode>(envelope.header.opcode)),
                    state.statement_table.get(),
                    state.statement_writes ? TableAccess::kWrite : TableAccess::kRead, failed,
                    std::chrono::steady_clock::now() - start);
  }
  // The statement's table is not kept alive past its request.
  state.statement_table.reset();
}

void RequestDispatcher::RecordModelWarnings(const protocol::Request& request,
                                            const query::ClientState& state) const {
  if (context_.model_warnings == nullptr || state.warnings.empty()) return;
  // The statement as the client sent it: a prepared one's text, a batch's
  // statements joined as BEGIN BATCH ... APPLY BATCH.
  auto text_of = [&](bool is_prepared, BytesView id, std::string_view query) {
    if (!is_prepared) return std::string(query);
    return context_.processor.PreparedQueryText(id).value_or("(unknown prepared statement)");
  };
  std::string statement;
  if (const auto* query = std::get_if<protocol::QueryMessage>(&request)) {
    statement = query->query;
  } else if (const auto* execute = std::get_if<protocol::ExecuteMessage>(&request)) {
    statement = text_of(true, execute->id, {});
  } else if (const auto* batch = std::get_if<protocol::BatchMessage>(&request)) {
    statement = "BEGIN BATCH";
    for (const protocol::BatchChild& child : batch->children) {
      statement += " " + text_of(child.is_prepared, child.id, child.query) + ";";
    }
    statement += " APPLY BATCH";
  }
  const schema::TableMetadata* table = state.statement_table.get();
  const auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
      std::chrono::system_clock::now().time_since_epoch());
  context_.model_warnings->RecordWarnings(state.warnings, table ? table->keyspace : "",
                                          table ? table->name : "", statement, now.count());
}

void RequestDispatcher::ExecuteOnWorker(const protocol::Envelope& envelope,
                                        const std::shared_ptr<ConnectionHandle>& connection) const {
  // The envelope's body lives in the codec's input buffer, which the next
  // read reuses: the worker gets its own copy, and its own client state.
  struct Job {
    protocol::FrameHeader header;
    Bytes body;
    query::ClientState state;
  };
  auto job = std::make_shared<Job>(Job{envelope.header, Bytes(envelope.body), client_state_});
  boost::asio::post(*context_.statement_workers, [this, job, connection] {
    const protocol::Envelope owned{job->header, BytesView(job->body)};
    auto completed = std::make_unique<CompletedStatement>(job->state.protocol_version);
    const std::optional<std::string> keyspace_before = job->state.keyspace;
    try {
      // Decoded once already on the connection's thread: it decodes again.
      const protocol::Request request = protocol::DecodeRequest(
          job->header.opcode, job->header.flags, owned.body, job->state.protocol_version);
      ExecuteStatement(request, owned, job->state, completed->response);
    } catch (const CqlError& error) {
      WriteError(completed->response, job->header.stream, error);
    }
    if (job->state.keyspace != keyspace_before) completed->keyspace = job->state.keyspace;
    connection->PostCompletion(std::move(completed));
  });
}

void RequestDispatcher::Complete(const CompletedStatement& completed,
                                 protocol::ConnectionCodec& codec) {
  if (completed.keyspace) client_state_.keyspace = completed.keyspace;
  completed.response.WriteTo(codec);
}

// A failure no client input should cause (docs/dev/errors.md): the client
// gets a Server error with `client_message` (Cassandra's answer to an
// unexpected exception), the operator one log line naming the request and
// `log_detail` (where a check failed, the storage engine's own text), so
// that a report carries what to reproduce it with.
void RequestDispatcher::ReportUnexpected(const protocol::Envelope& envelope,
                                         const query::ClientState& state, ResponseWriter& out,
                                         std::string_view client_message, std::string_view kind,
                                         std::string_view log_detail) const {
  std::string description;
  try {
    description = DescribeRequest(envelope, state);
  } catch (const std::exception&) {
    description = std::string(MessageTypeName(envelope.header.opcode)) + " (not decodable)";
  }
  if (log_detail.empty()) {
    spdlog::error("{} while executing {}: {}", kind, description, client_message);
  } else {
    spdlog::error("{} while executing {}: {} [{}]", kind, description, client_message, log_detail);
  }
  WriteError(out, envelope.header.stream,
             CqlError(ErrorCode::kServerError, std::string(client_message)));
}

std::string RequestDispatcher::DescribeRequest(const protocol::Envelope& envelope,
                                               const query::ClientState& state) const {
  const int version = state.protocol_version;
  // Long statements are cut so the line stays one readable line.
  constexpr size_t kMaxQuoted = 2000;
  auto quote = [&](std::string_view query) {
    std::string out = "\"";
    for (char c : query.substr(0, kMaxQuoted)) out += (c == '\n' || c == '\r') ? ' ' : c;
    if (query.size() > kMaxQuoted) out += "...";
    return out + "\"";
  };
  auto prepared = [&](BytesView id) {
    const std::optional<std::string> text = context_.processor.PreparedQueryText(id);
    return text ? "prepared " + quote(*text) : "unknown prepared id " + ToHex(id);
  };
  const protocol::Request request = protocol::DecodeRequest(
      envelope.header.opcode, envelope.header.flags, envelope.body, version);
  std::string out = MessageTypeName(envelope.header.opcode);
  if (const auto* query = std::get_if<protocol::QueryMessage>(&request)) {
    out += " " + quote(query->query);
  } else if (const auto* prepare = std::get_if<protocol::PrepareMessage>(&request)) {
    out += " " + quote(prepare->query);
  } else if (const auto* execute = std::get_if<protocol::ExecuteMessage>(&request)) {
    out += " of " + prepared(execute->id);
  } else if (const auto* batch = std::get_if<protocol::BatchMessage>(&request)) {
    out += " of " + std::to_string(batch->children.size()) + " statements:";
    for (const protocol::BatchChild& child : batch->children) {
      out += " " + (child.is_prepared ? prepared(child.id) : quote(child.query)) + ";";
    }
  }
  if (state.keyspace) out += " (keyspace " + *state.keyspace + ")";
  return out;
}

void RequestDispatcher::HandleOptions(protocol::ConnectionCodec& codec, int16_t stream) {
  static const std::map<std::string, std::vector<std::string>> kSupported{
      {"CQL_VERSION", {kCqlVersion}},
      {"COMPRESSION", {"snappy", "lz4"}},
      {"PROTOCOL_VERSIONS", {"3/v3", "4/v4", "5/v5"}},
  };
  Bytes& body = codec.BeginResponse(stream, Opcode::kSupported);
  protocol::EncodeSupported(body, kSupported);
  codec.EndResponse();
}

void RequestDispatcher::HandleStartup(const protocol::StartupMessage& startup,
                                      protocol::ConnectionCodec& codec, int16_t stream) {
  std::optional<std::string> cql_version;
  std::optional<std::string> compression_name;
  for (const auto& [key, value] : startup.options) {
    // Cassandra upper-cases the option names; the rest (DRIVER_NAME,
    // DRIVER_VERSION, CLIENT_ID, APPLICATION_NAME, ...) are informational.
    const std::string name = AsciiUpper(key);
    if (name == "CQL_VERSION") cql_version = std::string(value);
    if (name == "COMPRESSION") compression_name = AsciiLower(value);
  }
  if (!cql_version) ThrowProtocol("Missing value CQL_VERSION in STARTUP message");
  CheckCqlVersion(*cql_version);

  auto compression = protocol::Compression::kNone;
  if (compression_name) {
    auto c = protocol::CompressionByName(*compression_name);
    if (!c) ThrowProtocol("Unknown compression algorithm: " + *compression_name);
    if (*c == protocol::Compression::kSnappy && codec.version() >= 5) {
      ThrowProtocol("Snappy compression is not supported in protocol V5");
    }
    compression = *c;
  }

  // As Cassandra: in v3/v4 the READY itself is already compressed; in v5 it
  // goes out unframed and segment framing starts right after it.
  codec.SetCompression(compression);
  (void)codec.BeginResponse(stream, Opcode::kReady);
  codec.EndResponse();
  phase_ = Phase::kReady;
}

void RequestDispatcher::HandleRegister(const protocol::RegisterMessage& reg,
                                       protocol::ConnectionCodec& codec, int16_t stream,
                                       const std::shared_ptr<EventSubscriber>& subscriber) {
  uint8_t mask = 0;
  for (const auto& raw_type : reg.event_types) {
    // Event types are matched as CBUtil.readEnumValue does: upper-cased.
    const std::string type = AsciiUpper(raw_type);
    if (type == "TOPOLOGY_CHANGE") {
      mask |= kTopologyChange;
    } else if (type == "STATUS_CHANGE") {
      mask |= kStatusChange;
    } else if (type == "SCHEMA_CHANGE") {
      mask |= kSchemaChange;
    } else if (type == "TRACE_COMPLETE") {
      // Accepted from v4 on; no trace ever completes (Sibyl does not trace).
      if (codec.version() < 4) {
        ThrowProtocol("Event TRACE_COMPLETE not valid for protocol version " +
                      std::to_string(codec.version()) + "/v" + std::to_string(codec.version()));
      }
    } else {
      ThrowProtocol("Invalid value '" + std::string(raw_type) + "' for Type");
    }
  }
  if (subscriber) context_.events.Subscribe(subscriber, mask);
  (void)codec.BeginResponse(stream, Opcode::kReady);
  codec.EndResponse();
}

Bytes& RequestDispatcher::BeginResultWithWarnings(query::ClientState& state, ResponseWriter& out,
                                                  int16_t stream) {
  // Warnings travel in the envelope from protocol v4 on (spec section 2.2, flag 0x08).
  const bool with_warnings = out.version() >= 4 && !state.warnings.empty();
  Bytes& body = out.Begin(stream, Opcode::kResult, with_warnings ? protocol::kFlagWarning : 0);
  if (with_warnings) protocol::AppendStringList(body, state.warnings);
  state.warnings.clear();
  return body;
}

void RequestDispatcher::WriteResult(const query::Result& result, query::ClientState& state,
                                    ResponseWriter& out, int16_t stream, bool skip_metadata) const {
  Bytes& body = BeginResultWithWarnings(state, out, stream);
  std::visit(
      [&](const auto& r) {
        using T = std::decay_t<decltype(r)>;
        if constexpr (std::is_same_v<T, query::VoidResult>) {
          protocol::EncodeVoidResult(body);
        } else if constexpr (std::is_same_v<T, query::RowsResult>) {
          std::optional<BytesView> paging;
          if (r.paging_state) paging = BytesView(*r.paging_state);
          std::optional<BytesView> new_metadata_id;
          if (r.new_metadata_id) new_metadata_id = BytesView(*r.new_metadata_id);
          // A changed result metadata id means the client's cached metadata
          // is stale: send it even if the client asked to skip it.
          protocol::RowsWriter writer(body, *r.columns, out.version(),
                                      skip_metadata && !new_metadata_id && !r.always_send_metadata,
                                      paging, new_metadata_id);
          for (const auto& row : r.rows) {
            for (const auto& value : row) writer.AddValue(value);
          }
          writer.Finish();
        } else if constexpr (std::is_same_v<T, query::SetKeyspaceResult>) {
          protocol::EncodeSetKeyspaceResult(body, r.keyspace);
        } else if constexpr (std::is_same_v<T, query::SchemaChangeResult>) {
          protocol::EncodeSchemaChangeResult(body, r.change);
        }
      },
      result);
  out.End();
}

}  // namespace sibyl::server
