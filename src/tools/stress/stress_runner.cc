#include "tools/stress/stress_runner.h"

#include <boost/asio/post.hpp>
#include <cctype>
#include <latch>
#include <memory>
#include <optional>
#include <thread>

#include "client/blocking_call.h"
#include "client/io_thread.h"
#include "tools/stress/ring_discovery.h"
#include "tools/stress/stress_report.h"
#include "tools/stress/stress_worker.h"

namespace sibyl::tools {

namespace {

using Clock = std::chrono::steady_clock;

class Runner {
 public:
  Runner(const StressOptions& options, std::FILE* live)
      : options_(options),
        live_(live),
        rows_(options.partitions, options.rows_per_partition, options.value_size) {}

  ~Runner() {
    // Close every connection on its own thread, then stop the threads; only
    // then may workers (their timers, their connections) go.
    for (auto& connection : connections_) {
      (void)client::BlockingCall(*connection, [](client::Connection& c, auto done) {
        c.Close();
        done(client::Reply{client::VoidResult{}, {}});
      });
    }
    if (discovery_) {
      (void)client::BlockingCall(*discovery_, [](client::Connection& c, auto done) {
        c.Close();
        done(client::Reply{client::VoidResult{}, {}});
      });
    }
    for (auto& thread : threads_) thread->Stop();
    workers_.clear();
    worker_connections_.clear();
    connections_.clear();
  }

  StressOutcome Run() {
    if (options_.token_aware()) {
      ConnectToEveryNode();
    } else {
      Connect();
    }
    prepared_ = SetUpWorkload(*connections_.front(), options_);
    if (options_.token_aware()) PrepareOnEveryNode();
    if (options_.populate) Populate();
    if (options_.warmup.count() > 0) {
      StressPhase& warmup = NewPhase(options_.workload);
      warmup.end = warmup.start + options_.warmup;
      if (options_.rate) warmup.schedule.emplace(warmup.start, *options_.rate);
      RunPhase(warmup, "warmup");
      RequireConnections("the warm-up");
    }
    StressPhase& measured = NewPhase(options_.workload);
    if (options_.ops) {
      measured.op_limit = options_.ops;
    } else {
      measured.end = measured.start + options_.duration;
    }
    if (options_.rate) measured.schedule.emplace(measured.start, *options_.rate);
    StressOutcome outcome;
    outcome.result = RunPhase(measured, WorkloadName(options_.workload));
    outcome.connection_failures = BrokenConnections();
    return outcome;
  }

 private:
  client::ConnectionOptions OptionsFor(const std::string& host) const {
    client::ConnectionOptions connection_options;
    connection_options.host = host;
    connection_options.port = options_.port;
    connection_options.protocol_version = options_.protocol_version;
    connection_options.connect_timeout = options_.timeout;
    connection_options.request_timeout = options_.timeout;
    return connection_options;
  }

  // "" once `connection` is ready, else why not.
  std::string ConnectOrExplain(client::Connection& connection, const std::string& host) const {
    const client::Reply reply = client::BlockingConnect(connection);
    if (const auto* failure = std::get_if<client::TransportFailure>(&reply.response)) {
      return failure->message;
    }
    if (const auto* error = std::get_if<client::ErrorResponse>(&reply.response)) {
      return host + ":" + std::to_string(options_.port) +
             " refused the connection: " + error->message;
    }
    return "";
  }

  std::shared_ptr<client::Connection> Open(const std::string& host, size_t thread) {
    auto connection = client::Connection::Create(threads_[thread]->context(), OptionsFor(host));
    connections_.push_back(connection);
    if (std::string why = ConnectOrExplain(*connection, host); !why.empty()) throw StressError(why);
    return connection;
  }

  void StartThreads() {
    for (int i = 0; i < options_.threads; ++i) {
      threads_.push_back(std::make_unique<client::IoThread>());
    }
  }

  // One node: --connections connections to it, a worker on each.
  void Connect() {
    StartThreads();
    for (int i = 0; i < options_.connections; ++i) {
      worker_connections_.push_back(
          {Open(options_.hosts.front(), static_cast<size_t>(i % options_.threads))});
    }
  }

