#pragma once
// The command line of `sibyl stress` and what it means:
//
//   sibyl stress <write|read|mixed|counter|scan|lwt> [--host H[,H...]] [--port P] ...
//
// StressUsage() lists every option; docs/dev/stress.md explains them.

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/request.h"

namespace sibyl::tools {

enum class Workload { kWrite, kRead, kMixed, kCounter, kScan, kLwt };

// "write", "read", ...
std::string_view WorkloadName(Workload workload);

// A command line that cannot be run; what() is one line naming the option.
class StressUsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct StressOptions {
  Workload workload = Workload::kWrite;
  // The nodes to contact (--host H1,H2,...; cassandra-stress's -node). With
  // one, every connection goes to it; with more, stress discovers the ring
  // from the first that answers, connects to every node of it and sends each
  // operation to a replica of its partition (token-aware). Default: 127.0.0.1.
  std::vector<std::string> hosts = {"127.0.0.1"};
  // Default: 9042.
  uint16_t port = 9042;
  // 4 or 5. Default: 4.
  int protocol_version = 4;
  // Connections (to each node when token-aware). Default: 4.
  int connections = 4;
  // Requests in flight on each connection (token-aware: on each worker's set of
  // connections to every node). Default: 16.
  int concurrency = 16;
  // Client io threads; connections are spread over them. Default: 1.
  int threads = 1;
  // The measured phase ends after this long, or after `ops` operations when
  // that is set (never both). Default: 10 s.
  std::chrono::milliseconds duration{10000};
  std::optional<uint64_t> ops;
  // Run before the measured phase, excluded from the results. Default: 2 s.
  std::chrono::milliseconds warmup{2000};
  // Operations per second over all connections; latency is measured from
  // each operation's intended start. Default: unset (unthrottled).
  std::optional<double> rate;
  // Per request, and for connecting. Default: 5 s.
  std::chrono::milliseconds timeout{5000};
  // Default: 10000.
  uint64_t partitions = 10000;
  // Default: 1 (no clustering column).
  uint64_t rows_per_partition = 1;
  // Value columns per row. Default: 1.
  int columns = 1;
  // Bytes per value column. Default: 32.
  int value_size = 32;
  // read: rows per read; 1 reads one row by its full primary key, K > 1
  // reads the first K rows of a partition. Default: 1.
  int slice = 1;
  // lwt: whether the condition holds (IF v0 != 0x: every round runs) or
  // never does (IF v0 = 0x: [applied] false, which Paxos v2 decides at the
  // prepare). Default: true.
  bool lwt_applies = true;
  // mixed: writes : reads. Default: 1:1.
  int write_ratio = 1;
  int read_ratio = 1;
  // Of every request. Default: ONE.
  protocol::Consistency consistency = protocol::Consistency::kOne;
  // Of the keyspace stress creates (SimpleStrategy). Default: 1.
  int replication_factor = 1;
  // Default: sibyl_stress.
  std::string keyspace = "sibyl_stress";
  // Default: standard1, or counter1 for the counter workload.
  std::string table;
  // Use the existing keyspace and table instead of creating them.
  bool no_schema = false;
  // Write every row of partitions × rows_per_partition before the run.
  bool populate = false;
  // The final report as one JSON object on stdout.
  bool json = false;
  // Set by --help: print StressUsage() and exit 0.
  bool help = false;

  bool token_aware() const { return hosts.size() > 1; }
};

// Parses the arguments after `sibyl stress`. Options are `--name value` or
// `--name=value`. Throws StressUsageError.
[[nodiscard]] StressOptions ParseStressArguments(const std::vector<std::string>& args);

// "10s", "500ms", "2m", "1h", or a bare number of seconds ("2.5").
// Throws StressUsageError naming `option`.
[[nodiscard]] std::chrono::milliseconds ParseDuration(std::string_view option,
                                                      std::string_view text);

std::string StressUsage();

}  // namespace sibyl::tools
