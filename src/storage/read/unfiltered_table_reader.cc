#include "storage/read/unfiltered_table_reader.h"

#include <algorithm>
#include <memory>
#include <utility>

#include "storage/cells/reconcile.h"
#include "storage/codec/cell_codec.h"
#include "storage/codec/clustering_range.h"
#include "storage/codec/key_codec.h"
#include "storage/data/clustering_order.h"
#include "storage/data/storage_error.h"
#include "storage/read/rocksdb_iterator.h"
#include "storage/read/unfiltered_purger.h"
#include "storage/read/unfiltered_row_builder.h"

namespace sibyl::storage {
namespace {

class UnfilteredReader {
 public:
  UnfilteredReader(const TableLayout& table, rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family,
                   const ReadCommand& command)
      : table_(table),
        db_(db),
        family_(family),
        command_(command),
        purger_(command.now_seconds, table.options.gc_grace_seconds),
        builder_(table, command.columns, purger_),
        want_static_(WantsStatic()) {
    if (command_.slices.empty()) {
      slices_.push_back({});  // the whole partition
    } else {
      for (const auto& slice : command_.slices) {
        slices_.push_back(EncodeClusteringRange(table_, slice.start, slice.end));
      }
    }
  }

  std::vector<Mutation> Run() {
    if (!command_.partitions.empty()) {
      ReadNamedPartitions();
    } else {
      ReadTokenRange();
    }
    return std::move(result_);
  }

 private:
  bool WantsStatic() const {
    const auto& columns = command_.columns;
    return std::any_of(table_.columns.begin(), table_.columns.end(), [&](const ColumnLayout& c) {
      return c.is_static &&
             (!columns || std::find(columns->begin(), columns->end(), c.name) != columns->end());
    });
  }

  // One iterator serves the whole read: its implicit snapshot makes every
  // partition of the read one point in time (table_reader.cc says why).
  std::unique_ptr<rocksdb::Iterator> NewIterator(bool total_order) {
    rocksdb::ReadOptions options;
    options.total_order_seek = total_order;
    options.prefix_same_as_start = !total_order;
    return std::unique_ptr<rocksdb::Iterator>(db_.NewIterator(options, family_));
  }

