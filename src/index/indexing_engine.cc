#include "index/indexing_engine.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include "dht/token.h"
#include "index/derived_check.h"
#include "index/index_entries.h"
#include "index/index_reader.h"
#include "index/indexing_engine_catalog.h"
#include "index/view_checker.h"
#include "index/view_rows.h"
#include "storage/cells/mutation_merge.h"
#include "storage/data/clustering_order.h"
#include "types/value_codec.h"

namespace sibyl::index {

using storage::IndexLayout;
using storage::Mutation;
using storage::ReadCommand;
using storage::TableLayout;

namespace {

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

void IndexingEngine::ApplyAll(const std::vector<const Mutation*>& mutations) {
  Write(mutations, /*synced=*/false);
}

void IndexingEngine::ApplyAllSynced(const std::vector<const Mutation*>& mutations) {
  Write(mutations, /*synced=*/true);
}

void IndexingEngine::WriteInner(const std::vector<const Mutation*>& mutations, bool synced) {
  if (synced) {
    inner_->ApplyAllSynced(mutations);
  } else {
    inner_->ApplyAll(mutations);
  }
}

void IndexingEngine::Write(const std::vector<const Mutation*>& mutations, bool synced) {
  for (;;) {
    {
      std::atomic<int64_t>& in_flight = writes_in_flight_[write_epoch_.load() & 1];
      ++in_flight;
      struct Landed {
        std::atomic<int64_t>& count;
        ~Landed() { --count; }
      } landed{in_flight};
      if (!any_indexes_.load()) return WriteInner(mutations, synced);
      std::shared_ptr<const Catalog> current;
      {
        std::lock_guard lock(mutex_);
        if (!settling_ || stopping_) current = catalog_;
      }
      if (current != nullptr) return ApplyIndexed(mutations, *current, synced);
    }
    // A write made with the old catalog may still be landing on a partition
    // this write would read: the entries derived from a `before` that misses
    // it would outlive it (a build adds entries, it never removes them). Out
    // of the count SyncTables waits for, wait until it has settled.
    AwaitSettled();
  }
}

void IndexingEngine::AwaitSettled() const {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !settling_ || stopping_; });
}

void IndexingEngine::ApplyIndexed(const std::vector<const Mutation*>& mutations,
                                  const Catalog& catalog, bool synced) {
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
  if (touched.empty()) return WriteInner(mutations, synced);
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
  WriteInner(all, synced);
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
      // The node's increasing timestamp orders the outbox and dates the record.
      const int64_t sequence = clock_.NextTimestampMicros();
      writes.push_back(ViewOutboxRecord(target, sequence, update, sequence));
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
