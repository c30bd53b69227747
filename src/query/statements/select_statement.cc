#include "query/statements/select_statement.h"

#include <algorithm>
#include <limits>
#include <string>

#include "common/error.h"
#include "query/read/paging_state.h"
#include "query/statements/table_resolution.h"
#include "schema/row_order.h"
#include "schema/system_keyspaces.h"
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
  size_t next = 0;  // the next clustering position an ordering may name
  for (const cql::Ordering& ordering : orderings) {
    const auto* column = &table.columns[table.ExistingColumnIndex(ordering.column)];
    if (column->kind != ColumnKind::kClustering) {
      ThrowInvalid(
          "Order by is currently only supported on the clustered columns of the PRIMARY "
          "KEY, got " +
          column->name);
    }
    // Columns restricted by equality may be left out of the ordering.
    const size_t position = static_cast<size_t>(column->position);
    while (next != position) {
      if (next > position || !restrictions.IsRestrictedByEq(table.clustering_begin() + next)) {
        ThrowInvalid(
            "Order by currently only supports the ordering of columns following their "
            "declared order in the PRIMARY KEY");
      }
      ++next;
    }
    ++next;
    const bool against = ordering.descending != (column->order == schema::ClusteringOrder::kDesc);
    if (reversed && *reversed != against) ThrowInvalid("Unsupported order by relation");
    reversed = against;
  }
  return reversed.value_or(false);
}

bool RestrictsRegularColumns(const TableMetadata& table, const Restrictions& restrictions) {
  for (size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].kind == ColumnKind::kRegular && restrictions.Find(i) != nullptr) {
      return true;
    }
  }
  return false;
}

void ValidateDistinct(const TableMetadata& table, const Selection& selection,
                      const Restrictions& restrictions) {
  if (restrictions.has_clustering_restrictions() || RestrictsRegularColumns(table, restrictions)) {
    ThrowInvalid(
        "SELECT DISTINCT with WHERE clause only supports restriction by partition key "
        "and/or static columns.");
  }
  const std::vector<size_t>& requested = selection.columns_read();
  for (size_t column_index : requested) {
    const auto& column = table.columns[column_index];
    if (column.kind != ColumnKind::kPartitionKey && column.kind != ColumnKind::kStatic) {
      ThrowInvalid(
          "SELECT DISTINCT queries must only request partition key columns and/or "
          "static columns (not " +
          column.name + ")");
    }
  }
  if (restrictions.selects_partitions()) return;
  for (size_t i = 0; i < table.partition_key_size(); ++i) {
    if (std::find(requested.begin(), requested.end(), i) == requested.end()) {
      ThrowInvalid("SELECT DISTINCT queries must request all the partition key columns (missing " +
                   table.columns[i].name + ")");
    }
  }
}

// GROUP BY as 4.1's SelectStatement.getAggregationSpecification checks it:
// primary key columns in their declared order, skipping only columns
// restricted by equality, covering the whole partition key. Returns how
// many clustering columns the groups use.
size_t PrepareGroupBy(const TableMetadata& table, const std::vector<std::string>& group_by,
                      const Restrictions& restrictions, bool distinct) {
  const size_t key_columns = table.partition_key_size() + table.clustering_size();
  size_t next = 0;  // the next primary key column, in declared order
  size_t clustering_prefix = 0;
  constexpr const char* kOrderMessage =
      "Group by currently only support groups of columns following their declared order in "
      "the PRIMARY KEY";
  for (const std::string& name : group_by) {
    const size_t index = table.ExistingColumnIndex(name);
    const auto& column = table.columns[index];
    if (!column.is_primary_key()) {
      ThrowInvalid("Group by is currently only supported on the columns of the PRIMARY KEY, got " +
                   column.name);
    }
    while (true) {
      if (next >= key_columns) ThrowInvalid(kOrderMessage);
      const size_t current = next++;
      if (table.columns[current].kind == ColumnKind::kClustering) ++clustering_prefix;
      if (current == static_cast<size_t>(index)) break;
      if (!restrictions.IsRestrictedByEq(current)) ThrowInvalid(kOrderMessage);
    }
  }
  if (next < table.partition_key_size()) {
    ThrowInvalid("Group by is not supported on only a part of the partition key");
  }
  if (clustering_prefix > 0 && distinct) {
    ThrowInvalid("Grouping on clustering columns is not allowed for SELECT DISTINCT queries");
  }
  return clustering_prefix;
}

