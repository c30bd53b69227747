#include "storage/read/table_reader.h"

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "storage/cells/reconcile.h"
#include "storage/codec/cell_codec.h"
#include "storage/codec/clustering_range.h"
#include "storage/codec/key_codec.h"
#include "storage/data/storage_error.h"
#include "storage/read/rocksdb_iterator.h"
#include "storage/read/row_builder.h"

namespace sibyl::storage {
namespace {

using Record = std::pair<Bytes, Bytes>;

class TableReadPass {
 public:
  TableReadPass(const TableLayout& table, rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family,
                const ReadCommand& command)
      : table_(table),
        db_(db),
        family_(family),
        command_(command),
        builder_(table, command.columns, command.now_seconds),
        want_static_(WantsStatic()),
        whole_partitions_(SelectsWholePartitions(command)) {
    if (command_.resume_after) AppendPartitionPrefix(command_.resume_after->partition, resume_);
  }

  ReadResult Run() {
    if (command_.row_limit <= 0 || command_.partition_limit <= 0) return {};
    if (!command_.partitions.empty()) {
      ReadNamedPartitions();
    } else {
      ReadTokenRange();
    }
    result_.tombstones_scanned = builder_.tombstones() + other_tombstones_;
    return std::move(result_);
  }

 private:
  bool WantsStatic() const {
    for (const auto& column : table_.columns) {
      if (!column.is_static) continue;
      if (!command_.columns || std::find(command_.columns->begin(), command_.columns->end(),
                                         column.name) != command_.columns->end()) {
        return true;
      }
    }
    return false;
  }

  static bool SelectsWholePartitions(const ReadCommand& command) {
    if (command.slices.empty()) return true;
    return command.slices.size() == 1 && command.slices[0].start.prefix.empty() &&
           command.slices[0].end.prefix.empty();
  }

  // One iterator serves the whole read: it sees the database as of its
  // creation (an implicit snapshot), so every partition of the read comes
  // from the same point in time without taking an explicit snapshot, which
  // would lock the database.
  std::unique_ptr<rocksdb::Iterator> NewIterator(bool total_order) {
    rocksdb::ReadOptions options;
    options.total_order_seek = total_order;
    options.prefix_same_as_start = !total_order;
    return std::unique_ptr<rocksdb::Iterator>(db_.NewIterator(options, family_));
  }

  // Whether the partition with this prefix comes at or after the resume
  // point (and so is read at all).
  bool AtOrAfterResume(BytesView prefix) const {
    if (!command_.resume_after) return true;
    int order = prefix.compare(resume_);
    if (order != 0) return order > 0;
    return command_.resume_after->last_row.has_value() && !command_.resume_after->last_was_static;
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
    // prefix_same_as_start: each Seek sets the prefix anew, so the
    // iterator moves from partition to partition.
    auto it = NewIterator(/*total_order=*/false);
    for (const auto& [prefix, key] : prefixes) {
      if (!AtOrAfterResume(prefix)) continue;
      it->Seek(prefix);
      if (!ReadOnePartition(*it, prefix, *key)) return;
    }
  }

  void ReadTokenRange() {
    auto it = NewIterator(/*total_order=*/true);
    auto ranges = TokenRangeKeys(command_.range.start, command_.range.end);
    // Resuming: skip the key ranges before the one holding the resume point.
    size_t first = 0;
    if (command_.resume_after) {
      for (size_t i = 0; i < ranges.size(); ++i) {
        const auto& [lo, hi] = ranges[i];
        if (BytesView(resume_) >= BytesView(lo) &&
            (hi.empty() || BytesView(resume_) < BytesView(hi))) {
          first = i;
          break;
        }
      }
    }
    for (size_t i = first; i < ranges.size(); ++i) {
      const auto& [lo, hi] = ranges[i];
      Bytes seek_to = lo;
      if (command_.resume_after && i == first && BytesView(seek_to) <= BytesView(resume_)) {
        seek_to = AtOrAfterResume(resume_) ? resume_ : PrefixSuccessor(resume_);
        if (seek_to.empty()) continue;  // nothing sorts after the resume point (all 0xFF)
      }
      it->Seek(seek_to);
      while (it->Valid()) {
        BytesView key = ToView(it->key());
        if (!hi.empty() && key >= BytesView(hi)) break;
        size_t length = PartitionPrefixLength(key);
        auto partition = DecodePartitionPrefix(key.substr(0, length));
        if (length == 0 || !partition) throw StorageError("read", {}, "malformed stored key");
        // The iterator stands at the partition's first record.
        Bytes prefix(key.substr(0, length));
        if (!ReadOnePartition(*it, prefix, *partition)) return;
        Bytes next = PrefixSuccessor(prefix);
        if (next.empty()) break;
        it->Seek(next);
      }
      CheckIteratorStatus(*it);
    }
  }

