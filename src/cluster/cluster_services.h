#pragma once
// What a coordinator of a cluster works with, owned by the node
// (server/node.cc) or by a test's simulated cluster: the current view of the
// ring, internode messaging, the scheduler its timeouts run on, the failure
// detector's verdicts, the hints directory, and cassandra.yaml's timeouts.
// Everything here must outlive the coordinator that uses it.

#include <chrono>
#include <functional>

#include "cluster/batchlog/batch_store.h"
#include "cluster/cluster_view.h"
#include "cluster/hints/hint_store.h"
#include "cluster/liveness.h"
#include "messaging/messaging_service.h"
#include "messaging/scheduler.h"

namespace sibyl::cluster {

// cassandra.yaml's *_request_timeout keys (server/config.h has the defaults).
struct RequestTimeouts {
  std::chrono::milliseconds read{5000};
  std::chrono::milliseconds range{10000};
  std::chrono::milliseconds write{2000};
  std::chrono::milliseconds counter_write{5000};
  std::chrono::milliseconds truncate{60000};
  // cas_contention_timeout: how long a lightweight transaction retries
  // Paxos rounds it loses to other proposers.
  std::chrono::milliseconds cas_contention{1000};
};

// Runs work that may block (an fsync, a wait for a read) off the messaging
// and scheduler threads, which must not block. Empty: on the calling thread
// (a simulated cluster, whose engines never block).
using BlockingRunner = std::function<void(std::function<void()> work)>;

// cassandra.yaml's paxos_variant: how lightweight transactions run Paxos
// among the replicas (cluster/paxos/paxos_coordinator.h). v1: Cassandra's
// classic rounds (prepare, a QUORUM read, propose, commit); v2: the read
// rides on the prepare, and an attempt that finds nothing in flight skips
// what v1 spends on a read or a failed condition.
enum class PaxosVariant { kV1, kV2 };

struct ClusterServices {
  ClusterViewHolder* views = nullptr;
  messaging::MessagingService* messaging = nullptr;
  messaging::Scheduler* scheduler = nullptr;
  const Liveness* liveness = nullptr;
  HintStore* hints = nullptr;  // null: hinted_handoff_enabled is false
  // The batches this node keeps for coordinators (batchlog/); a logged batch
  // at ANY with no other live node of the datacenter is kept here too. Null:
  // such a batch is Unavailable.
  BatchStore* batches = nullptr;
  std::chrono::milliseconds max_hint_window{std::chrono::hours(3)};
  // cassandra.yaml's hinted_handoff_throttle: the bytes of hints per second
  // this node replays, shared among the other members (default 1024KiB).
  uint64_t hinted_handoff_throttle_bytes = 1024 * 1024;
  RequestTimeouts timeouts;
  BlockingRunner blocking;
  PaxosVariant paxos_variant = PaxosVariant::kV2;
};

}  // namespace sibyl::cluster
