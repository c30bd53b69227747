#pragma once
// What the caller of MessagingService::SendRequest gets back, exactly once.

#include <cstdint>
#include <functional>

#include "common/bytes.h"
#include "messaging/failure_reason.h"

namespace sibyl::messaging {

struct Reply {
  enum class Status : uint8_t {
    kSuccess,      // the replica answered; `payload` is its answer
    kFailure,      // the replica refused or failed: `reason`, and `payload` is the detail
    kTimeout,      // no answer within the request's timeout
    kUnreachable,  // the connection to the replica broke or could not be made
                   // (or the service stopped) before an answer came
  };
  Status status = Status::kTimeout;
  FailureReason reason = FailureReason::kUnknown;  // kFailure only
  Bytes payload;
  // The replica's epoch when it answered (kSuccess, kFailure). With
  // STALE_EPOCH it is the epoch the caller must catch up to before retrying.
  uint64_t epoch = 0;

  bool ok() const { return status == Status::kSuccess; }
};

using ReplyCallback = std::function<void(Reply)>;

}  // namespace sibyl::messaging
