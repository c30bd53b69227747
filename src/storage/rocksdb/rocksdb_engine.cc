#include "storage/rocksdb/rocksdb_engine.h"

#include <rocksdb/perf_level.h>
#include <rocksdb/table_properties.h>
#include <rocksdb/write_batch.h>

#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>

#include "storage/data/storage_error.h"
#include "storage/read/table_reader.h"
#include "storage/read/unfiltered_table_reader.h"
#include "storage/rocksdb/mutation_writer.h"
#include "storage/rocksdb/table_family_options.h"

namespace sibyl::storage {
namespace {

// The default column family holds no table; it keeps each table's options
// under this prefix + the table id.
constexpr std::string_view kOptionsKeyPrefix = "table_options/";

// RocksDB counts every key comparison into a thread-local perf context
// unless told not to (its default level is kEnableCount): two thread-local
// lookups per comparison in a shared library, ~5% of a point read. Nothing
// in the node reads those counters. The level is per thread; it is switched
// off once, on a thread's first read or write, so that a caller who wants
// the counters (bench/read_bench.cc) can switch them on again afterwards.
void DisablePerfCountingOnThisThread() {
  thread_local const bool disabled = [] {
    rocksdb::SetPerfLevel(rocksdb::PerfLevel::kDisable);
    return true;
  }();
  (void)disabled;
}

// `operation` and `table` as StorageError takes them; the status goes to the log only.
void Check(const rocksdb::Status& status, const std::string& operation,
           const std::string& table = {}) {
  if (status.ok()) [[likely]] {
    return;
  }
  throw StorageError(
      operation, table,
      operation + (table.empty() ? "" : " of table " + table) + ": " + status.ToString());
}

// The options every table had when last synced, read before opening so that
// each column family opens with its compaction style.
std::map<std::string, StorageOptions> ReadStoredOptions(const std::string& directory) {
  std::map<std::string, StorageOptions> stored;
  rocksdb::DB* raw = nullptr;
  rocksdb::Options options;
  if (!rocksdb::DB::OpenForReadOnly(options, directory, &raw).ok()) return stored;
  std::unique_ptr<rocksdb::DB> db(raw);
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->Seek(kOptionsKeyPrefix); it->Valid() && it->key().starts_with(kOptionsKeyPrefix);
       it->Next()) {
    auto decoded = DecodeStorageOptions(BytesView(it->value().data(), it->value().size()));
    if (decoded) {
      stored[it->key().ToString().substr(kOptionsKeyPrefix.size())] = std::move(*decoded);
    }
  }
  return stored;
}

bool SameFamilyOptions(const StorageOptions& a, const StorageOptions& b) {
  return a.bloom_filter_fp_chance == b.bloom_filter_fp_chance && a.compaction == b.compaction &&
         a.compression == b.compression && a.chunk_length_kb == b.chunk_length_kb;
}

}  // namespace

std::unique_ptr<Engine> Engine::Open(const EngineOptions& options, Clock& clock) {
  return std::make_unique<RocksDbEngine>(options, clock);
}

