#include "index/indexing_engine.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "dht/token.h"
#include "index/index_entries.h"
#include "index/index_reader.h"
#include "storage/clustering_order.h"
#include "storage/mutation_merge.h"
#include "types/value_codec.h"

namespace sibyl::index {

using storage::IndexLayout;
using storage::Mutation;
using storage::ReadCommand;
using storage::TableLayout;

namespace {

constexpr int32_t kPartitionsPerBuildStep = 32;

// Where each index's build stands, kept in the engine itself so that a build
// resumes after a restart: one row per index id.
const TableLayout& BuildStateTable() {
  static const TableLayout layout = [] {
    TableLayout t;
    t.id = types::Uuid::NameBased("sibyl.index_build_state");
    t.keyspace = "system";
    t.name = "index_build_state";
    t.partition_key_types = {types::CqlType::Native(types::Kind::kUuid)};
    const auto boolean = types::CqlType::Native(types::Kind::kBoolean);
    const auto bigint = types::CqlType::Native(types::Kind::kBigint);
    const auto blob = types::CqlType::Native(types::Kind::kBlob);
    t.columns = {{"built", boolean, false},
                 {"last_key", blob, false},
                 {"last_token", bigint, false},
                 {"partitions_built", bigint, false}};
    return t;
  }();
  return layout;
}

storage::PartitionKey BuildStateKey(const types::Uuid& index_id) {
  Bytes key = types::EncodeUuid(index_id);
  const int64_t token = dht::Murmur3Token(key);
  return {token, std::move(key)};
}

storage::CellWrite CellOf(std::string column, Bytes value, int64_t timestamp) {
  storage::CellWrite write;
  write.column = std::move(column);
  write.cell.timestamp = timestamp;
  write.cell.value = std::move(value);
  return write;
}

// Whether `index`'s entries can change by `mutation` (anything else leaves
// them as they are, and the write needs no read).
bool MayChange(const IndexLayout& index, const TableLayout& base, const Mutation& mutation) {
  if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty()) return true;
  if (index.source == IndexLayout::Source::kPartitionKey) return true;  // the partition's liveness
  if (index.source == IndexLayout::Source::kClustering) {
    // A clustering column's entries follow the row's liveness: any change to a row.
    return std::any_of(mutation.rows.begin(), mutation.rows.end(),
                       [](const storage::RowWrite& row) { return !row.is_static; });
  }
  const storage::ColumnLayout* column = base.FindColumn(index.column);
  const bool is_static = column != nullptr && column->is_static;
  for (const storage::RowWrite& row : mutation.rows) {
    if (row.is_static != is_static) continue;
    if (!row.deletion.is_live()) return true;
    for (const auto& deletion : row.collection_deletions) {
      if (deletion.column == index.column) return true;
    }
    for (const auto& cell : row.cells) {
      if (cell.column == index.column) return true;
    }
  }
  return false;
}

// The read of what the replica holds of the rows `mutation` changes (of the
// whole partition when an index on a partition key column needs its
// liveness).
ReadCommand AffectedRows(const TableLayout& base, const Mutation& mutation, int32_t now) {
  ReadCommand read;
  read.table_id = mutation.table_id;
  read.partitions = {mutation.partition};
  read.now_seconds = now;
  const bool partition_key_index = std::any_of(
      base.indexes.begin(), base.indexes.end(),
      [](const IndexLayout& index) { return index.source == IndexLayout::Source::kPartitionKey; });
  const bool whole = partition_key_index || !mutation.partition_deletion.is_live() ||
                     !mutation.range_tombstones.empty() || base.clustering.empty() ||
                     std::any_of(mutation.rows.begin(), mutation.rows.end(),
                                 [](const storage::RowWrite& row) { return row.is_static; });
  if (whole) return read;  // every row (a static row comes with them)
  std::vector<storage::Clustering> rows;
  for (const storage::RowWrite& row : mutation.rows) rows.push_back(row.clustering);
  const auto column = storage::ClusteringColumnsOf(base);
  std::sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
    return storage::CompareClusterings(column, a, b) < 0;
  });
  rows.erase(std::unique(rows.begin(), rows.end(),
                         [&](const auto& a, const auto& b) {
                           return storage::CompareClusterings(column, a, b) == 0;
                         }),
             rows.end());
  for (auto& row : rows) {
    read.slices.push_back(storage::ClusteringSlice::Point(row));
  }
  return read;
}

}  // namespace

