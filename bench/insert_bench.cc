// insert_bench: single-row prepared INSERT throughput and latency against a
// running node, through the project's own client (src/client).
//
//   insert_bench --host 127.0.0.1 --port 9042 --connections 4 --in-flight 32
//
// Creates bench.kv (k bigint PRIMARY KEY, v blob) unless --no-schema, prepares
// INSERT INTO bench.kv (k, v) VALUES (?, ?), and keeps --in-flight requests
// outstanding on each of --connections connections for --warmup + --seconds,
// each with a distinct random key and a --value-size-byte value. Prints ops/s
// over the measured window, latency percentiles, errors, and (with
// --server-pid) the server's CPU use over the window.
//
// A plain program, not a Google Benchmark: the thing measured is a server in
// another process under a closed-loop load with many requests in flight over
// a fixed wall-clock window. Google Benchmark times a function called in a
// loop on this thread and picks its own iteration counts; it has no notion of
// concurrency within one connection, warm-up by time, or latency
// distributions, and its repetition logic would redo the schema set-up.

#include <unistd.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/latency_histogram.h"
#include "client/blocking_call.h"
#include "client/connection.h"
#include "client/io_thread.h"

namespace {

using namespace sibyl;          // NOLINT
using namespace sibyl::client;  // NOLINT
using Clock = std::chrono::steady_clock;
using sibyl::bench::LatencyHistogram;

struct BenchOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 9042;
  int protocol_version = 4;
  int connections = 1;
  int in_flight = 1;  // per connection
  int threads = 1;    // io threads; connections are spread over them
  int seconds = 10;
  int warmup = 2;
  int value_size = 64;
  int timeout_ms = 5000;  // per request and for connecting
  bool create_schema = true;
  int server_pid = 0;  // 0: do not report server CPU
};

constexpr const char* kUsage =
    "usage: insert_bench [--host H] [--port P] [--connections C] [--in-flight M]\n"
    "                    [--seconds S] [--warmup W] [--value-size B] [--threads T]\n"
    "                    [--protocol-version 4|5] [--timeout-ms MS] [--no-schema]\n"
    "                    [--server-pid PID]\n";

// Exits without running destructors: io threads may still be running.
[[noreturn]] void Die(const std::string& message, int code = 1) {
  std::fflush(stdout);
  std::fprintf(stderr, "insert_bench: %s\n", message.c_str());
  std::_Exit(code);
}

BenchOptions ParseArgs(int argc, char** argv) {
  BenchOptions o;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    if (flag == "--no-schema") {
      o.create_schema = false;
      continue;
    }
    if (flag == "--help" || flag == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    }
    if (i + 1 >= argc) Die("missing value for " + flag + "\n" + kUsage, 2);
    const std::string value = argv[++i];
    if (flag == "--host") {
      o.host = value;
      continue;
    }
    char* end = nullptr;
    const long n = std::strtol(value.c_str(), &end, 10);
    if (end == value.c_str() || *end != '\0' || n < 0) {
      Die("invalid value '" + value + "' for " + flag, 2);
    }
    const int v = static_cast<int>(n);
    if (flag == "--port" && n > 0 && n < 65536)
      o.port = static_cast<uint16_t>(n);
    else if (flag == "--connections" && v > 0)
      o.connections = v;
    else if (flag == "--in-flight" && v > 0 && v <= 32768)
      o.in_flight = v;
    else if (flag == "--threads" && v > 0)
      o.threads = v;
    else if (flag == "--seconds" && v > 0)
      o.seconds = v;
    else if (flag == "--warmup")
      o.warmup = v;
    else if (flag == "--value-size")
      o.value_size = v;
    else if (flag == "--timeout-ms" && v > 0)
      o.timeout_ms = v;
    else if (flag == "--protocol-version" && (v == 4 || v == 5))
      o.protocol_version = v;
    else if (flag == "--server-pid" && v > 0)
      o.server_pid = v;
    else
      Die("unknown flag or value out of range: " + flag + " " + value + "\n" + kUsage, 2);
  }
  return o;
}

// A bijection on 64-bit integers (splitmix64's finalizer): distinct inputs
// give distinct, well-spread keys.
uint64_t Mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// When each phase of the run starts; fixed before any request is sent, read-only after.
struct Schedule {
  Clock::time_point measure_start;
  Clock::time_point end;
};

// The errors of one connection, by code, with the first message of each.
struct ErrorTally {
  std::map<int32_t, std::pair<uint64_t, std::string>> by_code;
  uint64_t transport_failures = 0;
  std::string first_transport_failure;
};

// One connection's closed loop: every completion issues the next request
// until the end of the run. Runs entirely on its connection's io thread.
class Worker {
 public:
  Worker(std::shared_ptr<Connection> connection, int index, uint64_t seed,
         const PreparedResponse& prepared, const BenchOptions& options, const Schedule& schedule,
         std::atomic<int>& finished)
      : connection_(std::move(connection)),
        prepared_(prepared),
        schedule_(schedule),
        finished_(finished),
        next_key_(seed + (static_cast<uint64_t>(index) << 40)),
        value_(static_cast<size_t>(options.value_size), '\0'),
        in_flight_target_(options.in_flight) {
    std::mt19937_64 random(seed ^ static_cast<uint64_t>(index));
    for (char& c : value_) c = static_cast<char>(random());
    query_options_.consistency = protocol::Consistency::kOne;
    query_options_.skip_metadata = true;
  }

