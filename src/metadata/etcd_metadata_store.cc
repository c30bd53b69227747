#include "metadata/etcd_metadata_store.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>

#include "common/error.h"
#include "metadata/metadata_cache.h"
#include "schema/schema_snapshot_codec.h"
#include "schema/system_keyspaces.h"

namespace sibyl::metadata {
namespace {

constexpr const char* kSchemaChangeFailed = "Schema change failed: ";
constexpr const char* kMembershipChangeFailed = "Membership change failed: ";
// Compaction runs every this many epochs, not at each append.
constexpr uint64_t kCompactionInterval = 64;
// WaitForEpoch re-checks this often for an epoch a local commit publishes.
constexpr std::chrono::milliseconds kWaitSlice{20};

schema::SchemaPtr DecodeSchemaEntry(const LogEntry& entry, const schema::Schema& built_in) {
  schema::DecodedSchemaSnapshot decoded;
  try {
    decoded = schema::DecodeSchemaSnapshot(entry.payload, built_in.keyspaces());
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot read the schema of metadata epoch " +
                             std::to_string(entry.epoch) + ": " + e.what());
  }
  return std::make_shared<const schema::Schema>(std::move(decoded.keyspaces));
}

DirectoryPtr DecodeDirectoryEntry(const LogEntry& entry) {
  try {
    return std::make_shared<const Directory>(DecodeDirectory(entry.payload));
  } catch (const std::exception& e) {
    throw std::runtime_error("cannot read the directory of metadata epoch " +
                             std::to_string(entry.epoch) + ": " + e.what());
  }
}

}  // namespace

struct EtcdMetadataStore::InitialState {
  schema::SchemaPtr schema;
  DirectoryPtr directory;
  uint64_t epoch = 0;
  std::optional<LogEntry> schema_entry;
  std::optional<LogEntry> directory_entry;
  int64_t revision = 0;  // the etcd revision read; 0 when loaded from the local copy
};

EtcdMetadataStore::InitialState EtcdMetadataStore::LoadInitialState(
    MetadataLog& log, const EtcdMetadataStoreOptions& options) {
  const schema::SchemaPtr built_in = schema::MakeInitialSchema();
  InitialState state;
  try {
    MetadataLog::Latest latest = log.ReadLatest();
    state.epoch = latest.epoch;
    state.schema_entry = std::move(latest.schema);
    state.directory_entry = std::move(latest.directory);
    state.revision = latest.revision;
  } catch (const EtcdUnavailable& e) {
    std::optional<CachedMetadata> cached;
    if (!options.cache_directory.empty()) cached = LoadMetadataCache(options.cache_directory);
    if (!cached) throw;
    spdlog::warn("Starting from the local copy of the cluster metadata (epoch {}): {}",
                 cached->epoch, e.what());
    state.epoch = cached->epoch;
    state.schema_entry = std::move(cached->schema);
    state.directory_entry = std::move(cached->directory);
  }
  state.schema = state.schema_entry ? DecodeSchemaEntry(*state.schema_entry, *built_in) : built_in;
  state.directory = state.directory_entry ? DecodeDirectoryEntry(*state.directory_entry)
                                          : std::make_shared<const Directory>();
  return state;
}

std::unique_ptr<EtcdMetadataStore> EtcdMetadataStore::Open(
    const EtcdMetadataStoreOptions& options) {
  auto etcd = std::make_unique<EtcdClient>(options.etcd);
  MetadataLog log(*etcd, options.cluster_name);
  InitialState state = LoadInitialState(log, options);
  const int64_t revision = state.revision;
  std::unique_ptr<EtcdMetadataStore> store(
      new EtcdMetadataStore(options, std::move(etcd), std::move(state)));
  {
    auto lock = store->LockCommits();
    store->SaveCacheLocked(store->epoch());
  }
  if (options.watch) {
    EtcdMetadataStore* self = store.get();
    WatchRange range{self->log_.LogPrefix(), PrefixEnd(self->log_.LogPrefix()),
                     revision == 0 ? 0 : revision + 1};
    std::lock_guard lock(self->watch_mutex_);
    self->watch_ = std::make_unique<EtcdWatch>(
        options.etcd, std::move(range),
        WatchCallbacks{
            [self](const std::vector<WatchEvent>& events) { self->OnWatchEvents(events); },
            [self] { self->OnWatchConnected(); }});
  }
  return store;
}

