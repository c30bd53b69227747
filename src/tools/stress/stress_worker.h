#pragma once
// One closed loop for one phase of a stress run: it keeps up to
// --concurrency requests in flight, and every completion issues the next
// operation until the phase has none left. With one node its requests go to
// one connection; token-aware (several --host) it holds a connection to every
// node, all on one io thread, and sends each operation to a replica of its
// partition, spreading over the replicas by operation number as drivers
// spread over them by shuffling (scans, which have no key, over every node). Under --rate an
// operation waits for its intended start (FixedRateSchedule) and its latency counts from that time,
// even when every slot was busy and it left late.
//
// Threading: Start() and everything after run on the connections' io thread.
// Other threads read results() only after the worker reported done through
// the phase's `finished` counter, and take live figures with a task posted to
// the connection's executor (SnapshotInterval).

#include <atomic>
#include <boost/asio/steady_timer.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "client/client_connection.h"
#include "tools/stress/fixed_rate_schedule.h"
#include "tools/stress/stress_result.h"
#include "tools/stress/stress_workload.h"
#include "tools/stress/token_aware_router.h"

namespace sibyl::tools {

// What all workers of a phase share. Fixed before the phase starts, except the atomics.
struct StressPhase {
  using Clock = std::chrono::steady_clock;

  const StressOptions* options = nullptr;
  Workload workload = Workload::kWrite;
  const PreparedWorkload* prepared = nullptr;
  const RowGenerator* rows = nullptr;
  // No operation is numbered op_limit or above; none starts at or after `end`.
  std::optional<uint64_t> op_limit;
  Clock::time_point end = Clock::time_point::max();
  std::optional<FixedRateSchedule> schedule;  // --rate
  Clock::time_point start;                    // for each worker's elapsed time
  // Operation numbers are handed out from here, over all workers.
  std::atomic<uint64_t> next_op{0};
  // Workers that have drained.
  std::atomic<int> finished{0};
};

// Figures since the previous snapshot, for the live line.
struct IntervalSnapshot {
  LatencyHistogram latency;
  uint64_t ops = 0;  // cumulative counters at the time of the snapshot
  uint64_t errors = 0;
  uint64_t timeouts = 0;
};

class StressWorker {
 public:
  using Clock = std::chrono::steady_clock;

  // `connections`: one, or with `router` one per node in the router's node
  // order. REQUIRES: all on one io_context; `router` (may be null) outlives
  // the worker.
  StressWorker(std::vector<std::shared_ptr<client::Connection>> connections,
               const TokenAwareRouter* router, StressPhase& phase);
  StressWorker(const StressWorker&) = delete;
  StressWorker& operator=(const StressWorker&) = delete;

  // REQUIRES: on the connection's io thread.
  void Start();
  // Moves the latencies since the last call into `out` and copies the
  // counters. REQUIRES: on the connection's io thread.
  void SnapshotInterval(IntervalSnapshot& out);
  // REQUIRES: the worker is done (phase.finished counted it).
  const StressResult& result() const { return result_; }

 private:
  // One request slot; a scan keeps its cursor here between pages.
  struct Slot {
    StressWorker* worker = nullptr;
    OperationKind kind = OperationKind::kWrite;  // of the request in flight
    Bytes paging_state;
  };

  // Issues operations while a slot is free and the phase has some left.
  void Fill();
  // Takes the next operation number; false when the phase has none left.
  bool Claim();
  void Issue(Slot* slot, uint64_t n, Clock::time_point intended);
  void OnReply(Slot* slot, Clock::time_point intended, client::Reply&& reply);
  void MaybeFinish();
  // Where operation n goes.
  client::Connection& Target(const BoundOperation& op, uint64_t n);
  // Every connection can take requests.
  bool Ready() const;

  std::vector<std::shared_ptr<client::Connection>> connections_;
  const TokenAwareRouter* router_;
  StressPhase& phase_;
  OperationBinder binder_;
  protocol::QueryOptions query_options_;
  boost::asio::steady_timer timer_;
  bool timer_armed_ = false;

  std::vector<Slot> slots_;
  std::vector<Slot*> free_slots_;
  int outstanding_ = 0;
  // The operation claimed but not yet due (--rate).
  std::optional<std::pair<uint64_t, Clock::time_point>> waiting_;
  bool exhausted_ = false;
  bool done_ = false;

  StressResult result_;
  LatencyHistogram interval_latency_;
};

}  // namespace sibyl::tools
