#include "index/indexing_engine.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "dht/token.h"
#include "index/derived_check.h"
#include "index/index_entries.h"
#include "index/index_reader.h"
#include "index/view_checker.h"
#include "index/view_rows.h"
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

// Whether `mutation` may change the rows of the table's views: any change
// to a clustering row (its liveness, kept by any of its cells, decides the
// view row's), not one to static cells alone.
bool MayChangeViews(const Mutation& mutation) {
  if (!mutation.partition_deletion.is_live() || !mutation.range_tombstones.empty()) return true;
  return std::any_of(mutation.rows.begin(), mutation.rows.end(),
                     [](const storage::RowWrite& row) { return !row.is_static; });
}

// The newest write or deletion timestamp in `m`.
int64_t NewestTimestamp(const Mutation& m) {
  int64_t newest = m.partition_deletion.marked_for_delete_at;
  for (const auto& rt : m.range_tombstones) {
    newest = std::max(newest, rt.deletion.marked_for_delete_at);
  }
  for (const storage::RowWrite& row : m.rows) {
    newest = std::max({newest, row.marker.timestamp, row.deletion.marked_for_delete_at});
    for (const auto& deletion : row.collection_deletions) {
      newest = std::max(newest, deletion.deletion.marked_for_delete_at);
    }
    for (const auto& cell : row.cells) newest = std::max(newest, cell.cell.timestamp);
  }
  return newest;
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

// Shared between catalogs: an index or view keeps its build state across
// schema changes.
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

struct IndexingEngine::View {
  storage::ViewLayout layout;
  std::shared_ptr<BuildState> build;
};

struct IndexingEngine::IndexedTable {
  TableLayout base;
  std::vector<Index> indexes;
  std::vector<View> views;
};

// An index or a view of a table: what a build builds.
struct IndexingEngine::Derived {
  const IndexedTable* table = nullptr;
  const Index* index = nullptr;  // exactly one of index and view
  const View* view = nullptr;

  const types::Uuid& id() const { return index != nullptr ? index->layout.id : view->layout.id; }
  BuildState& build() const { return index != nullptr ? *index->build : *view->build; }
};

struct IndexingEngine::Catalog {
  std::map<types::Uuid, IndexedTable> tables;  // by base table id
  std::map<types::Uuid, Derived> derived;      // by index or view id

  const IndexedTable* Find(const types::Uuid& table_id) const {
    auto it = tables.find(table_id);
    return it == tables.end() ? nullptr : &it->second;
  }
  template <typename F>
  void ForEachDerived(F&& f) const {
    for (const auto& [id, table] : tables) {
      for (const Index& index : table.indexes) f(Derived{&table, &index, nullptr});
      for (const View& view : table.views) f(Derived{&table, nullptr, &view});
    }
  }
};

namespace {

void StoreBuildState(const types::Uuid& id, BuildState& state, int64_t timestamp,
                     std::vector<Mutation>& writes) {
  Mutation& m = writes.emplace_back();
  m.table_id = BuildStateTable().id;
  m.partition = BuildStateKey(id);
  storage::RowWrite& row = m.rows.emplace_back();
  row.cells.push_back(CellOf("built", types::EncodeBoolean(state.built), timestamp));
  row.cells.push_back(
      CellOf("partitions_built", types::EncodeBigint(state.partitions_built), timestamp));
  std::lock_guard lock(state.mutex);
  if (state.last) {
    row.cells.push_back(CellOf("last_key", state.last->key, timestamp));
    row.cells.push_back(CellOf("last_token", types::EncodeBigint(state.last->token), timestamp));
  }
}

void ApplyEach(storage::Engine& engine, const std::vector<Mutation>& writes) {
  std::vector<const Mutation*> all;
  for (const Mutation& m : writes) all.push_back(&m);
  engine.ApplyAll(all);
}

}  // namespace

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
  std::vector<TableLayout> stored = tables;
  stored.push_back(BuildStateTable());
  stored.push_back(ViewOutboxTable());
  // A build state per index or view: the previous catalog's when it knew it.
  const auto state_of = [&](const types::Uuid& id, std::vector<types::Uuid>& fresh) {
    if (auto known = previous->derived.find(id); known != previous->derived.end()) {
      const Derived& d = known->second;
      return d.index != nullptr ? d.index->build : d.view->build;
    }
    fresh.push_back(id);
    return std::make_shared<BuildState>();  // unbuilt until LoadBuildStates
  };
  std::vector<types::Uuid> fresh_ids;
  for (const TableLayout& base : tables) {
    if (base.indexes.empty() && base.views.empty()) continue;
    IndexedTable& entry = next->tables[base.id];
    entry.base = base;
    for (const IndexLayout& layout : base.indexes) {
      Index index{layout, IndexTableLayout(base, layout), state_of(layout.id, fresh_ids)};
      stored.push_back(index.table);
      entry.indexes.push_back(std::move(index));
    }
    for (const storage::ViewLayout& layout : base.views) {
      entry.views.push_back(View{layout, state_of(layout.id, fresh_ids)});
    }
  }
  next->ForEachDerived([&](const Derived& d) { next->derived[d.id()] = d; });
  inner_->SyncTables(stored);
  ForgetDropped(*previous, *next);
  if (!outbox_counted_) {  // the first sync: what a previous run left to send
    CountOutbox();
    outbox_counted_ = true;
  }
  {
    std::lock_guard lock(mutex_);
    catalog_ = next;
    any_indexes_.store(!next->tables.empty(), std::memory_order_release);
    settling_ = true;
  }
  // Every write from now on keeps the new indexes and views. Wait for those
  // that started with the old catalog: once they have landed, an empty
  // table is really empty and a build sees every write it must derive from.
  // (A write reads the epoch, counts itself in, then loads the catalog: one
  // that counted itself in after this check loads the catalog published
  // above.)
  const uint64_t old_epoch = write_epoch_.fetch_add(1);
  while (writes_in_flight_[old_epoch & 1].load() != 0) {
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  std::vector<Derived> fresh;
  for (const types::Uuid& id : fresh_ids) fresh.push_back(next->derived.at(id));
  LoadBuildStates(fresh);
  {
    std::lock_guard lock(mutex_);
    settling_ = false;
  }
  changed_.notify_all();
}

// Deletes the build state of indexes and views `next` no longer has: one
// created again under the same id starts unbuilt.
void IndexingEngine::ForgetDropped(const Catalog& previous, const Catalog& next) {
  for (const auto& [id, derived] : previous.derived) {
    if (next.derived.contains(id)) continue;
    Mutation forget;
    forget.table_id = BuildStateTable().id;
    forget.partition = BuildStateKey(id);
    forget.partition_deletion = {clock_.NextTimestampMicros(), clock_.NowSeconds()};
    inner_->Apply(forget);
  }
}

// Gives each index and view new to this engine its state: from the engine
// when it was being (or was) built before a restart; else built at once on
// an empty table, and left to the builder otherwise.
void IndexingEngine::LoadBuildStates(const std::vector<Derived>& fresh) {
  std::vector<Mutation> writes;
  for (const Derived& derived : fresh) {
    BuildState& state = derived.build();
    ReadCommand read;
    read.table_id = BuildStateTable().id;
    read.partitions = {BuildStateKey(derived.id())};
    read.now_seconds = clock_.NowSeconds();
    const storage::ReadResult stored = inner_->Read(read);
    if (!stored.partitions.empty() && !stored.partitions.front().rows.empty()) {
      std::optional<Bytes> last_key;
      std::optional<int64_t> last_token;
      for (const auto& cell : stored.partitions.front().rows.front().cells) {
        if (cell.column == "built") state.built = types::DecodeBoolean(cell.value);
        if (cell.column == "last_key") last_key = cell.value;
        if (cell.column == "last_token") last_token = types::DecodeBigint(cell.value);
        if (cell.column == "partitions_built") {
          state.partitions_built = types::DecodeBigint(cell.value);
        }
      }
      if (last_key && last_token) {
        std::lock_guard state_lock(state.mutex);
        state.last = storage::PartitionKey{*last_token, *last_key};
      }
      continue;
    }
    ReadCommand any;
    any.table_id = derived.table->base.id;
    any.partition_limit = 1;
    any.row_limit = 1;
    any.now_seconds = read.now_seconds;
    if (inner_->Read(any).partitions.empty()) {
      state.built = true;
      StoreBuildState(derived.id(), state, clock_.NextTimestampMicros(), writes);
    }
  }
  if (!writes.empty()) ApplyEach(*inner_, writes);
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
  // The writes that may change entries or view rows, merged per partition:
  // a batch writing one partition twice reads it once.
  struct Touched {
    const IndexedTable* table;
    Mutation write;
  };
  std::vector<Touched> touched;
  bool views = false;
  for (const Mutation* mutation : mutations) {
    const IndexedTable* table = catalog.Find(mutation->table_id);
    if (table == nullptr) continue;
    const bool changes =
        (!table->views.empty() && MayChangeViews(*mutation)) ||
        std::any_of(table->indexes.begin(), table->indexes.end(), [&](const Index& index) {
          return MayChange(index.layout, table->base, *mutation);
        });
    if (!changes) continue;
    views = views || !table->views.empty();
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
  if (views && router_ != nullptr) RefuseWhenOutboxFull();

  std::vector<std::pair<const types::Uuid*, const storage::PartitionKey*>> keys;
  for (const Touched& t : touched) keys.emplace_back(&t.write.table_id, &t.write.partition);
  const auto locks = locks_.LockAll(keys);
  const int32_t now = clock_.NowSeconds();
  const int64_t timestamp = clock_.NextTimestampMicros();
  std::vector<Mutation> derived_writes;
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
      DiffEntries(index.table, old_entries, new_entries, timestamp, now, derived_writes);
    }
    if (!t.table->views.empty()) {
      DeriveViewWrites(*t.table, before, after, nullptr, now, derived_writes);
    }
  }
  std::vector<const Mutation*> all = mutations;
  for (const Mutation& m : derived_writes) all.push_back(&m);
  inner_->ApplyAll(all);
}

