#pragma once
// Schema agreement: after this node commits a metadata change, it tells
// every live member "the metadata has reached epoch E" (EPOCH_NOTIFY); each
// catches up with the log and answers with the epoch it then has. The DDL
// statement returns once every live member answered (or the wait timed out),
// so a driver checking system.peers right after sees one schema version —
// what Cassandra gets by waiting for schema agreement over gossip.
//
// Payloads (big-endian): request u64 epoch; reply u64 the replier's epoch |
// 16 bytes its schema version then.
//
// Thread-safety: RegisterHandler before messaging starts; NotifyAndWait from
// any thread but a messaging or scheduler thread (it blocks).
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "cluster/cluster_view.h"
#include "cluster/liveness.h"
#include "messaging/epoch_gate.h"
#include "messaging/messaging_service.h"

namespace sibyl::cluster {

class EpochNotifier {
 public:
  // This node's schema version now.
  using SchemaVersion = std::function<types::Uuid()>;
  // A member confirmed it reached `epoch`, with `schema_version`.
  using AckListener =
      std::function<void(const types::Uuid& node, uint64_t epoch, const types::Uuid& version)>;

  // REQUIRES: all outlive the notifier.
  EpochNotifier(messaging::MessagingService& messaging, messaging::EpochGate& gate,
                const ClusterViewHolder& views, const Liveness& liveness,
                SchemaVersion schema_version, AckListener on_ack)
      : messaging_(messaging),
        gate_(gate),
        views_(views),
        liveness_(liveness),
        schema_version_(std::move(schema_version)),
        on_ack_(std::move(on_ack)) {}

  // Handles EPOCH_NOTIFY. REQUIRES: before messaging.Start().
  void RegisterHandler();

  // Notifies every live member but this one that the metadata reached
  // `epoch` and waits until each has answered at or past it, or was found
  // DOWN meanwhile, or `timeout`. Returns the live members that did not
  // answer (empty: all live members agree).
  [[nodiscard]] std::vector<types::Uuid> NotifyAndWait(uint64_t epoch,
                                                       std::chrono::milliseconds timeout);

 private:
  messaging::MessagingService& messaging_;
  messaging::EpochGate& gate_;
  const ClusterViewHolder& views_;
  const Liveness& liveness_;
  const SchemaVersion schema_version_;
  const AckListener on_ack_;
};

}  // namespace sibyl::cluster
