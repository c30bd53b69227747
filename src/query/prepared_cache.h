#pragma once
// The prepared statements of the node, by statement id, shared by every
// connection. Bounded: past `capacity` statements the least recently used
// is evicted (its next EXECUTE gets UNPREPARED and the driver re-prepares,
// as with Cassandra's cache).
//
// Thread-safety: every method may be called from any thread. Only lookups
// and insertions hold the lock; statements are executed outside it.

#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include "common/bytes.h"
#include "query/prepared_statement.h"

namespace sibyl::query {

class PreparedCache {
 public:
  // Default: 10,000 statements.
  explicit PreparedCache(size_t capacity = 10000) : capacity_(capacity) {}

  // nullptr if `id` is unknown (never prepared, or evicted).
  PreparedStatementPtr Find(BytesView id);
  // Stores (or replaces) the statement under `id`.
  void Put(const Bytes& id, PreparedStatementPtr statement);
  // Evicts every statement (under every id) for which `evict` is true, as
  // Cassandra's schema listener does; returns how many entries went.
  // `evict` runs under the cache's lock: it must not call the cache.
  size_t RemoveIf(const std::function<bool(const PreparedStatement&)>& evict);
  size_t size() const;

 private:
  struct Entry {
    PreparedStatementPtr statement;
    std::list<Bytes>::iterator recency;  // position in recency_
  };

  // Lets Find() look up a BytesView without copying it into a Bytes.
  struct IdHash {
    using is_transparent = void;
    size_t operator()(BytesView id) const { return std::hash<BytesView>{}(id); }
  };

  const size_t capacity_;
  mutable std::mutex mu_;
  std::unordered_map<Bytes, Entry, IdHash, std::equal_to<>> entries_;  // GUARDED_BY(mu_)
  std::list<Bytes> recency_;  // GUARDED_BY(mu_); most recent first
};

}  // namespace sibyl::query
