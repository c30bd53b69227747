// What the messaging layer costs per internode request: two MessagingServices
// on TcpTransports over loopback (127.0.0.1 and 127.0.0.2, each with its own
// scheduler thread), one sending MUTATION-sized requests, the other answering
// each with an empty reply, as a replica acknowledges a write.
//
//   build-release/bench/messaging_bench --benchmark_min_time=0.5
//
// Arguments: payload bytes, requests in flight. Counters per round trip:
//   cpu_us   user + system CPU of the whole process (both nodes' threads:
//            encode, CRC, syscalls, decode, dispatch, reply) — the figure
//            a coordinator and one replica pay together for one request;
//   wire_B   bytes written to sockets for the request and its reply
//            (48-byte headers, payloads, 4-byte CRCs).
// Wall time per iteration is the round trip's latency with 1 in flight.

#include <benchmark/benchmark.h>
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>

#include "messaging/asio_scheduler.h"
#include "messaging/epoch_gate.h"
#include "messaging/messaging_service.h"
#include "messaging/tcp_transport.h"
#include "types/uuid.h"

namespace sibyl::messaging {
namespace {

class OpenGate final : public EpochGate {
 public:
  uint64_t LocalEpoch() const override { return 1; }
  void WhenCaughtUp(uint64_t, std::function<void(bool)> done) override { done(true); }
};

struct Node {
  explicit Node(const std::string& ip)
      : transport(TcpTransportOptions{.listen = PeerAddress{ip, 0}}),
        service(transport, scheduler, gate, MessagingOptions{.host_id = types::Uuid::Random()}) {
    service.RegisterHandler(Verb::kMutation,
                            [](const Message&, Responder responder) { responder.Reply({}); });
    service.Start();
  }
  ~Node() {
    service.Stop();
    scheduler.Stop();
  }
  AsioScheduler scheduler{1};
  OpenGate gate;
  TcpTransport transport;
  MessagingService service;
};

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

uint64_t BytesSent(const Node& node) {
  uint64_t total = 0;
  for (const auto& [peer, traffic] : node.service.PeerTraffic()) total += traffic.bytes_sent;
  return total;
}

void BM_RequestReply(benchmark::State& state) {
  static Node coordinator("127.0.0.1");
  static Node replica("127.0.0.2");
  const Bytes payload(static_cast<size_t>(state.range(0)), 'm');
  const int in_flight = static_cast<int>(state.range(1));
  const PeerAddress to = replica.service.local_address();
  const double cpu_before = ProcessCpuSeconds();
  const uint64_t bytes_before = BytesSent(coordinator) + BytesSent(replica);
  int64_t round_trips = 0;
  for (auto _ : state) {
    // One batch of `in_flight` concurrent requests per iteration.
    std::atomic<int> remaining{in_flight};
    std::promise<void> all;
    for (int i = 0; i < in_flight; ++i) {
      coordinator.service.SendRequest(to, Verb::kMutation, payload, std::chrono::seconds(10),
                                      [&](Reply reply) {
                                        if (!reply.ok()) state.SkipWithError("request failed");
                                        if (remaining.fetch_sub(1) == 1) all.set_value();
                                      });
    }
    all.get_future().wait();
    round_trips += in_flight;
  }
  const double cpu = ProcessCpuSeconds() - cpu_before;
  const uint64_t bytes = BytesSent(coordinator) + BytesSent(replica) - bytes_before;
  state.SetItemsProcessed(round_trips);
  state.counters["cpu_us"] = benchmark::Counter(cpu * 1e6 / static_cast<double>(round_trips));
  state.counters["wire_B"] =
      benchmark::Counter(static_cast<double>(bytes) / static_cast<double>(round_trips));
}

BENCHMARK(BM_RequestReply)
    ->ArgNames({"payload", "in_flight"})
    ->Args({100, 1})
    ->Args({100, 32})
    ->Args({1000, 32})
    ->Args({10000, 32})
    ->UseRealTime();

}  // namespace
}  // namespace sibyl::messaging

BENCHMARK_MAIN();
