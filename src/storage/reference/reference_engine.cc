// The reference engine (reference_engine.h): plain maps, every rule written
// out once, in the order the header states them.

#include "storage/reference/reference_engine.h"

#include <algorithm>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include "storage/cells/counter_context.h"
#include "storage/data/clustering_order.h"
#include "storage/read/unfiltered_purger.h"
#include "types/value_codec.h"

namespace sibyl::storage {
namespace {

// ---- orders ----

// A clustering (or a prefix of one) against another, column by column in
// each column's order; only the first min(size) values are compared.
auto ColumnsOf(const std::vector<ClusteringColumnLayout>& layout) {
  return [&layout](size_t i) {
    return std::pair<const types::CqlType&, bool>(*layout.at(i).type, layout[i].descending);
  };
}

int CompareClusteringPrefix(const std::vector<ClusteringColumnLayout>& layout, const Clustering& a,
                            const Clustering& b) {
  return CompareClusteringPrefixes(ColumnsOf(layout), a, b);
}

struct ClusteringLess {
  std::shared_ptr<const std::vector<ClusteringColumnLayout>> layout;
  bool operator()(const Clustering& a, const Clustering& b) const {
    return CompareClusterings(ColumnsOf(*layout), a, b) < 0;
  }
};

// Element paths of one multi-cell column in the element type's order;
// simple columns and UDT fields (2-byte indexes) compare as bytes.
struct PathLess {
  types::TypePtr type;  // nullptr: bytes
  bool operator()(const Bytes& a, const Bytes& b) const {
    return type ? types::Compare(*type, a, b) < 0 : a < b;
  }
};

types::TypePtr PathType(const ColumnLayout& column) {
  if (!column.is_multi_cell()) return nullptr;
  switch (column.type->kind()) {
    case types::Kind::kList:
      return types::CqlType::Native(types::Kind::kTimeuuid);
    case types::Kind::kSet:
    case types::Kind::kMap:
      return column.type->params()[0];
    default:
      return nullptr;  // UDT field index
  }
}

bool AfterStart(const std::vector<ClusteringColumnLayout>& layout, const Clustering& row,
                const ClusteringBound& start) {
  if (start.prefix.empty()) return true;
  const int c = CompareClusteringPrefix(layout, row, start.prefix);
  return start.inclusive ? c >= 0 : c > 0;
}

bool BeforeEnd(const std::vector<ClusteringColumnLayout>& layout, const Clustering& row,
               const ClusteringBound& end) {
  if (end.prefix.empty()) return true;
  const int c = CompareClusteringPrefix(layout, row, end.prefix);
  return end.inclusive ? c <= 0 : c < 0;
}

bool InBounds(const std::vector<ClusteringColumnLayout>& layout, const Clustering& row,
              const ClusteringBound& start, const ClusteringBound& end) {
  return AfterStart(layout, row, start) && BeforeEnd(layout, row, end);
}

bool RangeWraps(const TokenRange& range) {
  return range.end != std::numeric_limits<int64_t>::min() && range.start >= range.end;
}

bool TokenInRange(const TokenRange& range, int64_t token) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  if (range.end == kMin) return range.start == kMin || token > range.start;
  if (range.start < range.end) return token > range.start && token <= range.end;
  return token > range.start || token <= range.end;  // wraps around the ring
}

// ---- reconciliation helpers ----

bool IsExpiringOrTombstone(const Cell& c) {
  return c.kind == Cell::Kind::kExpiring || c.kind == Cell::Kind::kTombstone;
}

const Cell& ResolveRegular(const Cell& left, const Cell& right) {
  if (left.timestamp != right.timestamp) return left.timestamp > right.timestamp ? left : right;
  const bool left_special = IsExpiringOrTombstone(left);
  const bool right_special = IsExpiringOrTombstone(right);
  if (left_special || right_special) {
    if (left_special != right_special) return left_special ? left : right;
    const bool left_tombstone = left.kind == Cell::Kind::kTombstone;
    const bool right_tombstone = right.kind == Cell::Kind::kTombstone;
    if (left_tombstone != right_tombstone) return left_tombstone ? left : right;
    if (left.local_deletion_time != right.local_deletion_time) {
      return left.local_deletion_time > right.local_deletion_time ? left : right;
    }
  }
  const int c = left.value.compare(right.value);  // unsigned bytes
  if (c != 0) return c > 0 ? left : right;
  return left.ttl >= right.ttl ? left : right;  // not Cassandra's: keeps it order-free
}

Cell ResolveCounter(const Cell& left, const Cell& right) {
  const bool left_tombstone = left.kind == Cell::Kind::kTombstone;
  const bool right_tombstone = right.kind == Cell::Kind::kTombstone;
  if (left_tombstone || right_tombstone) return left_tombstone ? left : right;
  const bool left_empty = left.value.empty();
  const bool right_empty = right.value.empty();
  if (left_empty || right_empty) {
    if (left_empty != right_empty) return left_empty ? left : right;
    return left.timestamp > right.timestamp ? left : right;
  }
  if (!IsValidCounterValue(left.value) || !IsValidCounterValue(right.value)) {
    throw std::runtime_error("a counter value is neither a delta nor shards");
  }
  Cell merged;
  merged.kind = Cell::Kind::kCounter;
  merged.timestamp = std::max(left.timestamp, right.timestamp);
  MergeCounterValues(left.value, right.value, merged.value);
  return merged;
}

// ---- stored state ----

struct ColumnState {
  explicit ColumnState(types::TypePtr path_type) : cells(PathLess{std::move(path_type)}) {}
  DeletionTime deletion;  // collection deletion
  // By path ("" for a simple column).
  std::map<Bytes, Cell, PathLess> cells;
};

struct RowState {
  LivenessInfo marker;
  DeletionTime deletion;
  std::map<std::string, ColumnState> columns;
};

struct PartitionState {
  explicit PartitionState(const ClusteringLess& less) : rows(less) {}
  DeletionTime deletion;
  std::vector<RangeTombstone> range_tombstones;
  std::optional<RowState> static_row;
  std::map<Clustering, RowState, ClusteringLess> rows;
};

using PartitionId = std::pair<int64_t, Bytes>;  // token, then key bytes (unsigned)

}  // namespace