  void ReadNamedPartitions() {
    std::vector<std::pair<Bytes, const PartitionKey*>> prefixes;
    for (const auto& key : command_.partitions) {
      Bytes prefix;
      AppendPartitionPrefix(key, prefix);
      prefixes.emplace_back(std::move(prefix), &key);
    }
    std::sort(prefixes.begin(), prefixes.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    prefixes.erase(std::unique(prefixes.begin(), prefixes.end(),
                               [](const auto& a, const auto& b) { return a.first == b.first; }),
                   prefixes.end());
    auto it = NewIterator(/*total_order=*/false);
    for (const auto& [prefix, key] : prefixes) {
      it->Seek(prefix);
      ReadOnePartition(*it, prefix, *key);
    }
  }

  void ReadTokenRange() {
    auto it = NewIterator(/*total_order=*/true);
    for (const auto& [lo, hi] : TokenRangeKeys(command_.range.start, command_.range.end)) {
      it->Seek(lo);
      while (it->Valid()) {
        BytesView key = ToView(it->key());
        if (!hi.empty() && key >= BytesView(hi)) break;
        const size_t length = PartitionPrefixLength(key);
        auto partition = length == 0 ? std::nullopt : DecodePartitionPrefix(key.substr(0, length));
        if (!partition) throw StorageError("read", {}, "malformed stored key");
        Bytes prefix(key.substr(0, length));
        ReadOnePartition(*it, prefix, *partition);
        Bytes next = PrefixSuccessor(prefix);
        if (next.empty()) break;
        it->Seek(next);
      }
      CheckIteratorStatus(*it);
    }
  }

  // `it` is at the partition's first record (or past the partition).
  void ReadOnePartition(rocksdb::Iterator& it, const Bytes& prefix, const PartitionKey& key) {
    Mutation m;
    m.table_id = command_.table_id;
    m.partition = key;
    auto at_kind = [&](KeyKind kind) {
      if (!it.Valid()) return false;
      BytesView stored = ToView(it.key());
      return stored.size() > prefix.size() && stored.starts_with(prefix) &&
             static_cast<uint8_t>(stored[prefix.size()]) == static_cast<uint8_t>(kind);
    };
    DeletionTime partition_deletion;
    if (at_kind(KeyKind::kPartitionDeletion)) {
      auto deletion = DecodeDeletion(ToView(it.value()));
      if (!deletion) throw StorageError("read", {}, "malformed partition deletion");
      partition_deletion = *deletion;
      if (purger_.KeepDeletion(partition_deletion, {})) m.partition_deletion = partition_deletion;
      it.Next();
    }
    const size_t kind_end = prefix.size() + 1;
    range_deletions_.clear();
    for (; at_kind(KeyKind::kRangeTombstone); it.Next()) {
      auto bounds = ReadRangeTombstoneBounds(ToView(it.key()).substr(kind_end));
      auto deletion = DecodeDeletion(ToView(it.value()));
      if (!bounds || !deletion) throw StorageError("read", {}, "malformed range tombstone");
      ClusteringRange range = EncodeClusteringRange(table_, bounds->first, bounds->second);
      if (purger_.KeepDeletion(*deletion, partition_deletion) &&
          OverlapsSlices(bounds->first, bounds->second)) {
        m.range_tombstones.push_back({bounds->first, bounds->second, *deletion});
      }
      range_deletions_.push_back({std::move(range), *deletion});
    }
    CheckIteratorStatus(it);
    if (want_static_) {
      builder_.Start(partition_deletion, /*is_static=*/true);
      for (; at_kind(KeyKind::kStaticRow); it.Next()) {
        builder_.Add(ToView(it.key()).substr(kind_end), ToView(it.value()));
      }
      CheckIteratorStatus(it);
      if (auto row = builder_.Finish({})) m.rows.push_back(std::move(*row));
    }
    for (const ClusteringRange& slice : slices_) {
      if (!slice.empty) ReadSlice(it, prefix, partition_deletion, slice, m);
    }
    if (!m.empty()) result_.push_back(std::move(m));
  }

  // As the reference engine decides it, in the types' order: the byte
  // order of encoded keys knows that nothing lies between two consecutive
  // ints, which the types' order does not, and the answers must agree.
  bool OverlapsSlices(const ClusteringBound& start, const ClusteringBound& end) const {
    const auto column = ClusteringColumnsOf(table_);
    if (command_.slices.empty()) return ClusteringRangesOverlap(column, start, end, {}, {});
    return std::any_of(command_.slices.begin(), command_.slices.end(), [&](const auto& slice) {
      return ClusteringRangesOverlap(column, start, end, slice.start, slice.end);
    });
  }

  DeletionTime RowShadow(const DeletionTime& partition_deletion, BytesView clustering) const {
    DeletionTime shadow = partition_deletion;
    for (const auto& rt : range_deletions_) {
      if (rt.range.Contains(clustering)) shadow = Reconcile(shadow, rt.deletion);
    }
    return shadow;
  }

  // Adds the rows of `range` that have anything to `m`, in clustering order.
  void ReadSlice(rocksdb::Iterator& it, const Bytes& prefix, const DeletionTime& deletion,
                 const ClusteringRange& range, Mutation& m) {
    Bytes base = prefix;
    AppendU8(base, static_cast<uint8_t>(KeyKind::kRow));
    const Bytes lo = base + range.lo;
    Bytes hi = base;
    if (range.hi) {
      hi.append(*range.hi);
    } else {
      hi.back() = static_cast<char>(static_cast<uint8_t>(KeyKind::kRow) + 1);  // the next kind
    }
    it.Seek(lo);
    while (it.Valid() && ToView(it.key()) < BytesView(hi) && ToView(it.key()).starts_with(base)) {
      BytesView rest = ToView(it.key()).substr(base.size());
      BytesView clustering = SkipClustering(table_, rest);
      const Bytes row_key(ToView(it.key()).substr(0, base.size() + clustering.size()));
      BytesView encoded = BytesView(row_key).substr(base.size());
      builder_.Start(RowShadow(deletion, encoded), /*is_static=*/false);
      for (; it.Valid() && ToView(it.key()).starts_with(row_key); it.Next()) {
        builder_.Add(ToView(it.key()).substr(row_key.size()), ToView(it.value()));
      }
      CheckIteratorStatus(it);
      if (auto row = builder_.Finish(ReadClustering(table_, encoded))) {
        m.rows.push_back(std::move(*row));
      }
    }
    CheckIteratorStatus(it);
  }

  const TableLayout& table_;
  rocksdb::DB& db_;
  rocksdb::ColumnFamilyHandle* family_;
  const ReadCommand& command_;
  const UnfilteredPurger purger_;
  UnfilteredRowBuilder builder_;
  const bool want_static_;
  std::vector<ClusteringRange> slices_;         // encoded; one unbounded range for no slices
  std::vector<RangeDeletion> range_deletions_;  // the current partition's, purgeable ones too
  std::vector<Mutation> result_;
};

}  // namespace

std::vector<Mutation> ReadTableUnfiltered(const TableLayout& table, rocksdb::DB& db,
                                          rocksdb::ColumnFamilyHandle* family,
                                          const ReadCommand& command) {
  return UnfilteredReader(table, db, family, command).Run();
}

}  // namespace sibyl::storage
