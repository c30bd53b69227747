#pragma once
// Why a replica refused or failed a request: the reason code of a failure
// reply. Codes below 100 are Cassandra's RequestFailureReason codes, which
// the coordinator passes on in the <reasonmap> of a ReadFailure or
// WriteFailure (native_protocol_v5.spec); codes from 100 are Sibyl's own and
// reach clients as UNKNOWN. The numbers are on the wire: do not change them.

#include <cstdint>
#include <string_view>

namespace sibyl::messaging {

enum class FailureReason : uint16_t {
  kUnknown = 0,                // the replica failed for a reason of its own (storage, a bug)
  kReadTooManyTombstones = 1,  // the read met tombstone_failure_threshold
  kTimeout = 2,                // the replica's own wait (a counter leader's replicas) timed out
  kIncompatibleSchema = 3,     // the payload names a table or columns the replica does not know
  kReadSize = 4,               // the read exceeded the replica's size limit
  kStaleEpoch = 100,           // the sender is behind: the reply's epoch is the replica's
  kEpochCatchUpFailed = 101,   // the sender is ahead and the replica could not catch up in time
  kOverloaded = 102,           // the replica shed the request (too many held or queued)
  kUnknownVerb = 103,          // the replica has no handler for the verb
};

// "UNKNOWN", "STALE_EPOCH", ...; "UNKNOWN_REASON" for a code from a newer node.
std::string_view FailureReasonName(FailureReason reason);

// Cassandra's code for the reason: itself below 100, else UNKNOWN (0).
uint16_t CassandraReasonCode(FailureReason reason);

}  // namespace sibyl::messaging
