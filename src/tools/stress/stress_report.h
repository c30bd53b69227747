#pragma once
// What `sibyl stress` prints: the live line each second (stderr), and the
// final report as text or as one JSON object (stdout):
//
//   {"workload": "write", "connections": 4, "concurrency": 16,
//    "rate": null | ops per second, "ops": N, "errors": N, "timeouts": N,
//    "duration_s": S, "ops_per_s": X, "rows": N, "rows_per_s": X,
//    "latency_ms": {"mean", "p50", "p90", "p99", "p999", "max"},
//    "errors_by_kind": {"0x2200 Invalid": N, "transport": N, ...}}

#include <cstdint>
#include <string>
#include <string_view>

#include "common/error.h"
#include "tools/stress/latency_histogram.h"
#include "tools/stress/stress_options.h"
#include "tools/stress/stress_result.h"

namespace sibyl::tools {

struct LiveLine {
  std::string_view label;  // the workload, or "warmup"
  double elapsed_s = 0;
  double ops_per_s = 0;
  const LatencyHistogram* latency = nullptr;  // this second's latencies
  uint64_t errors = 0;                        // cumulative over the phase
  uint64_t timeouts = 0;
};

// One line with its newline:
// "write   3.0s  12345 ops/s  p50 0.41  p99 1.23  p99.9 2.35 ms  errors 0  timeouts 0"
[[nodiscard]] std::string FormatLiveLine(const LiveLine& line);

[[nodiscard]] std::string FormatTextReport(const StressOptions& options,
                                           const StressResult& result);
[[nodiscard]] std::string FormatJsonReport(const StressOptions& options,
                                           const StressResult& result);

// The protocol's name of an error code ("Invalid", "Write timeout", ...).
std::string_view ErrorCodeName(int32_t code);

// "; first error: <message>" for the first server or transport error, or "".
[[nodiscard]] std::string FirstErrorText(const StressResult& result);

}  // namespace sibyl::tools
