#include "query/storage_row_source.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>

#include "cluster/token.h"
#include "query/restrictions.h"
#include "types/collection_value.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::TableMetadata;

// The condition a filter holds on `column`, if any.
const RowFilter::Condition* ConditionOn(const RowFilter* filter, size_t column) {
  if (filter == nullptr) return nullptr;
  for (const auto& condition : filter->conditions()) {
    if (condition.column == column) return &condition;
  }
  return nullptr;
}

// Every combination of one value per position, in order; nullopt when there
// would be more than `limit`.
std::optional<std::vector<std::vector<BytesView>>> CartesianProduct(
    const std::vector<const std::vector<BytesView>*>& choices, size_t limit) {
  std::vector<std::vector<BytesView>> out(1);
  for (const auto* values : choices) {
    if (out.size() * values->size() > limit) return std::nullopt;
    std::vector<std::vector<BytesView>> next;
    next.reserve(out.size() * values->size());
    for (const auto& prefix : out) {
      for (BytesView value : *values) {
        next.push_back(prefix);
        next.back().push_back(value);
      }
    }
    out = std::move(next);
  }
  return out;
}

// The named partitions when every partition key column is bound by = or IN.
std::optional<std::vector<storage::PartitionKey>> NamedPartitions(const TableMetadata& table,
                                                                  const RowFilter* filter) {
  std::vector<const std::vector<BytesView>*> choices;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    const RowFilter::Condition* condition = ConditionOn(filter, i);
    if (condition == nullptr || !condition->has_values) return std::nullopt;
    choices.push_back(&condition->values);
  }
  auto keys = CartesianProduct(choices, StorageRowSource::kMaxNamedPartitions);
  if (!keys) return std::nullopt;
  std::vector<storage::PartitionKey> partitions;
  partitions.reserve(keys->size());
  for (const auto& components : *keys) {
    storage::PartitionKey key;
    key.key = schema::RoutingKey(components);
    key.token = cluster::Murmur3Token(key.key);
    if (std::find(partitions.begin(), partitions.end(), key) == partitions.end()) {
      partitions.push_back(std::move(key));
    }
  }
  return partitions;
}

// <0, 0, >0 as clustering prefix `a` sorts before, with or after `b` (same
// length) in the table's clustering order.
int CompareClusteringPrefix(const TableMetadata& table, const storage::Clustering& a,
                            const storage::Clustering& b) {
  const size_t begin = table.clustering_begin();
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    const auto& column = table.columns[begin + i];
    int c = types::Compare(*column.type, a[i], b[i]);
    if (column.order == schema::ClusteringOrder::kDesc) c = -c;
    if (c != 0) return c;
  }
  return 0;
}

// Clustering slices from = / IN on the leading clustering columns and an
// optional slice on the next one; empty: the whole partition.
std::vector<storage::ClusteringSlice> ClusteringSlices(const TableMetadata& table,
                                                       const RowFilter* filter) {
  const size_t begin = table.clustering_begin();
  std::vector<const std::vector<BytesView>*> choices;
  const RowFilter::Condition* range = nullptr;
  for (size_t i = 0; i < table.clustering_size(); ++i) {
    const RowFilter::Condition* condition = ConditionOn(filter, begin + i);
    if (condition == nullptr) break;
    if (condition->has_values) {
      choices.push_back(&condition->values);
      continue;
    }
    if (condition->lower || condition->upper) range = condition;
    break;
  }
  if (choices.empty() && range == nullptr) return {};
  auto prefixes = CartesianProduct(choices, StorageRowSource::kMaxClusteringSlices);
  if (!prefixes) return {};

  std::vector<storage::Clustering> sorted;
  sorted.reserve(prefixes->size());
  for (const auto& prefix : *prefixes) sorted.emplace_back(prefix.begin(), prefix.end());
  std::sort(sorted.begin(), sorted.end(),
            [&](const auto& a, const auto& b) { return CompareClusteringPrefix(table, a, b) < 0; });
  sorted.erase(std::unique(sorted.begin(), sorted.end(),
                           [&](const auto& a, const auto& b) {
                             return CompareClusteringPrefix(table, a, b) == 0;
                           }),
               sorted.end());

  std::vector<storage::ClusteringSlice> slices;
  slices.reserve(sorted.size());
  for (auto& prefix : sorted) {
    storage::ClusteringSlice slice;
    slice.start.prefix = prefix;
    slice.end.prefix = prefix;
    if (range != nullptr) {
      // A DESC column stores its greatest values first: its upper bound starts the slice.
      const bool descending = table.columns[range->column].order == schema::ClusteringOrder::kDesc;
      const std::optional<BytesView>& first = descending ? range->upper : range->lower;
      const bool first_inclusive = descending ? range->upper_inclusive : range->lower_inclusive;
      const std::optional<BytesView>& last = descending ? range->lower : range->upper;
      const bool last_inclusive = descending ? range->lower_inclusive : range->upper_inclusive;
      if (first) {
        slice.start.prefix.emplace_back(*first);
        slice.start.inclusive = first_inclusive;
      }
      if (last) {
        slice.end.prefix.emplace_back(*last);
        slice.end.inclusive = last_inclusive;
      }
    }
    slices.push_back(std::move(slice));
  }
  return slices;
}

