#pragma once
// Where schema changes go. Every DDL statement commits a transformation of
// the current schema through a MetadataStore; the store numbers each change
// with an epoch, makes it durable, and only then publishes the new snapshot
// to its SchemaStore, from which every request reads. Today the store is the
// node's own (LocalMetadataStore, local_metadata_store.h); a cluster puts
// an epoch-numbered log shared by all nodes behind this same interface
// (metadata/etcd_metadata_store.h), so nothing outside it may assume a
// change happened locally: changes made on other nodes are published here
// too, in epoch order, through the same listeners.
//
//   MetadataStore::CommitResult r = store.Commit([&](const Schema& current) {
//     Schema::KeyspaceMap next = current.keyspaces();
//     ... change next, or throw CqlError ...
//     return std::optional(std::move(next));   // std::nullopt: nothing to do
//   });
//   if (r.changed) ... r.after is published, r.epoch is its number ...
//
// Listeners (AddListener) follow every change: the storage engine creates
// a new table's column family there, before any client can see the table.
//
// A store whose log is shared implements Persist as a compare-and-swap:
// when another writer took the epoch first, Persist publishes what that
// writer changed (PublishLocked) and answers kSuperseded, and Commit runs
// the transformation again over the newer schema. Each transformation's
// result is then committed exactly once, over the schema it was computed
// from.
//
// Thread-safety: Commit() may be called from any thread; commits (and
// changes published from elsewhere) are serialized by the commit lock, and
// each transformation sees the schema every earlier change left. Readers
// (schemas(), epoch()) never block on a commit.

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <vector>

#include "schema/schema.h"

namespace sibyl::schema {

class MetadataStore {
 public:
  // The new keyspaces (system and user), or nullopt when there is nothing to
  // change. May throw (CqlError): nothing is committed then.
  using Transformation = std::function<std::optional<Schema::KeyspaceMap>(const Schema& current)>;

  struct CommitResult {
    SchemaPtr before;
    SchemaPtr after;       // == before when nothing changed
    bool changed = false;  // false for a no-op and for a change that leaves the contents equal
    uint64_t epoch = 0;    // the epoch of `after`
  };

  virtual ~MetadataStore() = default;
  MetadataStore(const MetadataStore&) = delete;
  MetadataStore& operator=(const MetadataStore&) = delete;

  // Called for every change with the schema before and after it, after the
  // change is durable and before it is published, under the commit lock (so
  // listeners see changes one at a time, in epoch order). A listener that
  // throws aborts the commit: the change is not published and Commit()
  // throws (a CqlError as is, anything else as kServerError). The change
  // may already be durable then; it takes effect at the next start.
  using Listener = std::function<void(const Schema& before, const Schema& after)>;

  // REQUIRES: `listener` outlives the store, or the store stops committing first.
  void AddListener(Listener listener);
  // Called for every change once it is published (readers of schemas() see
  // it), under the commit lock, in epoch order: for telling clients, who
  // read the new schema as soon as they hear of it. Must not throw.
  void AddPublishedListener(Listener listener);

  SchemaStore& schemas() { return *schemas_; }
  // The epoch of the last change published (schema or, for a cluster's
  // store, anything else the epoch numbers).
  uint64_t epoch() const { return epoch_.load(std::memory_order_acquire); }

  // Applies `transformation` to the current schema. A result whose contents
  // differ (a new Schema::version()) is persisted as the next epoch and then
  // published. Throws what the transformation throws, and
  // CqlError(kServerError) when the change cannot be made durable.
  [[nodiscard]] CommitResult Commit(const Transformation& transformation);

 protected:
  // REQUIRES: `schemas` outlives the store.
  MetadataStore(SchemaStore& schemas, uint64_t epoch) : schemas_(&schemas), epoch_(epoch) {}

  enum class PersistResult {
    kDurable,     // `schema` is durable as `epoch`: Commit publishes it
    kSuperseded,  // another writer took `epoch` first; its change (and any
                  // after it) is published: Commit transforms the new schema
  };
  // Makes `schema` durable as `epoch` (== epoch() + 1) before it is
  // published. Called with the commit lock held. Throws
  // CqlError(kServerError) when it cannot.
  virtual PersistResult Persist(const Schema& schema, uint64_t epoch) = 0;

  // Takes the commit lock, for a store publishing changes from elsewhere.
  [[nodiscard]] std::unique_lock<std::mutex> LockCommits() const {
    return std::unique_lock(mutex_);
  }
  // Publishes a change committed elsewhere as `epoch`: the listeners see
  // (current schema, *after), then readers see `after`, as for a local
  // commit. `after` null: the epoch changed no schema, only epoch() moves.
  // Throws as Commit does when a listener throws; nothing is published then.
  // REQUIRES: the commit lock is held; epoch > epoch().
  void PublishLocked(SchemaPtr after, uint64_t epoch);

 private:
  // Calls the listeners, then publishes `after` as `epoch`. REQUIRES: the lock.
  void NotifyAndPublish(const SchemaPtr& before, const SchemaPtr& after, uint64_t epoch);

  SchemaStore* schemas_;
  mutable std::mutex mutex_;
  std::atomic<uint64_t> epoch_;                // written under mutex_
  std::vector<Listener> listeners_;            // GUARDED_BY(mutex_)
  std::vector<Listener> published_listeners_;  // GUARDED_BY(mutex_)
};

// A store that keeps changes in memory only (tests, tools): they are lost
// when the process ends.
class InMemoryMetadataStore final : public MetadataStore {
 public:
  explicit InMemoryMetadataStore(SchemaStore& schemas) : MetadataStore(schemas, 0) {}

 protected:
  PersistResult Persist(const Schema&, uint64_t) override { return PersistResult::kDurable; }
};

}  // namespace sibyl::schema
