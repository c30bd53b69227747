#include "cluster/read/replica_read_handler.h"

#include <exception>

#include "cluster/read/read_request_codec.h"
#include "storage/codec/read_command_codec.h"
#include "storage/read/read_digest.h"

namespace sibyl::cluster {

Bytes AnswerReadRequest(const storage::Engine& engine, BytesView payload) {
  const ReadRequest request = DecodeReadRequest(payload);
  switch (request.kind) {
    case ReadRequestKind::kData: {
      Bytes out;
      storage::SerializeReadResult(engine.Read(request.command), out);
      return out;
    }
    case ReadRequestKind::kDigest:
      return storage::ReadDigest(engine.Read(request.command));
    case ReadRequestKind::kUnfiltered:
      return EncodeUnfiltered(engine.ReadUnfiltered(request.command));
  }
  return {};
}

void ApplyReadRepair(storage::Engine& engine, BytesView payload) {
  engine.Apply(storage::Mutation::Deserialize(payload));
}

namespace {

// Runs `answer` and replies with what it returns, or fails the request with
// the error it throws.
template <typename Answer>
void ReplyWith(messaging::Responder& responder, const Answer& answer) {
  Bytes reply;
  try {
    reply = answer();
  } catch (const std::exception& error) {
    responder.Fail(messaging::FailureReason::kUnknown, error.what());
    return;
  }
  responder.Reply(std::move(reply));
}

}  // namespace

void RegisterReplicaReadHandlers(messaging::MessagingService& messaging, storage::Engine& engine) {
  auto read = [&engine](const messaging::Message& message, messaging::Responder responder) {
    ReplyWith(responder, [&] { return AnswerReadRequest(engine, message.payload); });
  };
  messaging.RegisterHandler(messaging::Verb::kRead, read);
  messaging.RegisterHandler(messaging::Verb::kRangeRead, read);
  messaging.RegisterHandler(
      messaging::Verb::kReadRepair,
      [&engine](const messaging::Message& message, messaging::Responder responder) {
        ReplyWith(responder, [&] {
          ApplyReadRepair(engine, message.payload);
          return Bytes();
        });
      });
}

}  // namespace sibyl::cluster
