#pragma once
// A watch on a range of etcd keys: a streaming POST to /v3/watch on a
// connection and a thread of its own, delivering every change from a
// revision on, in revision order.
//
//   EtcdWatch watch(options, {.key = prefix, .range_end = PrefixEnd(prefix),
//                             .start_revision = r + 1},
//                   {.on_events = ..., .on_connected = ...});
//   ...
//   watch.Cancel();  // or destroy it
//
// When the stream breaks (etcd restarted, endpoint gone) the watch connects
// again — the next endpoint, with a backoff from 50 ms to 2 s — from the
// revision after the last event it delivered, so nothing is lost or
// repeated. When etcd has compacted that revision away, events are lost:
// the watch starts again from the compaction point and calls on_connected,
// which is the receiver's cue to read the current state. on_connected is
// called at every (re)connection, since a receiver that keeps state must
// also read what changed while no watch was open. A callback that throws
// makes the watch reconnect (after the backoff) and deliver the same events
// again: a receiver that could not apply them gets another chance.
//
// Thread-safety: callbacks run on the watch's thread, one at a time, never
// after Cancel() returns. Cancel() and the destructor may be called from
// any thread but a callback (they wait for the thread to end).

// Boost 1.74's awaitable.hpp uses std::exchange without including <utility>.
#include <utility>
// (kept apart so include sorting leaves it first)

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "metadata/etcd_client.h"

namespace sibyl::metadata {

struct WatchRange {
  std::string key;
  std::string range_end;       // empty: `key` alone
  int64_t start_revision = 0;  // 0: changes after the watch is created
};

struct WatchCallbacks {
  // One batch of events (one etcd revision or more), in revision order.
  std::function<void(const std::vector<WatchEvent>&)> on_events;
  // The watch is (again) in place; events may have been missed before it.
  std::function<void()> on_connected;
};

class EtcdWatch {
 public:
  // Starts the watch's thread. REQUIRES: callbacks set. Throws
  // std::invalid_argument for bad options, as EtcdClient does.
  EtcdWatch(const EtcdOptions& options, WatchRange range, WatchCallbacks callbacks);
  ~EtcdWatch();
  EtcdWatch(const EtcdWatch&) = delete;
  EtcdWatch& operator=(const EtcdWatch&) = delete;

  // Stops the watch and waits for its thread. Idempotent.
  void Cancel();

  // Why the stream last broke ("" while it has not): for diagnostics.
  std::string last_error() const;

 private:
  boost::asio::awaitable<void> Run();
  // Streams from one endpoint until the stream breaks (throws).
  boost::asio::awaitable<void> StreamFrom(const EtcdEndpoint& endpoint);
  // Handles one message of the stream; throws to reconnect.
  void Deliver(std::string_view message);

  std::vector<EtcdEndpoint> endpoints_;
  HttpTimeouts timeouts_;
  WatchRange range_;
  WatchCallbacks callbacks_;
  int64_t next_revision_;  // the revision to resume from; watch thread only
  bool created_ = false;   // etcd accepted the current stream; watch thread only
  boost::asio::io_context io_;
  mutable std::mutex mutex_;
  std::string last_error_;  // GUARDED_BY(mutex_)
  std::thread thread_;
};

}  // namespace sibyl::metadata
