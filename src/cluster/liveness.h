#pragma once
// Which members of the cluster this node believes alive: what the
// coordinator consults before contacting replicas (Unavailable is decided on
// it), and what decides whether a write for a dead replica becomes a hint.
// Implemented by the failure detector (heartbeats over messaging); tests
// set it by hand.
//
// Thread-safety: implementations answer from any thread.

#include <chrono>

#include "types/uuid.h"

namespace sibyl::cluster {

class Liveness {
 public:
  virtual ~Liveness() = default;
  // The local node is always alive to itself.
  [[nodiscard]] virtual bool IsAlive(const types::Uuid& node) const = 0;
  // How long `node` has been down, zero while it is alive. Hints are written
  // only while this is under max_hint_window.
  [[nodiscard]] virtual std::chrono::milliseconds Downtime(const types::Uuid& node) const = 0;
};

}  // namespace sibyl::cluster
