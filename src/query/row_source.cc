#include "query/row_source.h"

namespace sibyl::query {

std::vector<schema::Row> VirtualRowSource::Read(const ReadRequest& request) const {
  const schema::VirtualTable* table = tables_.Find(request.table.keyspace, request.table.name);
  if (table == nullptr) return {};
  return table->Rows(request.table, schema::VirtualTableContext{request.schema, node_});
}

}  // namespace sibyl::query