  // Token-aware: the ring from the first --host that answers, then
  // --connections connections to each of its nodes; each worker gets one
  // connection to every node, all on its thread.
  void ConnectToEveryNode() {
    StartThreads();
    std::string failures;
    std::string contact;
    for (const std::string& host : options_.hosts) {
      auto connection = client::Connection::Create(threads_[0]->context(), OptionsFor(host));
      const std::string why = ConnectOrExplain(*connection, host);
      discovery_ = std::move(connection);
      if (why.empty()) {
        contact = host;
        break;
      }
      failures += (failures.empty() ? "" : "; ") + why;
    }
    if (contact.empty()) throw StressError("no --host answered: " + failures);
    nodes_ = DiscoverRing(*discovery_, contact);
    for (int i = 0; i < options_.connections; ++i) {
      std::vector<std::shared_ptr<client::Connection>> to_every_node;
      for (const RingNode& node : nodes_) {
        to_every_node.push_back(
            Open(node.native_address, static_cast<size_t>(i % options_.threads)));
      }
      worker_connections_.push_back(std::move(to_every_node));
    }
    std::fprintf(live_, "token-aware over %zu nodes (ring from %s), %zu connections\n",
                 nodes_.size(), contact.c_str(), connections_.size());
  }

  // Each node prepares for itself; the ids, digests of the statements, agree.
  void PrepareOnEveryNode() {
    const std::vector<std::shared_ptr<client::Connection>>& to_every_node =
        worker_connections_.front();
    for (size_t i = 1; i < to_every_node.size(); ++i) {
      const PreparedWorkload other = PrepareWorkload(*to_every_node[i], options_);
      if (other.write.id != prepared_.write.id || other.read.id != prepared_.read.id ||
          other.scan.id != prepared_.scan.id) {
        throw StressError(nodes_[i].native_address +
                          " prepared the workload's statements under other ids than " +
                          nodes_[0].native_address);
      }
    }
    std::string keyspace = options_.keyspace;
    for (char& c : keyspace) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    router_.emplace(nodes_, ReadReplication(*discovery_, keyspace));
  }

  void Populate() {
    StressPhase& phase = NewPhase(Workload::kWrite);
    phase.op_limit = rows_.rows();
    std::fprintf(live_, "populate: writing %llu rows\n",
                 static_cast<unsigned long long>(rows_.rows()));
    const StressResult result = RunPhase(phase, "");
    RequireConnections("--populate");
    if (result.errors() + result.timeouts > 0) {
      throw StressError("--populate failed: " + std::to_string(result.errors()) + " errors, " +
                        std::to_string(result.timeouts) + " timeouts" + FirstErrorText(result));
    }
    std::fprintf(live_, "populate: %llu rows in %.1f s\n",
                 static_cast<unsigned long long>(result.ops), result.seconds());
  }

  StressPhase& NewPhase(Workload workload) {
    phases_.push_back(std::make_unique<StressPhase>());
    StressPhase& phase = *phases_.back();
    phase.options = &options_;
    phase.workload = workload;
    phase.prepared = &prepared_;
    phase.rows = &rows_;
    phase.start = Clock::now();
    return phase;
  }