EtcdMetadataStore::EtcdMetadataStore(const EtcdMetadataStoreOptions& options,
                                     std::unique_ptr<EtcdClient> etcd, InitialState state)
    : schema::internal::OwnedSchemaStore(state.schema),
      MetadataStore(owned_schemas, state.epoch),
      options_(options),
      built_in_(schema::MakeInitialSchema()),
      etcd_(std::move(etcd)),
      log_(*etcd_, options.cluster_name),
      directory_(state.directory),
      schema_entry_(std::move(state.schema_entry)),
      directory_entry_(std::move(state.directory_entry)) {}

EtcdMetadataStore::~EtcdMetadataStore() { StopWatching(); }

void EtcdMetadataStore::StopWatching() {
  std::unique_ptr<EtcdWatch> watch;
  {
    std::lock_guard lock(watch_mutex_);
    watch = std::move(watch_);
  }
  if (watch) watch->Cancel();
}

void EtcdMetadataStore::AddDirectoryListener(DirectoryListener listener) {
  auto lock = LockCommits();
  directory_listeners_.push_back(std::move(listener));
}

schema::MetadataStore::PersistResult EtcdMetadataStore::Persist(const schema::Schema& schema,
                                                                uint64_t epoch) {
  LogEntry entry{epoch, EntryKind::kSchema, epoch, directory_epoch(),
                 schema::EncodeSchemaSnapshot(schema, epoch)};
  if (!AppendOrCatchUp(entry, kSchemaChangeFailed)) return PersistResult::kSuperseded;
  // The entry is the log's epoch `epoch` now, whether or not a listener
  // refuses it here: were one to, the next catch-up would apply it again.
  schema_entry_ = std::move(entry);
  AfterAppendLocked(epoch);
  return PersistResult::kDurable;
}

EtcdMetadataStore::DirectoryCommitResult EtcdMetadataStore::CommitDirectory(
    const DirectoryTransformation& transformation) {
  auto lock = LockCommits();
  for (;;) {
    DirectoryCommitResult result;
    result.before = directory();
    result.after = result.before;
    result.epoch = epoch();
    std::optional<Directory> next = transformation(*result.before);
    if (!next || *next == *result.before) return result;
    auto after = std::make_shared<const Directory>(std::move(*next));
    const uint64_t next_epoch = result.epoch + 1;
    LogEntry entry{next_epoch, EntryKind::kDirectory, schema_epoch(), next_epoch,
                   EncodeDirectory(*after)};
    if (!AppendOrCatchUp(entry, kMembershipChangeFailed)) continue;
    ApplyDirectoryLocked(entry, after);
    AfterAppendLocked(next_epoch);
    result.after = std::move(after);
    result.changed = true;
    result.epoch = next_epoch;
    return result;
  }
}

bool EtcdMetadataStore::AppendOrCatchUp(const LogEntry& entry, const char* failure) {
  try {
    if (log_.Append(entry)) return true;
    CatchUpLocked();
    return false;
  } catch (const EtcdError& e) {
    throw CqlError(ErrorCode::kServerError, failure + std::string(e.what()));
  }
}

void EtcdMetadataStore::CatchUp() {
  auto lock = LockCommits();
  CatchUpLocked();
}

void EtcdMetadataStore::CatchUpLocked() {
  const uint64_t applied = epoch();
  MetadataLog::Entries read = log_.ReadFrom(applied + 1);
  if (read.entries.empty()) return;
  if (read.entries.front().epoch != applied + 1) {
    // The entries this node needs were compacted away.
    JumpToLatestLocked();
  } else {
    for (const LogEntry& entry : read.entries) {
      if (entry.epoch != epoch() + 1) break;  // cannot happen within one revision
      ApplyLocked(entry);
    }
  }
  SaveCacheLocked(epoch());
}

void EtcdMetadataStore::JumpToLatestLocked() {
  MetadataLog::Latest latest = log_.ReadLatest();
  std::vector<LogEntry> newer;
  if (latest.schema && latest.schema->epoch > schema_epoch()) newer.push_back(*latest.schema);
  if (latest.directory && latest.directory->epoch > directory_epoch()) {
    newer.push_back(*latest.directory);
  }
  std::sort(newer.begin(), newer.end(),
            [](const LogEntry& a, const LogEntry& b) { return a.epoch < b.epoch; });
  spdlog::warn("Metadata epochs {} to {} were compacted away: applying the latest state",
               epoch() + 1, latest.epoch);
  // The latest entry is one of the two, so this ends at latest.epoch.
  for (const LogEntry& entry : newer) {
    if (entry.epoch > epoch()) ApplyLocked(entry);
  }
}