struct ReferenceEngine::Table {
  TableLayout layout;
  ClusteringLess clustering_less;
  std::map<PartitionId, PartitionState> partitions;
};

namespace {

// ---- reading one row ----

struct RowReader {
  const TableLayout& layout;
  const std::optional<std::vector<std::string>>& columns;
  int32_t now;
  int64_t& tombstones;

  bool Wanted(const std::string& name) const {
    return !columns || std::find(columns->begin(), columns->end(), name) != columns->end();
  }

  // The row as a read returns it, or nullopt when nothing of it lives.
  std::optional<ReadRow> Read(const RowState& state, const Clustering& clustering,
                              const DeletionTime& shadow, bool is_static) const {
    ReadRow row;
    row.clustering = clustering;
    if (!state.deletion.is_live()) ++tombstones;
    const DeletionTime row_shadow = ReferenceEngine::ReconcileDeletions(shadow, state.deletion);
    const bool marker_live = !state.marker.is_empty() &&
                             !row_shadow.Deletes(state.marker.timestamp) &&
                             state.marker.IsLive(now);
    if (marker_live) row.marker = state.marker;
    bool any_live = false;
    for (const auto& [name, column_state] : state.columns) {
      const ColumnLayout* column = layout.FindColumn(name);
      if (column == nullptr || column->is_static != is_static) continue;  // dropped
      const DeletionTime column_shadow =
          ReferenceEngine::ReconcileDeletions(row_shadow, column_state.deletion);
      const bool multi_cell = column->is_multi_cell();
      const bool wanted = Wanted(name);
      for (const auto& [path, cell] : column_state.cells) {
        if (column_shadow.Deletes(cell.timestamp) || !cell.IsLive(now)) {
          ++tombstones;
          continue;
        }
        if (!wanted) {
          // Still makes a regular row live; a static row only lives
          // through the static columns asked for.
          if (!is_static) any_live = true;
          continue;
        }
        any_live = true;
        ReadCell out;
        out.column = name;
        if (multi_cell) out.path = path;
        if (cell.kind == Cell::Kind::kCounter) {
          AssignCounterReadValue(cell.value, out.value);
        } else {
          out.value = cell.value;
        }
        out.timestamp = cell.timestamp;
        if (cell.kind == Cell::Kind::kExpiring) {
          out.ttl = cell.ttl;
          out.local_expiration_time = cell.local_deletion_time;
        }
        row.cells.push_back(std::move(out));
      }
    }
    const bool live = is_static ? any_live : (marker_live || any_live);
    if (!live) return std::nullopt;
    return row;
  }
};

// ---- unfiltered reads ----

// Whether [start, end] and some slice share a stretch of clusterings (the
// partition when there are no slices).
bool OverlapsSlices(const std::vector<ClusteringColumnLayout>& layout, const ClusteringBound& start,
                    const ClusteringBound& end, const std::vector<ClusteringSlice>& slices) {
  auto overlaps = [&](const ClusteringBound& other_start, const ClusteringBound& other_end) {
    return ClusteringRangesOverlap(ColumnsOf(layout), start, end, other_start, other_end);
  };
  if (slices.empty()) return overlaps({}, {});
  return std::any_of(slices.begin(), slices.end(), [&](const ClusteringSlice& slice) {
    return overlaps(slice.start, slice.end);
  });
}

bool InSlices(const std::vector<ClusteringColumnLayout>& layout, const Clustering& row,
              const std::vector<ClusteringSlice>& slices) {
  return slices.empty() ||
         std::any_of(slices.begin(), slices.end(), [&](const ClusteringSlice& slice) {
           return InBounds(layout, row, slice.start, slice.end);
         });
}

// One row as an unfiltered read returns it (engine.h, ReadUnfiltered).
struct UnfilteredRowReader {
  const TableLayout& layout;
  const std::optional<std::vector<std::string>>& columns;
  const UnfilteredPurger& purger;

