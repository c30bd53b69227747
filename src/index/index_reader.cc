#include "index/index_reader.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "dht/token.h"
#include "index/index_entries.h"
#include "storage/data/clustering_order.h"
#include "types/value_codec.h"

namespace sibyl::index {
namespace {

using storage::Clustering;
using storage::ClusteringBound;
using storage::ClusteringSlice;
using storage::IndexLayout;
using storage::PartitionKey;
using storage::ReadCommand;
using storage::ReadPartition;
using storage::ReadPosition;
using storage::ReadResult;
using storage::ReadRow;
using storage::TableLayout;
using Target = IndexLayout::Target;
using IndexSource = IndexLayout::Source;

constexpr int64_t kMinimumToken = std::numeric_limits<int64_t>::min();
constexpr int32_t kEntriesPerPage = 256;

bool ValuesEqual(const types::CqlType& type, BytesView a, BytesView b) {
  return types::Compare(type, a, b) == 0;
}

bool InSlices(const TableLayout& base, const std::vector<ClusteringSlice>& slices,
              const Clustering& row) {
  if (slices.empty()) return true;
  return std::any_of(slices.begin(), slices.end(), [&](const ClusteringSlice& s) {
    return storage::ClusteringWithin(storage::ClusteringColumnsOf(base), s.start, s.end, row);
  });
}

// The pieces of the command's token range, in ring order, each (start, end]
// without wrapping (kMinimumToken as end: to the ring's end).
std::vector<storage::TokenRange> RingPieces(const storage::TokenRange& range) {
  if (range.end != kMinimumToken && range.start >= range.end) {
    return {{range.start, kMinimumToken}, {kMinimumToken, range.end}};
  }
  return {range};
}

// One base partition's entries, gathered over index pages.
struct PartitionEntries {
  PartitionKey partition;
  std::vector<Clustering> rows;  // base clusterings, in the base's order, each once
  bool whole_partition = false;  // an index on a static column
};

class IndexRead {
 public:
  IndexRead(const storage::Engine& engine, const IndexReadTarget& target,
            const ReadCommand& command)
      : engine_(engine), target_(target), command_(command) {
    rows_left_ = command.row_limit;
    partitions_left_ = command.partition_limit;
    whole_partitions_ = IndexesWholePartitions(target.base, target.index);
  }

  ReadResult Run() {
    const storage::IndexQuery& query = *command_.index;
    const PartitionKey index_key = IndexPartitionKey(
        target_.index, query.value, query.entry_value ? &*query.entry_value : nullptr);
    std::vector<storage::TokenRange> pieces = RingPieces(command_.range);
    if (pieces.size() == 2 && command_.resume_after &&
        command_.resume_after->partition.token <= pieces[1].end) {
      pieces.erase(pieces.begin());  // the resume position is past the ring's end
    }
    for (const storage::TokenRange& piece : pieces) {
      if (!WalkPiece(index_key, piece)) break;
    }
    Flush();
    return std::move(result_);
  }

 private:
  bool Done() const { return result_.next.has_value() || rows_left_ <= 0 || partitions_left_ <= 0; }

  // Reads the index partition's entries in (start, end]; false once the
  // answer is complete.
  bool WalkPiece(const PartitionKey& index_key, const storage::TokenRange& piece) {
    ReadCommand entries;
    entries.table_id = target_.index_table.id;
    entries.partitions = {index_key};
    ClusteringSlice slice;
    if (piece.start != kMinimumToken) {
      slice.start = ClusteringBound{{types::EncodeBigint(piece.start)}, false};
    }
    if (piece.end != kMinimumToken) {
      slice.end = ClusteringBound{{types::EncodeBigint(piece.end)}, true};
    }
    bool holds_resume = false;
    if (const auto& resume = command_.resume_after; resume && !resumed_) {
      // As the engine's range reads: partitions before the resume position
      // are skipped, so a piece that ends before it is skipped whole and one
      // that starts after it is read whole.
      const int64_t token = resume->partition.token;
      if (piece.end != kMinimumToken && token > piece.end) return true;
      holds_resume = piece.start == kMinimumToken || token > piece.start;
      if (holds_resume) {
        slice.start = ClusteringBound{{types::EncodeBigint(token), resume->partition.key}, true};
      } else {
        resumed_ = true;
      }
    }
    entries.slices = {slice};
    entries.row_limit = kEntriesPerPage;
    entries.now_seconds = command_.now_seconds;
    for (;;) {
      const ReadResult page = engine_.Read(entries);
      result_.tombstones_scanned += page.tombstones_scanned;
      for (const ReadPartition& partition : page.partitions) {
        for (const ReadRow& entry : partition.rows) {
          Entry(entry.clustering);
          if (Done()) return false;
        }
      }
      if (!page.next) break;
      entries.resume_after = page.next;
    }
    if (holds_resume) resumed_ = true;
    return true;
  }

