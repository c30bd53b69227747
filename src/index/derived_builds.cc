// Building indexes and views on existing data (indexing_engine.h): a
// background thread walks the base table in token order, a page of
// partitions at a time, each under its partition lock, and keeps its
// progress in the engine so that a build resumes after a restart.

#include <optional>

#include "dht/token.h"
#include "index/derived_check.h"
#include "index/index_entries.h"
#include "index/indexing_engine.h"
#include "index/indexing_engine_catalog.h"
#include "types/value_codec.h"

namespace sibyl::index {

using storage::Mutation;
using storage::ReadCommand;
using storage::TableLayout;

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

void ApplyEach(storage::Engine& engine, const std::vector<Mutation>& writes) {
  std::vector<const Mutation*> all;
  for (const Mutation& m : writes) all.push_back(&m);
  engine.ApplyAll(all);
}

namespace {

constexpr int32_t kPartitionsPerBuildStep = 32;

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

}  // namespace

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

}  // namespace sibyl::index