void IndexingEngine::DeriveViewWrites(const IndexedTable& table, const Mutation& before,
                                      const Mutation& after, const View* only, int32_t now,
                                      std::vector<Mutation>& writes) {
  std::vector<Mutation> updates;
  for (const View& view : table.views) {
    if (only != nullptr && only != &view) continue;
    ViewRows old_rows;
    ViewRows new_rows;
    CollectViewRows(table.base, view.layout, before, now, old_rows);
    CollectViewRows(table.base, view.layout, after, now, new_rows);
    // Two timestamps: the rows' deletion, then their new contents.
    const int64_t deletion = clock_.NextTimestampMicros();
    const int64_t contents = clock_.NextTimestampMicros();
    DiffViewRows(view.layout, old_rows, new_rows, deletion, contents, now, updates);
  }
  for (Mutation& update : updates) {
    if (router_ == nullptr) {
      writes.push_back(std::move(update));
      continue;
    }
    const ViewUpdateRouter::Targets targets =
        router_->Route(table.base.keyspace, after.partition, update.partition);
    for (const types::Uuid& target : targets.remote) {
      writes.push_back(ViewOutboxRecord(target, clock_.NextTimestampMicros(), update,
                                        clock_.NextTimestampMicros()));
      ++outbox_size_;
    }
    if (targets.local) writes.push_back(std::move(update));
  }
}