void EtcdMetadataStore::ApplyLocked(const LogEntry& entry) {
  if (entry.kind == EntryKind::kSchema) {
    PublishLocked(DecodeSchemaEntry(entry, *built_in_), entry.epoch);
    schema_entry_ = entry;
  } else {
    ApplyDirectoryLocked(entry, DecodeDirectoryEntry(entry));
  }
  std::lock_guard lock(epoch_mutex_);
  epoch_advanced_.notify_all();
}

void EtcdMetadataStore::ApplyDirectoryLocked(const LogEntry& entry, DirectoryPtr next) {
  const DirectoryPtr before = directory();
  for (const DirectoryListener& listener : directory_listeners_) {
    try {
      listener(*before, *next);
    } catch (const CqlError&) {
      throw;
    } catch (const std::exception& e) {
      throw CqlError(ErrorCode::kServerError,
                     std::string("Failed to apply the membership change: ") + e.what());
    }
  }
  PublishLocked(nullptr, entry.epoch);
  directory_.store(std::move(next), std::memory_order_release);
  directory_entry_ = entry;
}

void EtcdMetadataStore::AfterAppendLocked(uint64_t epoch) {
  SaveCacheLocked(epoch);
  const uint64_t keep = options_.retained_entries;
  if (keep == 0 || epoch % kCompactionInterval != 0 || epoch < keep) return;
  // Entries below `before` go, but never the ones holding the current state.
  uint64_t before = epoch + 1 - keep;
  if (schema_epoch() != 0) before = std::min(before, schema_epoch());
  if (directory_epoch() != 0) before = std::min(before, directory_epoch());
  try {
    log_.Compact(before);
  } catch (const EtcdError& e) {
    // The change is committed; the entries go at the next compaction.
    spdlog::warn("Could not compact the metadata log below epoch {}: {}", before, e.what());
  }
}

void EtcdMetadataStore::SaveCacheLocked(uint64_t epoch) {
  if (options_.cache_directory.empty()) return;
  try {
    SaveMetadataCache(options_.cache_directory, {epoch, schema_entry_, directory_entry_});
  } catch (const std::exception& e) {
    // Only a start while etcd is down needs the copy: a change etcd holds
    // is not failed for it.
    spdlog::warn("Could not save the local copy of the cluster metadata: {}", e.what());
  }
}

bool EtcdMetadataStore::WaitForEpoch(uint64_t target, std::chrono::milliseconds timeout) {
  if (epoch() >= target) return true;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  CatchUp();
  std::unique_lock lock(epoch_mutex_);
  while (epoch() < target) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return false;
    epoch_advanced_.wait_until(lock, std::min(deadline, now + kWaitSlice));
  }
  return true;
}

void EtcdMetadataStore::OnWatchEvents(const std::vector<WatchEvent>& events) {
  auto lock = LockCommits();
  try {
    for (const WatchEvent& event : events) {
      if (event.type != WatchEvent::Type::kPut) continue;  // compaction
      const std::optional<uint64_t> epoch_of_key = log_.EpochOfKey(event.kv.key);
      if (!epoch_of_key || *epoch_of_key <= epoch()) continue;
      if (*epoch_of_key != epoch() + 1) {
        CatchUpLocked();
        return;
      }
      const LogEntry entry = DecodeLogEntry(event.kv.value);
      if (entry.epoch != *epoch_of_key) {
        throw std::runtime_error("metadata log entry " + event.kv.key + " holds epoch " +
                                 std::to_string(entry.epoch));
      }
      ApplyLocked(entry);
    }
    SaveCacheLocked(epoch());
  } catch (const std::exception& e) {
    spdlog::warn("Could not apply metadata epoch {} from the log (will retry): {}", epoch() + 1,
                 e.what());
    throw;
  }
}

void EtcdMetadataStore::OnWatchConnected() {
  auto lock = LockCommits();
  try {
    CatchUpLocked();
  } catch (const std::exception& e) {
    spdlog::warn("Could not catch up with the metadata log (will retry): {}", e.what());
    throw;
  }
}

}  // namespace sibyl::metadata
