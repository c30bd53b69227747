#pragma once
// One internode message, as the layers above see it and as message_codec.h
// frames it on the wire (docs/dev/messaging.md has the bytes).

#include <cstdint>
#include <optional>

#include "common/bytes.h"
#include "messaging/failure_reason.h"
#include "messaging/verb.h"
#include "types/uuid.h"

namespace sibyl::messaging {

// The flags byte of a message. Its bits are request (0x01), one-way (0x02),
// response (0x04) and failure (0x08); these four combinations are the only
// valid ones. The values are on the wire: do not change them.
enum class MessageKind : uint8_t {
  kRequest = 0x01,   // expects exactly one reply carrying the same id
  kOneWay = 0x02,    // expects no reply
  kResponse = 0x04,  // a successful reply to the request with this id
  kFailure = 0x0C,   // a failure reply: response | failure; the payload
                     // starts with a FailureReason (failure_payload below)
};
std::optional<MessageKind> MessageKindFromWire(uint8_t flags);

struct Message {
  Verb verb = Verb::kHeartbeat;  // a reply keeps its request's verb
  MessageKind kind = MessageKind::kOneWay;
  uint64_t id = 0;     // a request's id, unique per sender; its replies carry it
  uint64_t epoch = 0;  // the sender's metadata epoch when it sent the message
  types::Uuid sender;  // the sender's host id
  Bytes payload;       // opaque here; the verb's handler owns its encoding

  bool is_reply() const { return kind == MessageKind::kResponse || kind == MessageKind::kFailure; }
  bool operator==(const Message&) const = default;
};

// The payload of a failure reply: the reason as 2 bytes big-endian, then the
// detail (opaque, often empty).
Bytes EncodeFailurePayload(FailureReason reason, BytesView detail);
struct DecodedFailure {
  FailureReason reason = FailureReason::kUnknown;
  Bytes detail;
};
// Takes the reason off the front of `payload` (moved in). A payload too
// short to hold one is UNKNOWN with no detail.
DecodedFailure DecodeFailurePayload(Bytes payload);

}  // namespace sibyl::messaging
