#pragma once
// A table's storage layout as the read path needs it to reconcile replicas
// (a scratch engine, RepairDiff): key types, clustering order, columns and
// gc_grace_seconds. query/read/storage_layout.h derives the full layout
// the node's engine uses, but cluster/ sits below query/ (query depends on
// the coordinator), so the part reconciliation needs is derived here too;
// both follow schema::TableMetadata, so they agree.
//
// Pure functions: safe from any thread.

#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "storage/table_layout.h"
#include "types/uuid.h"

namespace sibyl::cluster {

// The table with id `table_id`, or null.
[[nodiscard]] schema::TablePtr FindTableById(const schema::Schema& schema,
                                             const types::Uuid& table_id);

[[nodiscard]] storage::TableLayout ReadTableLayout(const schema::TableMetadata& table);

}  // namespace sibyl::cluster
