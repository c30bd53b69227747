#pragma once
// The MetadataStore of a node in a cluster: schema and membership live in
// the cluster's metadata log in etcd (metadata_log.h), one entry per epoch,
// and every node applies the same entries in the same order.
//
// - A commit (DDL through MetadataStore::Commit, membership through
//   CommitDirectory) is a compare-and-swap append of epoch E+1 over the
//   epoch E this node has applied. When another node appended first, the
//   store catches up (publishing those entries to its listeners, in order)
//   and runs the transformation again over the new state: concurrent DDL
//   sent to different nodes yields one history, each change applied once.
// - Changes from other nodes arrive through a watch on the log: each entry
//   is published in epoch order, the listeners called as for a local commit
//   (the storage engine creates column families in one), on the watch's
//   thread. A gap (a missed event, a compacted watch, a reconnection) is
//   filled by CatchUp(), which reads the log from the applied epoch on, or,
//   when those entries were compacted, the latest schema and directory.
// - With etcd unreachable, commits fail with CqlError(kServerError)
//   ("Schema change failed: etcd unavailable (endpoints ...): ...") and
//   change nothing here; the published schema stays readable, so reads and
//   writes go on. The watch keeps reconnecting and catches up when etcd is back.
// - At start-up the node loads the latest state from etcd; when etcd cannot
//   be reached it starts from its local copy (metadata_cache.h) if it has one.
// - A listener that throws on a change from elsewhere leaves the node at the
//   epoch before it; the watch delivers it again (after a backoff) and the
//   next commit or CatchUp() retries it, so the node never skips an epoch.
//
// Thread-safety: every method may be called from any thread. Commits,
// CatchUp() and the watch's deliveries are serialized by the commit lock
// (MetadataStore); schemas(), epoch() and directory() never block.

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "metadata/directory.h"
#include "metadata/etcd_client.h"
#include "metadata/etcd_watch.h"
#include "metadata/metadata_log.h"
#include "schema/local_metadata_store.h"
#include "schema/metadata_store.h"

namespace sibyl::metadata {

struct EtcdMetadataStoreOptions {
  EtcdOptions etcd;
  std::string cluster_name = "Test Cluster";  // cassandra.yaml's cluster_name
  // Where the node keeps its copy of the last state it applied; empty: no
  // copy (the node cannot start while etcd is down). Default: none.
  std::filesystem::path cache_directory;
  // Log entries kept when compacting (the latest schema and directory
  // entries are always kept). 0: never compact. Default: 1000.
  uint64_t retained_entries = 1000;
  // Follow other nodes' changes through a watch. Without it, they are seen
  // at the next commit, CatchUp() or WaitForEpoch(). Default: on.
  bool watch = true;
};

class EtcdMetadataStore final : private schema::internal::OwnedSchemaStore,
                                public schema::MetadataStore {
 public:
  // Loads the latest state from etcd (or, when etcd is unreachable, the
  // local copy) and starts following the log. Throws EtcdUnavailable when
  // etcd cannot be reached and there is no copy, std::runtime_error when
  // the state cannot be decoded.
  [[nodiscard]] static std::unique_ptr<EtcdMetadataStore> Open(
      const EtcdMetadataStoreOptions& options);
  ~EtcdMetadataStore() override;

  // The members as of epoch(). Never blocks.
  [[nodiscard]] DirectoryPtr directory() const {
    return directory_.load(std::memory_order_acquire);
  }

  // The new directory, or nullopt when there is nothing to change. May throw
  // (nothing is committed then).
  using DirectoryTransformation = std::function<std::optional<Directory>(const Directory&)>;
  struct DirectoryCommitResult {
    DirectoryPtr before;
    DirectoryPtr after;  // == before when nothing changed
    bool changed = false;
    uint64_t epoch = 0;
  };
  // As Commit, for the directory. Throws CqlError(kServerError) when etcd
  // cannot be reached ("Membership change failed: ...").
  [[nodiscard]] DirectoryCommitResult CommitDirectory(
      const DirectoryTransformation& transformation);

  // Called for every directory change, before it is published, under the
  // commit lock (one at a time, in epoch order). A listener that throws
  // aborts publishing it, as for schema listeners.
  // REQUIRES: `listener` outlives the store, or StopWatching() was called first.
  using DirectoryListener = std::function<void(const Directory& before, const Directory& after)>;
  void AddDirectoryListener(DirectoryListener listener);

  // Reads the log and publishes every epoch this node has not applied, up
  // to the latest. Throws EtcdError when etcd cannot be read, CqlError when
  // a listener refuses a change.
  void CatchUp();

  // Returns once epoch() >= `epoch` (true), catching up first, or false when
  // `timeout` passes before (the epoch does not exist yet). Throws as CatchUp.
  [[nodiscard]] bool WaitForEpoch(uint64_t epoch, std::chrono::milliseconds timeout);

  // Stops following other nodes' changes (the watch): call it before the
  // listeners' owners go away. Idempotent.
  void StopWatching();

  const MetadataLog& log() const { return log_; }

 protected:
  PersistResult Persist(const schema::Schema& schema, uint64_t epoch) override;

 private:
  struct InitialState;
  EtcdMetadataStore(const EtcdMetadataStoreOptions& options, std::unique_ptr<EtcdClient> etcd,
                    InitialState state);
  static InitialState LoadInitialState(MetadataLog& log, const EtcdMetadataStoreOptions& options);

  // Appends `entry`; false when another writer took its epoch (this store
  // has then caught up). Throws CqlError(kServerError) prefixed with `failure`.
  bool AppendOrCatchUp(const LogEntry& entry, const char* failure);
  void CatchUpLocked();
  void JumpToLatestLocked();
  void ApplyLocked(const LogEntry& entry);
  void ApplyDirectoryLocked(const LogEntry& entry, DirectoryPtr next);
  void AfterAppendLocked(uint64_t epoch);
  void SaveCacheLocked(uint64_t epoch);
  void OnWatchEvents(const std::vector<WatchEvent>& events);
  void OnWatchConnected();
  uint64_t schema_epoch() const { return schema_entry_ ? schema_entry_->epoch : 0; }
  uint64_t directory_epoch() const { return directory_entry_ ? directory_entry_->epoch : 0; }

  const EtcdMetadataStoreOptions options_;
  const schema::SchemaPtr built_in_;  // the keyspaces every node starts with
  std::unique_ptr<EtcdClient> etcd_;
  MetadataLog log_;
  std::atomic<DirectoryPtr> directory_;
  // The latest entries applied of each kind (the current schema's and
  // directory's), kept for the headers of new entries, compaction and the
  // local copy. GUARDED_BY(the commit lock)
  std::optional<LogEntry> schema_entry_;
  std::optional<LogEntry> directory_entry_;
  std::vector<DirectoryListener> directory_listeners_;  // GUARDED_BY(the commit lock)
  std::mutex epoch_mutex_;                              // for epoch_advanced_ only
  std::condition_variable epoch_advanced_;
  std::mutex watch_mutex_;
  std::unique_ptr<EtcdWatch> watch_;  // GUARDED_BY(watch_mutex_); its thread uses the above
};

}  // namespace sibyl::metadata
