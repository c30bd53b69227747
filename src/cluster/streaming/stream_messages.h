#pragma once
// STREAM_PULL (messaging/verb.h), the one verb of streaming: a node gaining
// a range asks a source for one slice of it (token_slices.h) and gets every
// row of the slice as stored, with its original timestamps, TTLs and
// tombstones (storage::Engine::ReadUnfiltered).
//
//   request := 16 bytes plan id | 16 bytes table id | i64 start | i64 end
//              (big-endian; the slice (start, end] as storage::TokenRange)
//   reply   := read_request_codec.h's unfiltered reply
//
// Decoding trusts nothing: malformed bytes are std::runtime_error.
// Pure functions: safe from any thread.

#include "common/bytes.h"
#include "storage/data/read_command.h"
#include "types/uuid.h"

namespace sibyl::cluster::streaming {

struct StreamPullRequest {
  types::Uuid plan_id;  // the operation the stream belongs to (netstats' plan)
  types::Uuid table_id;
  storage::TokenRange slice;
  friend bool operator==(const StreamPullRequest& a, const StreamPullRequest& b) {
    return a.plan_id == b.plan_id && a.table_id == b.table_id && a.slice.start == b.slice.start &&
           a.slice.end == b.slice.end;
  }
};

[[nodiscard]] Bytes EncodeStreamPullRequest(const StreamPullRequest& request);
[[nodiscard]] StreamPullRequest DecodeStreamPullRequest(BytesView bytes);

}  // namespace sibyl::cluster::streaming