  // REQUIRES: on the connection's io thread.
  void Start() {
    for (int i = 0; i < in_flight_target_; ++i) Issue();
    MaybeFinish();
  }

  const LatencyHistogram& latencies() const { return latencies_; }
  uint64_t ok() const { return ok_; }
  const ErrorTally& errors() const { return errors_; }
  const Connection& connection() const { return *connection_; }

 private:
  void Issue() {
    const auto start = Clock::now();
    if (start >= schedule_.end || !connection_->is_ready()) return;
    const uint64_t key = Mix(next_key_++);
    for (int i = 0; i < 8; ++i) key_[i] = static_cast<char>(key >> (56 - 8 * i));
    const std::array<Value, 2> values{Value::Of(BytesView(key_, 8)), Value::Of(value_)};
    query_options_.values = values;
    ++outstanding_;
    // [this, start]: 16 bytes, stored inside the std::function without allocating.
    connection_->Execute(prepared_.id, prepared_.result_metadata_id, query_options_,
                         [this, start](Reply&& reply) { OnReply(start, reply); });
  }

  void OnReply(Clock::time_point start, const Reply& reply) {
    --outstanding_;
    const auto now = Clock::now();
    const bool measured = start >= schedule_.measure_start && now <= schedule_.end;
    if (reply.ok()) {
      if (measured) {
        latencies_.Record(static_cast<uint64_t>((now - start).count()));
        ++ok_;
      }
    } else if (const auto* error = std::get_if<ErrorResponse>(&reply.response)) {
      auto& [count, message] = errors_.by_code[static_cast<int32_t>(error->code)];
      if (count++ == 0) message = error->message;
    } else {
      if (errors_.transport_failures++ == 0) {
        errors_.first_transport_failure = std::get<TransportFailure>(reply.response).message;
      }
    }
    Issue();
    MaybeFinish();
  }

  void MaybeFinish() {
    if (outstanding_ == 0 && !done_) {
      done_ = true;
      finished_.fetch_add(1);
    }
  }

  std::shared_ptr<Connection> connection_;
  const PreparedResponse& prepared_;
  const Schedule& schedule_;
  std::atomic<int>& finished_;
  uint64_t next_key_;
  char key_[8] = {};
  Bytes value_;
  protocol::QueryOptions query_options_;
  int in_flight_target_;
  int outstanding_ = 0;
  bool done_ = false;
  uint64_t ok_ = 0;
  LatencyHistogram latencies_;
  ErrorTally errors_;
};

// utime + stime of a process, in clock ticks; -1 when unreadable.
long long ProcessCpuTicks(int pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return -1;
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const size_t close = line.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream fields(line.substr(close + 2));
  std::string field;
  long long utime = -1, stime = -1;
  for (int n = 3; fields >> field; ++n) {
    if (n == 14) utime = std::stoll(field);
    if (n == 15) {
      stime = std::stoll(field);
      break;
    }
  }
  return utime < 0 || stime < 0 ? -1 : utime + stime;
}

// A transport failure's message already names the address and the cause.
void Require(const Reply& reply, const std::string& what) {
  if (reply.ok()) return;
  if (const auto* failure = std::get_if<TransportFailure>(&reply.response)) {
    Die(what.empty() ? failure->message : what + ": " + failure->message);
  }
  Die(what + ": " + Describe(reply.response));
}

}  // namespace

