#pragma once
// The metadata epoch as messaging needs it (docs/dev/cluster.md, "Epochs"):
// provided by the owner of the metadata (the node), so that messaging, below
// it in the layers, can hold a request from a sender ahead of us until the
// local metadata catches up.
//
// Thread-safe: both methods are called from transport and scheduler threads.

#include <cstdint>
#include <functional>

namespace sibyl::messaging {

class EpochGate {
 public:
  virtual ~EpochGate() = default;
  // The epoch of the local metadata now.
  virtual uint64_t LocalEpoch() const = 0;
  // Calls `done(true)` once the local metadata has reached `epoch` (at once,
  // possibly inline, if it has), or `done(false)` when it could not within
  // the owner's catch-up timeout. Exactly once, on any thread.
  virtual void WhenCaughtUp(uint64_t epoch, std::function<void(bool caught_up)> done) = 0;
};

}  // namespace sibyl::messaging
