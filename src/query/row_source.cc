#include "query/row_source.h"

namespace sibyl::query {

std::vector<schema::Row> VirtualRowSource::Read(const ReadRequest& request) const {
  const schema::VirtualTable* table = tables_.Find(request.table.keyspace, request.table.name);
  if (table == nullptr) return {};
  std::vector<schema::Row> rows =
      table->Rows(request.table, schema::VirtualTableContext{request.schema, node_});
  if (request.cell_metadata != nullptr && !request.cell_metadata->empty()) {
    for (auto& row : rows) row.resize(row.size() + request.cell_metadata->size());
  }
  return rows;
}

}  // namespace sibyl::query
