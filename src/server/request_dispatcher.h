#pragma once
// Turns one request envelope into its response: the connection's protocol
// state machine (STARTUP/OPTIONS before READY, REGISTER, AUTH) and the
// hand-off of QUERY/PREPARE/EXECUTE/BATCH to the statement layer. Free of
// sockets: it writes responses into the codec, so it is tested on bytes.

#include <memory>
#include <string>
#include <string_view>

#include "protocol/connection_codec.h"
#include "protocol/request.h"
#include "query/query_processor.h"

namespace sibyl::server {

struct ServerContext;
class EventSubscriber;

enum class DispatchOutcome { kContinue, kClose };

class RequestDispatcher {
 public:
  explicit RequestDispatcher(ServerContext& context) : context_(context) {}

  // Decodes and executes one request and queues its response in `codec`.
  // `subscriber` is the connection, for REGISTER.
  DispatchOutcome Dispatch(const protocol::Envelope& envelope, protocol::ConnectionCodec& codec,
                           const std::shared_ptr<EventSubscriber>& subscriber);

 private:
  enum class Phase { kUninitialized, kReady };

  void HandleOptions(protocol::ConnectionCodec& codec, int16_t stream);
  void HandleStartup(const protocol::StartupMessage& startup, protocol::ConnectionCodec& codec,
                     int16_t stream);
  void HandleRegister(const protocol::RegisterMessage& reg, protocol::ConnectionCodec& codec,
                      int16_t stream, const std::shared_ptr<EventSubscriber>& subscriber);
  // Begins a RESULT carrying the request's client warnings (v4+), and clears them.
  Bytes& BeginResultWithWarnings(protocol::ConnectionCodec& codec, int16_t stream);
  void WriteResult(const query::Result& result, protocol::ConnectionCodec& codec, int16_t stream,
                   bool skip_metadata);
  // Answers an exception that is not a CqlError (a failed check, a storage
  // failure, a bug) with a Server error carrying `client_message`, and logs
  // `kind`, the request that caused it and `log_detail` (empty: none).
  void ReportUnexpected(const protocol::Envelope& envelope, protocol::ConnectionCodec& codec,
                        std::string_view client_message, std::string_view kind,
                        std::string_view log_detail);
  // The request for the log: its kind and statement text (a prepared
  // statement's text when the id is known). Throws when it does not decode.
  std::string DescribeRequest(const protocol::Envelope& envelope, int version) const;

  ServerContext& context_;
  Phase phase_ = Phase::kUninitialized;
  query::ClientState client_state_;
};

}  // namespace sibyl::server
