#pragma once
// Finding materialized views in a keyspace. Views are kept apart from tables
// (KeyspaceMetadata::views, as Cassandra's KeyspaceMetadata.views), but
// share their namespace and are read like tables, so lookups that serve
// reads find either (Cassandra's getTableOrViewNullable).

#include <string_view>
#include <vector>

#include "schema/table_metadata.h"
#include "types/uuid.h"

namespace sibyl::schema {

// The table or, failing that, the materialized view named `name`; null if
// neither exists.
[[nodiscard]] TablePtr FindTableOrView(const KeyspaceMetadata& keyspace, std::string_view name);

// The views of `keyspace` whose base table is `base_table_id`, by name
// (Cassandra's Views.forTable).
[[nodiscard]] std::vector<TablePtr> ViewsOfTable(const KeyspaceMetadata& keyspace,
                                                 const types::Uuid& base_table_id);

}  // namespace sibyl::schema