int main(int argc, char** argv) {
  const BenchOptions options = ParseArgs(argc, argv);
  ConnectionOptions connection_options;
  connection_options.host = options.host;
  connection_options.port = options.port;
  connection_options.protocol_version = options.protocol_version;
  connection_options.connect_timeout = std::chrono::milliseconds(options.timeout_ms);
  connection_options.request_timeout = std::chrono::milliseconds(options.timeout_ms);

  std::vector<std::unique_ptr<IoThread>> threads;
  for (int i = 0; i < options.threads; ++i) threads.push_back(std::make_unique<IoThread>());

  // Connect every connection first: a node that is not there fails fast.
  std::vector<std::shared_ptr<Connection>> connections;
  for (int i = 0; i < options.connections; ++i) {
    auto& io = threads[static_cast<size_t>(i % options.threads)]->context();
    connections.push_back(Connection::Create(io, connection_options));
    Require(BlockingConnect(*connections.back()), "");
  }
  Connection& first = *connections.front();
  if (options.create_schema) {
    Require(BlockingQuery(first,
                          "CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
                          "{'class': 'SimpleStrategy', 'replication_factor': 1}"),
            "CREATE KEYSPACE bench failed");
    Require(
        BlockingQuery(first, "CREATE TABLE IF NOT EXISTS bench.kv (k bigint PRIMARY KEY, v blob)"),
        "CREATE TABLE bench.kv failed");
  }
  Reply prepared_reply = BlockingPrepare(first, "INSERT INTO bench.kv (k, v) VALUES (?, ?)");
  Require(prepared_reply, "PREPARE failed");
  const auto prepared = std::get<PreparedResponse>(std::move(prepared_reply.response));

  const uint64_t seed = std::random_device{}() | (uint64_t{std::random_device{}()} << 32);
  Schedule schedule;
  const auto begin = Clock::now();
  schedule.measure_start = begin + std::chrono::seconds(options.warmup);
  schedule.end = schedule.measure_start + std::chrono::seconds(options.seconds);
  std::atomic<int> finished{0};
  std::vector<std::unique_ptr<Worker>> workers;
  for (int i = 0; i < options.connections; ++i) {
    workers.push_back(std::make_unique<Worker>(connections[static_cast<size_t>(i)], i, seed,
                                               prepared, options, schedule, finished));
    Worker* worker = workers.back().get();
    boost::asio::post(connections[static_cast<size_t>(i)]->executor(),
                      [worker] { worker->Start(); });
  }

  std::printf(
      "insert_bench: %s:%u protocol v%d, %d connection(s) x %d in flight, %d-byte values, "
      "%d s (+%d s warm-up)\n",
      options.host.c_str(), options.port, options.protocol_version, options.connections,
      options.in_flight, options.value_size, options.seconds, options.warmup);
  std::fflush(stdout);

  std::this_thread::sleep_until(schedule.measure_start);
  const long long cpu_before = options.server_pid ? ProcessCpuTicks(options.server_pid) : -1;
  const long long own_cpu_before = ProcessCpuTicks(getpid());
  std::this_thread::sleep_until(schedule.end);
  const long long cpu_after = options.server_pid ? ProcessCpuTicks(options.server_pid) : -1;
  const long long own_cpu_after = ProcessCpuTicks(getpid());

  // Requests still out finish or time out (the connection's request timeout).
  const auto give_up =
      schedule.end + std::chrono::milliseconds(options.timeout_ms) + std::chrono::seconds(2);
  while (finished.load() < options.connections && Clock::now() < give_up) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const bool drained = finished.load() == options.connections;
  for (auto& connection : connections) {
    boost::asio::post(connection->executor(), [connection] { connection->Close(); });
  }
  for (auto& thread : threads) thread->Stop();  // workers are no longer touched after this

  LatencyHistogram latencies;
  uint64_t ok = 0, errors = 0, transport_failures = 0;
  std::map<int32_t, std::pair<uint64_t, std::string>> by_code;
  std::string transport_message;
  for (const auto& worker : workers) {
    latencies.Merge(worker->latencies());
    ok += worker->ok();
    for (const auto& [code, entry] : worker->errors().by_code) {
      errors += entry.first;
      auto& total = by_code[code];
      if (total.first == 0) total.second = entry.second;
      total.first += entry.first;
    }
    transport_failures += worker->errors().transport_failures;
    if (transport_message.empty()) transport_message = worker->errors().first_transport_failure;
  }
  const double ops = static_cast<double>(ok) / options.seconds;
  auto micros = [&](double q) { return static_cast<double>(latencies.Quantile(q)) / 1000.0; };
  std::printf("ops/s: %.0f\n", ops);
  std::printf("latency (us): p50 %.0f  p99 %.0f  p99.9 %.0f  max %.0f\n", micros(0.5), micros(0.99),
              micros(0.999), static_cast<double>(latencies.max()) / 1000.0);
  std::printf("requests: %llu ok, %llu errors, %llu transport failures\n",
              static_cast<unsigned long long>(ok), static_cast<unsigned long long>(errors),
              static_cast<unsigned long long>(transport_failures));
  for (const auto& [code, entry] : by_code) {
    std::printf("  error 0x%04X x%llu: %s\n", static_cast<unsigned>(code),
                static_cast<unsigned long long>(entry.first), entry.second.c_str());
  }
  if (!transport_message.empty()) std::printf("  transport: %s\n", transport_message.c_str());
  // CPU over the window as a share of one core, and per successful request.
  auto report_cpu = [&](const char* who, long long before, long long after) {
    if (before < 0 || after < 0) return;
    const double cpu_seconds =
        static_cast<double>(after - before) / static_cast<double>(sysconf(_SC_CLK_TCK));
    std::printf("%s cpu: %.1f%% of one core, %.1f us per request\n", who,
                100.0 * cpu_seconds / options.seconds, ok ? cpu_seconds * 1e6 / ok : 0.0);
  };
  report_cpu("server", cpu_before, cpu_after);
  report_cpu("client", own_cpu_before, own_cpu_after);
  if (!drained) std::fprintf(stderr, "insert_bench: requests still outstanding at exit\n");
  // A connection that broke during the run makes the figures meaningless.
  for (const auto& worker : workers) {
    const std::string& why = worker->connection().failure();
    if (why.find("closed by the client") == std::string::npos && !why.empty()) {
      Die("connection failed during the run: " + why);
    }
  }
  return drained ? 0 : 1;
}