storage::ReadResult IndexingEngine::Read(const ReadCommand& command) const {
  if (!command.index) return inner_->Read(command);
  const auto current = catalog();
  auto it = current->derived.find(command.index->index_id);
  if (it == current->derived.end() || it->second.index == nullptr ||
      it->second.table->base.id != command.table_id) {
    throw std::runtime_error("no index " + command.index->index_id.ToString() + " on table " +
                             command.table_id.ToString());
  }
  const IndexedTable& table = *it->second.table;
  const Index& index = *it->second.index;
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
  // Under every stripe: no write may slip between the base and what derives
  // from it. A view is truncated with its base, as in Cassandra: every node
  // truncates, so every view replica does.
  std::vector<std::unique_lock<std::mutex>> all_stripes = locks_.LockEverything();
  inner_->Truncate(table_id);
  for (const Index& index : table->indexes) inner_->Truncate(index.layout.id);
  for (const View& view : table->views) inner_->Truncate(view.layout.id);
}

void IndexingEngine::Compact(const types::Uuid& table_id) {
  inner_->Compact(table_id);
  const auto current = catalog();
  if (const IndexedTable* table = current->Find(table_id)) {
    for (const Index& index : table->indexes) inner_->Compact(index.layout.id);
  }
}

namespace {

IndexBuildStatus StatusOf(const TableLayout& base, const std::string& name, BuildState& state) {
  IndexBuildStatus status;
  status.keyspace = base.keyspace;
  status.table = base.name;
  status.index = name;
  status.built = state.built;
  status.partitions_built = state.partitions_built;
  std::lock_guard lock(state.mutex);
  if (state.last) status.last_token = state.last->token;
  status.failure = state.failure;
  return status;
}

}  // namespace