  // Static rows: only the requested static columns; regular rows: every
  // regular column.
  bool Wanted(const ColumnLayout& column, bool is_static) const {
    if (column.is_static != is_static) return false;
    return !is_static || !columns ||
           std::find(columns->begin(), columns->end(), column.name) != columns->end();
  }

  // `shadow`: the partition deletion and the range tombstones covering the row.
  RowWrite Read(const RowState& state, const Clustering& clustering, const DeletionTime& shadow,
                bool is_static) const {
    RowWrite row;
    row.is_static = is_static;
    row.clustering = clustering;
    if (purger.KeepDeletion(state.deletion, shadow)) row.deletion = state.deletion;
    const DeletionTime row_shadow = ReferenceEngine::ReconcileDeletions(shadow, state.deletion);
    if (!UnfilteredPurger::Shadows(row_shadow, state.marker.timestamp) &&
        purger.KeepMarker(state.marker)) {
      row.marker = state.marker;
    }
    for (const auto& [name, column_state] : state.columns) {
      const ColumnLayout* column = layout.FindColumn(name);
      if (column == nullptr || !Wanted(*column, is_static)) continue;  // dropped, or not asked
      if (purger.KeepDeletion(column_state.deletion, row_shadow)) {
        row.collection_deletions.push_back({name, column_state.deletion});
      }
      const DeletionTime column_shadow =
          ReferenceEngine::ReconcileDeletions(row_shadow, column_state.deletion);
      for (const auto& [path, cell] : column_state.cells) {
        if (UnfilteredPurger::Shadows(column_shadow, cell.timestamp) || !purger.KeepCell(cell)) {
          continue;
        }
        row.cells.push_back(
            {name, column->is_multi_cell() ? std::optional<Bytes>(path) : std::nullopt, cell});
      }
    }
    return row;
  }
};

bool WantsStatic(const TableLayout& layout,
                 const std::optional<std::vector<std::string>>& columns) {
  return std::any_of(layout.columns.begin(), layout.columns.end(), [&](const ColumnLayout& c) {
    return c.is_static &&
           (!columns || std::find(columns->begin(), columns->end(), c.name) != columns->end());
  });
}

// Partitions in the order a read gives them: token then key order — ring
// order for a range that wraps: the part after `start` first.
struct RingOrder {
  const ReadCommand& command;
  bool operator()(const PartitionId& a, const PartitionId& b) const {
    const int rank_a = Rank(a), rank_b = Rank(b);
    return rank_a != rank_b ? rank_a < rank_b : a < b;
  }
  int Rank(const PartitionId& id) const {
    const bool wraps = command.partitions.empty() && RangeWraps(command.range);
    return wraps && id.first <= command.range.start ? 1 : 0;
  }
};

// The stored partitions `command` names or whose tokens its range holds, in RingOrder.
std::vector<std::pair<const PartitionId*, const PartitionState*>> Candidates(
    const std::map<PartitionId, PartitionState>& partitions, const ReadCommand& command) {
  std::vector<std::pair<const PartitionId*, const PartitionState*>> candidates;
  if (!command.partitions.empty()) {
    std::vector<PartitionId> ids;
    for (const auto& key : command.partitions) ids.emplace_back(key.token, key.key);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    for (const auto& id : ids) {
      auto it = partitions.find(id);
      if (it != partitions.end()) candidates.emplace_back(&it->first, &it->second);
    }
  } else {
    for (const auto& [id, state] : partitions) {
      if (TokenInRange(command.range, id.first)) candidates.emplace_back(&id, &state);
    }
    const RingOrder before{command};
    std::stable_sort(candidates.begin(), candidates.end(),
                     [&](const auto& a, const auto& b) { return before(*a.first, *b.first); });
  }
  return candidates;
}

bool SelectsWholePartitions(const ReadCommand& command) {
  if (command.slices.empty()) return true;
  return command.slices.size() == 1 && command.slices[0].start.prefix.empty() &&
         command.slices[0].end.prefix.empty();
}

// The deletion a row inherits from its partition: the partition deletion
// and the range tombstones covering the row.
DeletionTime InheritedDeletion(const std::vector<ClusteringColumnLayout>& layout,
                               const PartitionState& partition, const Clustering& row) {
  DeletionTime shadow = partition.deletion;
  for (const auto& rt : partition.range_tombstones) {
    if (InBounds(layout, row, rt.start, rt.end)) {
      shadow = ReferenceEngine::ReconcileDeletions(shadow, rt.deletion);
    }
  }
  return shadow;
}

// ---- reads ----

// One Read over the candidate partitions, in their order: where a resumed
// read starts, each partition's rows up to the limits, and where the next
// page starts (reference_engine.h states the rules).
class ReferencePageReader {
 public:
  ReferencePageReader(const ReadCommand& command, const TableLayout& layout,
                      const ClusteringLess& clustering_less)
      : command_(command),
        clustering_(layout.clustering),
        clustering_less_(clustering_less),
        before_{command},
        whole_partitions_(SelectsWholePartitions(command)),
        reader_{layout, command.columns, command.now_seconds, result_.tombstones_scanned} {
    if (const auto& resume = command.resume_after) {
      resume_id_.emplace(resume->partition.token, resume->partition.key);
    }
  }

