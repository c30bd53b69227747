#pragma once
// The tallies of one phase of a stress run (populate, warm-up, measured):
// kept per worker on its io thread, merged once the phase has drained.

#include <chrono>
#include <cstdint>
#include <map>
#include <string>

#include "tools/stress/latency_histogram.h"

namespace sibyl::tools {

// Server ERROR responses of one code, with the first message seen.
struct ErrorTally {
  uint64_t count = 0;
  std::string first_message;
};

// The successful operations of one kind (mixed: the writes, the reads).
struct KindTally {
  LatencyHistogram latency;
  uint64_t ops = 0;
  void Record(uint64_t nanos) {
    latency.Record(nanos);
    ++ops;
  }
  void Merge(const KindTally& other) {
    latency.Merge(other.latency);
    ops += other.ops;
  }
};

struct StressResult {
  // Latency of the successful operations, in nanoseconds; from the intended
  // start under --rate, from the send otherwise.
  LatencyHistogram latency;
  uint64_t ops = 0;  // successful operations
  // mixed only: the same, split by kind (cassandra-stress reports each).
  KindTally writes;
  KindTally reads;
  uint64_t rows = 0;  // rows returned by reads and scan pages
  uint64_t timeouts = 0;
  std::map<int32_t, ErrorTally> server_errors;  // by error code
  // Requests that failed without an answer other than by timing out (the
  // connection broke), with the first reason.
  uint64_t transport_errors = 0;
  std::string first_transport_error;
  // From the phase's start until its last operation completed.
  std::chrono::nanoseconds elapsed{0};

  // Server errors plus transport errors (timeouts are counted apart).
  uint64_t errors() const {
    uint64_t total = transport_errors;
    for (const auto& [code, tally] : server_errors) total += tally.count;
    return total;
  }
  double seconds() const { return std::chrono::duration<double>(elapsed).count(); }

  // Adds `other`'s counts (not its elapsed time).
  void Merge(const StressResult& other) {
    latency.Merge(other.latency);
    ops += other.ops;
    writes.Merge(other.writes);
    reads.Merge(other.reads);
    rows += other.rows;
    timeouts += other.timeouts;
    for (const auto& [code, tally] : other.server_errors) {
      ErrorTally& mine = server_errors[code];
      if (mine.count == 0) mine.first_message = tally.first_message;
      mine.count += tally.count;
    }
    if (transport_errors == 0) first_transport_error = other.first_transport_error;
    transport_errors += other.transport_errors;
  }
};

}  // namespace sibyl::tools
