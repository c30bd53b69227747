#pragma once
// Turns one request envelope into its response: the connection's protocol
// state machine (STARTUP/OPTIONS before READY, REGISTER, AUTH) and the
// hand-off of QUERY/PREPARE/EXECUTE/BATCH to the statement layer. Free of
// sockets: it writes responses into the codec, so it is tested on bytes.
// Used from its connection's thread only, except ExecuteStatement, which
// workers run with their own copy of the client state.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "protocol/connection_codec.h"
#include "protocol/request.h"
#include "query/query_processor.h"
#include "server/event_bus.h"
#include "server/response_writer.h"

namespace sibyl::server {

struct ServerContext;

enum class DispatchOutcome { kContinue, kClose };

// A statement a worker thread has executed, on its way back to the
// connection's thread: its response, and the keyspace a USE chose.
struct CompletedStatement {
  explicit CompletedStatement(int version) : response(version) {}
  BufferedResponse response;
  std::optional<std::string> keyspace;  // set when the statement changed it
};

// The connection as the dispatcher sees it: a subscriber to events, and the
// thread that finished statements must come back to.
class ConnectionHandle : public EventSubscriber {
 public:
  // Called on a worker thread; posts `completed` to the connection's thread,
  // which passes it to RequestDispatcher::Complete (or drops it once closed).
  virtual void PostCompletion(std::unique_ptr<CompletedStatement> completed) = 0;
};

class RequestDispatcher {
 public:
  explicit RequestDispatcher(ServerContext& context) : context_(context) {}

  // Decodes one request and either answers it in `codec` or, on a node whose
  // statements run on workers (ServerContext::statement_workers), hands a
  // QUERY/PREPARE/EXECUTE/BATCH to a worker, whose answer comes back through
  // `connection` (PostCompletion, then Complete). `connection` may be null
  // only when there are no workers; it receives REGISTERed events.
  DispatchOutcome Dispatch(const protocol::Envelope& envelope, protocol::ConnectionCodec& codec,
                           const std::shared_ptr<ConnectionHandle>& connection);

  // Queues a worker's answer in `codec` and applies its keyspace change.
  // REQUIRES: on the connection's thread.
  void Complete(const CompletedStatement& completed, protocol::ConnectionCodec& codec);

 private:
  enum class Phase { kUninitialized, kReady };

  void HandleOptions(protocol::ConnectionCodec& codec, int16_t stream);
  void HandleStartup(const protocol::StartupMessage& startup, protocol::ConnectionCodec& codec,
                     int16_t stream);
  void HandleRegister(const protocol::RegisterMessage& reg, protocol::ConnectionCodec& codec,
                      int16_t stream, const std::shared_ptr<EventSubscriber>& subscriber);
  // Runs a decoded QUERY/PREPARE/EXECUTE/BATCH with `state` and writes its
  // response, an error included, to `out`. Never throws. Safe to call from a
  // worker thread with a copy of the connection's state.
  void ExecuteStatement(const protocol::Request& request, const protocol::Envelope& envelope,
                        query::ClientState& state, ResponseWriter& out) const;
  // Counts the rules the request's client warnings report
  // (ServerContext::model_warnings). Before the warnings are sent (and cleared).
  void RecordModelWarnings(const protocol::Request& request, const query::ClientState& state) const;
  // Copies the request and runs ExecuteStatement on a statement worker.
  void ExecuteOnWorker(const protocol::Envelope& envelope,
                       const std::shared_ptr<ConnectionHandle>& connection) const;
  // Begins a RESULT carrying the request's client warnings (v4+), and clears them.
  static Bytes& BeginResultWithWarnings(query::ClientState& state, ResponseWriter& out,
                                        int16_t stream);
  void WriteResult(const query::Result& result, query::ClientState& state, ResponseWriter& out,
                   int16_t stream, bool skip_metadata) const;
  // Answers an exception that is not a CqlError (a failed check, a storage
  // failure, a bug) with a Server error carrying `client_message`, and logs
  // `kind`, the request that caused it and `log_detail` (empty: none).
  void ReportUnexpected(const protocol::Envelope& envelope, const query::ClientState& state,
                        ResponseWriter& out, std::string_view client_message, std::string_view kind,
                        std::string_view log_detail) const;
  // The request for the log: its kind and statement text (a prepared
  // statement's text when the id is known). Throws when it does not decode.
  std::string DescribeRequest(const protocol::Envelope& envelope,
                              const query::ClientState& state) const;

  ServerContext& context_;
  Phase phase_ = Phase::kUninitialized;
  query::ClientState client_state_;
};

}  // namespace sibyl::server
