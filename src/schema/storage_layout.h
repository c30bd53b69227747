#pragma once
// The storage engine's view of a table (storage::TableLayout), derived from
// the schema's TableMetadata: key types and clustering order, the static
// and regular columns, and the table options the engine maps onto its
// column family (gc_grace_seconds, bloom_filter_fp_chance, compaction and
// compression). storage/ knows no schema, so the mapping lives here.
//
// Which tables are stored: every table of a user keyspace, and
// system.paxos (each replica's Paxos state, cluster/paxos/paxos_store.h).
// Virtual tables produce their rows from live state, and the other tables
// of the system keyspaces (system, system_schema, system_auth,
// system_distributed, system_traces) are answered from the schema and node
// state today.

#include <vector>

#include "schema/schema.h"
#include "schema/table_metadata.h"
#include "storage/data/table_layout.h"

namespace sibyl::schema {

// True when the engine stores `table`'s rows (see above).
[[nodiscard]] bool IsStoredTable(const schema::TableMetadata& table);

// The engine's layout of `table`. REQUIRES: IsStoredTable(table).
[[nodiscard]] storage::TableLayout MakeTableLayout(const schema::TableMetadata& table);

// How rows of `base` map onto rows of its materialized view `view`.
[[nodiscard]] storage::ViewLayout MakeViewLayout(const schema::TableMetadata& base,
                                                 const schema::TableMetadata& view);

// The layouts of every stored table (materialized views included; a base
// table's layout lists its views) of `schema`, for Engine::SyncTables.
[[nodiscard]] std::vector<storage::TableLayout> StoredTableLayouts(const schema::Schema& schema);

// Table option values as the engine names them.
// "size_tiered", "leveled" or "time_window" from the compaction class.
[[nodiscard]] std::string CompactionName(const schema::TableParams& params);
// "lz4", "snappy", "zstd", "deflate" or "none" from the compression class.
[[nodiscard]] std::string CompressionName(const schema::TableParams& params);

}  // namespace sibyl::schema