// Every regular and static column the read must return: the selection's,
// the cell metadata's (writetime/ttl); filtered columns join per request.
std::vector<size_t> ColumnsRead(const TableMetadata& table, const Selection& selection) {
  std::vector<size_t> columns;
  auto add = [&](size_t column) {
    const auto kind = table.columns[column].kind;
    if (kind != ColumnKind::kStatic && kind != ColumnKind::kRegular) return;
    if (std::find(columns.begin(), columns.end(), column) == columns.end()) {
      columns.push_back(column);
    }
  };
  for (size_t column : selection.columns_read()) add(column);
  for (const CellMetadata& metadata : selection.cell_metadata()) add(metadata.column);
  std::sort(columns.begin(), columns.end());
  return columns;
}

}  // namespace

std::shared_ptr<const SelectStatement> SelectStatement::Prepare(
    const cql::SelectStatement& select, int marker_count, const schema::Schema& schema,
    std::optional<std::string_view> keyspace) {
  auto statement = std::make_shared<SelectStatement>();
  statement->table_ = ResolveTable(select.table, schema, keyspace);
  statement->fully_qualified_ = select.table.keyspace.has_value();
  const TableMetadata& table = *statement->table_;

  BindSpecCollector binds(table.keyspace, table.name, marker_count);
  std::vector<types::TypePtr> key_types;
  for (size_t i = 0; i < table.partition_key_size(); ++i)
    key_types.push_back(table.columns[i].type);
  binds.set_partition_key_types(std::move(key_types));
  statement->selection_ = Selection::Prepare(table, select, binds);
  statement->restrictions_ =
      Restrictions::Prepare(table, select.where, select.allow_filtering, binds,
                            /*ordered=*/!select.order_by.empty());
  statement->distinct_ = select.distinct;
  statement->allow_filtering_ = select.allow_filtering;
  statement->guarded_ = !schema::IsSystemKeyspace(table.keyspace) && !table.is_virtual;
  if (select.distinct) {
    if (select.per_partition_limit) {
      ThrowInvalid("PER PARTITION LIMIT is not allowed with SELECT DISTINCT queries");
    }
    ValidateDistinct(table, statement->selection_, statement->restrictions_);
  }
  if (!select.group_by.empty()) {
    statement->grouped_ = true;
    statement->group_clustering_prefix_ =
        PrepareGroupBy(table, select.group_by, statement->restrictions_, select.distinct);
  }
  if (!statement->grouped_ && statement->selection_.is_aggregate() && select.per_partition_limit) {
    ThrowInvalid("PER PARTITION LIMIT is not allowed with aggregate queries.");
  }
  statement->reversed_ = PrepareOrdering(table, select.order_by, statement->restrictions_);
  statement->post_query_ordering_ =
      !select.order_by.empty() && statement->restrictions_.partition_key_in();
  for (const cql::Ordering& ordering : select.order_by) {
    statement->ordering_columns_.push_back(static_cast<size_t>(table.ColumnIndex(ordering.column)));
  }
  statement->queries_full_partitions_ = !statement->restrictions_.has_clustering_restrictions() &&
                                        !RestrictsRegularColumns(table, statement->restrictions_);
  statement->columns_read_ = ColumnsRead(table, statement->selection_);
  if (statement->queries_full_partitions_) {
    // Static content decides whether a partition without rows shows, so
    // every static column is read (4.1's ColumnFilter fetches them all).
    for (size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].kind == ColumnKind::kStatic &&
          std::find(statement->columns_read_.begin(), statement->columns_read_.end(), i) ==
              statement->columns_read_.end()) {
        statement->columns_read_.push_back(i);
      }
    }
  }

  const types::TypePtr int_type = types::CqlType::Native(types::Kind::kInt);
  if (select.per_partition_limit) {
    statement->per_partition_limit_ =
        PrepareTerm(*select.per_partition_limit, "[per_partition_limit]", int_type, binds);
  }
  if (select.limit) statement->limit_ = PrepareTerm(*select.limit, "[limit]", int_type, binds);
  statement->bind_specs_ = binds.Take();
  return statement;
}

}  // namespace sibyl::query