  // Reads one candidate partition; false once a limit ends the page.
  bool ReadCandidate(const PartitionId& id, const PartitionState& state) {
    const PartitionStart start = StartIn(id);
    if (start == PartitionStart::kSkipped) return true;
    const bool resuming_inside = start == PartitionStart::kAfterLastRow;
    ReadPartition partition;
    partition.key = {id.first, id.second};
    if (!state.deletion.is_live()) ++result_.tombstones_scanned;
    result_.tombstones_scanned += static_cast<int64_t>(state.range_tombstones.size());
    if (state.static_row) {
      partition.static_row =
          reader_.Read(*state.static_row, {}, state.deletion, /*is_static=*/true);
    }
    SelectedRows rows = ReadRows(state, resuming_inside);
    partition.rows = std::move(rows.rows);
    bool row_limit_reached = rows.row_limit_reached;
    bool static_only = false;
    if (partition.rows.empty()) {
      if (!partition.static_row || !whole_partitions_ || resuming_inside ||
          command_.per_partition_limit <= 0) {
        return true;
      }
      static_only = true;
      ++rows_total_;
      if (rows_total_ >= command_.row_limit) row_limit_reached = true;
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
        next.rows_in_partition = rows.in_partition;
      }
      result_.next = std::move(next);
      return false;
    }
    if (partitions_total_ >= command_.partition_limit) {
      ReadPosition next;
      next.partition = last.key;
      result_.next = std::move(next);
      return false;
    }
    return true;
  }

