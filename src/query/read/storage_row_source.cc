#include "query/read/storage_row_source.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include "dht/token.h"
#include "query/restrictions/restrictions.h"
#include "types/collection_value.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::TableMetadata;

// The partition key column values of a routing key, viewing it.
std::vector<BytesView> SplitPartitionKey(const TableMetadata& table, BytesView key) {
  const size_t count = table.partition_key_size();
  if (count == 1) return {key};
  return dht::SplitCompositeRoutingKey(key, count);
}

bool IsMultiCell(const types::CqlType& type) {
  return !type.frozen() && (type.is_collection() || type.kind() == types::Kind::kUdt);
}

// The serialized value of a non-frozen collection or UDT from its cells
// [begin, end), all of one column. Null when there are none.
OptBytes AssembleMultiCell(const types::CqlType& type, const storage::ReadCell* begin,
                           const storage::ReadCell* end) {
  if (begin == end) return std::nullopt;
  switch (type.kind()) {
    case types::Kind::kList: {
      std::vector<const storage::ReadCell*> cells;
      for (auto* c = begin; c != end; ++c) cells.push_back(c);
      const types::CqlType& timeuuid = *types::CqlType::Native(types::Kind::kTimeuuid);
      std::stable_sort(cells.begin(), cells.end(), [&](const auto* a, const auto* b) {
        return types::Compare(timeuuid, a->path.value_or(Bytes()), b->path.value_or(Bytes())) < 0;
      });
      std::vector<Bytes> elements;
      elements.reserve(cells.size());
      for (const auto* c : cells) elements.push_back(c->value);
      return types::EncodeList(elements);
    }
    case types::Kind::kSet: {
      std::vector<Bytes> elements;
      for (auto* c = begin; c != end; ++c) elements.push_back(c->path.value_or(Bytes()));
      return types::BuildSetValue(*type.params()[0], std::move(elements));
    }
    case types::Kind::kMap: {
      std::vector<std::pair<Bytes, Bytes>> entries;
      for (auto* c = begin; c != end; ++c)
        entries.emplace_back(c->path.value_or(Bytes()), c->value);
      return types::BuildMapValue(*type.params()[0], std::move(entries));
    }
    case types::Kind::kUdt: {
      std::vector<std::optional<BytesView>> fields(type.field_names().size());
      for (auto* c = begin; c != end; ++c) {
        if (!c->path || c->path->size() != 2) continue;
        const size_t index = (static_cast<size_t>(static_cast<uint8_t>((*c->path)[0])) << 8) |
                             static_cast<uint8_t>((*c->path)[1]);
        if (index < fields.size()) fields[index] = BytesView(c->value);
      }
      return types::EncodeTuple(fields);
    }
    default:
      return Bytes(begin->value);
  }
}

// The static and regular columns by name: built once per read (one
// allocation, not one per column), searched once per column of each row.
class ColumnIndexes {
 public:
  explicit ColumnIndexes(const TableMetadata& table) {
    by_name_.reserve(table.columns.size());
    for (size_t i = 0; i < table.columns.size(); ++i) {
      const auto kind = table.columns[i].kind;
      if (kind == ColumnKind::kStatic || kind == ColumnKind::kRegular) {
        by_name_.emplace_back(table.columns[i].name, i);
      }
    }
    std::sort(by_name_.begin(), by_name_.end());
  }
  std::optional<size_t> Find(std::string_view name) const {
    auto it =
        std::lower_bound(by_name_.begin(), by_name_.end(), name,
                         [](const auto& entry, std::string_view n) { return entry.first < n; });
    if (it == by_name_.end() || it->first != name) return std::nullopt;
    return it->second;
  }

 private:
  std::vector<std::pair<std::string_view, size_t>> by_name_;
};

// Writes the values of `row`'s cells into `out` (TableMetadata::columns layout)
// and the cell metadata asked for after them.
void FillCells(const ReadRequest& request, const storage::ReadRow& row,
               const ColumnIndexes& indexes, int32_t now_seconds, schema::Row& out) {
  const TableMetadata& table = request.table;
  const auto& cells = row.cells;
  for (size_t i = 0; i < cells.size();) {
    size_t j = i + 1;
    while (j < cells.size() && cells[j].column == cells[i].column) ++j;
    const std::optional<size_t> column_index = indexes.Find(cells[i].column);
    const storage::ReadCell* begin = cells.data() + i;
    const storage::ReadCell* end = cells.data() + j;
    // A column dropped and added again must not show what was written before
    // the drop (Cassandra's dropped_columns).
    std::vector<storage::ReadCell> kept;
    if (auto dropped = table.dropped_columns.find(cells[i].column);
        column_index && dropped != table.dropped_columns.end()) {
      for (auto* c = begin; c != end; ++c) {
        if (c->timestamp > dropped->second.dropped_time_micros) kept.push_back(*c);
      }
      begin = kept.data();
      end = kept.data() + kept.size();
    }
    if (column_index && begin != end) {
      const size_t index = *column_index;
      const types::CqlType& type = *table.columns[index].type;
      if (IsMultiCell(type)) {
        out[index] = AssembleMultiCell(type, begin, end);
      } else {
        out[index] = begin->value;
      }
      if (request.cell_metadata != nullptr) {
        const auto& metadata = *request.cell_metadata;
        for (size_t k = 0; k < metadata.size(); ++k) {
          if (metadata[k].column != index) continue;
          const storage::ReadCell& cell = *begin;
          OptBytes& value = out[table.columns.size() + k];
          if (metadata[k].kind == CellMetadata::Kind::kWritetime) {
            value = types::EncodeBigint(cell.timestamp);
          } else if (cell.ttl > 0) {
            value = types::EncodeInt(std::max(0, cell.local_expiration_time - now_seconds));
          }
        }
      }
    }
    i = j;
  }
}

}  // namespace

