#include "messaging/failure_reason.h"

namespace sibyl::messaging {

std::string_view FailureReasonName(FailureReason reason) {
  switch (reason) {
    case FailureReason::kUnknown:
      return "UNKNOWN";
    case FailureReason::kReadTooManyTombstones:
      return "READ_TOO_MANY_TOMBSTONES";
    case FailureReason::kTimeout:
      return "TIMEOUT";
    case FailureReason::kIncompatibleSchema:
      return "INCOMPATIBLE_SCHEMA";
    case FailureReason::kReadSize:
      return "READ_SIZE";
    case FailureReason::kStaleEpoch:
      return "STALE_EPOCH";
    case FailureReason::kEpochCatchUpFailed:
      return "EPOCH_CATCH_UP_FAILED";
    case FailureReason::kOverloaded:
      return "OVERLOADED";
    case FailureReason::kUnknownVerb:
      return "UNKNOWN_VERB";
  }
  return "UNKNOWN_REASON";  // a code from a newer node
}

uint16_t CassandraReasonCode(FailureReason reason) {
  const auto code = static_cast<uint16_t>(reason);
  return code < 100 ? code : 0;
}

}  // namespace sibyl::messaging