// Shared between catalogs: an index keeps its build state across schema changes.
struct BuildState {
  std::atomic<bool> built{false};
  std::atomic<bool> failed{false};  // the build threw: retried after a restart
  std::string failure;              // GUARDED_BY(mutex)
  std::atomic<int64_t> partitions_built{0};
  std::mutex mutex;
  std::optional<storage::PartitionKey> last;  // GUARDED_BY(mutex): resume after it
};

struct IndexingEngine::Index {
  IndexLayout layout;
  TableLayout table;  // the entries' table
  std::shared_ptr<BuildState> build;
};

struct IndexingEngine::IndexedTable {
  TableLayout base;
  std::vector<Index> indexes;
};

struct IndexingEngine::Catalog {
  std::map<types::Uuid, IndexedTable> tables;                      // by base table id
  std::map<types::Uuid, std::pair<types::Uuid, size_t>> by_index;  // index id → (table, position)

  const IndexedTable* Find(const types::Uuid& table_id) const {
    auto it = tables.find(table_id);
    return it == tables.end() ? nullptr : &it->second;
  }
};

std::unique_ptr<IndexingEngine> IndexingEngine::Wrap(std::unique_ptr<storage::Engine> inner,
                                                     Clock& clock) {
  return std::make_unique<IndexingEngine>(std::move(inner), clock);
}

IndexingEngine::IndexingEngine(std::unique_ptr<storage::Engine> inner, Clock& clock)
    : inner_(std::move(inner)), clock_(clock), catalog_(std::make_shared<Catalog>()) {
  builder_ = std::thread([this] { BuildLoop(); });
}

IndexingEngine::~IndexingEngine() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  builder_.join();
}

std::shared_ptr<const IndexingEngine::Catalog> IndexingEngine::catalog() const {
  std::lock_guard lock(mutex_);
  return catalog_;
}