  // Reads one partition into the result. False when a limit ends the read.
  // `it` is at the partition's first record (or past the partition): the
  // records come in kind order (partition deletion, range tombstones, static
  // row, rows), so one seek serves them all.
  bool ReadOnePartition(rocksdb::Iterator& it, const Bytes& prefix, const PartitionKey& key) {
    ReadPartition partition;
    partition.key = key;
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
      ++other_tombstones_;
      it.Next();
    }
    const size_t kind_end = prefix.size() + 1;
    range_deletions_.clear();
    for (; at_kind(KeyKind::kRangeTombstone); it.Next()) {
      auto bounds = ReadRangeTombstoneBounds(ToView(it.key()).substr(kind_end));
      auto deletion = DecodeDeletion(ToView(it.value()));
      if (!bounds || !deletion) throw StorageError("read", {}, "malformed range tombstone");
      range_deletions_.push_back(
          {EncodeClusteringRange(table_, bounds->first, bounds->second), *deletion});
      ++other_tombstones_;
    }
    CheckIteratorStatus(it);

    const ReadPosition* resume = nullptr;
    if (command_.resume_after && BytesView(prefix) == BytesView(resume_)) {
      resume = &*command_.resume_after;  // AtOrAfterResume: it has last_row
    }
    if (want_static_) {
      builder_.Start(partition_deletion);
      for (; at_kind(KeyKind::kStaticRow); it.Next()) {
        builder_.Add(ToView(it.key()).substr(kind_end), ToView(it.value()));
      }
      CheckIteratorStatus(it);
      partition.static_row = builder_.Finish({}, /*is_static=*/true);
    }

    int32_t rows_here = resume ? resume->rows_in_partition : 0;
    bool row_limit_reached = false;
    std::vector<ClusteringSlice> all_rows(1);
    const auto& slices = command_.slices.empty() ? all_rows : command_.slices;
    bool stopped = rows_here >= command_.per_partition_limit;
    for (size_t i = 0; i < slices.size() && !stopped; ++i) {
      const ClusteringSlice& slice = slices[command_.reversed ? slices.size() - 1 - i : i];
      ClusteringRange range = EncodeClusteringRange(table_, slice.start, slice.end);
      if (resume) NarrowToResume(*resume->last_row, range);
      if (range.empty) continue;
      // Only the first slice may start where the iterator stands: later ones
      // (and reversed reads) seek.
      const bool iterator_at_or_before_slice = i == 0;
      stopped = ReadSlice(it, prefix, partition_deletion, range, iterator_at_or_before_slice,
                          [&](ReadRow row) {
                            partition.rows.push_back(std::move(row));
                            ++rows_here;
                            if (++rows_total_ >= command_.row_limit) row_limit_reached = true;
                            return row_limit_reached || rows_here >= command_.per_partition_limit;
                          });
    }
    // A partition with only its static row to show is returned, counting as
    // one row, only when whole partitions are read (CQLLimits).
    bool static_only = false;
    if (partition.rows.empty()) {
      if (!partition.static_row || !whole_partitions_ || resume != nullptr ||
          command_.per_partition_limit <= 0) {
        return true;
      }
      static_only = true;
      if (++rows_total_ >= command_.row_limit) row_limit_reached = true;
    }
    result_.partitions.push_back(std::move(partition));
    ++partitions_total_;
    const ReadPartition& last = result_.partitions.back();
    if (row_limit_reached) {
      ReadPosition next;
      next.partition = last.key;
      if (static_only) {
        next.last_was_static = true;
      } else {
        next.last_row = last.rows.back().clustering;
        next.rows_in_partition = rows_here;
      }
      result_.next = std::move(next);
      return false;
    }
    if (partitions_total_ >= command_.partition_limit) {
      result_.next = ReadPosition{.partition = last.key, .last_row = std::nullopt};
      return false;
    }
    return true;
  }

  // Keeps only the rows after `last_row` in the read's direction.
  void NarrowToResume(const Clustering& last_row, ClusteringRange& range) const {
    Bytes last;
    AppendClustering(table_, last_row, last);
    if (command_.reversed) {
      if (!range.hi || BytesView(last) < BytesView(*range.hi)) range.hi = last;
    } else {
      Bytes after = PrefixSuccessor(last);
      if (after.empty()) {
        // The last row's key is all 0xFF (an empty text on a DESC column):
        // no row comes after it. (Found by the statement fuzzer: the read
        // started over from the partition's first row instead.)
        range.empty = true;
        return;
      }
      if (BytesView(after) > BytesView(range.lo)) range.lo = std::move(after);
    }
    if (range.hi && BytesView(*range.hi) <= BytesView(range.lo)) range.empty = true;
  }

