#include "query/prepared_cache.h"

namespace sibyl::query {

PreparedStatementPtr PreparedCache::Find(BytesView id) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it == entries_.end()) return nullptr;
  recency_.splice(recency_.begin(), recency_, it->second.recency);
  return it->second.statement;
}

void PreparedCache::Put(const Bytes& id, PreparedStatementPtr statement) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = entries_.find(id);
  if (it != entries_.end()) {
    it->second.statement = std::move(statement);
    recency_.splice(recency_.begin(), recency_, it->second.recency);
    return;
  }
  recency_.push_front(id);
  entries_.emplace(id, Entry{std::move(statement), recency_.begin()});
  while (entries_.size() > capacity_) {
    entries_.erase(recency_.back());
    recency_.pop_back();
  }
}

size_t PreparedCache::RemoveIf(const std::function<bool(const PreparedStatement&)>& evict) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t removed = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (evict(*it->second.statement)) {
      recency_.erase(it->second.recency);
      it = entries_.erase(it);
      ++removed;
    } else {
      ++it;
    }
  }
  return removed;
}

size_t PreparedCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  return entries_.size();
}

}  // namespace sibyl::query
