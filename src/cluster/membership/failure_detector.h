#pragma once
// Which members are alive, from heartbeats: every `interval` the detector
// sends a one-way HEARTBEAT to every other member of the current view,
// carrying (generation, counter, applied metadata epoch, schema version),
// and declares DOWN a member it has not heard from for `timeout`.
//
// Cassandra's FailureDetector uses phi accrual over gossip arrival times
// (phi_convict_threshold 8 with 1 s gossip rounds convicts after roughly
// 5-10 s of silence); a fixed timeout is simpler to reason about and to test
// over virtual time, and gives the same order of magnitude. A member is
// presumed alive when it first appears in the view (as a driver presumes the
// hosts it reads from system.peers are up) and convicted only after a
// timeout of silence from then on.
//
// Heartbeat payload (big-endian): i64 generation | u64 counter
//                                 | u64 epoch | 16 bytes schema version
//                                 | i64 load (bytes of live data; -1 unknown)
//                                 | u8 flags (bit 0: serving CQL; bits 1-2:
//                                   the disk usage state, guardrails::
//                                   DiskUsageState's value).
// `generation` is the sender's start time in seconds (Cassandra's gossip
// generation): a new value means the member restarted.
//
// "Serving CQL" is Cassandra's RPC_READY: drivers told about a node (UP,
// NEW_NODE) connect to it at once, so those events wait for it
// (ReadyListener).
//
// Thread-safety: RegisterHandler and AddListener before Start, on one
// thread; everything else from any thread. Listeners run on the scheduler's
// or the transport's thread, without the detector's lock held; they must
// not block.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "cluster/cluster_view.h"
#include "cluster/liveness.h"
#include "cluster/membership/disk_usage_states.h"
#include "guardrails/disk_usage.h"
#include "messaging/messaging_service.h"
#include "messaging/scheduler.h"
#include "types/uuid.h"

namespace sibyl::cluster {

struct FailureDetectorOptions {
  // Between two heartbeats to each member. Default: 1 s (Cassandra's gossip round).
  messaging::Duration interval = std::chrono::seconds(1);
  // Silence after which a member is DOWN. Default: 5 s.
  messaging::Duration timeout = std::chrono::seconds(5);
  // This node's gossip generation (seconds since the Unix epoch at start-up).
  int64_t generation = 0;
};

// What a heartbeat says about its sender.
struct Heartbeat {
  int64_t generation = 0;
  uint64_t counter = 0;
  uint64_t epoch = 0;
  types::Uuid schema_version;
  // The sender's live data on disk, as `sibyl admin status` shows it for
  // every node; -1 when the sender could not measure it.
  int64_t load_bytes = -1;
  bool native_transport_ready = false;
  // The sender's disk usage state (replica_disk_usage).
  guardrails::DiskUsageState disk_usage = guardrails::DiskUsageState::kNotAvailable;
  bool operator==(const Heartbeat&) const = default;
};

// What the local node says of itself in each heartbeat.
struct LocalHeartbeatState {
  uint64_t epoch = 0;
  types::Uuid schema_version;
  int64_t load_bytes = -1;
  guardrails::DiskUsageState disk_usage = guardrails::DiskUsageState::kNotAvailable;
};

[[nodiscard]] Bytes EncodeHeartbeat(const Heartbeat& heartbeat);
// nullopt when `data` is not a heartbeat.
[[nodiscard]] std::optional<Heartbeat> DecodeHeartbeat(BytesView data);

class FailureDetector final : public Liveness {
 public:
  // The local epoch, schema version and load, read at each heartbeat.
  using LocalState = std::function<LocalHeartbeatState()>;
  // Called when a member goes DOWN (alive false) or comes back UP.
  using Listener = std::function<void(const types::Uuid& node, bool alive)>;
  // Called when a member's heartbeats start saying it serves CQL (after
  // each start of the member).
  using ReadyListener = std::function<void(const types::Uuid& node)>;

  // REQUIRES: everything outlives the detector; Stop() before the
  // scheduler and messaging go.
  FailureDetector(messaging::MessagingService& messaging, messaging::Scheduler& scheduler,
                  const ClusterViewHolder& views, LocalState local_state,
                  FailureDetectorOptions options);
  ~FailureDetector() override;

  // Handles HEARTBEAT. REQUIRES: before messaging.Start().
  void RegisterHandler();
  void AddListener(Listener listener);
  void AddReadyListener(ReadyListener listener);
  // Where each member's disk usage state, as its heartbeats say, is kept
  // (and a member that leaves is forgotten). REQUIRES: before Start;
  // `states` outlives the detector.
  void SetDiskUsageStates(DiskUsageStates* states) { disk_usage_states_ = states; }
  // Whether this node's heartbeats say it serves CQL (false until set).
  void SetNativeTransportReady(bool ready) { native_transport_ready_ = ready; }
  // Whether `node`'s last heartbeat said it serves CQL.
  bool IsNativeTransportReady(const types::Uuid& node) const;
  // Sends the first heartbeats now and then every interval.
  void Start();
  // No more heartbeats or verdicts. Idempotent.
  void Stop();

  bool IsAlive(const types::Uuid& node) const override;
  std::chrono::milliseconds Downtime(const types::Uuid& node) const override;
  // The last heartbeat heard from `node`, if any.
  std::optional<Heartbeat> LastHeartbeat(const types::Uuid& node) const;
  // `node` confirmed otherwise (schema agreement) that it reached `epoch`
  // with `schema_version`: its last heartbeat is updated when older, so
  // that system.peers shows the new version before the next heartbeat.
  void NoteEpoch(const types::Uuid& node, uint64_t epoch, const types::Uuid& schema_version);

 private:
  struct Member {
    messaging::TimePoint last_heard;
    bool alive = true;
    messaging::TimePoint down_since;
    std::optional<Heartbeat> heartbeat;
  };
  using Transition = std::pair<types::Uuid, bool>;

  void Tick();
  void OnHeartbeat(const messaging::Message& message);
  // Adds members new to the view, forgets the removed, convicts the silent.
  std::vector<Transition> ReviewLocked(const ClusterView& view, messaging::TimePoint now);
  void Notify(const std::vector<Transition>& transitions) const;

  messaging::MessagingService& messaging_;
  messaging::Scheduler& scheduler_;
  const ClusterViewHolder& views_;
  const LocalState local_state_;
  const FailureDetectorOptions options_;
  std::vector<Listener> listeners_;               // written before Start only
  std::vector<ReadyListener> ready_listeners_;    // written before Start only
  DiskUsageStates* disk_usage_states_ = nullptr;  // written before Start only
  std::atomic<bool> native_transport_ready_{false};

  mutable std::mutex mutex_;
  std::map<types::Uuid, Member> members_;  // GUARDED_BY(mutex_); never the local node
  uint64_t counter_ = 0;                   // GUARDED_BY(mutex_)
  bool stopped_ = false;                   // GUARDED_BY(mutex_)
  messaging::TimerHandle timer_{};         // GUARDED_BY(mutex_)
};

}  // namespace sibyl::cluster
