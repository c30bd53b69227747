#pragma once
// Which keyspace and table a statement names: `ks.t`, or `t` in the
// session's keyspace (USE, or the v5 request keyspace), with Cassandra's
// messages when there is neither or they do not exist.

#include <optional>
#include <string>
#include <string_view>

#include "cql/ast.h"
#include "schema/schema.h"
#include "schema/table_metadata.h"

namespace sibyl::query {

// The message when no keyspace is given and none is set with USE.
inline constexpr std::string_view kNoKeyspaceMessage =
    "No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename";

// The keyspace `name` is in. Throws CqlError(kInvalid, kNoKeyspaceMessage)
// when it names none and there is no session keyspace.
[[nodiscard]] std::string ResolveKeyspace(const cql::QualifiedName& name,
                                          std::optional<std::string_view> session_keyspace);

// The table or materialized view `name` refers to in `schema` (callers that
// write check TableMetadata::is_view()). Throws CqlError(kInvalid):
// kNoKeyspaceMessage, "keyspace ks does not exist", "table t does not exist".
[[nodiscard]] schema::TablePtr ResolveTable(const cql::QualifiedName& name,
                                            const schema::Schema& schema,
                                            std::optional<std::string_view> session_keyspace);

}  // namespace sibyl::query
