#include "messaging/message.h"

namespace sibyl::messaging {

std::optional<MessageKind> MessageKindFromWire(uint8_t flags) {
  switch (flags) {
    case static_cast<uint8_t>(MessageKind::kRequest):
    case static_cast<uint8_t>(MessageKind::kOneWay):
    case static_cast<uint8_t>(MessageKind::kResponse):
    case static_cast<uint8_t>(MessageKind::kFailure):
      return static_cast<MessageKind>(flags);
    default:
      return std::nullopt;
  }
}

Bytes EncodeFailurePayload(FailureReason reason, BytesView detail) {
  Bytes out;
  out.reserve(2 + detail.size());
  AppendBE16(out, static_cast<uint16_t>(reason));
  out.append(detail);
  return out;
}

DecodedFailure DecodeFailurePayload(Bytes payload) {
  if (payload.size() < 2) return {};
  DecodedFailure failure{static_cast<FailureReason>(LoadBE16(payload.data())), std::move(payload)};
  failure.detail.erase(0, 2);
  return failure;
}

}  // namespace sibyl::messaging
