#pragma once
// The replica side of reads: what a node answers READ, RANGE_READ and
// READ_REPAIR with (payloads: read_request_codec.h). The coordinator calls
// AnswerReadRequest directly for a replica that is itself, so a local
// replica answers exactly as a remote one.
//
// Thread-safety: as the engine's (any thread).

#include "common/bytes.h"
#include "messaging/messaging_service.h"
#include "storage/engine.h"

namespace sibyl::cluster {

// The reply to a READ or RANGE_READ payload: data, digest or unfiltered
// data per its kind. Throws std::runtime_error on a malformed payload or an
// unknown table (the handler fails the request with it).
[[nodiscard]] Bytes AnswerReadRequest(const storage::Engine& engine, BytesView payload);

// Applies a READ_REPAIR payload. Throws as Engine::Apply.
void ApplyReadRepair(storage::Engine& engine, BytesView payload);

// Registers the three verbs' handlers. A failing read or repair is answered
// with a failure (UNKNOWN, the error's text as detail), so the coordinator
// counts it at once instead of waiting for its timeout.
// REQUIRES: before messaging.Start(); `engine` outlives the service.
void RegisterReplicaReadHandlers(messaging::MessagingService& messaging, storage::Engine& engine);

}  // namespace sibyl::cluster