  // Runs `phase` on every connection until it drains; prints a live line
  // each second unless `label` is empty.
  StressResult RunPhase(StressPhase& phase, std::string_view label) {
    std::vector<StressWorker*> workers;
    const TokenAwareRouter* router = router_ ? &*router_ : nullptr;
    for (const auto& connections : worker_connections_) {
      workers_.push_back(std::make_unique<StressWorker>(connections, router, phase));
      StressWorker* worker = workers_.back().get();
      workers.push_back(worker);
      boost::asio::post(connections.front()->executor(), [worker] { worker->Start(); });
    }
    const int count = static_cast<int>(workers.size());
    // A duration-bound phase that has not drained by then has requests the
    // connections did not time out: close them rather than hang.
    const Clock::time_point give_up = phase.end == Clock::time_point::max()
                                          ? Clock::time_point::max()
                                          : phase.end + options_.timeout + std::chrono::seconds(2);
    bool gave_up = false;
    Clock::time_point next_tick = phase.start + std::chrono::seconds(1);
    Clock::time_point last_tick = phase.start;
    uint64_t last_ops = 0;
    while (phase.finished.load(std::memory_order_acquire) < count) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      const auto now = Clock::now();
      if (!label.empty() && now >= next_tick) {
        const IntervalSnapshot snapshot = Snapshot(workers);
        LiveLine line;
        line.label = label;
        line.elapsed_s = std::chrono::duration<double>(now - phase.start).count();
        line.ops_per_s = static_cast<double>(snapshot.ops - last_ops) /
                         std::chrono::duration<double>(now - last_tick).count();
        line.latency = &snapshot.latency;
        line.errors = snapshot.errors;
        line.timeouts = snapshot.timeouts;
        std::fputs(FormatLiveLine(line).c_str(), live_);
        std::fflush(live_);
        last_ops = snapshot.ops;
        last_tick = now;
        next_tick += std::chrono::seconds(1);
      }
      if (!gave_up && now >= give_up) {
        gave_up = true;
        for (auto& connection : connections_) {
          boost::asio::post(connection->executor(), [connection] { connection->Close(); });
        }
      }
    }
    StressResult total;
    for (StressWorker* worker : workers) {
      total.Merge(worker->result());
      total.elapsed = std::max(total.elapsed, worker->result().elapsed);
    }
    if (gave_up) {
      throw StressError("requests still unanswered " + std::to_string(options_.timeout.count()) +
                        " ms after the end of the run; connections closed");
    }
    return total;
  }

  // The figures of every worker since the last snapshot, taken on their threads.
  IntervalSnapshot Snapshot(const std::vector<StressWorker*>& workers) {
    std::vector<IntervalSnapshot> parts(workers.size());
    std::latch taken(static_cast<std::ptrdiff_t>(workers.size()));
    for (size_t i = 0; i < workers.size(); ++i) {
      boost::asio::post(worker_connections_[i].front()->executor(), [&, i] {
        workers[i]->SnapshotInterval(parts[i]);
        taken.count_down();
      });
    }
    taken.wait();
    IntervalSnapshot total;
    for (const IntervalSnapshot& part : parts) {
      total.latency.Merge(part.latency);
      total.ops += part.ops;
      total.errors += part.errors;
      total.timeouts += part.timeouts;
    }
    return total;
  }

  // Reads is_ready()/failure() on each connection's own thread.
  std::vector<std::string> BrokenConnections() {
    std::vector<std::string> broken;
    for (auto& connection : connections_) {
      std::string why;
      (void)client::BlockingCall(*connection, [&why](client::Connection& c, auto done) {
        if (!c.is_ready()) why = c.failure().empty() ? "connection closed" : c.failure();
        done(client::Reply{client::VoidResult{}, {}});
      });
      if (!why.empty()) broken.push_back(why);
    }
    return broken;
  }

  void RequireConnections(const std::string& during) {
    const std::vector<std::string> broken = BrokenConnections();
    if (!broken.empty()) throw StressError("connection failed during " + during + ": " + broken[0]);
  }

  const StressOptions& options_;
  std::FILE* live_;
  RowGenerator rows_;
  PreparedWorkload prepared_;
  std::vector<std::unique_ptr<client::IoThread>> threads_;
  // Every connection the workers use.
  std::vector<std::shared_ptr<client::Connection>> connections_;
  // Each worker's connections: one, or one to every node (token-aware).
  std::vector<std::vector<std::shared_ptr<client::Connection>>> worker_connections_;
  // Token-aware: the connection the ring was read through, the ring's nodes
  // (in the order of each worker's connections) and the router over them.
  std::shared_ptr<client::Connection> discovery_;
  std::vector<RingNode> nodes_;
  std::optional<TokenAwareRouter> router_;
  std::vector<std::unique_ptr<StressPhase>> phases_;
  // Every phase's workers, kept until the threads have stopped.
  std::vector<std::unique_ptr<StressWorker>> workers_;
};

}  // namespace

StressOutcome RunStress(const StressOptions& options, std::FILE* live) {
  Runner runner(options, live);
  return runner.Run();
}

}  // namespace sibyl::tools