void IndexingEngine::SyncTables(const std::vector<TableLayout>& tables) {
  auto next = std::make_shared<Catalog>();
  const auto previous = catalog();
  std::vector<std::pair<types::Uuid, size_t>> new_indexes;  // (table, position)
  std::vector<TableLayout> stored = tables;
  stored.push_back(BuildStateTable());
  for (const TableLayout& base : tables) {
    if (base.indexes.empty()) continue;
    IndexedTable& entry = next->tables[base.id];
    entry.base = base;
    for (const IndexLayout& layout : base.indexes) {
      Index index{layout, IndexTableLayout(base, layout), nullptr};
      if (auto known = previous->by_index.find(layout.id); known != previous->by_index.end()) {
        const auto& [table_id, position] = known->second;
        index.build = previous->tables.at(table_id).indexes.at(position).build;
      } else {
        index.build = std::make_shared<BuildState>();  // unbuilt until LoadBuildStates
        new_indexes.emplace_back(base.id, entry.indexes.size());
      }
      stored.push_back(index.table);
      next->by_index[layout.id] = {base.id, entry.indexes.size()};
      entry.indexes.push_back(std::move(index));
    }
  }
  inner_->SyncTables(stored);
  ForgetDroppedIndexes(*previous, *next);
  {
    std::lock_guard lock(mutex_);
    catalog_ = next;
    any_indexes_.store(!next->tables.empty(), std::memory_order_release);
    settling_ = true;
  }
  // Every write from now on keeps the new indexes. Wait for those that
  // started with the old catalog: once they have landed, an empty table is
  // really empty and a build sees every write it must index. (A write reads
  // the epoch, counts itself in, then loads the catalog: one that counted
  // itself in after this check loads the catalog published above.)
  const uint64_t old_epoch = write_epoch_.fetch_add(1);
  while (writes_in_flight_[old_epoch & 1].load() != 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  LoadBuildStates(*next, new_indexes);
  {
    std::lock_guard lock(mutex_);
    settling_ = false;
  }
  changed_.notify_all();
}

// Deletes the build state of indexes `next` no longer has: an index created
// again under the same id starts unbuilt.
void IndexingEngine::ForgetDroppedIndexes(const Catalog& previous, const Catalog& next) {
  for (const auto& [index_id, place] : previous.by_index) {
    if (next.by_index.contains(index_id)) continue;
    Mutation forget;
    forget.table_id = BuildStateTable().id;
    forget.partition = BuildStateKey(index_id);
    forget.partition_deletion = {clock_.NextTimestampMicros(), clock_.NowSeconds()};
    inner_->Apply(forget);
  }
}

// Gives each index new to this engine (`indexes`) its state: from the engine
// when it was being (or was) built before a restart; else built at once on
// an empty table, and left to the builder otherwise.
void IndexingEngine::LoadBuildStates(const Catalog& catalog,
                                     const std::vector<std::pair<types::Uuid, size_t>>& indexes) {
  std::vector<Mutation> writes;
  for (const auto& [table_id, position] : indexes) {
    const IndexedTable& table = catalog.tables.at(table_id);
    const Index& index = table.indexes.at(position);
    BuildState* state = index.build.get();
    ReadCommand read;
    read.table_id = BuildStateTable().id;
    read.partitions = {BuildStateKey(index.layout.id)};
    read.now_seconds = clock_.NowSeconds();
    const storage::ReadResult stored = inner_->Read(read);
    if (!stored.partitions.empty() && !stored.partitions.front().rows.empty()) {
      std::optional<Bytes> last_key;
      std::optional<int64_t> last_token;
      for (const auto& cell : stored.partitions.front().rows.front().cells) {
        if (cell.column == "built") state->built = types::DecodeBoolean(cell.value);
        if (cell.column == "last_key") last_key = cell.value;
        if (cell.column == "last_token") last_token = types::DecodeBigint(cell.value);
        if (cell.column == "partitions_built") {
          state->partitions_built = types::DecodeBigint(cell.value);
        }
      }
      if (last_key && last_token) {
        std::lock_guard state_lock(state->mutex);
        state->last = storage::PartitionKey{*last_token, *last_key};
      }
      continue;
    }
    ReadCommand any;
    any.table_id = table.base.id;
    any.partition_limit = 1;
    any.row_limit = 1;
    any.now_seconds = read.now_seconds;
    if (inner_->Read(any).partitions.empty()) {
      state->built = true;
      StoreBuildState(index, writes);
    }
  }
  if (!writes.empty()) {
    std::vector<const Mutation*> all;
    for (const Mutation& m : writes) all.push_back(&m);
    inner_->ApplyAll(all);
  }
}

void IndexingEngine::StoreBuildState(const Index& index, std::vector<Mutation>& writes) const {
  Mutation& m = writes.emplace_back();
  m.table_id = BuildStateTable().id;
  m.partition = BuildStateKey(index.layout.id);
  storage::RowWrite& row = m.rows.emplace_back();
  const int64_t timestamp = clock_.NextTimestampMicros();
  row.cells.push_back(CellOf("built", types::EncodeBoolean(index.build->built), timestamp));
  row.cells.push_back(
      CellOf("partitions_built", types::EncodeBigint(index.build->partitions_built), timestamp));
  std::lock_guard lock(index.build->mutex);
  if (index.build->last) {
    row.cells.push_back(CellOf("last_key", index.build->last->key, timestamp));
    row.cells.push_back(
        CellOf("last_token", types::EncodeBigint(index.build->last->token), timestamp));
  }
}

void IndexingEngine::ApplyAll(const std::vector<const Mutation*>& mutations) {
  std::atomic<int64_t>& in_flight = writes_in_flight_[write_epoch_.load() & 1];
  ++in_flight;
  struct Landed {
    std::atomic<int64_t>& count;
    ~Landed() { --count; }
  } landed{in_flight};
  if (!any_indexes_.load()) return inner_->ApplyAll(mutations);
  const auto current = catalog();
  ApplyIndexed(mutations, *current);
}

void IndexingEngine::ApplyIndexed(const std::vector<const Mutation*>& mutations,
                                  const Catalog& catalog) {
  // The writes that may change entries, merged per partition: a batch
  // writing one partition twice reads it once.
  struct Touched {
    const IndexedTable* table;
    Mutation write;
  };
  std::vector<Touched> touched;
  for (const Mutation* mutation : mutations) {
    const IndexedTable* table = catalog.Find(mutation->table_id);
    if (table == nullptr) continue;
    const bool changes = std::any_of(
        table->indexes.begin(), table->indexes.end(),
        [&](const Index& index) { return MayChange(index.layout, table->base, *mutation); });
    if (!changes) continue;
    auto same = std::find_if(touched.begin(), touched.end(), [&](const Touched& t) {
      return t.write.table_id == mutation->table_id && t.write.partition == mutation->partition;
    });
    if (same == touched.end()) {
      touched.push_back({table, *mutation});
    } else {
      storage::MergeMutation(same->write, Mutation(*mutation));
    }
  }
  if (touched.empty()) return inner_->ApplyAll(mutations);

  std::vector<std::pair<const types::Uuid*, const storage::PartitionKey*>> keys;
  for (const Touched& t : touched) keys.emplace_back(&t.write.table_id, &t.write.partition);
  const auto locks = locks_.LockAll(keys);
  const int32_t now = clock_.NowSeconds();
  const int64_t timestamp = clock_.NextTimestampMicros();
  std::vector<Mutation> entry_writes;
  for (Touched& t : touched) {
    std::vector<Mutation> held = inner_->ReadUnfiltered(AffectedRows(t.table->base, t.write, now));
    Mutation before;
    if (held.empty()) {
      before.table_id = t.write.table_id;
      before.partition = t.write.partition;
    } else {
      before = std::move(held.front());
    }
    Mutation after = before;
    storage::MergeMutation(after, std::move(t.write));
    for (const Index& index : t.table->indexes) {
      Entries old_entries;
      Entries new_entries;
      CollectEntries(t.table->base, index.layout, before, now, old_entries);
      CollectEntries(t.table->base, index.layout, after, now, new_entries);
      DiffEntries(index.table, old_entries, new_entries, timestamp, now, entry_writes);
    }
  }
  std::vector<const Mutation*> all = mutations;
  for (const Mutation& m : entry_writes) all.push_back(&m);
  inner_->ApplyAll(all);
}

storage::ReadResult IndexingEngine::Read(const ReadCommand& command) const {
  if (!command.index) return inner_->Read(command);
  const auto current = catalog();
  auto it = current->by_index.find(command.index->index_id);
  if (it == current->by_index.end() || it->second.first != command.table_id) {
    throw std::runtime_error("no index " + command.index->index_id.ToString() + " on table " +
                             command.table_id.ToString());
  }
  const IndexedTable& table = current->tables.at(it->second.first);
  const Index& index = table.indexes.at(it->second.second);
  if (!index.build->built) throw storage::IndexNotAvailable(index.layout.name);
  return ReadThroughIndex(*inner_, IndexReadTarget{table.base, index.layout, index.table}, command);
}

std::vector<Mutation> IndexingEngine::ReadUnfiltered(const ReadCommand& command) const {
  if (!command.index) return inner_->ReadUnfiltered(command);
  // The rows the index finds, each as the replica holds it: what a
  // coordinator reconciles when replicas' answers to an index read differ.
  const storage::ReadResult found = Read(command);
  std::vector<Mutation> out;
  for (const storage::ReadPartition& partition : found.partitions) {
    ReadCommand rows;
    rows.table_id = command.table_id;
    rows.partitions = {partition.key};
    rows.now_seconds = command.now_seconds;
    for (const storage::ReadRow& row : partition.rows) {
      rows.slices.push_back(storage::ClusteringSlice::Point(row.clustering));
    }
    if (rows.slices.empty() && !partition.static_row) continue;
    for (Mutation& m : inner_->ReadUnfiltered(rows)) out.push_back(std::move(m));
  }
  return out;
}

void IndexingEngine::Truncate(const types::Uuid& table_id) {
  const auto current = catalog();
  const IndexedTable* table = current->Find(table_id);
  if (table == nullptr) return inner_->Truncate(table_id);
  // Under every stripe: no write may slip between the base and its entries.
  std::vector<std::unique_lock<std::mutex>> all_stripes = locks_.LockEverything();
  inner_->Truncate(table_id);
  for (const Index& index : table->indexes) inner_->Truncate(index.layout.id);
}

void IndexingEngine::Compact(const types::Uuid& table_id) {
  inner_->Compact(table_id);
  const auto current = catalog();
  if (const IndexedTable* table = current->Find(table_id)) {
    for (const Index& index : table->indexes) inner_->Compact(index.layout.id);
  }
}

std::vector<IndexBuildStatus> IndexingEngine::BuildStatuses() const {
  const auto current = catalog();
  std::vector<IndexBuildStatus> out;
  for (const auto& [id, table] : current->tables) {
    for (const Index& index : table.indexes) {
      IndexBuildStatus status;
      status.keyspace = table.base.keyspace;
      status.table = table.base.name;
      status.index = index.layout.name;
      status.built = index.build->built;
      status.partitions_built = index.build->partitions_built;
      std::lock_guard lock(index.build->mutex);
      if (index.build->last) status.last_token = index.build->last->token;
      status.failure = index.build->failure;
      out.push_back(std::move(status));
    }
  }
  return out;
}

void IndexingEngine::AwaitBuilds() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    if (stopping_) return true;
    if (building_ || settling_) return false;
    for (const auto& [id, table] : catalog_->tables) {
      for (const Index& index : table.indexes) {
        if (!index.build->built && !index.build->failed) return false;
      }
    }
    return true;
  });
}

