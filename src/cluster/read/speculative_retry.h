#pragma once
// A table's speculative_retry option as a partition read applies it
// (Cassandra 4.1's SpeculativeRetryPolicy): when the replicas asked have not
// all answered after the threshold, one more replica is asked.
//
//   'NEVER' / 'NONE'   never
//   'ALWAYS'           at once: block_for + 1 replicas, the first two for data
//   'Xms'              after X milliseconds
//   'Xp', 'XPERCENTILE', 'MIN(...)', 'MAX(...)' (the default '99p')
//                      after a fixed estimate: half the read timeout. Cassandra
//                      starts from that same value and then follows the
//                      table's measured read latency; no latencies are
//                      sampled here yet.
//
// Anything else (schema validation refuses it) is 'NEVER'.
// Pure function: safe from any thread.

#include <chrono>
#include <string_view>

namespace sibyl::cluster {

struct SpeculativeRetry {
  enum class Kind { kNever, kAlways, kAfter };
  Kind kind = Kind::kNever;
  std::chrono::milliseconds after{0};  // kAfter
};

[[nodiscard]] SpeculativeRetry ParseSpeculativeRetry(std::string_view option,
                                                     std::chrono::milliseconds read_timeout);

}  // namespace sibyl::cluster