  void Entry(const Clustering& entry) {
    PartitionKey partition{types::DecodeBigint(entry.at(0)), entry.at(1)};
    if (const auto& resume = command_.resume_after; resume && !resumed_) {
      if (partition == resume->partition) {
        if (!resume->last_row || resume->last_was_static) return;  // returned whole
      } else {
        resumed_ = true;  // past the resume partition
      }
    }
    if (!pending_ || !(pending_->partition == partition)) {
      Flush();
      if (Done()) return;
      pending_ = PartitionEntries{std::move(partition), {}, false};
    }
    if (whole_partitions_) {
      pending_->whole_partition = true;
      return;
    }
    const size_t clustering_size = target_.base.clustering.size();
    Clustering row(entry.begin() + 2, entry.begin() + 2 + static_cast<ptrdiff_t>(clustering_size));
    if (!pending_->rows.empty() && pending_->rows.back() == row) return;  // another element
    pending_->rows.push_back(std::move(row));
  }

  // Reads and answers the rows of the pending partition.
  void Flush() {
    if (!pending_ || Done()) return;
    PartitionEntries entries = std::move(*pending_);
    pending_.reset();
    const ReadPosition* resume = nullptr;
    if (command_.resume_after && command_.resume_after->partition == entries.partition) {
      resume = &*command_.resume_after;
      resumed_ = true;
    }
    ReadCommand read;
    read.table_id = target_.base.id;
    read.partitions = {entries.partition};
    read.columns = command_.columns;
    if (read.columns && target_.index.source == IndexSource::kColumn &&
        std::find(read.columns->begin(), read.columns->end(), target_.index.column) ==
            read.columns->end()) {
      read.columns->push_back(target_.index.column);
    }
    read.now_seconds = command_.now_seconds;
    if (resume) read.resume_after = *resume;
    if (entries.whole_partition) {
      read.slices = command_.slices;
      read.row_limit = rows_left_;
      read.per_partition_limit = command_.per_partition_limit;
      read.partition_limit = 1;
    } else {
      for (const Clustering& row : entries.rows) {
        if (!InSlices(target_.base, command_.slices, row)) continue;
        read.slices.push_back(ClusteringSlice::Point(row));
      }
      if (read.slices.empty()) return;
    }
    ReadResult base = engine_.Read(read);
    result_.tombstones_scanned += base.tombstones_scanned;
    if (base.partitions.empty()) return;
    ReadPartition& partition = base.partitions.front();
    if (entries.whole_partition) {
      // The static value (or the partition key) decides for the whole partition.
      const bool matches =
          target_.index.source == IndexSource::kPartitionKey
              ? RowMatches(target_.base, target_.index, *command_.index, partition.key, ReadRow{})
              : partition.static_row && RowMatches(target_.base, target_.index, *command_.index,
                                                   partition.key, *partition.static_row);
      if (!matches) return;
      StripIndexedColumn(partition);
      rows_left_ -= static_cast<int32_t>(std::max<size_t>(partition.rows.size(), 1));
      --partitions_left_;
      // The read's own partition_limit of 1 is not ours: only a row limit
      // stopping inside the partition is a place to resume.
      if (base.next && (base.next->last_row || base.next->last_was_static)) {
        result_.next = base.next;
      } else if (partitions_left_ <= 0) {
        result_.next = ReadPosition{partition.key, std::nullopt, false, 0};
      }
      result_.partitions.push_back(std::move(partition));
      return;
    }
    std::erase_if(partition.rows, [&](const ReadRow& row) {
      return !RowMatches(target_.base, target_.index, *command_.index, partition.key, row);
    });
    if (partition.rows.empty()) return;
    const int32_t already = resume ? resume->rows_in_partition : 0;
    const int32_t partition_room = command_.per_partition_limit - already;
    if (partition_room <= 0) return;
    const size_t take = std::min<size_t>(partition.rows.size(),
                                         static_cast<size_t>(std::min(partition_room, rows_left_)));
    partition.rows.resize(take);
    StripIndexedColumn(partition);
    rows_left_ -= static_cast<int32_t>(take);
    --partitions_left_;
    if (rows_left_ <= 0) {
      result_.next = ReadPosition{partition.key, partition.rows.back().clustering, false,
                                  already + static_cast<int32_t>(take)};
    } else if (partitions_left_ <= 0) {
      result_.next = ReadPosition{partition.key, std::nullopt, false, 0};
    }
    result_.partitions.push_back(std::move(partition));
  }

