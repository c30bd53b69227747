#pragma once
// The EpochGate of a node of a cluster: its epoch is the metadata store's,
// and a request from a sender ahead of us waits for the store to catch up
// (reading the log from etcd), which happens on a thread of the gate's own,
// never on the messaging threads that call WhenCaughtUp.
//
// Thread-safety: every method from any thread. Stop() (or the destructor)
// waits for the catch-ups under way; their callbacks run before it returns.
#include <boost/asio/thread_pool.hpp>
#include <chrono>

#include "messaging/epoch_gate.h"
#include "metadata/etcd_metadata_store.h"

namespace sibyl::cluster {

class MetadataEpochGate final : public messaging::EpochGate {
 public:
  // REQUIRES: `store` outlives the gate. A catch-up that has not reached the
  // epoch within `timeout` calls back false.
  MetadataEpochGate(metadata::EtcdMetadataStore& store, std::chrono::milliseconds timeout);
  ~MetadataEpochGate() override;

  uint64_t LocalEpoch() const override { return store_.epoch(); }
  void WhenCaughtUp(uint64_t epoch, std::function<void(bool caught_up)> done) override;

  // Waits for the catch-ups under way. Idempotent.
  void Stop();

 private:
  metadata::EtcdMetadataStore& store_;
  const std::chrono::milliseconds timeout_;
  boost::asio::thread_pool catch_up_{1};  // one catch-up at a time: they share the commit lock
};

}  // namespace sibyl::cluster