  ReadResult Finish() && { return std::move(result_); }

 private:
  enum class PartitionStart { kSkipped, kFirstRow, kAfterLastRow };

  struct SelectedRows {
    std::vector<ReadRow> rows;
    int32_t in_partition = 0;  // over all pages: per_partition_limit counts these
    bool row_limit_reached = false;
  };

  // Partitions before the resume point are skipped, and so is the one it
  // names unless the last page stopped inside it.
  PartitionStart StartIn(const PartitionId& id) const {
    if (!resume_id_) return PartitionStart::kFirstRow;
    if (before_(id, *resume_id_)) return PartitionStart::kSkipped;
    if (id != *resume_id_) return PartitionStart::kFirstRow;
    const ReadPosition& resume = *command_.resume_after;
    if (!resume.last_row || resume.last_was_static) return PartitionStart::kSkipped;
    return PartitionStart::kAfterLastRow;
  }

  // Whether `row` comes after the last page's last row, in the read's direction.
  bool PastResumeRow(const Clustering& row) const {
    const Clustering& last_row = *command_.resume_after->last_row;
    return command_.reversed ? clustering_less_(row, last_row) : clustering_less_(last_row, row);
  }

  // The live rows of `state` the read selects, in its direction, until the
  // row or per-partition limit.
  SelectedRows ReadRows(const PartitionState& state, bool resuming_inside) {
    SelectedRows selected;
    selected.in_partition = resuming_inside ? command_.resume_after->rows_in_partition : 0;
    if (selected.in_partition >= command_.per_partition_limit) return selected;
    auto visit = [&](const Clustering& key, const RowState& row) {
      // True to stop the partition.
      if (resuming_inside && !PastResumeRow(key)) return false;
      if (!InSlices(clustering_, key, command_.slices)) return false;
      std::optional<ReadRow> read =
          reader_.Read(row, key, InheritedDeletion(clustering_, state, key), /*is_static=*/false);
      if (!read) return false;
      selected.rows.push_back(std::move(*read));
      ++selected.in_partition;
      ++rows_total_;
      if (rows_total_ >= command_.row_limit) selected.row_limit_reached = true;
      return selected.row_limit_reached || selected.in_partition >= command_.per_partition_limit;
    };
    if (command_.reversed) {
      for (auto it = state.rows.rbegin(); it != state.rows.rend(); ++it) {
        if (visit(it->first, it->second)) break;
      }
    } else {
      for (const auto& [key, row] : state.rows) {
        if (visit(key, row)) break;
      }
    }
    return selected;
  }

  const ReadCommand& command_;
  const std::vector<ClusteringColumnLayout>& clustering_;
  const ClusteringLess& clustering_less_;
  const RingOrder before_;
  const bool whole_partitions_;
  std::optional<PartitionId> resume_id_;
  ReadResult result_;
  RowReader reader_;  // counts into result_.tombstones_scanned
  int32_t rows_total_ = 0;
  int32_t partitions_total_ = 0;
};

}  // namespace

// ---- reconciliation ----

Cell ReferenceEngine::ReconcileCells(const Cell& a, const Cell& b) {
  if (a.kind == Cell::Kind::kCounter || b.kind == Cell::Kind::kCounter) return ResolveCounter(a, b);
  return ResolveRegular(a, b);
}

LivenessInfo ReferenceEngine::ReconcileMarkers(const LivenessInfo& a, const LivenessInfo& b) {
  if (a.timestamp != b.timestamp) return a.timestamp > b.timestamp ? a : b;
  const bool a_expiring = a.ttl != 0;
  const bool b_expiring = b.ttl != 0;
  if (a_expiring != b_expiring) return a_expiring ? a : b;
  if (a.local_expiration_time != b.local_expiration_time) {
    return a.local_expiration_time > b.local_expiration_time ? a : b;
  }
  return a.ttl >= b.ttl ? a : b;
}