  // Drops the indexed column's cells when only the re-check wanted them.
  void StripIndexedColumn(ReadPartition& partition) const {
    if (!command_.columns || target_.index.source != IndexSource::kColumn) return;
    const auto& wanted = *command_.columns;
    if (std::find(wanted.begin(), wanted.end(), target_.index.column) != wanted.end()) return;
    auto strip = [&](ReadRow& row) {
      std::erase_if(row.cells, [&](const storage::ReadCell& cell) {
        return cell.column == target_.index.column;
      });
    };
    if (partition.static_row) strip(*partition.static_row);
    for (ReadRow& row : partition.rows) strip(row);
  }

  const storage::Engine& engine_;
  const IndexReadTarget& target_;
  const ReadCommand& command_;
  ReadResult result_;
  std::optional<PartitionEntries> pending_;
  bool resumed_ = false;           // the walk is past the resume position
  bool whole_partitions_ = false;  // an entry stands for its whole partition
  int32_t rows_left_ = 0;
  int32_t partitions_left_ = 0;
};

}  // namespace

bool RowMatches(const TableLayout& base, const IndexLayout& index, const storage::IndexQuery& query,
                const PartitionKey& partition, const ReadRow& row) {
  const types::CqlType& type = *index.type;
  switch (index.source) {
    case IndexSource::kPartitionKey: {
      BytesView component = partition.key;
      if (base.partition_key_types.size() > 1) {
        component = dht::SplitCompositeRoutingKey(partition.key, base.partition_key_types.size())
                        .at(index.key_position);
      }
      return ValuesEqual(type, component, query.value);
    }
    case IndexSource::kClustering:
      return index.key_position < row.clustering.size() &&
             ValuesEqual(type, row.clustering[index.key_position], query.value);
    case IndexSource::kColumn:
      break;
  }
  const bool multi_cell = type.is_collection() && !type.frozen();
  for (const storage::ReadCell& cell : row.cells) {
    if (cell.column != index.column) continue;
    if (!multi_cell) return ValuesEqual(type, cell.value, query.value);
    if (!cell.path) continue;
    const auto& params = type.params();
    switch (index.target) {
      case Target::kValues:
        if (type.kind() == types::Kind::kSet) {
          if (ValuesEqual(*params.at(0), *cell.path, query.value)) return true;
        } else {
          const types::CqlType& element = *params.at(type.kind() == types::Kind::kMap ? 1 : 0);
          if (ValuesEqual(element, cell.value, query.value)) return true;
        }
        break;
      case Target::kKeys:
        if (ValuesEqual(*params.at(0), *cell.path, query.value)) return true;
        break;
      case Target::kEntries:
        if (query.entry_value && ValuesEqual(*params.at(0), *cell.path, query.value) &&
            ValuesEqual(*params.at(1), cell.value, *query.entry_value)) {
          return true;
        }
        break;
      case Target::kSimple:
      case Target::kFull:
        return false;
    }
  }
  return false;
}

storage::ReadResult ReadThroughIndex(const storage::Engine& engine, const IndexReadTarget& target,
                                     const ReadCommand& command) {
  if (command.reversed) throw std::invalid_argument("an index read in reverse order");
  return IndexRead(engine, target, command).Run();
}

}  // namespace sibyl::index
