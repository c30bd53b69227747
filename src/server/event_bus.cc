#include "server/event_bus.h"

#include <algorithm>

#include "types/value_codec.h"

namespace sibyl::server {

void EventBus::Subscribe(const std::shared_ptr<EventSubscriber>& subscriber, uint8_t mask) {
  std::lock_guard lock(mutex_);
  // Drop entries whose connection has gone, so the list does not grow with churn.
  std::erase_if(entries_, [](const Entry& e) { return e.subscriber.expired(); });
  for (auto& e : entries_) {
    if (e.subscriber.lock() == subscriber) {
      e.mask = mask;
      return;
    }
  }
  entries_.push_back({subscriber, mask});
}

void EventBus::Publish(const Event& event) {
  auto shared = std::make_shared<const Event>(event);
  std::vector<std::shared_ptr<EventSubscriber>> targets;
  {
    std::lock_guard lock(mutex_);
    for (const auto& e : entries_) {
      if (!(e.mask & event.type)) continue;
      if (auto s = e.subscriber.lock()) targets.push_back(std::move(s));
    }
  }
  // Delivered outside the lock: Deliver only posts, but never call out while holding it.
  for (auto& s : targets) s->Deliver(shared);
}

Event EventBus::SchemaChangeEvent(const protocol::SchemaChange& change) {
  Event event{kSchemaChange, {}};
  protocol::EncodeSchemaChangeEvent(event.body, change);
  return event;
}

Event EventBus::TopologyChangeEvent(std::string_view change, const std::string& address,
                                    int32_t port) {
  Event event{kTopologyChange, {}};
  protocol::EncodeTopologyChangeEvent(event.body, change, types::EncodeInet(address), port);
  return event;
}

Event EventBus::StatusChangeEvent(std::string_view change, const std::string& address,
                                  int32_t port) {
  Event event{kStatusChange, {}};
  protocol::EncodeStatusChangeEvent(event.body, change, types::EncodeInet(address), port);
  return event;
}

}  // namespace sibyl::server
