#pragma once
// Delivery of server events (SCHEMA_CHANGE, TOPOLOGY_CHANGE, STATUS_CHANGE)
// to the connections that REGISTERed for them. Connections live on different
// reactor threads: Publish hands each subscriber the event on its own thread
// through the subscriber's Deliver, which must only post work to its reactor.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "protocol/response.h"

namespace sibyl::server {

enum EventType : uint8_t {
  kTopologyChange = 1 << 0,
  kStatusChange = 1 << 1,
  kSchemaChange = 1 << 2,
};

// An event, already encoded as an EVENT body.
struct Event {
  EventType type;
  Bytes body;
};

class EventSubscriber {
 public:
  virtual ~EventSubscriber() = default;
  // Called on the publisher's thread; implementations post to their own
  // thread and encode there. Must not block.
  virtual void Deliver(std::shared_ptr<const Event> event) = 0;
};

class EventBus {
 public:
  // Subscribes `subscriber` to the event types in `mask` (replacing an
  // earlier mask). The bus keeps only a weak reference.
  void Subscribe(const std::shared_ptr<EventSubscriber>& subscriber, uint8_t mask);
  void Publish(const Event& event);

  static Event SchemaChangeEvent(const protocol::SchemaChange& change);
  // change "NEW_NODE" / "REMOVED_NODE"; `address` textual IP, the node's
  // native (CQL) address and port, which drivers connect to (spec v4 §4.2.6).
  static Event TopologyChangeEvent(std::string_view change, const std::string& address,
                                   int32_t port);
  // change "UP" / "DOWN"; `address` and `port` as above.
  static Event StatusChangeEvent(std::string_view change, const std::string& address, int32_t port);

 private:
  struct Entry {
    std::weak_ptr<EventSubscriber> subscriber;
    uint8_t mask;
  };
  std::mutex mutex_;
  std::vector<Entry> entries_;  // GUARDED_BY(mutex_)
};

}  // namespace sibyl::server