  DeletionTime RowShadow(const DeletionTime& partition_deletion, BytesView clustering) const {
    DeletionTime shadow = partition_deletion;
    for (const auto& rt : range_deletions_) {
      if (rt.range.Contains(clustering)) shadow = Reconcile(shadow, rt.deletion);
    }
    return shadow;
  }

  // Reads the rows of `range`, handing each live one to `emit`, which says
  // whether to stop. Returns true when it stopped. `at_or_before`: no record
  // of the range lies before the iterator's position (the first slice after
  // the partition's deletions and static row), so when the iterator is
  // already inside the range the seek is skipped: a point read then costs
  // one seek in all.
  template <typename Emit>
  bool ReadSlice(rocksdb::Iterator& it, const Bytes& prefix, const DeletionTime& deletion,
                 const ClusteringRange& range, bool at_or_before, Emit&& emit) {
    // The bounds are built in buffers the reader keeps: no allocation per
    // slice once they have grown.
    Bytes& base = slice_base_;
    base.assign(prefix);
    AppendU8(base, static_cast<uint8_t>(KeyKind::kRow));
    Bytes& lo = slice_lo_;
    lo.assign(base).append(range.lo);
    Bytes& hi = slice_hi_;
    if (range.hi) {
      hi.assign(base).append(*range.hi);
    } else {
      hi.assign(base);  // the end of the partition's rows: the next kind
      hi.back() = static_cast<char>(static_cast<uint8_t>(KeyKind::kRow) + 1);
    }
    auto in_range = [&](BytesView key) {
      return key.starts_with(base) && key >= BytesView(lo) && key < BytesView(hi);
    };
    if (command_.reversed) {
      it.SeekForPrev(hi);
    } else if (!at_or_before || (it.Valid() && ToView(it.key()) < BytesView(lo))) {
      it.Seek(lo);
    }
    while (it.Valid() && in_range(ToView(it.key()))) {
      BytesView rest = ToView(it.key()).substr(base.size());
      BytesView clustering = SkipClustering(table_, rest);
      row_key_.assign(ToView(it.key()).substr(0, base.size() + clustering.size()));
      BytesView encoded = BytesView(row_key_).substr(base.size());
      builder_.Start(RowShadow(deletion, encoded));
      if (command_.reversed) {
        // The row's records come last to first: gather, then add in order.
        records_.clear();
        for (; it.Valid() && ToView(it.key()).starts_with(row_key_); it.Prev()) {
          records_.emplace_back(Bytes(ToView(it.key()).substr(row_key_.size())),
                                Bytes(ToView(it.value())));
        }
        CheckIteratorStatus(it);
        for (auto record = records_.rbegin(); record != records_.rend(); ++record) {
          builder_.Add(record->first, record->second);
        }
      } else {
        for (; it.Valid() && ToView(it.key()).starts_with(row_key_); it.Next()) {
          builder_.Add(ToView(it.key()).substr(row_key_.size()), ToView(it.value()));
        }
        CheckIteratorStatus(it);
      }
      BytesView decode_from = encoded;
      if (auto row = builder_.Finish(ReadClustering(table_, decode_from), /*is_static=*/false)) {
        if (emit(std::move(*row))) return true;
      }
    }
    CheckIteratorStatus(it);
    return false;
  }

  const TableLayout& table_;
  rocksdb::DB& db_;
  rocksdb::ColumnFamilyHandle* family_;
  const ReadCommand& command_;
  RowBuilder builder_;
  bool want_static_;
  bool whole_partitions_;
  Bytes resume_;  // the resume partition's prefix, when resuming
  std::vector<RangeDeletion> range_deletions_;
  Bytes slice_base_, slice_lo_, slice_hi_;  // ReadSlice's bounds
  Bytes row_key_;                           // the current row's key prefix (ReadSlice)
  std::vector<Record> records_;             // a reversed row's records (ReadSlice)
  ReadResult result_;
  int64_t other_tombstones_ = 0;
  int32_t rows_total_ = 0;
  int32_t partitions_total_ = 0;
};

}  // namespace

ReadResult ReadTable(const TableLayout& table, rocksdb::DB& db, rocksdb::ColumnFamilyHandle* family,
                     const ReadCommand& command) {
  return TableReadPass(table, db, family, command).Run();
}

}  // namespace sibyl::storage