void IndexingEngine::BuildLoop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    const Index* pending = nullptr;
    const IndexedTable* pending_table = nullptr;
    for (const auto& [id, table] : catalog_->tables) {
      for (const Index& index : table.indexes) {
        if (!index.build->built && !index.build->failed && pending == nullptr) {
          pending = &index;
          pending_table = &table;
        }
      }
    }
    if (stopping_) return;
    if (pending == nullptr || settling_) {
      changed_.wait(lock);
      continue;
    }
    // Build one step outside the lock, holding this catalog alive; a DROP
    // (a catalog without the index) stops the build at the next step.
    const auto held = catalog_;
    building_ = true;
    lock.unlock();
    bool more = false;
    try {
      more = BuildStep(*pending, *pending_table);
    } catch (const std::exception& e) {
      // The index stays unavailable (its reads say so); a restart retries.
      std::lock_guard failure_lock(pending->build->mutex);
      pending->build->failure = e.what();
      pending->build->failed = true;
    }
    lock.lock();
    building_ = false;
    if (!more) changed_.notify_all();
  }
}

bool IndexingEngine::BuildStep(const Index& index, const IndexedTable& table) {
  BuildState& state = *index.build;
  ReadCommand scan;
  scan.table_id = table.base.id;
  scan.partition_limit = kPartitionsPerBuildStep;
  scan.now_seconds = clock_.NowSeconds();
  {
    std::lock_guard lock(state.mutex);
    if (state.last) scan.resume_after = storage::ReadPosition{*state.last, std::nullopt, false, 0};
  }
  const storage::ReadResult page = inner_->Read(scan);
  for (const storage::ReadPartition& partition : page.partitions) {
    {
      std::lock_guard lock(mutex_);
      if (stopping_ || !catalog_->by_index.contains(index.layout.id)) return false;
    }
    const types::Uuid* table_id = &table.base.id;
    const auto locks = locks_.LockAll({{table_id, &partition.key}});
    const int32_t now = clock_.NowSeconds();
    ReadCommand whole;
    whole.table_id = table.base.id;
    whole.partitions = {partition.key};
    whole.now_seconds = now;
    std::vector<Mutation> held = inner_->ReadUnfiltered(whole);
    Entries entries;
    if (!held.empty()) CollectEntries(table.base, index.layout, held.front(), now, entries);
    std::vector<Mutation> writes;
    DiffEntries(index.table, {}, entries, clock_.NextTimestampMicros(), now, writes);
    {
      std::lock_guard lock(state.mutex);
      state.last = partition.key;
    }
    ++state.partitions_built;
    StoreBuildState(index, writes);
    std::vector<const Mutation*> all;
    for (const Mutation& m : writes) all.push_back(&m);
    inner_->ApplyAll(all);
  }
  if (page.next) return true;
  state.built = true;
  std::vector<Mutation> writes;
  StoreBuildState(index, writes);
  inner_->Apply(writes.front());
  return false;
}

}  // namespace sibyl::index
