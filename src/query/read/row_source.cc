#include "query/read/row_source.h"

#include <algorithm>

#include "common/error.h"
#include "dht/token.h"

namespace sibyl::query {
namespace {

bool HasClustering(const schema::TableMetadata& table, const schema::Row& row) {
  return table.clustering_size() > 0 && row[table.clustering_begin()].has_value();
}

// Whether `row` of the partition at `partition` comes after `resume` in the
// read's direction. Partitions compare in the table's order.
bool IsAfter(const schema::TableMetadata& table, const schema::PartitionPosition& partition,
             const schema::Row& row, const schema::PartitionPosition& resume_partition,
             const storage::ReadPosition& resume, bool reversed) {
  const int c = schema::ComparePartitions(table, partition, resume_partition);
  if (c != 0) return c > 0;
  if (!resume.last_row || resume.last_was_static || !HasClustering(table, row)) return false;
  const int order = schema::CompareClustering(table, row, *resume.last_row);
  return reversed ? order < 0 : order > 0;
}

}  // namespace

storage::ReadPosition PositionAfter(const schema::TableMetadata& table, const schema::Row& row,
                                    int32_t rows_in_partition) {
  storage::ReadPosition position;
  schema::PartitionPosition partition = schema::PartitionOf(table, row);
  position.partition.key = std::move(partition.key);
  position.partition.token = dht::Murmur3Token(position.partition.key);
  if (HasClustering(table, row)) {
    storage::Clustering clustering;
    clustering.reserve(table.clustering_size());
    for (size_t i = table.clustering_begin();
         i < table.clustering_begin() + table.clustering_size(); ++i) {
      clustering.push_back(row[i].value_or(Bytes()));
    }
    position.last_row = std::move(clustering);
    position.rows_in_partition = rows_in_partition;
  }
  return position;
}

RowPage PageInMemory(const ReadRequest& request, std::vector<schema::Row> rows) {
  const schema::TableMetadata& table = request.table;
  RowPage page;
  if (request.plan != nullptr && request.plan->selects_nothing) return page;
  if (request.plan != nullptr) {
    std::erase_if(rows,
                  [&](const schema::Row& row) { return !request.plan->Contains(table, row); });
  }
  if (request.reversed) {
    // Partitions keep their order; the rows of each are reversed.
    auto begin = rows.begin();
    while (begin != rows.end()) {
      const schema::PartitionPosition partition = schema::PartitionOf(table, *begin);
      auto end = std::find_if(begin, rows.end(), [&](const schema::Row& row) {
        return schema::ComparePartitions(table, schema::PartitionOf(table, row), partition) != 0;
      });
      std::reverse(begin, end);
      begin = end;
    }
  }
  std::optional<schema::PartitionPosition> resume_partition;
  if (request.resume_after != nullptr) {
    resume_partition = schema::PartitionAt(table, request.resume_after->partition.key);
  }
  std::optional<schema::PartitionPosition> current;
  int32_t in_partition = 0;
  int32_t last_in_partition = 0;  // of page.rows.back()
  for (schema::Row& row : rows) {
    schema::PartitionPosition partition = schema::PartitionOf(table, row);
    if (resume_partition && !IsAfter(table, partition, row, *resume_partition,
                                     *request.resume_after, request.reversed)) {
      continue;
    }
    if (!current || schema::ComparePartitions(table, partition, *current) != 0) {
      const bool resumed_partition =
          resume_partition && schema::ComparePartitions(table, partition, *resume_partition) == 0;
      in_partition = resumed_partition ? request.resume_after->rows_in_partition : 0;
      current = std::move(partition);
    }
    if (in_partition >= request.per_partition_limit) continue;
    if (static_cast<int32_t>(page.rows.size()) == request.row_limit) {
      page.next = PositionAfter(table, page.rows.back(), last_in_partition);
      break;
    }
    last_in_partition = ++in_partition;
    page.rows.push_back(std::move(row));
  }
  return page;
}

RowPage VirtualRowSource::Read(const ReadRequest& request) const {
  const schema::VirtualTable* table = tables_.Find(request.table.keyspace, request.table.name);
  if (table == nullptr) return {};
  std::vector<schema::Row> rows =
      table->Rows(request.table, schema::VirtualTableContext{request.schema, node_});
  if (request.cell_metadata != nullptr && !request.cell_metadata->empty()) {
    for (auto& row : rows) row.resize(row.size() + request.cell_metadata->size());
  }
  return PageInMemory(request, std::move(rows));
}

void VirtualRowSource::Modify(const schema::Schema& schema, const schema::TableMetadata& table,
                              const std::vector<storage::Mutation>& mutations) const {
  const schema::VirtualTable* producer = tables_.Find(table.keyspace, table.name);
  if (producer == nullptr) {
    ThrowInvalid("Modification is not supported by table " + table.QualifiedName());
  }
  const schema::VirtualTableContext context{schema, node_};
  for (const storage::Mutation& mutation : mutations) producer->Apply(table, mutation, context);
}

}  // namespace sibyl::query
