#pragma once
// `sibyl admin flush [KEYSPACE [TABLE...]]`: every node writes the tables'
// memtables to SSTables, as `nodetool flush` does on one node. The tables
// are checked against the contacted node's schema first, with nodetool's
// words: "Keyspace ks does not exist", "Unknown keyspace/cf pair (ks.t)".
// Then one section per node (node_sections.h):
//
//   Node: 127.0.0.1
//   ===============
//   Flushed 3 tables of ks
//
//   Node: 127.0.0.2
//   ===============
//   DOWN: not asked
//
// A node that refused a table (its schema does not have it yet) shows its
// error instead.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/admin/admin_options.h"
#include "tools/admin/node_sections.h"
#include "tools/admin/schema_tables_reader.h"

namespace sibyl::tools::admin {

// What one node did: the tables it flushed, or why it stopped.
struct FlushAnswer {
  int64_t flushed = 0;
  // Empty unless the node refused a table: its error.
  std::string refusal;
};

using NodeFlush = MemberAnswer<FlushAnswer>;

// The tables `flush [keyspace [tables...]]` flushes, in `schema`'s order:
// the named tables of `keyspace`, all its tables when none is named, every
// keyspace's when no keyspace is. Throws AdminError (nodetool's words) for
// a keyspace or table `schema` does not have.
[[nodiscard]] std::vector<TableSelection> TablesToFlush(const SchemaTables& schema,
                                                        const std::optional<std::string>& keyspace,
                                                        const std::vector<std::string>& tables);

// `what` names the tables flushed: "ks", "ks.t", "every keyspace".
std::string FormatFlushes(const std::string& what, const std::vector<NodeFlush>& nodes);

// True when every member flushed every table: what makes flush exit 0.
bool FlushesComplete(const std::vector<NodeFlush>& nodes);

}  // namespace sibyl::tools::admin