std::vector<IndexBuildStatus> IndexingEngine::BuildStatuses() const {
  std::vector<IndexBuildStatus> out;
  for (const auto& [id, table] : catalog()->tables) {
    for (const Index& index : table.indexes) {
      out.push_back(StatusOf(table.base, index.layout.name, *index.build));
    }
  }
  return out;
}

std::vector<IndexBuildStatus> IndexingEngine::ViewBuildStatuses() const {
  std::vector<IndexBuildStatus> out;
  for (const auto& [id, table] : catalog()->tables) {
    for (const View& view : table.views) {
      out.push_back(StatusOf(table.base, view.layout.name, *view.build));
    }
  }
  return out;
}

void IndexingEngine::AwaitBuilds() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] {
    if (stopping_) return true;
    if (building_ || settling_) return false;
    for (const auto& [id, derived] : catalog_->derived) {
      if (!derived.build().built && !derived.build().failed) return false;
    }
    return true;
  });
}

void IndexingEngine::BuildLoop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    std::optional<Derived> pending;
    catalog_->ForEachDerived([&](const Derived& d) {
      if (!pending && !d.build().built && !d.build().failed) pending = d;
    });
    if (stopping_) return;
    if (!pending || settling_) {
      changed_.wait(lock);
      continue;
    }
    // Build one step outside the lock, holding this catalog alive; a DROP
    // (a catalog without the index or view) stops the build at the next step.
    const auto held = catalog_;
    building_ = true;
    lock.unlock();
    bool more = false;
    try {
      more = BuildStep(*pending);
    } catch (const std::exception& e) {
      // An index stays unavailable (its reads say so); a restart retries.
      BuildState& state = pending->build();
      std::lock_guard failure_lock(state.mutex);
      state.failure = e.what();
      state.failed = true;
    }
    lock.lock();
    building_ = false;
    if (!more) changed_.notify_all();
  }
}