DeletionTime ReferenceEngine::ReconcileDeletions(const DeletionTime& a, const DeletionTime& b) {
  return b.Supersedes(a) ? b : a;
}

// ---- engine ----

ReferenceEngine::ReferenceEngine() = default;
ReferenceEngine::~ReferenceEngine() = default;

void ReferenceEngine::SyncTables(const std::vector<TableLayout>& tables) {
  std::unique_lock lock(mutex_);
  std::map<Bytes, std::unique_ptr<Table>> next;
  for (const auto& layout : tables) {
    const Bytes id(layout.id.View());
    auto existing = tables_.find(id);
    std::unique_ptr<Table> table;
    if (existing != tables_.end()) {
      table = std::move(existing->second);
    } else {
      table = std::make_unique<Table>();
      table->clustering_less.layout =
          std::make_shared<const std::vector<ClusteringColumnLayout>>(layout.clustering);
    }
    table->layout = layout;
    next[id] = std::move(table);
  }
  tables_ = std::move(next);
}

ReferenceEngine::Table& ReferenceEngine::FindTable(const types::Uuid& id) const {
  auto it = tables_.find(Bytes(id.View()));
  if (it == tables_.end()) throw std::runtime_error("Unknown table " + id.ToString());
  return *it->second;
}

void ReferenceEngine::Validate(const Table& table, const Mutation& mutation) const {
  const TableLayout& layout = table.layout;
  auto fail = [&layout](const std::string& what) {
    throw std::invalid_argument("Mutation of " + layout.keyspace + "." + layout.name + ": " + what);
  };
  for (const auto& rt : mutation.range_tombstones) {
    if (rt.start.prefix.size() > layout.clustering.size() ||
        rt.end.prefix.size() > layout.clustering.size()) {
      fail("a range tombstone bound longer than the clustering key");
    }
  }
  for (const auto& row : mutation.rows) {
    if (row.is_static ? !row.clustering.empty()
                      : row.clustering.size() != layout.clustering.size()) {
      fail("a clustering of " + std::to_string(row.clustering.size()) + " values");
    }
    auto column_of = [&](const std::string& name) {
      const ColumnLayout* column = layout.FindColumn(name);
      if (column == nullptr) fail("unknown column " + name);
      if (column->is_static != row.is_static) {
        fail("column " + name + (row.is_static ? " is not static" : " is static"));
      }
      return column;
    };
    for (const auto& cd : row.collection_deletions) {
      if (!column_of(cd.column)->is_multi_cell()) fail(cd.column + " is not a multi-cell column");
    }
    for (const auto& cw : row.cells) {
      const ColumnLayout* column = column_of(cw.column);
      if (column->is_multi_cell() != cw.path.has_value()) {
        fail(cw.path ? "a path on simple column " + cw.column
                     : "no path on multi-cell column " + cw.column);
      }
      const Cell::Kind kind = cw.cell.kind;
      if (column->is_counter()) {
        if (kind != Cell::Kind::kCounter && kind != Cell::Kind::kTombstone) {
          fail("a non-counter write to counter column " + cw.column);
        }
        if (kind == Cell::Kind::kCounter && !IsValidCounterValue(cw.cell.value)) {
          fail("a counter value that is neither an 8-byte delta nor shards");
        }
      } else if (kind == Cell::Kind::kCounter) {
        fail("a counter delta to non-counter column " + cw.column);
      }
    }
  }
}

