#include "query/select_statement.h"

#include <algorithm>
#include <limits>
#include <string>

#include "common/error.h"
#include "query/paging_state.h"
#include "query/table_resolution.h"
#include "schema/row_order.h"
#include "types/value_codec.h"

namespace sibyl::query {
namespace {

using schema::ColumnKind;
using schema::TableMetadata;

// ORDER BY: only on clustering columns, in their declared order, all in the
// clustering order or all against it. Returns whether the rows are reversed.
bool PrepareOrdering(const TableMetadata& table, const std::vector<cql::Ordering>& orderings,
                     const Restrictions& restrictions) {
  if (orderings.empty()) return false;
  if (!restrictions.selects_partitions()) {
    ThrowInvalid(
        "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  }
  std::optional<bool> reversed;
  for (size_t i = 0; i < orderings.size(); ++i) {
    const auto* column = table.FindColumn(orderings[i].column);
    if (column == nullptr) {
      ThrowInvalid("Undefined column name " + orderings[i].column + " in table " +
                   table.QualifiedName());
    }
    if (column->kind != ColumnKind::kClustering) {
      ThrowInvalid(
          "Order by is currently only supported on the clustered columns of the PRIMARY "
          "KEY, got " +
          column->name);
    }
    if (column->position != static_cast<int>(i)) {
      ThrowInvalid(
          "Order by currently only supports the ordering of columns following their "
          "declared order in the PRIMARY KEY");
    }
    const bool against =
        orderings[i].descending != (column->order == schema::ClusteringOrder::kDesc);
    if (reversed && *reversed != against) ThrowInvalid("Unsupported order by relation");
    reversed = against;
  }
  if (!restrictions.selects_one_partition()) {
    ThrowInvalid(
        "ORDER BY with an IN restriction on the partition key is not supported by Sibyl "
        "yet");
  }
  return reversed.value_or(false);
}

void ValidateDistinct(const TableMetadata& table, const Selection& selection,
                      const Restrictions& restrictions) {
  if (restrictions.has_clustering_restrictions() || restrictions.has_non_key_restrictions()) {
    ThrowInvalid(
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key "
        "and/or static columns.");
  }
  std::vector<size_t> requested;
  for (const auto& s : selection.selected()) {
    if (s.kind == Selection::Selected::Kind::kCountRows) continue;
    const auto& column = table.columns[s.column];
    if (column.kind != ColumnKind::kPartitionKey && column.kind != ColumnKind::kStatic) {
      ThrowInvalid(
          "SELECT DISTINCT queries must only request partition key columns and/or "
          "static columns (not " +
          column.name + ")");
    }
    requested.push_back(s.column);
  }
  if (restrictions.selects_partitions()) return;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    if (std::find(requested.begin(), requested.end(), i) == requested.end()) {
      ThrowInvalid("SELECT DISTINCT queries must request all the partition key columns (missing " +
                   table.columns[i].name + ")");
    }
  }
}

std::vector<Bytes> ClusteringOf(const TableMetadata& table, const schema::Row& row) {
  std::vector<Bytes> values;
  const size_t begin = table.clustering_begin();
  for (size_t i = begin; i < begin + table.clustering_size(); ++i) {
    values.push_back(row[i].value_or(Bytes()));
  }
  return values;
}

}  // namespace

std::shared_ptr<const SelectStatement> SelectStatement::Prepare(
    const cql::SelectStatement& select, int marker_count, const schema::Schema& schema,
    std::optional<std::string_view> keyspace) {
  auto statement = std::make_shared<SelectStatement>();
  statement->table_ = ResolveTable(select.table, schema, keyspace);
  statement->fully_qualified_ = select.table.keyspace.has_value();
  const TableMetadata& table = *statement->table_;

  if (select.json) ThrowInvalid("SELECT JSON is not supported by Sibyl yet");
  if (!select.group_by.empty()) ThrowInvalid("GROUP BY is not supported by Sibyl yet");

  BindSpecCollector binds(table.keyspace, table.name, marker_count);
  statement->selection_ = Selection::Prepare(table, select);
  statement->restrictions_ =
      Restrictions::Prepare(table, select.where, select.allow_filtering, binds);
  statement->distinct_ = select.distinct;
  if (select.distinct) ValidateDistinct(table, statement->selection_, statement->restrictions_);
  statement->reversed_ = PrepareOrdering(table, select.order_by, statement->restrictions_);

  const types::TypePtr int_type = types::CqlType::Native(types::Kind::kInt);
  if (select.per_partition_limit) {
    statement->per_partition_limit_ =
        PrepareTerm(*select.per_partition_limit, "[per_partition_limit]", int_type, binds);
  }
  if (select.limit) statement->limit_ = PrepareTerm(*select.limit, "[limit]", int_type, binds);
  statement->bind_specs_ = binds.Take();
  return statement;
}

int32_t SelectStatement::BindLimit(const std::optional<PreparedTerm>& term,
                                   const BoundValues& values, const char* name) const {
  if (!term) return -1;
  const Value value = term->Bind(values);
  if (value.is_unset()) return -1;  // an unset limit means no limit
  // An empty int is Cassandra's "no value" too.
  if (value.is_null() || value.bytes.empty()) {
    ThrowInvalid(std::string("Invalid null value of ") + name);
  }
  const int32_t limit = types::DecodeInt(value.bytes);
  if (limit <= 0) {
    ThrowInvalid(&term == &limit_ ? "LIMIT must be strictly positive"
                                  : "PER PARTITION LIMIT must be strictly positive");
  }
  return limit;
}

RowsResult SelectStatement::Execute(const BoundValues& values,
                                    const protocol::QueryParameters& params,
                                    const schema::Schema& schema, const RowSource& source) const {
  const TableMetadata& table = *table_;
  const RowFilter filter = restrictions_.Bind(table, values);
  const int32_t limit = BindLimit(limit_, values, "limit");
  const int32_t per_partition_limit =
      BindLimit(per_partition_limit_, values, "per partition limit");
  ReadRequest request{schema, table};
  request.filter = &filter;
  request.cell_metadata = &selection_.cell_metadata();
  request.static_only_rows = !restrictions_.has_clustering_restrictions();
  request.now_seconds = params.now_in_seconds;
  std::vector<schema::Row> rows = source.Read(request);

  RowsResult result;
  result.columns = selection_.result_columns();

  if (selection_.is_aggregate()) {
    // One row aggregating every match; plain columns take the first match's values.
    int64_t counted_rows = 0;
    std::vector<int64_t> counted_values(selection_.selected().size(), 0);
    const schema::Row* first = nullptr;
    for (const schema::Row& row : rows) {
      if (!filter.Matches(row)) continue;
      if (first == nullptr) first = &row;
      ++counted_rows;
      for (size_t k = 0; k < selection_.selected().size(); ++k) {
        const auto& s = selection_.selected()[k];
        if (s.kind == Selection::Selected::Kind::kCountValues && row[s.column]) ++counted_values[k];
      }
    }
    schema::Row out;
    for (size_t k = 0; k < selection_.selected().size(); ++k) {
      const auto& s = selection_.selected()[k];
      switch (s.kind) {
        case Selection::Selected::Kind::kCountRows:
          out.push_back(types::EncodeBigint(counted_rows));
          break;
        case Selection::Selected::Kind::kCountValues:
          out.push_back(types::EncodeBigint(counted_values[k]));
          break;
        case Selection::Selected::Kind::kColumn:
          out.push_back(first ? (*first)[s.column] : std::nullopt);
          break;
      }
    }
    result.rows.push_back(std::move(out));
    return result;
  }

  if (reversed_) std::reverse(rows.begin(), rows.end());
  const int direction = reversed_ ? -1 : 1;
  const size_t page_size = params.page_size > 0 ? static_cast<size_t>(params.page_size)
                                                : std::numeric_limits<size_t>::max();

  // Resume right after the last row of the previous page.
  std::optional<PagingState> resume;
  if (params.paging_state) resume = PagingState::Parse(*params.paging_state);
  int32_t remaining = resume ? resume->remaining : limit;
  size_t i = 0;
  schema::PartitionPosition current;
  bool have_current = false;
  int32_t in_partition = 0;  // rows returned from `current`
  if (resume) {
    schema::PartitionPosition last = schema::PartitionAt(table, resume->partition_key);
    for (; i < rows.size(); ++i) {
      const schema::PartitionPosition partition = schema::PartitionOf(table, rows[i]);
      const int c = direction * schema::ComparePartitions(table, partition, last);
      if (c > 0) break;
      if (c < 0 || resume->clustering.empty()) continue;
      if (direction * schema::CompareClustering(table, rows[i], resume->clustering) > 0) break;
    }
    current = std::move(last);
    have_current = true;
    in_partition = resume->returned_in_partition;
  }
  if (remaining == 0) return result;

  // The last returned row, to resume from.
  size_t last_index = 0;
  int32_t last_in_partition = 0;
  for (; i < rows.size(); ++i) {
    const schema::Row& row = rows[i];
    schema::PartitionPosition partition = schema::PartitionOf(table, row);
    if (!have_current || schema::ComparePartitions(table, partition, current) != 0) {
      current = std::move(partition);
      have_current = true;
      in_partition = 0;
    }
    if (distinct_ && in_partition > 0) continue;
    if (per_partition_limit >= 0 && in_partition >= per_partition_limit) continue;
    if (!filter.Matches(row)) continue;
    if (result.rows.size() == page_size) {
      // Another row follows a full page: hand out where to resume.
      PagingState state;
      state.remaining = remaining;
      state.returned_in_partition = last_in_partition;
      state.partition_key = schema::PartitionOf(table, rows[last_index]).key;
      if (!distinct_) state.clustering = ClusteringOf(table, rows[last_index]);
      result.paging_state = state.Serialize();
      break;
    }
    result.rows.push_back(selection_.Project(row));
    last_index = i;
    last_in_partition = ++in_partition;
    if (remaining > 0 && --remaining == 0) break;
  }
  return result;
}

}  // namespace sibyl::query