// The partition key column values of a routing key.
std::vector<Bytes> SplitPartitionKey(const TableMetadata& table, const Bytes& key) {
  const size_t count = table.partition_key_size();
  if (count == 1) return {key};
  std::vector<Bytes> components(count);
  size_t at = 0;
  for (size_t i = 0; i < count && at + 2 <= key.size(); ++i) {
    const size_t length = (static_cast<size_t>(static_cast<uint8_t>(key[at])) << 8) |
                          static_cast<uint8_t>(key[at + 1]);
    at += 2;
    if (at + length > key.size()) break;
    components[i] = key.substr(at, length);
    at += length + 1;  // the end-of-component byte
  }
  return components;
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

struct ColumnIndexes {
  std::map<std::string, size_t, std::less<>> by_name;  // static and regular columns
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
    auto it = indexes.by_name.find(cells[i].column);
    const storage::ReadCell* begin = cells.data() + i;
    const storage::ReadCell* end = cells.data() + j;
    // A column dropped and added again must not show what was written before
    // the drop (Cassandra's dropped_columns).
    std::vector<storage::ReadCell> kept;
    if (auto dropped = table.dropped_columns.find(cells[i].column);
        it != indexes.by_name.end() && dropped != table.dropped_columns.end()) {
      for (auto* c = begin; c != end; ++c) {
        if (c->timestamp > dropped->second.dropped_time_micros) kept.push_back(*c);
      }
      begin = kept.data();
      end = kept.data() + kept.size();
    }
    if (it != indexes.by_name.end() && begin != end) {
      const size_t index = it->second;
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

std::optional<storage::ReadCommand> StorageRowSource::MakeReadCommand(const ReadRequest& request,
                                                                      int32_t now_seconds) {
  storage::ReadCommand command;
  command.table_id = request.table.id;
  if (auto partitions = NamedPartitions(request.table, request.filter)) {
    if (partitions->empty()) return std::nullopt;  // `k IN ()` selects nothing
    command.partitions = std::move(*partitions);
  }
  command.slices = ClusteringSlices(request.table, request.filter);
  command.now_seconds = now_seconds;
  return command;
}

std::vector<schema::Row> StorageRowSource::ToRows(const ReadRequest& request,
                                                  const storage::ReadResult& result) {
  const TableMetadata& table = request.table;
  const size_t metadata_count = request.cell_metadata ? request.cell_metadata->size() : 0;
  const size_t width = table.columns.size() + metadata_count;
  ColumnIndexes indexes;
  for (size_t i = 0; i < table.columns.size(); ++i) {
    const auto kind = table.columns[i].kind;
    if (kind == ColumnKind::kStatic || kind == ColumnKind::kRegular) {
      indexes.by_name.emplace(table.columns[i].name, i);
    }
  }
  const int32_t now_seconds = request.now_seconds.value_or(0);

  std::vector<schema::Row> rows;
  for (const storage::ReadPartition& partition : result.partitions) {
    schema::Row base(width);
    const std::vector<Bytes> key = SplitPartitionKey(table, partition.key.key);
    for (size_t i = 0; i < key.size(); ++i) base[i] = key[i];
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

std::vector<schema::Row> StorageRowSource::Read(const ReadRequest& request) const {
  ReadRequest with_now = request;
  if (!with_now.now_seconds) with_now.now_seconds = coordinator_.clock().NowSeconds();
  const auto command = MakeReadCommand(with_now, *with_now.now_seconds);
  if (!command) return {};
  return ToRows(with_now, coordinator_.Read(*command));
}

}  // namespace sibyl::query