storage::ReadCommand StorageRowSource::MakeReadCommand(const ReadRequest& request,
                                                       int32_t now_seconds) {
  const TableMetadata& table = request.table;
  storage::ReadCommand command;
  command.table_id = table.id;
  if (request.plan != nullptr) {
    command.range = request.plan->range;
    command.slices = request.plan->slices;
    command.index = request.plan->index;
  }
  command.reversed = request.reversed;
  if (request.columns != nullptr) {
    std::vector<std::string> names;
    names.reserve(request.columns->size());
    for (size_t column : *request.columns) {
      const auto kind = table.columns[column].kind;
      if (kind == ColumnKind::kStatic || kind == ColumnKind::kRegular) {
        names.push_back(table.columns[column].name);
      }
    }
    command.columns = std::move(names);
  }
  command.row_limit = request.row_limit;
  command.per_partition_limit = request.per_partition_limit;
  if (request.resume_after != nullptr) command.resume_after = *request.resume_after;
  command.now_seconds = now_seconds;
  return command;
}

std::vector<schema::Row> StorageRowSource::ToRows(const ReadRequest& request,
                                                  const storage::ReadResult& result) {
  const TableMetadata& table = request.table;
  const size_t metadata_count = request.cell_metadata ? request.cell_metadata->size() : 0;
  const size_t width = table.columns.size() + metadata_count;
  const ColumnIndexes indexes(table);
  const int32_t now_seconds = request.now_seconds.value_or(0);

  std::vector<schema::Row> rows;
  for (const storage::ReadPartition& partition : result.partitions) {
    schema::Row base(width);
    const std::vector<BytesView> key = SplitPartitionKey(table, partition.key.key);
    for (size_t i = 0; i < key.size(); ++i) base[i] = Bytes(key[i]);
    if (partition.static_row) FillCells(request, *partition.static_row, indexes, now_seconds, base);
    if (partition.rows.empty()) {
      if (partition.static_row && request.static_only_rows) rows.push_back(std::move(base));
      continue;
    }
    for (const storage::ReadRow& read_row : partition.rows) {
      schema::Row row = base;
      const size_t begin = table.clustering_begin();
      for (size_t i = 0; i < read_row.clustering.size() && i < table.clustering_size(); ++i) {
        row[begin + i] = read_row.clustering[i];
      }
      FillCells(request, read_row, indexes, now_seconds, row);
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

namespace {

// The rows a read counted toward its row limit: each row, and each
// partition shown by its static row alone.
int32_t CountedRows(const storage::ReadResult& result) {
  int32_t count = 0;
  for (const auto& partition : result.partitions) {
    count += partition.rows.empty() ? 1 : static_cast<int32_t>(partition.rows.size());
  }
  return count;
}

void AppendRows(std::vector<schema::Row>& to, std::vector<schema::Row> rows) {
  if (to.empty()) {
    to = std::move(rows);
  } else {
    to.insert(to.end(), std::make_move_iterator(rows.begin()), std::make_move_iterator(rows.end()));
  }
}

}  // namespace

RowPage StorageRowSource::Read(const ReadRequest& request) const {
  RowPage page;
  if (request.plan != nullptr && request.plan->selects_nothing) return page;
  ReadRequest with_now = request;
  if (!with_now.now_seconds) with_now.now_seconds = coordinator_.clock().NowSeconds();
  storage::ReadCommand command = MakeReadCommand(with_now, *with_now.now_seconds);
  if (request.plan == nullptr || !request.plan->partitions) {
    const storage::ReadResult result = coordinator_.Read(command, request.consistency);
    page.rows = ToRows(with_now, result);
    page.next = result.next;
    page.tombstones_scanned = result.tombstones_scanned;
    return page;
  }

  // Named partitions, in the plan's order, one engine read each.
  const std::vector<storage::PartitionKey>& partitions = *request.plan->partitions;
  size_t first = 0;
  if (request.resume_after != nullptr) {
    const auto resumed =
        std::find(partitions.begin(), partitions.end(), request.resume_after->partition);
    if (resumed == partitions.end()) {
      ThrowProtocol("Invalid value for the paging state");
    }
    first = static_cast<size_t>(resumed - partitions.begin());
  }
  command.resume_after.reset();
  int32_t rows_left = request.row_limit;
  for (size_t i = first; i < partitions.size(); ++i) {
    if (rows_left <= 0) {
      page.next = storage::ReadPosition{.partition = partitions[i - 1]};
      break;
    }
    command.partitions.assign(1, partitions[i]);
    if (i == first && request.resume_after != nullptr) {
      command.resume_after = *request.resume_after;
    } else {
      command.resume_after.reset();
    }
    command.row_limit = rows_left;
    const storage::ReadResult result = coordinator_.Read(command, request.consistency);
    page.tombstones_scanned += result.tombstones_scanned;
    rows_left -= CountedRows(result);
    AppendRows(page.rows, ToRows(with_now, result));
    if (result.next) {
      page.next = result.next;
      break;
    }
  }
  return page;
}

}  // namespace sibyl::query
