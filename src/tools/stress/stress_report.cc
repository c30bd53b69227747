#include "tools/stress/stress_report.h"

#include <cstdio>

#include "common/json_string.h"

namespace sibyl::tools {

namespace {

double Millis(uint64_t nanos) { return static_cast<double>(nanos) / 1e6; }

std::string Format(const char* format, auto... args) {
  char buffer[512];
  const int n = std::snprintf(buffer, sizeof buffer, format, args...);
  return std::string(buffer, static_cast<size_t>(std::max(0, std::min<int>(n, sizeof buffer - 1))));
}

// A finite number as JSON (printf's %g never writes nan/inf for these).
std::string JsonNumber(double value) { return Format("%.6g", value); }

std::string ErrorKindKey(int32_t code) {
  return Format("0x%04X ", static_cast<unsigned>(code)) + std::string(ErrorCodeName(code));
}

double PerSecond(uint64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0;
}

std::string JsonLatency(const LatencyHistogram& h) {
  std::string out = "{";
  out += "\"mean\": " + JsonNumber(h.mean() / 1e6);
  out += ", \"p50\": " + JsonNumber(Millis(h.ValueAtPercentile(50)));
  out += ", \"p90\": " + JsonNumber(Millis(h.ValueAtPercentile(90)));
  out += ", \"p99\": " + JsonNumber(Millis(h.ValueAtPercentile(99)));
  out += ", \"p999\": " + JsonNumber(Millis(h.ValueAtPercentile(99.9)));
  out += ", \"max\": " + JsonNumber(Millis(h.max()));
  return out + "}";
}

std::string JsonKind(const KindTally& tally, double seconds) {
  return "{\"ops\": " + std::to_string(tally.ops) +
         ", \"ops_per_s\": " + JsonNumber(PerSecond(tally.ops, seconds)) +
         ", \"latency_ms\": " + JsonLatency(tally.latency) + "}";
}

}  // namespace

std::string_view ErrorCodeName(int32_t code) {
  switch (static_cast<ErrorCode>(code)) {
    case ErrorCode::kServerError:
      return "Server error";
    case ErrorCode::kProtocolError:
      return "Protocol error";
    case ErrorCode::kBadCredentials:
      return "Bad credentials";
    case ErrorCode::kUnavailable:
      return "Unavailable";
    case ErrorCode::kOverloaded:
      return "Overloaded";
    case ErrorCode::kIsBootstrapping:
      return "Is bootstrapping";
    case ErrorCode::kTruncateError:
      return "Truncate error";
    case ErrorCode::kWriteTimeout:
      return "Write timeout";
    case ErrorCode::kReadTimeout:
      return "Read timeout";
    case ErrorCode::kReadFailure:
      return "Read failure";
    case ErrorCode::kFunctionFailure:
      return "Function failure";
    case ErrorCode::kWriteFailure:
      return "Write failure";
    case ErrorCode::kCdcWriteFailure:
      return "CDC write failure";
    case ErrorCode::kCasWriteUnknown:
      return "CAS write unknown";
    case ErrorCode::kSyntaxError:
      return "Syntax error";
    case ErrorCode::kUnauthorized:
      return "Unauthorized";
    case ErrorCode::kInvalid:
      return "Invalid";
    case ErrorCode::kConfigError:
      return "Config error";
    case ErrorCode::kAlreadyExists:
      return "Already exists";
    case ErrorCode::kUnprepared:
      return "Unprepared";
  }
  return "Unknown error";
}

std::string FirstErrorText(const StressResult& result) {
  for (const auto& [code, tally] : result.server_errors) {
    return "; first error: " + ErrorKindKey(code) + ": " + tally.first_message;
  }
  if (!result.first_transport_error.empty()) {
    return "; first error: " + result.first_transport_error;
  }
  return "";
}

std::string FormatLiveLine(const LiveLine& line) {
  const LatencyHistogram& h = *line.latency;
  return Format(
      "%-8.*s %6.1fs %9.0f ops/s  p50 %7.3f  p99 %7.3f  p99.9 %7.3f ms  errors %llu  "
      "timeouts %llu\n",
      static_cast<int>(line.label.size()), line.label.data(), line.elapsed_s, line.ops_per_s,
      Millis(h.ValueAtPercentile(50)), Millis(h.ValueAtPercentile(99)),
      Millis(h.ValueAtPercentile(99.9)), static_cast<unsigned long long>(line.errors),
      static_cast<unsigned long long>(line.timeouts));
}

std::string FormatTextReport(const StressOptions& options, const StressResult& result) {
  const LatencyHistogram& h = result.latency;
  const double seconds = result.seconds();
  std::string out;
  out += "Results\n";
  out += "  workload      " + std::string(WorkloadName(options.workload)) + "\n";
  if (options.token_aware()) {
    out += Format("  connections   %d to each node, token-aware; %d in flight per worker\n",
                  options.connections, options.concurrency);
  } else {
    out += Format("  connections   %d x %d in flight\n", options.connections, options.concurrency);
  }
  out += "  consistency   " +
         std::string(protocol::ConsistencyName(static_cast<uint16_t>(options.consistency))) + "\n";
  out += options.rate
             ? Format("  rate          %.0f ops/s (latency from intended start)\n", *options.rate)
             : std::string("  rate          unthrottled\n");
  out += Format("  duration      %.2f s\n", seconds);
  out += Format("  ops           %llu\n", static_cast<unsigned long long>(result.ops));
  out += Format("  throughput    %.0f ops/s\n", PerSecond(result.ops, seconds));
  if (result.rows > 0) {
    out += Format("  rows          %llu (%.0f rows/s)\n",
                  static_cast<unsigned long long>(result.rows), PerSecond(result.rows, seconds));
  }
  out +=
      Format("  latency (ms)  mean %.3f  p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  max %.3f\n",
             h.mean() / 1e6, Millis(h.ValueAtPercentile(50)), Millis(h.ValueAtPercentile(90)),
             Millis(h.ValueAtPercentile(99)), Millis(h.ValueAtPercentile(99.9)), Millis(h.max()));
  if (options.workload == Workload::kMixed) {
    for (const auto& [name, tally] :
         {std::pair{"writes", &result.writes}, std::pair{"reads ", &result.reads}}) {
      const LatencyHistogram& k = tally->latency;
      out +=
          Format("  %s        %llu ops (%.0f ops/s), latency (ms) p50 %.3f  p99 %.3f  p99.9 %.3f\n",
                 name, static_cast<unsigned long long>(tally->ops), PerSecond(tally->ops, seconds),
                 Millis(k.ValueAtPercentile(50)), Millis(k.ValueAtPercentile(99)),
                 Millis(k.ValueAtPercentile(99.9)));
    }
  }
  out += Format("  errors        %llu\n", static_cast<unsigned long long>(result.errors()));
  for (const auto& [code, tally] : result.server_errors) {
    out += Format("    %s x%llu: ", ErrorKindKey(code).c_str(),
                  static_cast<unsigned long long>(tally.count)) +
           tally.first_message + "\n";
  }
  if (result.transport_errors > 0) {
    out +=
        Format("    transport x%llu: ", static_cast<unsigned long long>(result.transport_errors)) +
        result.first_transport_error + "\n";
  }
  out += Format("  timeouts      %llu (--timeout %lld ms)\n",
                static_cast<unsigned long long>(result.timeouts),
                static_cast<long long>(options.timeout.count()));
  return out;
}

std::string FormatJsonReport(const StressOptions& options, const StressResult& result) {
  const double seconds = result.seconds();
  std::string out = "{";
  out += "\"workload\": " + QuoteJsonString(WorkloadName(options.workload));
  out += ", \"connections\": " + std::to_string(options.connections);
  out += ", \"concurrency\": " + std::to_string(options.concurrency);
  out += ", \"token_aware\": " + std::string(options.token_aware() ? "true" : "false");
  out += ", \"consistency\": " +
         QuoteJsonString(protocol::ConsistencyName(static_cast<uint16_t>(options.consistency)));
  out += ", \"rate\": " + (options.rate ? JsonNumber(*options.rate) : std::string("null"));
  out += ", \"ops\": " + std::to_string(result.ops);
  out += ", \"errors\": " + std::to_string(result.errors());
  out += ", \"timeouts\": " + std::to_string(result.timeouts);
  out += ", \"duration_s\": " + JsonNumber(seconds);
  out += ", \"ops_per_s\": " + JsonNumber(PerSecond(result.ops, seconds));
  out += ", \"rows\": " + std::to_string(result.rows);
  out += ", \"rows_per_s\": " + JsonNumber(PerSecond(result.rows, seconds));
  out += ", \"latency_ms\": " + JsonLatency(result.latency);
  if (options.workload == Workload::kMixed) {
    out += ", \"writes\": " + JsonKind(result.writes, seconds);
    out += ", \"reads\": " + JsonKind(result.reads, seconds);
  }
  out += ", \"errors_by_kind\": {";
  bool first = true;
  for (const auto& [code, tally] : result.server_errors) {
    out += (first ? "" : ", ") + QuoteJsonString(ErrorKindKey(code)) + ": " +
           std::to_string(tally.count);
    first = false;
  }
  if (result.transport_errors > 0) {
    out += std::string(first ? "" : ", ") +
           "\"transport\": " + std::to_string(result.transport_errors);
  }
  out += "}}\n";
  return out;
}

}  // namespace sibyl::tools