bool IndexingEngine::BuildStep(const Derived& derived) {
  const IndexedTable& table = *derived.table;
  BuildState& state = derived.build();
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
      if (stopping_ || !catalog_->derived.contains(derived.id())) return false;
    }
    if (derived.view != nullptr && router_ != nullptr) RefuseWhenOutboxFull();
    const types::Uuid* table_id = &table.base.id;
    const auto locks = locks_.LockAll({{table_id, &partition.key}});
    const int32_t now = clock_.NowSeconds();
    std::vector<Mutation> held =
        inner_->ReadUnfiltered(WholePartition(table.base.id, partition.key, now));
    std::vector<Mutation> writes;
    if (!held.empty()) {
      if (derived.index != nullptr) {
        Entries entries;
        CollectEntries(table.base, derived.index->layout, held.front(), now, entries);
        DiffEntries(derived.index->table, {}, entries, clock_.NextTimestampMicros(), now, writes);
      } else {
        Mutation nothing;
        nothing.table_id = table.base.id;
        nothing.partition = partition.key;
        DeriveViewWrites(table, nothing, held.front(), derived.view, now, writes);
      }
    }
    {
      std::lock_guard lock(state.mutex);
      state.last = partition.key;
    }
    ++state.partitions_built;
    StoreBuildState(derived.id(), state, clock_.NextTimestampMicros(), writes);
    ApplyEach(*inner_, writes);
  }
  if (page.next) return true;
  state.built = true;
  std::vector<Mutation> writes;
  StoreBuildState(derived.id(), state, clock_.NextTimestampMicros(), writes);
  inner_->Apply(writes.front());
  return false;
}

ViewCheck IndexingEngine::CheckView(const std::string& keyspace, const std::string& view_name,
                                    bool repair) {
  const auto current = catalog();
  const IndexedTable* table = nullptr;
  const View* view = nullptr;
  for (const auto& [id, candidate] : current->tables) {
    for (const View& v : candidate.views) {
      if (candidate.base.keyspace == keyspace && v.layout.name == view_name) {
        table = &candidate;
        view = &v;
      }
    }
  }
  ViewCheck check;
  check.keyspace = keyspace;
  check.view = view_name;
  check.repair = repair;
  check.checked_at_micros = clock_.NowMicros();
  if (view == nullptr) return check;
  check.found = true;
  ViewRowFilter covered;
  if (router_ != nullptr) {
    covered = [&](const storage::PartitionKey& base_partition, const ViewRowKey& key) {
      storage::PartitionKey view_partition{dht::Murmur3Token(key.first), key.first};
      const ViewUpdateRouter::Targets targets =
          router_->Route(keyspace, base_partition, view_partition);
      return targets.local && targets.base_replica;
    };
  }
  const ViewDifferences differences =
      index::CheckView(*inner_, table->base, view->layout, clock_.NowSeconds(), covered);
  check.rows_expected = differences.rows_expected;
  check.missing = static_cast<int64_t>(differences.missing.size());
  check.unexpected = static_cast<int64_t>(differences.unexpected.size());
  check.different = static_cast<int64_t>(differences.different.size());
  const auto remember = [&] {
    std::lock_guard lock(checks_mutex_);
    last_checks_[{keyspace, view_name}] = check;
    return check;
  };
  if (!repair) return remember();
  for (const auto* keys : {&differences.missing, &differences.unexpected, &differences.different}) {
    for (const ViewRowKey& key : *keys) {
      const storage::PartitionKey base_partition = BasePartitionOf(table->base, view->layout, key);
      const auto locks = locks_.LockAll({{&table->base.id, &base_partition}});
      const int32_t now = clock_.NowSeconds();
      ViewRows rows;
      for (const Mutation& held :
           inner_->ReadUnfiltered(WholePartition(table->base.id, base_partition, now))) {
        CollectViewRows(table->base, view->layout, held, now, rows);
      }
      auto desired = rows.find(key);
      // The damaged row may carry timestamps ahead of this node's clock:
      // the rewrite must supersede them, and so must every later write.
      ReadCommand stored;
      stored.table_id = view->layout.id;
      stored.partitions = {storage::PartitionKey{dht::Murmur3Token(key.first), key.first}};
      stored.slices = {storage::ClusteringSlice::Point(key.second)};
      stored.now_seconds = now;
      for (const Mutation& held : inner_->ReadUnfiltered(stored)) {
        clock_.Observe(NewestTimestamp(held));
      }
      std::vector<Mutation> writes;
      const int64_t deletion = clock_.NextTimestampMicros();
      ReplaceViewRow(view->layout, key, desired == rows.end() ? nullptr : &desired->second,
                     deletion, clock_.NextTimestampMicros(), now, writes);
      ApplyEach(*inner_, writes);
      ++check.repaired;
    }
  }
  return remember();
}