void ReferenceEngine::ApplyLocked(Table& table, const Mutation& m) {
  const PartitionId id{m.partition.token, m.partition.key};
  auto [it, inserted] = table.partitions.try_emplace(id, table.clustering_less);
  PartitionState& partition = it->second;
  partition.deletion = ReconcileDeletions(partition.deletion, m.partition_deletion);
  for (const auto& rt : m.range_tombstones) {
    if (!rt.deletion.is_live()) partition.range_tombstones.push_back(rt);
  }
  for (const auto& write : m.rows) {
    RowState* row;
    if (write.is_static) {
      if (!partition.static_row) partition.static_row.emplace();
      row = &*partition.static_row;
    } else {
      row = &partition.rows[write.clustering];
    }
    row->marker = ReconcileMarkers(row->marker, write.marker);
    row->deletion = ReconcileDeletions(row->deletion, write.deletion);
    auto column_state = [&](const std::string& name) -> ColumnState& {
      auto found = row->columns.find(name);
      if (found != row->columns.end()) return found->second;
      return row->columns.emplace(name, ColumnState(PathType(*table.layout.FindColumn(name))))
          .first->second;
    };
    for (const auto& cd : write.collection_deletions) {
      ColumnState& column = column_state(cd.column);
      column.deletion = ReconcileDeletions(column.deletion, cd.deletion);
    }
    for (const auto& cw : write.cells) {
      auto& cells = column_state(cw.column).cells;
      const Bytes path = cw.path.value_or(Bytes());
      auto existing = cells.find(path);
      if (existing == cells.end()) {
        cells.emplace(path, cw.cell);
      } else {
        existing->second = ReconcileCells(existing->second, cw.cell);
      }
    }
  }
}

void ReferenceEngine::Apply(const Mutation& mutation) { ApplyAll({&mutation}); }

void ReferenceEngine::ApplyAll(const std::vector<const Mutation*>& mutations) {
  std::unique_lock lock(mutex_);
  for (const Mutation* m : mutations) Validate(FindTable(m->table_id), *m);
  for (const Mutation* m : mutations) ApplyLocked(FindTable(m->table_id), *m);
}

std::vector<Mutation> ReferenceEngine::ReadUnfiltered(const ReadCommand& command) const {
  RefuseIndexRead(command);
  std::shared_lock lock(mutex_);
  const Table& table = FindTable(command.table_id);
  const auto& clustering = table.layout.clustering;
  const UnfilteredPurger purger(command.now_seconds, table.layout.options.gc_grace_seconds);
  const UnfilteredRowReader reader{table.layout, command.columns, purger};
  const bool wants_static = WantsStatic(table.layout, command.columns);
  std::vector<Mutation> result;
  for (const auto& [id, state] : Candidates(table.partitions, command)) {
    Mutation m;
    m.table_id = command.table_id;
    m.partition = {id->first, id->second};
    const DeletionTime& deletion = state->deletion;
    if (purger.KeepDeletion(deletion, {})) m.partition_deletion = deletion;
    for (const auto& rt : state->range_tombstones) {
      if (purger.KeepDeletion(rt.deletion, deletion) &&
          OverlapsSlices(clustering, rt.start, rt.end, command.slices)) {
        m.range_tombstones.push_back(rt);
      }
    }
    if (state->static_row && wants_static) {
      RowWrite row = reader.Read(*state->static_row, {}, deletion, /*is_static=*/true);
      if (!row.empty()) m.rows.push_back(std::move(row));
    }
    for (const auto& [key, row_state] : state->rows) {
      if (!InSlices(clustering, key, command.slices)) continue;
      RowWrite row = reader.Read(row_state, key, InheritedDeletion(clustering, *state, key),
                                 /*is_static=*/false);
      if (!row.empty()) m.rows.push_back(std::move(row));
    }
    if (!m.empty()) result.push_back(std::move(m));
  }
  return result;
}

void ReferenceEngine::Truncate(const types::Uuid& table_id) {
  std::unique_lock lock(mutex_);
  FindTable(table_id).partitions.clear();
}

ReadResult ReferenceEngine::Read(const ReadCommand& command) const {
  RefuseIndexRead(command);
  std::shared_lock lock(mutex_);
  const Table& table = FindTable(command.table_id);
  if (command.row_limit <= 0 || command.partition_limit <= 0) return ReadResult();
  ReferencePageReader page(command, table.layout, table.clustering_less);
  for (const auto& [id, state] : Candidates(table.partitions, command)) {
    if (!page.ReadCandidate(*id, *state)) break;
  }
  return std::move(page).Finish();
}

}  // namespace sibyl::storage
