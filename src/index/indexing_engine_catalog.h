#pragma once
// The indexing engine's catalog of indexes and views, and their build
// states: shared by indexing_engine.cc (writes, reads, checks, the outbox)
// and derived_builds.cc (building indexes and views on existing data).
// Internal to src/index/.

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "index/indexing_engine.h"

namespace sibyl::index {

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
  storage::IndexLayout layout;
  storage::TableLayout table;  // the entries' table
  std::shared_ptr<BuildState> build;
};

struct IndexingEngine::View {
  storage::ViewLayout layout;
  std::shared_ptr<BuildState> build;
};

struct IndexingEngine::IndexedTable {
  storage::TableLayout base;
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

// The engine's own table of build states: one row per index or view id.
[[nodiscard]] const storage::TableLayout& BuildStateTable();

// Applies `writes` in one atomic engine write.
void ApplyEach(storage::Engine& engine, const std::vector<storage::Mutation>& writes);

}  // namespace sibyl::index