std::vector<ViewCheck> IndexingEngine::LastViewChecks() const {
  std::lock_guard lock(checks_mutex_);
  std::vector<ViewCheck> out;
  for (const auto& [key, check] : last_checks_) out.push_back(check);
  return out;
}

void IndexingEngine::SetViewUpdateRouter(std::shared_ptr<const ViewUpdateRouter> router) {
  router_ = std::move(router);
}

void IndexingEngine::CountOutbox() {
  ReadCommand all;
  all.table_id = ViewOutboxTable().id;
  all.now_seconds = clock_.NowSeconds();
  int64_t count = 0;
  for (const storage::ReadPartition& partition : inner_->Read(all).partitions) {
    count += static_cast<int64_t>(partition.rows.size());
  }
  outbox_size_ = count;
}

void IndexingEngine::RefuseWhenOutboxFull() const {
  // Refused at once, never waited for: replica writes are applied on the
  // messaging threads, which also carry the acknowledgements that drain
  // the outbox.
  const int64_t pending = outbox_size_.load();
  if (pending >= max_pending_view_updates_.load()) throw ViewUpdatesBacklogged(pending);
}

std::vector<types::Uuid> IndexingEngine::ViewUpdateTargets() const {
  ReadCommand targets;
  targets.table_id = ViewOutboxTable().id;
  targets.per_partition_limit = 1;
  targets.now_seconds = clock_.NowSeconds();
  std::vector<types::Uuid> out;
  for (const storage::ReadPartition& partition : inner_->Read(targets).partitions) {
    if (!partition.rows.empty()) out.push_back(types::Uuid::FromBytes(partition.key.key));
  }
  return out;
}

std::vector<PendingViewUpdate> IndexingEngine::PendingViewUpdates(const types::Uuid& target,
                                                                  size_t limit) const {
  ReadCommand read;
  read.table_id = ViewOutboxTable().id;
  read.partitions = {ViewOutboxPartition(target)};
  read.row_limit = static_cast<int32_t>(std::min<size_t>(limit, 1 << 20));
  read.now_seconds = clock_.NowSeconds();
  std::vector<PendingViewUpdate> out;
  for (const storage::ReadPartition& partition : inner_->Read(read).partitions) {
    for (const storage::ReadRow& row : partition.rows) {
      PendingViewUpdate& update = out.emplace_back();
      update.sequence = types::DecodeBigint(row.clustering.at(0));
      for (const auto& cell : row.cells) {
        if (cell.column == "mutation") update.mutation = cell.value;
      }
    }
  }
  return out;
}

void IndexingEngine::ViewUpdatesDelivered(const types::Uuid& target,
                                          const std::vector<int64_t>& sequences) {
  if (sequences.empty()) return;
  Mutation done;
  done.table_id = ViewOutboxTable().id;
  done.partition = ViewOutboxPartition(target);
  const int64_t timestamp = clock_.NextTimestampMicros();
  const int32_t now = clock_.NowSeconds();
  for (int64_t sequence : sequences) {
    storage::RowWrite& row = done.rows.emplace_back();
    row.clustering = {types::EncodeBigint(sequence)};
    row.deletion = {timestamp, now};
  }
  inner_->Apply(done);
  outbox_size_ -= static_cast<int64_t>(sequences.size());
}

}  // namespace sibyl::index