RocksDbEngine::RocksDbEngine(const EngineOptions& options, Clock& clock)
    : options_(options), clock_(clock), cache_(rocksdb::NewLRUCache(options.block_cache_bytes)) {
  const std::string directory = options.directory.string();
  std::error_code error;
  std::filesystem::create_directories(options.directory, error);
  if (error) {
    throw std::runtime_error("cannot create data directory " + directory + ": " + error.message());
  }
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = true;
  db_options.create_missing_column_families = true;
  db_options.max_background_jobs = 2;
  db_options.keep_log_file_num = 5;
  ledger_refresher_ = std::make_shared<ledger::LedgerRefresher>(
      [this](const std::string& family, bool memtable_flushed) {
        if (auto id = types::Uuid::Parse(family)) RefreshLedger(*id, memtable_flushed);
      });
  db_options.listeners.push_back(ledger_refresher_);

  std::vector<std::string> names;
  if (!rocksdb::DB::ListColumnFamilies(db_options, directory, &names).ok()) {
    names = {rocksdb::kDefaultColumnFamilyName};
  }
  auto stored =
      names.size() > 1 ? ReadStoredOptions(directory) : std::map<std::string, StorageOptions>();
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (const auto& name : names) {
    if (name == rocksdb::kDefaultColumnFamilyName) {
      descriptors.emplace_back(name, rocksdb::ColumnFamilyOptions());
      continue;
    }
    auto id = types::Uuid::Parse(name);
    if (!id) throw std::runtime_error("unexpected column family " + name + " in " + directory);
    Table& table = tables_[*id];
    if (auto it = stored.find(name); it != stored.end()) table.options = it->second;
    table.purge_state = std::make_shared<TablePurgeState>(clock_);
    descriptors.emplace_back(name, TableFamilyOptions(table.options, cache_, table.purge_state));
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* raw = nullptr;
  Check(rocksdb::DB::Open(db_options, directory, descriptors, &handles, &raw),
        "opening the data directory " + directory);
  db_.reset(raw);
  for (size_t i = 0; i < handles.size(); ++i) {
    if (descriptors[i].name == rocksdb::kDefaultColumnFamilyName) {
      (void)db_->DestroyColumnFamilyHandle(handles[i]);  // DefaultColumnFamily() serves
    } else {
      tables_[*types::Uuid::Parse(descriptors[i].name)].handle = handles[i];
    }
  }
  syncer_ = std::make_unique<CommitlogSyncer>(*db_, options_);
  // The memtables recovered from the log were flushed by Open.
  for (const auto& [id, table] : tables_) RefreshLedger(id, /*memtable_flushed=*/true);
  ledger_refresher_->Start();
}

RocksDbEngine::~RocksDbEngine() {
  ledger_refresher_->Stop();
  syncer_.reset();
  for (auto& [name, table] : tables_) (void)db_->DestroyColumnFamilyHandle(table.handle);
  (void)db_->Close();
}

const RocksDbEngine::Table& RocksDbEngine::FindTable(const types::Uuid& id) const {
  auto it = tables_.find(id);
  if (it == tables_.end() || !it->second.layout) {
    throw StorageError("access", id.ToString(), "the engine has no column family for the table");
  }
  return it->second;
}

void RocksDbEngine::StoreOptions(const std::string& name, const StorageOptions* options) {
  std::string key = std::string(kOptionsKeyPrefix) + name;
  rocksdb::WriteOptions write;
  write.sync = true;
  if (options == nullptr) {
    Check(db_->Delete(write, key), "forgetting the storage options", name);
  } else {
    Check(db_->Put(write, key, EncodeStorageOptions(*options)), "storing the storage options",
          name);
  }
}

void RocksDbEngine::CreateFamily(const std::string& name, Table& table) {
  Check(db_->CreateColumnFamily(TableFamilyOptions(table.options, cache_, table.purge_state), name,
                                &table.handle),
        "creating the column family", name);
}

void RocksDbEngine::DropFamily(Table& table) {
  Check(db_->DropColumnFamily(table.handle), "dropping a column family");
  Check(db_->DestroyColumnFamilyHandle(table.handle), "releasing a column family");
  table.handle = nullptr;
}

void RocksDbEngine::SyncTables(const std::vector<TableLayout>& layouts) {
  std::unique_lock lock(mutex_);
  std::set<types::Uuid> listed;
  for (const auto& layout : layouts) {
    std::string name = layout.id.ToString();
    listed.insert(layout.id);
    auto shared_layout = std::make_shared<const TableLayout>(layout);
    auto it = tables_.find(layout.id);
    if (it == tables_.end()) {
      Table table;
      table.options = layout.options;
      table.purge_state = std::make_shared<TablePurgeState>(clock_);
      table.purge_state->SetLayout(shared_layout);
      (void)CompressionFor(layout.options.compression);  // refuse before creating
      CreateFamily(name, table);
      table.layout = std::move(shared_layout);
      tables_.emplace(layout.id, std::move(table));
      StoreOptions(name, &layout.options);
      continue;
    }
    Table& table = it->second;
    table.purge_state->SetLayout(shared_layout);
    table.layout = std::move(shared_layout);
    if (!SameFamilyOptions(table.options, layout.options)) {
      // Compression changes now; the other family options (compaction
      // style, block size, bloom filter) when the database is next opened.
      if (table.options.compression != layout.options.compression) {
        Check(db_->SetOptions(table.handle, {{"compression",
                                              CompressionOptionValue(layout.options.compression)}}),
              "changing the compression", name);
        table.options.compression = layout.options.compression;
      }
      StoreOptions(name, &layout.options);
    }
    table.options.gc_grace_seconds = layout.options.gc_grace_seconds;
  }
  for (auto it = tables_.begin(); it != tables_.end();) {
    if (listed.count(it->first)) {
      ++it;
      continue;
    }
    DropFamily(it->second);
    StoreOptions(it->first.ToString(), nullptr);
    ledger_.Forget(it->first);
    it = tables_.erase(it);
  }
}

void RocksDbEngine::Write(rocksdb::WriteBatch& batch, bool synced) {
  Check(db_->Write(syncer_->write_options(synced), &batch), "write");
}

void RocksDbEngine::Apply(const Mutation& mutation) { ApplyAll({&mutation}); }

void RocksDbEngine::ApplyAll(const std::vector<const Mutation*>& mutations) {
  Write(mutations, /*synced=*/false);
}

void RocksDbEngine::ApplyAllSynced(const std::vector<const Mutation*>& mutations) {
  Write(mutations, /*synced=*/true);
}

void RocksDbEngine::Write(const std::vector<const Mutation*>& mutations, bool synced) {
  DisablePerfCountingOnThisThread();
  const auto start = std::chrono::steady_clock::now();
  // The tables written, each once (a batch's mutations of one table come
  // together as a rule; a repeat further on is counted again). Inline: a
  // write allocates nothing for its timing.
  boost::container::small_vector<std::shared_ptr<TableActivity>, 4> written;
  {
    std::shared_lock lock(mutex_);
    rocksdb::WriteBatch batch;
    for (const Mutation* mutation : mutations) {
      const Table& table = FindTable(mutation->table_id);
      const size_t batch_bytes = batch.GetDataSize();
      AddMutationToBatch(*table.layout, table.handle, *mutation, batch);
      // The memtable's share of the ledger (one atomic load while nothing is
      // named). Counted before the write: a write that fails stays counted
      // until the next flush.
      if (ledger_.has_named_partitions()) {
        ledger_.AddUnflushed(mutation->table_id, mutation->partition,
                             batch.GetDataSize() - batch_bytes);
      }
      if (written.empty() || written.back() != table.activity) written.push_back(table.activity);
    }
    if (batch.Count() == 0) return;
    Write(batch, synced);
  }
  if (syncer_->needs_await(synced)) syncer_->AwaitDurable();
  const auto elapsed = std::chrono::steady_clock::now() - start;
  for (const auto& activity : written) activity->writes.Observe(elapsed);
}

ReadResult RocksDbEngine::Read(const ReadCommand& command) const {
  RefuseIndexRead(command);
  DisablePerfCountingOnThisThread();
  const auto start = std::chrono::steady_clock::now();
  std::shared_lock lock(mutex_);
  const Table& table = FindTable(command.table_id);
  ReadResult result = ReadTable(*table.layout, *db_, table.handle, command);
  table.activity->reads.Observe(std::chrono::steady_clock::now() - start);
  return result;
}

std::vector<Mutation> RocksDbEngine::ReadUnfiltered(const ReadCommand& command) const {
  RefuseIndexRead(command);
  DisablePerfCountingOnThisThread();
  std::shared_lock lock(mutex_);
  const Table& table = FindTable(command.table_id);
  return ReadTableUnfiltered(*table.layout, *db_, table.handle, command);
}

void RocksDbEngine::Truncate(const types::Uuid& table_id) {
  std::unique_lock lock(mutex_);
  Table& table = FindTable(table_id);
  // Dropping the family removes its data at once; the drop and the new
  // family are recorded (fsynced) in the MANIFEST, so a restart never sees
  // the old rows, and WAL records of the dropped family are skipped.
  DropFamily(table);
  CreateFamily(table_id.ToString(), table);
  ledger_.Forget(table_id);
}

void RocksDbEngine::Flush() {
  std::vector<types::Uuid> all;
  {
    std::shared_lock lock(mutex_);
    for (const auto& [id, table] : tables_) all.push_back(id);
  }
  FlushTables(all);
}

void RocksDbEngine::Flush(const types::Uuid& table_id) {
  {
    std::shared_lock lock(mutex_);
    (void)FindTable(table_id);  // an unknown table is an error, as for every table method
  }
  FlushTables({table_id});
}

void RocksDbEngine::FlushTables(const std::vector<types::Uuid>& ids) {
  {
    std::shared_lock lock(mutex_);
    rocksdb::FlushOptions flush;
    flush.wait = true;
    for (const types::Uuid& id : ids) {
      // Dropped since it was asked for: nothing left to flush.
      auto it = tables_.find(id);
      if (it == tables_.end() || it->second.handle == nullptr) continue;
      Check(db_->Flush(flush, it->second.handle), "flush", id.ToString());
    }
    Check(db_->FlushWAL(/*sync=*/true), "commit log sync");
  }
  // At once, not when the refresher gets to it: whoever flushed reads the
  // ledger next (`sibyl admin flush`, tests).
  for (const types::Uuid& id : ids) RefreshLedger(id, /*memtable_flushed=*/true);
}

void RocksDbEngine::RefreshLedger(const types::Uuid& id, bool memtable_flushed) {
  rocksdb::TablePropertiesCollection properties;
  {
    std::shared_lock lock(mutex_);
    auto it = tables_.find(id);
    if (it == tables_.end() || it->second.handle == nullptr) return;
    Check(db_->GetPropertiesOfAllTables(it->second.handle, &properties),
          "reading the SSTables' properties", id.ToString());
  }
  std::vector<ledger::LedgerFile> files;
  files.reserve(properties.size());
  for (const auto& [path, file] : properties) {
    ledger::LedgerFile& f = files.emplace_back();
    f.path = path;
    f.data_bytes = file->data_size;
    f.raw_bytes = file->raw_key_size + file->raw_value_size;
    f.filter_bytes = file->filter_size;
    const auto& user = file->user_collected_properties;
    if (auto p = user.find(ledger::kFileLedgerProperty); p != user.end()) f.property = p->second;
  }
  ledger_.Rebuild(id, files, clock_.NowMicros() / 1000, memtable_flushed);
}

StorageStatistics RocksDbEngine::Statistics() const {
  StorageStatistics out;
  auto integer = [&](rocksdb::ColumnFamilyHandle* family, const std::string& name) -> uint64_t {
    uint64_t value = 0;
    return db_->GetIntProperty(family, name, &value) ? value : 0;
  };
  // rocksdb.cfstats gives compaction's totals in GB (a double).
  auto gigabytes = [](const std::map<std::string, std::string>& stats, const std::string& key) {
    const auto it = stats.find(key);
    if (it == stats.end()) return uint64_t{0};
    try {
      return static_cast<uint64_t>(std::stod(it->second) * double(1ull << 30));
    } catch (const std::exception&) {
      return uint64_t{0};
    }
  };
  {
    // Shared: no family handle is replaced while it is asked.
    const std::shared_ptr<const ledger::LedgerSnapshot> large_data = ledger_.Snapshot();
    std::shared_lock lock(mutex_);
    out.tables.reserve(tables_.size());
    for (const auto& [id, table] : tables_) {
      if (table.handle == nullptr) continue;
      TableStorageStatistics& t = out.tables.emplace_back();
      t.table_id = id;
      t.memtable_bytes = integer(table.handle, rocksdb::DB::Properties::kCurSizeAllMemTables);
      t.sstable_bytes = integer(table.handle, rocksdb::DB::Properties::kTotalSstFilesSize);
      t.live_sstable_bytes = integer(table.handle, rocksdb::DB::Properties::kLiveSstFilesSize);
      t.live_versions = integer(table.handle, rocksdb::DB::Properties::kNumLiveVersions);
      t.pending_compaction_bytes =
          integer(table.handle, rocksdb::DB::Properties::kEstimatePendingCompactionBytes);
      const int levels = db_->NumberLevels(table.handle);
      for (int level = 0; level < levels; ++level) {
        std::string files;
        const bool known = db_->GetProperty(
            table.handle, rocksdb::DB::Properties::kNumFilesAtLevelPrefix + std::to_string(level),
            &files);
        t.sstables_per_level.push_back(known ? std::strtoull(files.c_str(), nullptr, 10) : 0);
      }
      t.memtable_entries =
          integer(table.handle, rocksdb::DB::Properties::kNumEntriesActiveMemTable) +
          integer(table.handle, rocksdb::DB::Properties::kNumEntriesImmMemTables);
      t.immutable_memtables = integer(table.handle, rocksdb::DB::Properties::kNumImmutableMemTable);
      // The live files' sizes, as the ledger last read them (after the
      // table's last flush or compaction): not every file's properties on
      // every scrape.
      if (auto it = large_data->tables.find(id); it != large_data->tables.end()) {
        t.sstable_data_bytes = it->second->data_bytes;
        t.sstable_raw_bytes = it->second->raw_bytes;
        t.filter_bytes = it->second->filter_bytes;
      }
      t.read_latency = table.activity->reads.snapshot();
      t.write_latency = table.activity->writes.snapshot();
      std::map<std::string, std::string> stats;
      if (db_->GetMapProperty(table.handle, rocksdb::DB::Properties::kCFStats, &stats)) {
        t.compaction_read_bytes = gigabytes(stats, "compaction.Sum.ReadGB");
        t.compaction_written_bytes = gigabytes(stats, "compaction.Sum.WriteGB");
      }
    }
  }
  out.running_compactions =
      integer(db_->DefaultColumnFamily(), rocksdb::DB::Properties::kNumRunningCompactions);
  out.running_flushes =
      integer(db_->DefaultColumnFamily(), rocksdb::DB::Properties::kNumRunningFlushes);
  out.block_cache_capacity_bytes = cache_->GetCapacity();
  out.block_cache_usage_bytes = cache_->GetUsage();
  out.block_cache_pinned_bytes = cache_->GetPinnedUsage();
  return out;
}

void RocksDbEngine::Compact(const types::Uuid& table_id) {
  std::shared_lock lock(mutex_);
  const Table& table = FindTable(table_id);
  rocksdb::FlushOptions flush;
  flush.wait = true;
  Check(db_->Flush(flush, table.handle), "flush before compaction", table_id.ToString());
  rocksdb::CompactRangeOptions compact;
  compact.bottommost_level_compaction = rocksdb::BottommostLevelCompaction::kForce;
  // The first pass merges every key's versions into one value; the second
  // lets the filter judge those fully merged values (purge_compaction_filter.h).
  for (int pass = 0; pass < 2; ++pass) {
    Check(db_->CompactRange(compact, table.handle, nullptr, nullptr), "compaction",
          table_id.ToString());
  }
  lock.unlock();
  RefreshLedger(table_id, /*memtable_flushed=*/true);  // it flushed first
}

}  // namespace sibyl::storage
