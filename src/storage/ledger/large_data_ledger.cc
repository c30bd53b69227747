#include "storage/ledger/large_data_ledger.h"

#include <algorithm>
#include <tuple>

#include "storage/codec/key_codec.h"

namespace sibyl::storage::ledger {
namespace {

template <typename T, typename Key, typename Fold>
std::vector<T> FoldByKey(std::vector<T> all, Key key, Fold fold) {
  std::sort(all.begin(), all.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
  std::vector<T> out;
  for (T& item : all) {
    if (!out.empty() && key(out.back()) == key(item)) {
      fold(out.back(), item);
    } else {
      out.push_back(std::move(item));
    }
  }
  return out;
}

// The files' histograms count each file's piece of a partition. Takes the
// pieces of the partitions named in several files out of `histograms`, and
// returns those partitions' prefixes, once each, for their sums to go in.
std::vector<Bytes> UncountSplitPartitions(const std::vector<PartitionFigures>& pieces,
                                          PartitionHistograms& histograms) {
  std::vector<const PartitionFigures*> sorted;
  for (const PartitionFigures& p : pieces) sorted.push_back(&p);
  std::sort(sorted.begin(), sorted.end(), [](const PartitionFigures* a, const PartitionFigures* b) {
    return a->prefix < b->prefix;
  });
  std::vector<Bytes> split;
  for (size_t i = 0; i < sorted.size(); ++i) {
    const bool same_as_previous = i > 0 && sorted[i - 1]->prefix == sorted[i]->prefix;
    const bool same_as_next = i + 1 < sorted.size() && sorted[i + 1]->prefix == sorted[i]->prefix;
    if (!same_as_previous && !same_as_next) continue;
    if (!same_as_previous) split.push_back(sorted[i]->prefix);
    histograms.Remove(*sorted[i]);
  }
  return split;
}

std::vector<PartitionFigures> SumPartitions(std::vector<PartitionFigures> pieces) {
  return FoldByKey(
      std::move(pieces), [](const PartitionFigures& p) -> BytesView { return p.prefix; },
      [](PartitionFigures& sum, const PartitionFigures& more) {
        sum.bytes += more.bytes;
        sum.rows += more.rows;
        sum.cells += more.cells;
        sum.tombstones += more.tombstones;
        sum.largest_row_bytes = std::max(sum.largest_row_bytes, more.largest_row_bytes);
        sum.largest_collection_items =
            std::max(sum.largest_collection_items, more.largest_collection_items);
      });
}

std::vector<RowFigures> SumRows(std::vector<RowFigures> pieces) {
  return FoldByKey(
      std::move(pieces),
      [](const RowFigures& r) { return std::tie(r.prefix, r.is_static, r.clustering); },
      [](RowFigures& sum, const RowFigures& more) {
        sum.bytes += more.bytes;
        sum.cells += more.cells;
      });
}

// A simple cell named by two files is two versions of it: the later one
// stands, and no size is more likely than the larger. A collection's
// elements add up.
std::vector<CellFigures> SumCells(std::vector<CellFigures> pieces) {
  return FoldByKey(
      std::move(pieces),
      [](const CellFigures& c) { return std::tie(c.prefix, c.is_static, c.clustering, c.column); },
      [](CellFigures& sum, const CellFigures& more) {
        if (sum.items == 0 && more.items == 0) {
          sum.bytes = std::max(sum.bytes, more.bytes);
        } else {
          sum.bytes += more.bytes;
          sum.items += more.items;
        }
      });
}

}  // namespace

const PartitionFigures* TableLedger::FindPartition(BytesView prefix) const {
  auto it = std::lower_bound(
      partitions.begin(), partitions.end(), prefix,
      [](const PartitionFigures& p, BytesView wanted) { return BytesView(p.prefix) < wanted; });
  return it != partitions.end() && it->prefix == prefix ? &*it : nullptr;
}

TableLedger SumFileLedgers(const types::Uuid& table_id,
                           const std::vector<std::shared_ptr<const FileLedger>>& files) {
  TableLedger table;
  table.table_id = table_id;
  std::vector<PartitionFigures> partitions;
  std::vector<RowFigures> rows;
  std::vector<CellFigures> cells;
  for (const auto& file : files) {
    ++table.files;
    if (!file) {
      ++table.unmeasured_files;
      continue;
    }
    partitions.insert(partitions.end(), file->partitions.begin(), file->partitions.end());
    rows.insert(rows.end(), file->rows.begin(), file->rows.end());
    cells.insert(cells.end(), file->cells.begin(), file->cells.end());
    table.histograms.Merge(file->histograms);
  }
  const std::vector<Bytes> split = UncountSplitPartitions(partitions, table.histograms);
  table.partitions = SumPartitions(std::move(partitions));
  for (const Bytes& prefix : split) table.histograms.Add(*table.FindPartition(prefix));
  table.rows = SumRows(std::move(rows));
  table.cells = SumCells(std::move(cells));
  // A collection written over several flushes is one collection: its
  // partition's largest is at least the sum of its pieces.
  for (const CellFigures& cell : table.cells) {
    if (cell.items == 0) continue;
    if (PartitionFigures* partition = table.FindPartition(cell.prefix)) {
      partition->largest_collection_items =
          std::max(partition->largest_collection_items, cell.items);
    }
  }
  return table;
}

PartitionFigures TableLedger::Current(size_t i) const {
  PartitionFigures figures = partitions[i];
  if (unflushed_bytes) figures.bytes += unflushed_bytes[i].load(std::memory_order_relaxed);
  return figures;
}

void LargeDataLedger::Rebuild(const types::Uuid& table_id, const std::vector<LedgerFile>& files,
                              int64_t now_millis, bool memtable_flushed) {
  std::map<std::string, std::shared_ptr<const FileLedger>> decoded;
  bool new_files = false;
  {
    std::lock_guard lock(mutex_);
    auto& known = files_[table_id];
    for (const LedgerFile& file : files) {
      if (auto it = known.find(file.path); it != known.end()) {
        decoded.emplace(*it);
      } else {
        new_files = true;
      }
    }
  }
  // A flush's file seen before (the engine refreshes at once after its own
  // flushes, the listener a moment later): the memtable since then is not in it.
  if (!new_files) memtable_flushed = false;
  std::vector<std::shared_ptr<const FileLedger>> ledgers;
  for (const LedgerFile& file : files) {
    auto [it, added] = decoded.try_emplace(file.path);
    if (added && file.property) {
      if (auto ledger = DecodeFileLedger(*file.property)) {
        it->second = std::make_shared<const FileLedger>(std::move(*ledger));
      }
    }
    ledgers.push_back(it->second);
  }
  auto table = std::make_shared<TableLedger>(SumFileLedgers(table_id, ledgers));
  table->measured_at_millis = now_millis;
  for (const LedgerFile& file : files) {
    table->data_bytes += file.data_bytes;
    table->raw_bytes += file.raw_bytes;
    table->filter_bytes += file.filter_bytes;
  }
  table->unflushed_bytes = std::make_unique<std::atomic<uint64_t>[]>(table->partitions.size());

  std::lock_guard lock(mutex_);
  files_[table_id] = std::move(decoded);
  const std::shared_ptr<const LedgerSnapshot> current = snapshot_.load();
  auto next = std::make_shared<LedgerSnapshot>(*current);
  auto& slot = next->tables[table_id];
  if (!memtable_flushed && slot) {
    // The memtable is where it was: its share carries over to the
    // partitions still named. Writes counted into the old ledger between
    // this copy and the publication below are lost to the count.
    const TableLedger& old = *slot;
    for (size_t i = 0; i < old.partitions.size(); ++i) {
      const uint64_t bytes = old.unflushed_bytes[i].load(std::memory_order_relaxed);
      const PartitionFigures* same =
          bytes == 0 ? nullptr : table->FindPartition(old.partitions[i].prefix);
      if (same != nullptr) {
        table->unflushed_bytes[static_cast<size_t>(same - table->partitions.data())].store(
            bytes, std::memory_order_relaxed);
      }
    }
  }
  slot = std::move(table);
  Publish(std::move(next));
}

void LargeDataLedger::Forget(const types::Uuid& table_id) {
  std::lock_guard lock(mutex_);
  files_.erase(table_id);
  auto next = std::make_shared<LedgerSnapshot>(*snapshot_.load());
  next->tables.erase(table_id);
  Publish(std::move(next));
}

void LargeDataLedger::Publish(std::shared_ptr<const LedgerSnapshot> next) {
  size_t named = 0;
  for (const auto& [id, table] : next->tables) named += table->partitions.size();
  snapshot_.store(std::move(next));
  named_partitions_.store(named, std::memory_order_release);
}

std::shared_ptr<const LedgerSnapshot> LargeDataLedger::Snapshot() const { return snapshot_.load(); }

std::pair<const TableLedger*, size_t> LargeDataLedger::Locate(const LedgerSnapshot& snapshot,
                                                              const types::Uuid& table_id,
                                                              const PartitionKey& key) {
  const auto it = snapshot.tables.find(table_id);
  if (it == snapshot.tables.end() || it->second->partitions.empty()) return {nullptr, 0};
  Bytes prefix;
  AppendPartitionPrefix(key, prefix);
  const TableLedger& table = *it->second;
  const PartitionFigures* found = table.FindPartition(prefix);
  if (found == nullptr) return {nullptr, 0};
  return {&table, static_cast<size_t>(found - table.partitions.data())};
}

std::optional<PartitionFigures> LargeDataLedger::FindPartition(const types::Uuid& table_id,
                                                               const PartitionKey& key) const {
  if (!has_named_partitions()) return std::nullopt;
  const std::shared_ptr<const LedgerSnapshot> snapshot = Snapshot();
  const auto [table, index] = Locate(*snapshot, table_id, key);
  if (table == nullptr) return std::nullopt;
  return table->Current(index);
}

void LargeDataLedger::AddUnflushed(const types::Uuid& table_id, const PartitionKey& key,
                                   uint64_t bytes) {
  if (!has_named_partitions()) return;
  const std::shared_ptr<const LedgerSnapshot> snapshot = Snapshot();
  const auto [table, index] = Locate(*snapshot, table_id, key);
  if (table != nullptr) table->unflushed_bytes[index].fetch_add(bytes, std::memory_order_relaxed);
}

}  // namespace sibyl::storage::ledger
